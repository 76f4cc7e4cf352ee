//! Signing in to a protected server (MCP authorization), in the session chunk: reached only
//! through `lazy`'s `session_connect` and the session panels (the sign-in bar and the steps
//! view are their first parts), so none of it is in the first paint's download. The sign-in
//! client fields (`SignInClient`) are drawn in the Settings panel, their values `Settings`
//! signals.
//!
//! The flow: a connect goes out with `ClientConfig::auth` set to this server's `OAuth` (unless
//! the person typed a token of their own). When the server refuses (401, or 403 asking for
//! more scope) the connection bar offers "Sign in"; its click opens a blank popup (a click may
//! open one), `OAuth::start` discovers and registers, the popup goes to the authorization
//! URL, and the authorization server sends it back to `callback.html` (same origin), which
//! posts the redirect URL to this page (target origin: its own) and closes. The page takes it
//! only from its own origin and from that popup, `OAuth::finish` checks `state` and exchanges
//! the code, and the connect runs again with the token. When the browser blocks the popup,
//! "Sign in in this tab" keeps the authorization in progress in the tab's sessionStorage
//! (`PENDING_KEY`) and sends the tab itself to the authorization URL; `callback.html` hands
//! the redirect back through the same entry and returns to `index.html`, where
//! `resume_in_this_tab` (run from the session chunk right after the first paint) deletes the
//! entry, resumes and connects. Machine to machine and cross-app
//! access get the token with no popup. Tokens stay in the `OAuth` (memory), and in the tab's
//! sessionStorage only when the person ticked "Remember": never in localStorage, the
//! address, the console, the wire log or curl.
//!
//! Step by step (the "Step by step" box beside Sign in, per server, kept in the page's memory
//! only: a reload signs in automatically again): the server's `OAuth` has this server's
//! `StepGate`, which holds each request of a sign-in (and of a later refresh) until the
//! person clicks "Next step" or "Run the rest" in the steps view, or "Stop". The sign-in window
//! is opened by the click that lets the authorization redirect go (a browser blocks one
//! opened later), so it does not cover the page while the person steps through discovery.

use super::servers::{session_storage, Servers, Settings, TOKENS_KEY};
use super::{use_connection, Connection, Identity, SignIn};
use crate::client::auth::{
    AuthLogEntry, ClientChoice, CrossApp, NextStep, OAuth, OAuthSettings, PendingSignIn, SavedFlow,
    StepGate, Workload,
};
use crate::client::config::parse_header_lines;
use crate::client::ClientConfig;
use crate::protocol::auth::messages::Tokens;
use crate::protocol::auth::messages::{check_metadata_document_url, Callback};
use crate::protocol::auth::{AuthError, AuthErrorKind, AuthStep};
use crate::protocol::transport_choice::origin_of;
use crate::protocol::wire_log::{url_has_credentials, WireEntry};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// One server's sign-in.
struct Entry {
    oauth: OAuth,
    /// What the `OAuth` was made for: the server URL and the client identity.
    made_for: (String, Identity),
    /// The last connect's configuration (with `auth` set), for the connect after sign-in.
    config: ClientConfig,
    known_handshake: RwSignal<bool>,
    connection: Connection,
    /// The popup an authorization was sent to.
    popup: Option<web_sys::Window>,
    /// "Remember in this tab" was ticked at the last connect: tokens go to sessionStorage.
    remember: bool,
    /// The browser blocked the sign-in window: the bar offers signing in within this tab.
    same_tab: bool,
}

thread_local! {
    /// Each server's sign-in, by the connection's id.
    static ENTRIES: RefCell<HashMap<String, Entry>> = RefCell::default();
    static LISTENING: Cell<bool> = const { Cell::new(false) };
    /// Each server's step-by-step state, by the connection's id (outlives its `OAuth`s).
    static STEPPING: RefCell<HashMap<String, Stepping>> = RefCell::default();
}

/// One server's step by step.
#[derive(Default)]
struct Stepping {
    gate: StepGate,
    /// Sign-ins started: a sign-in replaced by a newer one ("Start again") says nothing.
    attempt: u64,
    /// A window sign-in is finding its authorization URL: the click that lets it go opens
    /// the window.
    window_due: bool,
    /// The window that click opened, blank until the URL is known.
    popup: Option<web_sys::Window>,
    /// The person's click leads to the next step waiting: its "Next step" takes the focus.
    focus_next: bool,
}

/// This server's step gate (made with its first `OAuth`; a change of the step waiting
/// redraws the steps view, and after the person's click gives "Next step" the focus).
fn gate_of(connection: Connection) -> StepGate {
    let id = connection.id.get_value();
    STEPPING.with(|all| {
        let mut all = all.borrow_mut();
        let made = all.entry(id).or_insert_with(|| {
            let gate = StepGate::new();
            gate.on_change(move || {
                connection.auth_log.update(|n| *n += 1);
                if stepping(connection, |s| s.focus_next) == Some(true) {
                    // Once the steps view is redrawn (a timer runs after it).
                    set_timeout(
                        move || {
                            if let Some(button) = document().get_element_by_id("auth-next") {
                                stepping(connection, |s| s.focus_next = false);
                                let _ = button.unchecked_into::<web_sys::HtmlElement>().focus();
                            }
                        },
                        std::time::Duration::ZERO,
                    );
                }
            });
            Stepping {
                gate,
                ..Stepping::default()
            }
        });
        made.gate.clone()
    })
}

/// Changes this server's step-by-step state; gives what `change` gives.
fn stepping<T>(connection: Connection, change: impl FnOnce(&mut Stepping) -> T) -> Option<T> {
    let id = connection.id.get_value();
    STEPPING.with(|stepping| stepping.borrow_mut().get_mut(&id).map(change))
}

/// A new sign-in of this server: its number (see [`is_current`]).
fn next_attempt(connection: Connection) -> u64 {
    gate_of(connection);
    stepping(connection, |s| {
        s.attempt += 1;
        s.attempt
    })
    .unwrap_or_default()
}

/// Whether sign-in `attempt` is still this server's latest.
fn is_current(connection: Connection, attempt: u64) -> bool {
    stepping(connection, |s| s.attempt == attempt).unwrap_or(false)
}

/// The key the callback page posts the redirect URL under.
const CALLBACK_KEY: &str = "mcpLensCallback";
/// The `BroadcastChannel` `callback.html` sends the redirect on (`src/callback/callback.js`).
const CALLBACK_CHANNEL: &str = "mcp-lens.sign-in";

/// The sign-in this tab left for (pop-ups blocked), in sessionStorage while the page is away:
/// [`SameTab`]. `callback.js` reads it and adds the redirect under the same key.
const PENDING_KEY: &str = "mcp-lens.sign-in";

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
        forget_connection(connection);
        return config;
    }
    connection.signin.set_value(true);
    let remember = identity.remember;
    let identity = Identity {
        client_id: identity.client_id.trim().to_owned(),
        client_secret: identity.client_secret.trim().to_owned(),
        private_key: identity.private_key.trim().to_owned(),
        remember: false, // not part of what the `OAuth` is for
        ..identity
    };
    let made_for = (config.url.clone(), identity);
    let held = ENTRIES.with(|entries| {
        let mut entries = entries.borrow_mut();
        let kept = entries
            .get(&id)
            .filter(|entry| entry.made_for == made_for)
            .map(|entry| entry.oauth.clone());
        let oauth = kept.unwrap_or_else(|| {
            let identity = &made_for.1;
            let client = if identity.client_id.is_empty() {
                ClientChoice::automatic(metadata_document_url())
            } else {
                let given = |text: &String| Some(text.clone()).filter(|s| !s.is_empty());
                ClientChoice::Preregistered {
                    client_id: identity.client_id.clone(),
                    client_secret: given(&identity.client_secret),
                    private_key: given(&identity.private_key),
                    for_issuer: given(&identity.client_issuer),
                }
            };
            let mut settings = OAuthSettings::new(&config.url, &redirect_uri(), client);
            settings.cross_app = cross_app(&identity.cross_app);
            settings.workload = workload(&identity.workload_jwt);
            let oauth = OAuth::browser(settings);
            oauth.set_stepper(Some(Rc::new(gate_of(connection))));
            oauth.on_log(move |entry| {
                connection.auth_log.update(|n| *n += 1);
                log_on_wire(connection, entry);
                if entry.method.is_some() && !entry.failed && GRANTS.contains(&entry.step) {
                    // The flow holds the new tokens once this step's answer is read: after
                    // this listener returns.
                    spawn_local(async move { remember_tokens(connection) });
                }
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
            if let Some((tokens, flow)) = remembered_tokens(&id, &config.url).filter(|_| remember) {
                oauth.set_tokens(tokens);
                // Discovery and the client kept beside them: a refused token is refreshed
                // rather than signed in again (a flow that no longer fits is said in the steps).
                if let Some(flow) = flow {
                    let _ = oauth.restore(flow);
                }
            }
            set_sign_in(connection, SignIn::Idle);
            oauth
        });
        let held = remember && oauth.is_signed_in();
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
                remember,
                same_tab: false,
            },
        );
        held
    });
    if held {
        // "Remember" ticked after signing in: keep what is held now.
        remember_tokens(connection);
    }
    connection.auth_log.update(|n| *n += 1);
    config
}

/// The steps whose success gives new tokens.
const GRANTS: [AuthStep; 5] = [
    AuthStep::TokenExchange,
    AuthStep::Refresh,
    AuthStep::ClientCredentials,
    AuthStep::AssertionGrant,
    AuthStep::WorkloadGrant,
];

/// What "Remember in this tab" keeps of a signed-in server: its tokens, bound to the origin
/// they were got for, and what discovery found and the client (no secret: a client secret
/// comes back with the settings the tab remembered), so the refresh works after a reload.
#[derive(serde::Serialize, serde::Deserialize)]
struct KeptTokens {
    origin: String,
    access_token: String,
    refresh_token: Option<String>,
    #[serde(default)]
    flow: Option<SavedFlow>,
}

/// Writes the tokens held to sessionStorage when the person asked to remember secrets.
fn remember_tokens(connection: Connection) {
    let id = connection.id.get_value();
    let kept = ENTRIES.with(|entries| {
        let entries = entries.borrow();
        let entry = entries.get(&id).filter(|e| e.remember)?;
        let tokens = entry.oauth.tokens()?;
        Some(KeptTokens {
            origin: origin_of(&entry.made_for.0)?,
            access_token: tokens.access_token().to_owned(),
            refresh_token: tokens.refresh_token().map(str::to_owned),
            flow: entry.oauth.saved_flow(),
        })
    });
    if let (Some(kept), Some(storage)) = (kept, session_storage()) {
        let text = serde_json::to_string(&kept).unwrap_or_default();
        let _ = storage.set_item(&format!("{TOKENS_KEY}{id}"), &text);
    }
}

/// Tokens this tab remembered for this entry, if they were got for `url`'s origin, with the
/// flow they came from.
fn remembered_tokens(id: &str, url: &str) -> Option<(Tokens, Option<SavedFlow>)> {
    let text = session_storage()?
        .get_item(&format!("{TOKENS_KEY}{id}"))
        .ok()??;
    let kept: KeptTokens = serde_json::from_str(&text).ok()?;
    (Some(&kept.origin) == origin_of(url).as_ref()).then(|| {
        (
            Tokens::new(kept.access_token, kept.refresh_token),
            kept.flow,
        )
    })
}

fn forget_tokens(id: &str) {
    if let Some(storage) = session_storage() {
        let _ = storage.remove_item(&format!("{TOKENS_KEY}{id}"));
    }
}

/// An authorization request (with its answer) in the wire log beside the MCP traffic, as
/// redacted as in the steps view.
fn log_on_wire(connection: Connection, entry: &AuthLogEntry) {
    let (Some(method), Some(url)) = (entry.method, entry.url.clone()) else {
        return; // a decision, not a request
    };
    let id = connection.id.get_value();
    let server = ENTRIES.with(|entries| {
        entries
            .borrow()
            .get(&id)
            .map(|e| e.config.name.clone())
            .unwrap_or_default()
    });
    let wire = WireEntry {
        http_status: entry.status,
        body: entry.sent.clone().unwrap_or_default(),
        failure: entry.failed.then(|| entry.note.clone()),
        response_body: entry.received.clone(),
        ..WireEntry::auth(
            server,
            entry.at_ms,
            url,
            format!("{method} {}", entry.step.label()),
        )
    };
    connection.wire.update(|log| log.push(wire));
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

/// Cross-app access, when the person filled in its fields (endpoint, client id, ID token).
fn cross_app(fields: &[String; 3]) -> Option<CrossApp> {
    let [endpoint, idp_client_id, id_token] = fields.clone().map(|f| f.trim().to_owned());
    (!endpoint.is_empty() || !id_token.is_empty()).then_some(CrossApp {
        idp_token_endpoint: endpoint,
        idp_client_id,
        idp_client_secret: None,
        id_token,
    })
}

/// Workload identity, when the person pasted a workload JWT.
fn workload(jwt: &str) -> Option<Workload> {
    let jwt = jwt.trim();
    (!jwt.is_empty()).then(|| Workload {
        jwt: jwt.to_owned(),
    })
}

/// Whether this server's sign-in needs no window: the client credentials grant (machine to
/// machine), cross-app access (an ID token the person gave) or a workload JWT.
fn signs_in_without_window(connection: Connection) -> bool {
    let id = connection.id.get_value();
    ENTRIES.with(|entries| {
        entries.borrow().get(&id).is_some_and(|e| {
            let identity = &e.made_for.1;
            identity.machine
                || cross_app(&identity.cross_app).is_some()
                || workload(&identity.workload_jwt).is_some()
        })
    })
}

/// No window: a token by cross-app access or the client credentials grant, then the
/// connect again.
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
    let attempt = next_attempt(connection);
    spawn_local(async move {
        let outcome = if oauth.settings().workload.is_some() {
            oauth.workload_identity(None).await
        } else if oauth.settings().cross_app.is_some() {
            oauth.cross_app_access(None).await
        } else {
            oauth.client_credentials(None).await
        };
        if !is_current(connection, attempt) {
            return; // "Start again" replaced it
        }
        match outcome {
            Ok(()) => {
                set_sign_in(connection, SignIn::SignedIn);
                connection.connect_now(config, known_handshake);
            }
            Err(error) => set_sign_in(connection, needed(&error)),
        }
    });
}

/// Starts an authorization and sends `popup` to it. `settings` are the full app's (the embed
/// view has none, and cannot sign in within its tab).
pub(super) fn sign_in(
    connection: Connection,
    popup: Option<web_sys::Window>,
    settings: Option<Settings>,
) {
    let Some(oauth) = oauth_of(connection) else {
        set_sign_in(
            connection,
            SignIn::Needed(
                "Connect first: signing in starts from the server's refusal.".to_owned(),
            ),
        );
        return;
    };
    let id = connection.id.get_value();
    let Some(popup) = popup else {
        let refusal = same_tab_refusal(settings);
        set_same_tab(&id, refusal.is_none());
        set_sign_in(
            connection,
            SignIn::Needed(format!(
                "The browser blocked the sign-in window. {}",
                refusal.unwrap_or(
                    "Allow pop-ups for this page and click Sign in again, or sign in in this tab: \
                     the page goes to the authorization server and comes back to this server, \
                     signed in (other servers' sessions end and the wire log starts again)."
                )
            )),
        );
        return;
    };
    listen_for_callbacks();
    set_same_tab(&id, false);
    set_sign_in(connection, SignIn::Waiting);
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
                set_sign_in(connection, needed(&error));
            }
        }
    });
}

/// Step by step with the sign-in window: `OAuth::start` waits at each request, the click that
/// lets the authorization redirect go (or "Run the rest") opens the window (`release`), and
/// the redirect is sent there once `start` gives it.
fn sign_in_step_by_step(connection: Connection, settings: Option<Settings>) {
    let Some(oauth) = oauth_of(connection) else {
        return sign_in(connection, None, settings); // says to connect first
    };
    listen_for_callbacks();
    set_same_tab(&connection.id.get_value(), false);
    set_sign_in(connection, SignIn::Waiting);
    let attempt = next_attempt(connection);
    stepping(connection, |s| {
        s.window_due = true;
        if let Some(old) = s.popup.take() {
            let _ = old.close();
        }
    });
    let id = connection.id.get_value();
    spawn_local(async move {
        let outcome = oauth.start().await;
        if !is_current(connection, attempt) {
            return; // "Start again" replaced it
        }
        let popup = stepping(connection, |s| {
            s.window_due = false;
            s.popup.take()
        })
        .flatten();
        match (
            outcome,
            popup.filter(|popup| !popup.closed().unwrap_or(true)),
        ) {
            (Ok(authorize), Some(popup)) => {
                let _ = popup.location().set_href(&authorize.url);
                ENTRIES.with(|entries| {
                    if let Some(entry) = entries.borrow_mut().get_mut(&id) {
                        entry.popup = Some(popup);
                    }
                });
            }
            // Blocked (or closed): as without step by step, say so and offer this tab.
            (Ok(_), None) => sign_in(connection, None, settings),
            (Err(error), popup) => {
                if let Some(popup) = popup {
                    let _ = popup.close();
                }
                set_sign_in(connection, needed(&error));
            }
        }
    });
}

/// Whether the bar offers (or does) signing in within this tab for this entry.
fn set_same_tab(id: &str, same_tab: bool) {
    ENTRIES.with(|entries| {
        if let Some(entry) = entries.borrow_mut().get_mut(id) {
            entry.same_tab = same_tab;
        }
    });
}

/// Why this server cannot sign in within this tab, which leaves the page and so its memory
/// (the sentence after "The browser blocked the sign-in window."), if it cannot.
fn same_tab_refusal(settings: Option<Settings>) -> Option<&'static str> {
    let Some(settings) = settings else {
        return Some(
            "Allow pop-ups for this page (or open it in mcp-lens), then click Sign in again.",
        );
    };
    if !settings.private_key.get_untracked().trim().is_empty() {
        return Some(
            "Allow pop-ups for this page, then click Sign in again: the private key is kept only \
             in this page's memory, so a sign-in within this tab, which leaves the page, would lose it.",
        );
    }
    let headers = parse_header_lines(&settings.headers.get_untracked()).unwrap_or_default();
    let forgotten = !settings.client_secret.get_untracked().trim().is_empty()
        || url_has_credentials(&settings.url.get_untracked())
        || headers.iter().any(|(_, value)| !value.is_empty());
    (forgotten && !settings.remember_secrets.get_untracked()).then_some(
        "Allow pop-ups for this page and click Sign in again; or, to sign in within this tab, \
         which leaves the page, first tick \"Remember ... in this tab\" under Settings, so the client \
         secret, custom header values or the credential in the address come back with it.",
    )
}

/// What a sign-in within this tab keeps in sessionStorage ([`PENDING_KEY`]) while the page is
/// away: the server entry to come back to and the authorization in progress (with its PKCE
/// verifier); `callback.js` adds the redirect when its `state` is this one's.
#[derive(serde::Serialize, serde::Deserialize)]
struct SameTab {
    entry: String,
    state: String,
    sign_in: PendingSignIn,
    #[serde(default)]
    redirect: Option<String>,
}

/// Pop-ups blocked: starts an authorization, keeps it in this tab's sessionStorage, and sends
/// the tab to the authorization URL. The authorization server sends it back to
/// `callback.html`, which hands the redirect to the app's page, and `resume_in_this_tab`
/// finishes there.
fn sign_in_here(connection: Connection, settings: Option<Settings>) {
    let Some(oauth) = oauth_of(connection) else {
        return;
    };
    let id = connection.id.get_value();
    // The settings may have changed since the offer (a secret typed, "Remember" unticked).
    if let Some(refusal) = same_tab_refusal(settings) {
        set_same_tab(&id, false);
        set_sign_in(connection, SignIn::Needed(refusal.to_owned()));
        return;
    }
    set_sign_in(connection, SignIn::Waiting);
    spawn_local(async move {
        let outcome = match oauth.start().await {
            Ok(authorize) => leave_for(id, &oauth, &authorize.url),
            Err(error) => Err(error.to_string()),
        };
        if let Err(reason) = outcome {
            set_sign_in(connection, SignIn::Needed(reason));
        }
    });
}

/// "Next step" (`rest` false) or "Run the rest": lets the step waiting go. A click that lets
/// a window sign-in's authorization redirect go opens the window (blank until the URL is known).
fn release(connection: Connection, rest: bool) {
    let gate = gate_of(connection);
    let step = gate.waiting().map(|next| next.step);
    let redirect = rest || step == Some(AuthStep::Authorization);
    if redirect && stepping(connection, |s| s.window_due && s.popup.is_none()) == Some(true) {
        let popup = open_window();
        stepping(connection, |s| s.popup = popup);
    }
    // The focus goes on to the next step's "Next step", if one will wait (after a grant, the
    // flow has ended).
    let focus_next = !rest && !step.is_some_and(|step| GRANTS.contains(&step));
    stepping(connection, |s| s.focus_next = focus_next);
    if rest {
        gate.run_rest();
    } else {
        gate.next();
    }
}

fn stop(connection: Connection) {
    stepping(connection, |s| s.focus_next = false);
    gate_of(connection).stop();
}

/// The "Step by step" box: off lets whatever waits go on by itself.
fn set_step_by_step(connection: Connection, on: bool) {
    if !on {
        release(connection, true);
    }
    gate_of(connection).set_stepping(on);
}

fn step_by_step_box(connection: Connection) -> AnyView {
    view! {
        <label class="checkbox">
            <input id="sign-in-step-by-step" type="checkbox"
                prop:checked=move || {
                    connection.auth_log.track();
                    gate_of(connection).is_stepping()
                }
                on:change=move |ev| set_step_by_step(connection, event_target_checked(&ev))/>
            " Step by step"
        </label>
    }
    .into_any()
}

/// The person's yes to sending the pre-registered secret or key to `issuer`: this flow's
/// `OAuth` sends it there, and the entry counts as made for that issuer, so the next connect
/// keeps the flow (and its tokens) rather than making a new one for the changed setting.
fn confirm_issuer(connection: Connection, issuer: &str) {
    let id = connection.id.get_value();
    ENTRIES.with(|entries| {
        if let Some(entry) = entries.borrow_mut().get_mut(&id) {
            entry.oauth.confirm_issuer(issuer);
            entry.made_for.1.client_issuer = issuer.to_owned();
        }
    });
}

/// What a failed sign-in leaves the bar showing: why, and for a secret or key that waits for
/// the person's word on where it may go, the issuer to confirm.
fn needed(error: &AuthError) -> SignIn {
    match &error.kind {
        AuthErrorKind::ConfirmIssuer { issuer } => SignIn::Confirm {
            reason: error.to_string(),
            issuer: issuer.clone(),
        },
        _ => SignIn::Needed(error.to_string()),
    }
}

/// A new blank sign-in window, opened by the person's click (a browser blocks one opened
/// later). Its `opener` is cut before it leaves for the authorization server, so that server's
/// pages cannot reach this tab (say, send it to a look-alike page); the redirect comes back
/// through `callback.html`'s broadcast instead ([`listen_for_callbacks`]).
fn open_window() -> Option<web_sys::Window> {
    let popup = web_sys::window().and_then(|window| {
        window
            // A new window each time: a named one still closing from the last sign-in
            // would be reused, and the click would seem to do nothing.
            .open_with_url_and_target_and_features("", "_blank", "popup,width=520,height=700")
            .ok()
            .flatten()
    })?;
    // `noopener` would make `open` return no window, which the page needs to send it to the
    // authorization URL once discovery knows it; setting `opener` to null while the window
    // is still this page's blank one has the same effect on every page it loads later.
    let _ = js_sys::Reflect::set(&popup, &"opener".into(), &wasm_bindgen::JsValue::NULL);
    Some(popup)
}

fn leave_for(entry: String, oauth: &OAuth, url: &str) -> Result<(), String> {
    let refused = || {
        "This tab's storage refused to keep the sign-in while the page is away: allow pop-ups \
         for this page and click Sign in again."
            .to_owned()
    };
    let sign_in = oauth.pending_sign_in().ok_or_else(refused)?;
    let kept = SameTab {
        entry,
        state: sign_in.state().to_owned(),
        sign_in,
        redirect: None,
    };
    let text = serde_json::to_string(&kept).map_err(|_| refused())?;
    let storage = session_storage().ok_or_else(refused)?;
    storage
        .set_item(PENDING_KEY, &text)
        .map_err(|_| refused())?;
    when_shown_again();
    let left = web_sys::window().is_some_and(|window| window.location().assign(url).is_ok());
    if !left {
        forget_pending();
        return Err(
            "The page could not go to the authorization page. Click Sign in again.".to_owned(),
        );
    }
    Ok(())
}

fn forget_pending() {
    if let Some(storage) = session_storage() {
        let _ = storage.remove_item(PENDING_KEY);
    }
}

/// The person came back (the Back button) to this very page, kept by the browser, before the
/// sign-in finished: what the tab kept for it goes, and the bar offers the sign-in again.
fn when_shown_again() {
    thread_local! {
        static WATCHING: Cell<bool> = const { Cell::new(false) };
    }
    if WATCHING.with(|watching| watching.replace(true)) {
        return;
    }
    let Some(window) = web_sys::window() else {
        return;
    };
    let handler = Closure::<dyn Fn(web_sys::Event)>::new(|event: web_sys::Event| {
        let restored = js_sys::Reflect::get(&event, &"persisted".into())
            .ok()
            .and_then(|value| value.as_bool())
            .unwrap_or(false);
        if !restored {
            return;
        }
        forget_pending();
        let waiting: Vec<Connection> = ENTRIES.with(|entries| {
            entries
                .borrow()
                .values()
                .filter(|entry| entry.same_tab)
                .map(|entry| entry.connection)
                .collect()
        });
        for connection in waiting {
            if connection.sign_in.with_untracked(|s| *s == SignIn::Waiting) {
                set_sign_in(
                    connection,
                    SignIn::Needed(
                        "The sign-in in this tab was left before it finished. Click Sign in again."
                            .to_owned(),
                    ),
                );
            }
        }
    });
    let _ = window.add_event_listener_with_callback("pageshow", handler.as_ref().unchecked_ref());
    handler.forget(); // lives as long as the page
}

/// At the start of the full app (once the session chunk is here): a sign-in this tab left for
/// comes back. What the tab kept is deleted at once, whatever happens next; its server is
/// selected again, the authorization resumed, the redirect's `state` checked and its code
/// exchanged (`OAuth::resume`, `OAuth::finish`), and the server connected.
/// Whether this tab left for an authorization server and came back (the session chunk asks,
/// then fetches the sign-in chunk only then).
pub(super) fn left_for_sign_in() -> bool {
    session_storage().is_some_and(|storage| storage.get_item(PENDING_KEY).ok().flatten().is_some())
}

/// The server refused a session that had no authorization (a connect, or a request after
/// one): an `OAuth` is made for the last connect's configuration, told of the refusal (its
/// challenge says where to start), and Sign in offered.
pub(super) fn refused(connection: Connection) {
    let Some(last) = connection.last_connect.get_value() else {
        return;
    };
    if last.config.bearer_token.is_some() {
        return; // the person's own token was refused: theirs to change, not a sign-in
    }
    prepare(connection, last.config, last.identity, last.known_handshake);
    if let (Some(oauth), Some((status, challenge))) =
        (oauth_of(connection), connection.refusal.get_value())
    {
        oauth.note_refusal(status, challenge.as_deref());
    }
    after_connect(connection);
}

/// The server's sign-in goes (the person gave a token of their own).
pub(super) fn forget_connection(connection: Connection) {
    let id = connection.id.get_value();
    ENTRIES.with(|entries| entries.borrow_mut().remove(&id));
    connection.signin.set_value(false);
    set_sign_in(connection, SignIn::Idle);
    connection.auth_log.update(|n| *n += 1);
}

pub(super) fn resume_in_this_tab(servers: Servers) {
    let Some(storage) = session_storage() else {
        return;
    };
    let Ok(Some(text)) = storage.get_item(PENDING_KEY) else {
        return;
    };
    let _ = storage.remove_item(PENDING_KEY);
    let Ok(kept) = serde_json::from_str::<SameTab>(&text) else {
        return;
    };
    let Some(entry) = servers.list.with_untracked(|list| {
        list.iter()
            .find(|entry| entry.settings.id.get_value() == kept.entry)
            .copied()
    }) else {
        return;
    };
    servers.selected.set(entry.key);
    // Back without a redirect (the Back button from the authorization server): nothing to
    // finish; the server is in view, and Connect starts again.
    let Some(redirect) = kept.redirect else {
        return;
    };
    let connection = entry.connection;
    let known_handshake = entry.settings.known_handshake;
    let (config, identity) = match super::connection::config_of(entry.settings) {
        Ok(prepared) => prepared,
        Err(reason) => {
            connection.error.set(Some(reason));
            return;
        }
    };
    let config = prepare(connection, config, identity, known_handshake);
    let Some(oauth) = config.auth.clone() else {
        return; // a token of the person's own was typed meanwhile
    };
    if let Err(error) = oauth.resume(kept.sign_in) {
        set_sign_in(connection, needed(&error));
        return;
    }
    set_same_tab(&connection.id.get_value(), true);
    finish(oauth, connection, config, known_handshake, redirect);
}

/// Ends the session, then forgets the tokens (the page's memory and the tab's; the
/// registration stays): the DELETE that ends the session still carries the token, so the
/// server accepts it (sent after the tokens were forgotten, it was refused 401, the session
/// stayed open on the server, and the refusal offered "Sign in" at once).
pub(super) fn sign_out(connection: Connection) {
    let oauth = oauth_of(connection);
    forget_tokens(&connection.id.get_value());
    set_sign_in(connection, SignIn::Idle);
    connection.disconnect_then(move || {
        if let Some(oauth) = oauth {
            oauth.sign_out();
        }
    });
}

/// Checks the redirect's `state` and exchanges its code (`OAuth::finish`), then connects
/// again with the token.
fn finish(
    oauth: OAuth,
    connection: Connection,
    config: ClientConfig,
    known_handshake: RwSignal<bool>,
    redirect: String,
) {
    set_sign_in(connection, SignIn::Waiting);
    spawn_local(async move {
        match oauth.finish(&redirect).await {
            Ok(()) => {
                set_sign_in(connection, SignIn::SignedIn);
                connection.connect_now(config, known_handshake);
            }
            Err(error) => set_sign_in(connection, needed(&error)),
        }
    });
}

/// One listener for every server: `callback.html` broadcasts the redirect URL on a channel of
/// this origin (it has no opener to post to); the flow whose `state` it carries takes it.
fn listen_for_callbacks() {
    if LISTENING.with(|listening| listening.replace(true)) {
        return;
    }
    let Ok(channel) = web_sys::BroadcastChannel::new(CALLBACK_CHANNEL) else {
        return;
    };
    let handler = Closure::<dyn Fn(web_sys::MessageEvent)>::new(on_callback);
    channel.set_onmessage(Some(handler.as_ref().unchecked_ref()));
    // Both live as long as the page.
    handler.forget();
    std::mem::forget(channel);
}

fn on_callback(event: web_sys::MessageEvent) {
    let Some(redirect) = js_sys::Reflect::get(&event.data(), &CALLBACK_KEY.into())
        .ok()
        .and_then(|value| value.as_string())
    else {
        return;
    };
    // A broadcast reaches every tab of this origin: only the flow that sent this `state` acts
    // (`OAuth::finish` checks it again).
    let Some(state) = Callback::parse(&redirect).state else {
        return;
    };
    let found = ENTRIES.with(|entries| {
        entries.borrow_mut().values_mut().find_map(|entry| {
            (entry.oauth.pending_state().as_deref() == Some(state.as_str())).then(|| {
                (
                    entry.oauth.clone(),
                    entry.connection,
                    entry.config.clone(),
                    entry.known_handshake,
                    entry.popup.take(),
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
    finish(oauth, connection, config, known_handshake, redirect);
}

/// The sign-in bar, first of the session panels: why the server wants a sign-in and "Sign in",
/// or "Sign out". The popup is opened by the click itself (a browser blocks one opened
/// later), blank until `OAuth::start` knows the authorization URL.
pub(super) fn sign_in_bar() -> AnyView {
    let connection = use_connection();
    let settings = use_context::<Settings>();
    let same_tab = move || {
        let id = connection.id.get_value();
        ENTRIES.with(|entries| entries.borrow().get(&id).is_some_and(|e| e.same_tab))
    };
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
        settings.is_none() && !super::address::EmbedAllow::of_page().sign_in;
    (move || match connection.sign_in.get() {
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
    let super::servers::Settings {
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
    } = expect_context::<super::servers::Settings>();
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
        connection.auth_log.track();
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

/// The step waiting for the person (step by step): the request it will send, why, and
/// "Next step", "Run the rest" and "Stop". Server text (URLs, the reason, the body) is text.
fn waiting_view(connection: Connection, next: NextStep) -> AnyView {
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
