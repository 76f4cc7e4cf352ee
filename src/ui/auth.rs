//! Signing in to a protected server (MCP authorization), in the session chunk: reached only
//! through `lazy`'s `session_connect` and the session panels (the sign-in bar and the steps
//! view are their first parts), so none of it is in the first paint's download. The sign-in
//! client fields are plain settings, in the connection bar.
//!
//! The flow: a connect goes out with `ClientConfig::auth` set to this server's `OAuth` (unless
//! the person typed a token of their own). When the server refuses (401, or 403 asking for
//! more scope) the connection bar offers "Sign in"; its click opens a blank popup (a click may
//! open one), `OAuth::start` discovers and registers, the popup goes to the authorization
//! URL, and the authorization server sends it back to `callback.html` (same origin), which
//! posts the redirect URL to this page (target origin: its own) and closes. The page takes it
//! only from its own origin and from that popup, `OAuth::finish` checks `state` and exchanges
//! the code, and the connect runs again with the token. Tokens stay in the `OAuth` (memory):
//! never in storage, the address, the console, the wire log or curl.

use super::{use_connection, Connection, Identity, SignIn};
use crate::client::auth::{AuthLogEntry, ClientChoice, OAuth, OAuthSettings};
use crate::client::ClientConfig;
use crate::protocol::auth::messages::check_metadata_document_url;
use crate::protocol::auth::AuthStep;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// One server's sign-in.
struct Entry {
    oauth: OAuth,
    /// What the `OAuth` was made for: server URL, client id, client secret, machine mode.
    made_for: (String, String, String, bool),
    /// The last connect's configuration (with `auth` set), for the connect after sign-in.
    config: ClientConfig,
    known_handshake: RwSignal<bool>,
    connection: Connection,
    /// The popup an authorization was sent to.
    popup: Option<web_sys::Window>,
}

thread_local! {
    /// Each server's sign-in, by the connection's id.
    static ENTRIES: RefCell<HashMap<String, Entry>> = RefCell::default();
    static LISTENING: Cell<bool> = const { Cell::new(false) };
}

/// The key the callback page posts the redirect URL under.
const CALLBACK_KEY: &str = "mcpLensCallback";

fn oauth_of(connection: Connection) -> Option<OAuth> {
    let id = connection.id.get_value();
    ENTRIES.with(|entries| entries.borrow().get(&id).map(|entry| entry.oauth.clone()))
}

/// `callback.html` beside the page.
fn redirect_uri() -> String {
    let href = web_sys::window()
        .and_then(|window| window.location().href().ok())
        .unwrap_or_default();
    web_sys::Url::new_with_base("callback.html", &href)
        .map(|url| url.href())
        .unwrap_or_default()
}

/// The Client ID Metadata Document URL the build named (`MCP_LENS_PUBLIC_URL`, see
/// scripts/client-metadata.mjs): the client id where an authorization server supports such
/// documents. None without it (or not https): registration instead.
fn metadata_document_url() -> Option<String> {
    let url = web_sys::window()?
        .document()?
        .query_selector(r#"meta[name="mcp-lens-client-id"]"#)
        .ok()??
        .get_attribute("content")?;
    check_metadata_document_url(&url).ok().map(|()| url)
}

/// The configuration a connect goes out with: this server's `OAuth` in `auth` (kept while the
/// server URL and the client identity stay the same, so its tokens and registration do too).
pub(super) fn prepare(
    connection: Connection,
    mut config: ClientConfig,
    identity: Identity,
    known_handshake: RwSignal<bool>,
) -> ClientConfig {
    let id = connection.id.get_value();
    if config.bearer_token.is_some() {
        // The person's own token: no sign-in.
        ENTRIES.with(|entries| entries.borrow_mut().remove(&id));
        set_sign_in(connection, SignIn::Idle);
        connection.auth_log.update(|n| *n += 1);
        return config;
    }
    let made_for = (
        config.url.clone(),
        identity.client_id.trim().to_owned(),
        identity.client_secret.trim().to_owned(),
        identity.machine,
    );
    ENTRIES.with(|entries| {
        let mut entries = entries.borrow_mut();
        let kept = entries
            .get(&id)
            .filter(|entry| entry.made_for == made_for)
            .map(|entry| entry.oauth.clone());
        let oauth = kept.unwrap_or_else(|| {
            let client = if made_for.1.is_empty() {
                ClientChoice::automatic(metadata_document_url())
            } else {
                ClientChoice::Preregistered {
                    client_id: made_for.1.clone(),
                    client_secret: Some(made_for.2.clone()).filter(|s| !s.is_empty()),
                }
            };
            let oauth = OAuth::browser(OAuthSettings::new(&config.url, &redirect_uri(), client));
            oauth.on_log(move |entry| {
                connection.auth_log.update(|n| *n += 1);
                // A refusal of any request (a tool call's 403 asking for more scope, say)
                // offers "Sign in" at once; but not over a sign-in in progress (the old
                // session's requests may still be refused until it finishes).
                let signing_in = connection.sign_in.with_untracked(|s| *s == SignIn::Waiting);
                if entry.step == AuthStep::Challenge && !signing_in {
                    if let Some(reason) = oauth_of(connection).and_then(|o| needed_reason(&o)) {
                        set_sign_in(connection, SignIn::Needed(reason));
                    }
                }
            });
            set_sign_in(connection, SignIn::Idle);
            oauth
        });
        config.auth = Some(oauth.clone());
        entries.insert(
            id,
            Entry {
                oauth,
                made_for,
                config: config.clone(),
                known_handshake,
                connection,
                popup: None,
            },
        );
    });
    connection.auth_log.update(|n| *n += 1);
    config
}

/// After a connect settled: offer "Sign in" when the server refused for want of it.
/// (Also when connected: a server may accept `initialize` and refuse what follows.)
pub(super) fn after_connect(connection: Connection) {
    let Some(oauth) = oauth_of(connection) else {
        return;
    };
    let next = if let Some(reason) = needed_reason(&oauth) {
        // A sign-in in progress stands: a connect started before it settles refused, and the
        // sign-in connects again when it finishes. Offering "Sign in" over it would start a
        // second authorization whose window replaces the first one's.
        if connection.sign_in.with_untracked(|s| *s == SignIn::Waiting) {
            return;
        }
        SignIn::Needed(reason)
    } else if oauth.is_signed_in() {
        SignIn::SignedIn
    } else {
        SignIn::Idle
    };
    set_sign_in(connection, next);
}

/// Changes the sign-in state only when it changes (the bar is drawn anew on every set, and a
/// button drawn anew under the person's pointer loses their click).
fn set_sign_in(connection: Connection, next: SignIn) {
    if connection.sign_in.with_untracked(|now| *now != next) {
        connection.sign_in.set(next);
    }
}

/// Why the server wants a (new) sign-in, if it does.
fn needed_reason(oauth: &OAuth) -> Option<String> {
    if !oauth.needs_authorization() {
        return None;
    }
    let refusal = oauth.refusal();
    let status = refusal.as_ref().map_or(401, |r| r.status);
    let scope = refusal
        .and_then(|r| r.challenge)
        .and_then(|c| c.scope)
        .map(|scope| format!(" (scope: {scope})"))
        .unwrap_or_default();
    Some(if status == 403 {
        format!("The server answered 403: it asks for more permissions{scope}. Sign in again to grant them.")
    } else {
        format!("The server answered {status}: it wants you to sign in{scope}.")
    })
}

/// Machine to machine: a token by the client credentials grant, then the connect again.
fn sign_in_as_client(connection: Connection) {
    let id = connection.id.get_value();
    let Some((oauth, config, known_handshake)) = ENTRIES.with(|entries| {
        entries
            .borrow()
            .get(&id)
            .map(|e| (e.oauth.clone(), e.config.clone(), e.known_handshake))
    }) else {
        return;
    };
    set_sign_in(connection, SignIn::Waiting);
    spawn_local(async move {
        match oauth.client_credentials(None).await {
            Ok(()) => {
                set_sign_in(connection, SignIn::SignedIn);
                connection.connect_now(config, known_handshake);
            }
            Err(error) => set_sign_in(connection, SignIn::Needed(error.to_string())),
        }
    });
}

/// Starts an authorization and sends `popup` to it.
pub(super) fn sign_in(connection: Connection, popup: Option<web_sys::Window>) {
    let Some(oauth) = oauth_of(connection) else {
        set_sign_in(
            connection,
            SignIn::Needed(
                "Connect first: signing in starts from the server's refusal.".to_owned(),
            ),
        );
        return;
    };
    let Some(popup) = popup else {
        set_sign_in(connection, SignIn::Needed(
            "The browser blocked the sign-in window. Allow pop-ups for this page, then click Sign in again \
             (signing in within this tab is not supported yet)."
                .to_owned(),
        ));
        return;
    };
    listen_for_callbacks();
    set_sign_in(connection, SignIn::Waiting);
    let id = connection.id.get_value();
    spawn_local(async move {
        match oauth.start().await {
            Ok(authorize) => {
                if popup.closed().unwrap_or(true) {
                    set_sign_in(connection, SignIn::Needed(
                        "The sign-in window was closed before the authorization page opened. Click Sign in again."
                            .to_owned(),
                    ));
                    return;
                }
                let _ = popup.location().set_href(&authorize.url);
                ENTRIES.with(|entries| {
                    if let Some(entry) = entries.borrow_mut().get_mut(&id) {
                        entry.popup = Some(popup);
                    }
                });
            }
            Err(error) => {
                let _ = popup.close();
                set_sign_in(connection, SignIn::Needed(error.to_string()));
            }
        }
    });
}

/// Ends the session, then forgets the tokens (the registration stays): the DELETE that ends
/// the session still carries the token, so the server accepts it (sent after the tokens were
/// forgotten, it was refused 401, the session stayed open on the server, and the refusal
/// offered "Sign in" at once).
pub(super) fn sign_out(connection: Connection) {
    let oauth = oauth_of(connection);
    set_sign_in(connection, SignIn::Idle);
    connection.disconnect_then(move || {
        if let Some(oauth) = oauth {
            oauth.sign_out();
        }
    });
}

/// One listener for every server: `callback.html` posts the redirect URL to its opener.
fn listen_for_callbacks() {
    if LISTENING.with(|listening| listening.replace(true)) {
        return;
    }
    let Some(window) = web_sys::window() else {
        return;
    };
    let handler = Closure::<dyn Fn(web_sys::MessageEvent)>::new(on_message);
    let _ = window.add_event_listener_with_callback("message", handler.as_ref().unchecked_ref());
    handler.forget(); // lives as long as the page
}

fn on_message(event: web_sys::MessageEvent) {
    let Some(window) = web_sys::window() else {
        return;
    };
    // Only from this page's own origin, and only from the popup an authorization went to.
    if Some(event.origin()) != window.location().origin().ok() {
        return;
    }
    let Some(redirect) = js_sys::Reflect::get(&event.data(), &CALLBACK_KEY.into())
        .ok()
        .and_then(|value| value.as_string())
    else {
        return;
    };
    let Some(source) = event.source() else {
        return;
    };
    let found = ENTRIES.with(|entries| {
        entries.borrow_mut().values_mut().find_map(|entry| {
            let from_popup = entry
                .popup
                .as_ref()
                .is_some_and(|popup| js_sys::Object::is(&source, popup));
            from_popup.then(|| {
                let popup = entry.popup.take();
                (
                    entry.oauth.clone(),
                    entry.connection,
                    entry.config.clone(),
                    entry.known_handshake,
                    popup,
                )
            })
        })
    });
    let Some((oauth, connection, config, known_handshake, popup)) = found else {
        return;
    };
    if let Some(popup) = popup {
        let _ = popup.close();
    }
    set_sign_in(connection, SignIn::Waiting);
    spawn_local(async move {
        match oauth.finish(&redirect).await {
            Ok(()) => {
                set_sign_in(connection, SignIn::SignedIn);
                connection.connect_now(config, known_handshake);
            }
            Err(error) => set_sign_in(connection, SignIn::Needed(error.to_string())),
        }
    });
}

/// The sign-in bar, first of the session panels: why the server wants a sign-in and "Sign in",
/// or "Sign out". The popup is opened by the click itself (a browser blocks one opened
/// later), blank until `OAuth::start` knows the authorization URL.
pub(super) fn sign_in_bar() -> AnyView {
    let connection = use_connection();
    // The embed view has no settings: there, signing in is always through the window.
    let machine = use_context::<super::servers::Settings>().map(|s| s.client_credentials);
    let open = move |_| {
        if machine.is_some_and(|m| m.get_untracked()) {
            sign_in_as_client(connection);
            return;
        }
        let popup = web_sys::window().and_then(|window| {
            window
                // A new window each time: a named one still closing from the last sign-in
                // would be reused, and the click would seem to do nothing.
                .open_with_url_and_target_and_features("", "_blank", "popup,width=520,height=700")
                .ok()
                .flatten()
        });
        sign_in(connection, popup);
    };
    (move || match connection.sign_in.get() {
        SignIn::Idle => None,
        SignIn::Needed(reason) => Some(view! {
            <p id="sign-in-bar" class="sign-in">
                <span id="sign-in-reason">{reason}</span>
                <button id="sign-in" type="button" on:click=open>"Sign in"</button>
            </p>
        }.into_any()),
        SignIn::Waiting => Some(view! {
            <p id="sign-in-bar" class="sign-in">
                <span id="sign-in-reason">"Signing in… (finish in the sign-in window)"</span>
                <button id="sign-in" type="button" class="secondary" on:click=open>"Start again"</button>
            </p>
        }.into_any()),
        SignIn::SignedIn => Some(view! {
            <p id="sign-in-bar" class="sign-in">
                <span id="sign-in-reason">"Signed in."</span>
                <button id="sign-out" type="button" class="secondary" on:click=move |_| sign_out(connection)>"Sign out"</button>
            </p>
        }.into_any()),
    })
    .into_any()
}

/// The sign-in steps of the server in view: each request and answer (secrets redacted), what
/// was decided, and a failed step's sentence with its fix.
#[component]
pub fn AuthView() -> impl IntoView {
    let connection = use_connection();
    // No memo of its own: a view made while its Suspend's owner is being replaced (a connect
    // sets the status again) must read only the connection's signals, which outlive it.
    move || {
        connection.auth_log.track();
        let steps = oauth_of(connection)
            .map(|oauth| oauth.log())
            .unwrap_or_default();
        (!steps.is_empty()).then(|| {
            view! {
                <details id="auth-view" class="auth-view" open>
                    <summary>{format!("Sign-in steps ({})", steps.len())}</summary>
                    <ol class="auth-steps">{steps.into_iter().map(step_view).collect_view()}</ol>
                </details>
            }
        })
    }
}

fn step_view(entry: AuthLogEntry) -> impl IntoView {
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
