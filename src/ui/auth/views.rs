//! The sign-in bar, the sign-in client's settings fields and the steps view.

use super::connect::*;
use super::entries::*;
use super::flows::*;
use super::same_tab::*;
use crate::client::auth::{AuthLogEntry, NextStep};
use crate::ui::servers::Settings;
use crate::ui::store::{use_connection, Connection, SignIn};
use leptos::prelude::*;

/// The sign-in bar, first of the session panels: why the server wants a sign-in and "Sign in",
/// or "Sign out". The popup is opened by the click itself (a browser blocks one opened
/// later), blank until `OAuth::start` knows the authorization URL.
pub(in crate::ui) fn sign_in_bar() -> AnyView {
    let connection = use_connection();
    let settings = use_context::<Settings>();
    let same_tab = move || with_entry(connection, |e| e.same_tab).unwrap_or(false);
    let open = move |_| {
        let gate = gate_of(connection);
        let step_by_step = gate.is_stepping();
        if step_by_step {
            gate.stop(); // a sign-in still waiting at a step ends here
            stepping(connection, |s| s.focus_next = true);
            gate.set_stepping(true); // and this one waits at each step
        }
        // (The embed view has no settings: there, signing in is always through the window.)
        if signs_in_without_window(connection) {
            sign_in_as_client(connection);
            return;
        }
        if step_by_step {
            sign_in_step_by_step(connection, settings);
            return;
        }
        sign_in(connection, open_window(), settings);
    };
    // The embed view (no settings) signs in only where the deployment allows it: any page may
    // frame a widget, and an authorization server may approve a known client at once.
    let embedded_without_sign_in =
        settings.is_none() && !crate::ui::address::EmbedAllow::of_page().sign_in;
    (move || match connection.sign_in().get() {
        SignIn::Idle => None,
        SignIn::Needed(reason) if embedded_without_sign_in => Some(view! {
            <p id="sign-in-bar" class="sign-in">
                <span id="sign-in-reason">{reason}</span>
                <span id="sign-in-off" class="muted">
                    " Signing in is off in widgets on this site: use \"Open in mcp-lens\" to sign in there."
                </span>
            </p>
        }.into_any()),
        SignIn::Needed(reason) => Some(view! {
            <p id="sign-in-bar" class="sign-in">
                <span id="sign-in-reason">{reason}</span>
                <button id="sign-in" type="button" on:click=open>"Sign in"</button>
                {same_tab().then(|| view! {
                    <button id="sign-in-here" type="button" class="secondary" on:click=move |_| sign_in_here(connection, settings)>
                        "Sign in in this tab"
                    </button>
                })}
                {step_by_step_box(connection)}
            </p>
        }.into_any()),
        SignIn::Confirm { reason, issuer } => {
            let confirm = {
                let issuer = issuer.clone();
                move |ev| {
                    confirm_issuer(connection, &issuer);
                    if let Some(settings) = settings {
                        settings.client_issuer.set(issuer.clone());
                    }
                    open(ev);
                }
            };
            Some(view! {
                <p id="sign-in-bar" class="sign-in">
                    <span id="sign-in-reason">{reason}</span>
                    <button id="confirm-issuer" type="button" on:click=confirm>
                        {format!("Use it with {issuer}")}
                    </button>
                </p>
            }.into_any())
        }
        SignIn::Waiting => Some(view! {
            <p id="sign-in-bar" class="sign-in">
                <span id="sign-in-reason">{if gate_of(connection).is_stepping() {
                    "Signing in step by step… (each request waits for you in the sign-in steps below)"
                } else if signs_in_without_window(connection) {
                    "Signing in…"
                } else if same_tab() {
                    "Signing in… (in this tab)"
                } else {
                    "Signing in… (finish in the sign-in window)"
                }}</span>
                <button id="sign-in" type="button" class="secondary" on:click=open>"Start again"</button>
                {step_by_step_box(connection)}
            </p>
        }.into_any()),
        SignIn::SignedIn => Some(view! {
            <p id="sign-in-bar" class="sign-in">
                <span id="sign-in-reason">"Signed in."</span>
                <button id="sign-out" type="button" class="secondary" on:click=move |_| sign_out(connection)>"Sign out"</button>
                {step_by_step_box(connection)}
            </p>
        }.into_any()),
    })
    .into_any()
}

/// The sign-in client settings (in the connection bar's settings): a pre-registered client id
/// (not a secret: saved) and its secret (kept like the token) or private key, machine to
/// machine, and cross-app access; empty = automatic. In the session chunk, as only a server
/// that asks to sign in needs them.
#[component]
pub fn SignInClient() -> impl IntoView {
    let crate::ui::servers::Settings {
        client_id,
        client_issuer,
        client_secret,
        client_credentials,
        private_key,
        xaa_token_endpoint,
        xaa_client_id,
        xaa_id_token,
        workload_jwt,
        ..
    } = expect_context::<crate::ui::servers::Settings>();
    view! {
        // The sign-in client (for servers that ask to sign in): a pre-registered client id
        // (not a secret: saved) and its secret (kept like the token), or automatic.
        <fieldset class="field sign-in-client">
            <legend>"Sign-in client (for servers that ask you to sign in)"</legend>
            <input id="oauth-client-id" placeholder="Client id: empty = automatic (registration)" autocomplete="off"
                aria-label="Pre-registered client id" prop:value=move || client_id.get()
                on:input=move |ev| client_id.set(event_target_value(&ev))/>
            <input id="oauth-client-issuer" placeholder="Authorization server (issuer) the secret or key is for: empty = asked at the first sign-in"
                autocomplete="off" aria-label="Authorization server the secret or key is for" prop:value=move || client_issuer.get()
                on:input=move |ev| client_issuer.set(event_target_value(&ev))/>
            <input id="oauth-client-secret" type="password" placeholder="Client secret (optional)" autocomplete="off"
                aria-label="Client secret" prop:value=move || client_secret.get()
                on:input=move |ev| client_secret.set(event_target_value(&ev))/>
            // A PEM block is many lines; masked like the header values.
            <textarea id="oauth-private-key" class="headers masked" rows="1" autocomplete="off" spellcheck="false"
                placeholder="Private key (PKCS #8 PEM) for private_key_jwt, instead of a secret (optional)"
                aria-label="Private key for private_key_jwt" prop:value=move || private_key.get()
                on:input=move |ev| private_key.set(event_target_value(&ev))></textarea>
            <label class="checkbox">
                <input id="oauth-client-credentials" type="checkbox" prop:checked=move || client_credentials.get()
                    on:change=move |ev| client_credentials.set(event_target_checked(&ev))/>
                " Machine to machine: get the token with the client id and its secret or key (client credentials), no sign-in window"
            </label>
            <details id="cross-app" class="cross-app">
                <summary>"Cross-app access (an ID token from your company's identity provider)"</summary>
                <p class="hint">
                    "Sign in exchanges the ID token at your identity provider for an identity assertion (RFC 8693),                          then that for a token at the server's authorization server (SEP-990), as the client above;                          no sign-in window. The key, ID token and secrets stay in this tab's memory."
                </p>
                <input id="xaa-token-endpoint" type="url" placeholder="Identity provider's token endpoint, e.g. https://idp.example.com/oauth/token"
                    autocomplete="off" aria-label="Identity provider token endpoint" prop:value=move || xaa_token_endpoint.get()
                    on:input=move |ev| xaa_token_endpoint.set(event_target_value(&ev))/>
                <input id="xaa-client-id" placeholder="This app's client id at the identity provider" autocomplete="off"
                    aria-label="Client id at the identity provider" prop:value=move || xaa_client_id.get()
                    on:input=move |ev| xaa_client_id.set(event_target_value(&ev))/>
                <input id="xaa-id-token" type="password" placeholder="ID token (a JWT the identity provider issued you)" autocomplete="off"
                    aria-label="ID token" prop:value=move || xaa_id_token.get()
                    on:input=move |ev| xaa_id_token.set(event_target_value(&ev))/>
            </details>
            <details id="workload" class="cross-app">
                <summary>"Workload identity (a JWT from your workload's platform)"</summary>
                <p class="hint">
                    "Sign in sends this JWT to the server's authorization server as the assertion of the JWT bearer grant (RFC 7523, SEP-1933), with the client id above if you gave one; no sign-in window. A refused JWT is not sent again and no other sign-in is tried. It stays in this tab's memory."
                </p>
                <textarea id="wif-jwt" class="headers masked" rows="1" autocomplete="off" spellcheck="false"
                    placeholder="Workload JWT (Kubernetes service account, SPIFFE, a cloud's identity token)"
                    aria-label="Workload JWT" prop:value=move || workload_jwt.get()
                    on:input=move |ev| workload_jwt.set(event_target_value(&ev))></textarea>
            </details>
        </fieldset>
    }
}

/// The sign-in steps of the server in view: each request and answer (secrets redacted), what
/// was decided, and a failed step's sentence with its fix.
#[component]
pub fn AuthView() -> impl IntoView {
    let connection = use_connection();
    // No memo of its own: a view made while its Suspend's owner is being replaced (a connect
    // sets the status again) must read only the connection's signals, which outlive it.
    move || {
        connection.auth_log().track();
        let steps = oauth_of(connection)
            .map(|oauth| oauth.log())
            .unwrap_or_default();
        let waiting = stepping(connection, |s| s.gate.waiting()).flatten();
        (!steps.is_empty() || waiting.is_some()).then(|| {
            view! {
                <details id="auth-view" class="auth-view" open>
                    <summary>{format!("Sign-in steps ({})", steps.len())}</summary>
                    <ol class="auth-steps">
                        {steps.into_iter().map(step_view).collect_view()}
                        {waiting.map(|next| waiting_view(connection, next))}
                    </ol>
                </details>
            }
        })
    }
}

pub(super) fn step_view(entry: AuthLogEntry) -> impl IntoView {
    let request = entry
        .method
        .zip(entry.url)
        .map(|(method, url)| format!("{method} {url}"));
    let status = entry.status.map(|status| format!("HTTP {status}"));
    view! {
        <li class="auth-step" class:failed=entry.failed data-step=format!("{:?}", entry.step)>
            <span class="auth-step-name">{entry.step.describe()}</span>
            {request.map(|request| view! { <code class="auth-request">{request}</code> })}
            {status.map(|status| view! { <span class="auth-status">{status}</span> })}
            <p class="auth-note">{if entry.failed { "Failed: " } else { "" }}{entry.note}</p>
            {entry.sent.map(|sent| view! { <details><summary>"Sent"</summary><pre>{sent}</pre></details> })}
            {entry.received.map(|received| view! { <details><summary>"Received"</summary><pre>{received}</pre></details> })}
        </li>
    }
}

/// The step waiting for the person (step by step): the request it will send, why, and
/// "Next step", "Run the rest" and "Stop". Server text (URLs, the reason, the body) is text.
pub(super) fn waiting_view(connection: Connection, next: NextStep) -> AnyView {
    view! {
        <li id="auth-waiting" class="auth-step" data-step=format!("{:?}", next.step)>
            <span id="auth-waiting-name" class="auth-step-name">{format!("Waiting for you: {}", next.step.describe())}</span>
            <code class="auth-request">{format!("{} {}", next.method, next.url)}</code>
            <p class="auth-note">{next.why}</p>
            {next.sent.map(|sent| view! { <details open><summary>"Will send"</summary><pre>{sent}</pre></details> })}
            <p class="sign-in">
                <button id="auth-next" type="button" aria-describedby="auth-waiting-name"
                    on:click=move |_| release(connection, false)>"Next step"</button>
                <button id="auth-run-rest" type="button" class="secondary"
                    on:click=move |_| release(connection, true)>"Run the rest"</button>
                <button id="auth-stop" type="button" class="secondary"
                    on:click=move |_| stop(connection)>"Stop"</button>
            </p>
        </li>
    }
    .into_any()
}
