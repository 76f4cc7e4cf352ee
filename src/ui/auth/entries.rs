//! Each server's sign-in as the page keeps it (`Entry`, by the connection's id), its step-by-step
//! state, and the small readers and writers every flow shares.

use crate::client::auth::{OAuth, StepGate};
use crate::client::ClientConfig;
use crate::protocol::auth::messages::check_metadata_document_url;
use crate::protocol::auth::{AuthError, AuthErrorKind};
use crate::ui::store::{Connection, Identity, SignIn};
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use wasm_bindgen::JsCast;

/// One server's sign-in.
pub(super) struct Entry {
    pub(super) oauth: OAuth,
    /// What the `OAuth` was made for: the server URL and the client identity.
    pub(super) made_for: (String, Identity),
    /// The last connect's configuration (with `auth` set), for the connect after sign-in.
    pub(super) config: ClientConfig,
    pub(super) known_handshake: RwSignal<bool>,
    pub(super) connection: Connection,
    /// The popup an authorization was sent to.
    pub(super) popup: Option<web_sys::Window>,
    /// "Remember in this tab" was ticked at the last connect: tokens go to sessionStorage.
    pub(super) remember: bool,
    /// The browser blocked the sign-in window: the bar offers signing in within this tab.
    pub(super) same_tab: bool,
}

/// This chunk's state for one server, kept in its connection's store (`Connection::kept`):
/// its sign-in, and its step-by-step state (which outlives its `OAuth`s).
#[derive(Default)]
struct SignInKept {
    entry: RefCell<Option<Entry>>,
    stepping: RefCell<Option<Stepping>>,
}

thread_local! {
    /// The connections that have a sign-in, by id: page-wide, because the sign-in window's
    /// broadcast and the page shown again name no server. Each one's sign-in is in its store.
    static SIGNING_IN: RefCell<Vec<(String, Connection)>> = RefCell::default();
    pub(super) static LISTENING: Cell<bool> = const { Cell::new(false) };
}

/// Reads or changes this server's sign-in; None when it has none.
pub(super) fn with_entry<T>(
    connection: Connection,
    use_it: impl FnOnce(&mut Entry) -> T,
) -> Option<T> {
    let kept = connection.kept_if_any::<SignInKept>()?;
    let mut entry = kept.entry.borrow_mut();
    entry.as_mut().map(use_it)
}

/// This server's sign-in is `entry` now.
pub(super) fn put_entry(connection: Connection, entry: Entry) {
    connection.kept::<SignInKept>().entry.replace(Some(entry));
    let id = connection.id();
    SIGNING_IN.with(|all| {
        let mut all = all.borrow_mut();
        if !all.iter().any(|(known, _)| *known == id) {
            all.push((id, connection));
        }
    });
}

/// This server's sign-in goes.
pub(super) fn remove_entry(connection: Connection) {
    if let Some(kept) = connection.kept_if_any::<SignInKept>() {
        kept.entry.take();
    }
    let id = connection.id();
    SIGNING_IN.with(|all| all.borrow_mut().retain(|(known, _)| *known != id));
}

/// The connections of the page that have a sign-in.
fn signing_in() -> Vec<Connection> {
    SIGNING_IN.with(|all| all.borrow().iter().map(|(_, c)| *c).collect())
}

/// The first of the page's sign-ins for which `find` gives something (servers removed from
/// the page are passed over).
pub(super) fn find_entry<T>(mut find: impl FnMut(&mut Entry) -> Option<T>) -> Option<T> {
    signing_in()
        .into_iter()
        .find_map(|connection| with_entry(connection, &mut find).flatten())
}

/// What `pick` gives of each of the page's sign-ins.
pub(super) fn every_entry<T>(mut pick: impl FnMut(&mut Entry) -> Option<T>) -> Vec<T> {
    signing_in()
        .into_iter()
        .filter_map(|connection| with_entry(connection, &mut pick).flatten())
        .collect()
}

/// One server's step by step.
#[derive(Default)]
pub(super) struct Stepping {
    pub(super) gate: StepGate,
    /// Sign-ins started: a sign-in replaced by a newer one ("Start again") says nothing.
    pub(super) attempt: u64,
    /// A window sign-in is finding its authorization URL: the click that lets it go opens
    /// the window.
    pub(super) window_due: bool,
    /// The window that click opened, blank until the URL is known.
    pub(super) popup: Option<web_sys::Window>,
    /// The person's click leads to the next step waiting: its "Next step" takes the focus.
    pub(super) focus_next: bool,
}

/// This server's step gate (made with its first `OAuth`; a change of the step waiting
/// redraws the steps view, and after the person's click gives "Next step" the focus).
pub(super) fn gate_of(connection: Connection) -> StepGate {
    let kept = connection.kept::<SignInKept>();
    let mut held = kept.stepping.borrow_mut();
    let made = held.get_or_insert_with(|| {
        let gate = StepGate::new();
        gate.on_change(move || {
            connection.sign_in_stepped();
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
}

/// Changes this server's step-by-step state; gives what `change` gives.
pub(super) fn stepping<T>(
    connection: Connection,
    change: impl FnOnce(&mut Stepping) -> T,
) -> Option<T> {
    let kept = connection.kept_if_any::<SignInKept>()?;
    let mut stepping = kept.stepping.borrow_mut();
    stepping.as_mut().map(change)
}

/// A new sign-in of this server: its number (see [`is_current`]).
pub(super) fn next_attempt(connection: Connection) -> u64 {
    gate_of(connection);
    stepping(connection, |s| {
        s.attempt += 1;
        s.attempt
    })
    .unwrap_or_default()
}

/// Whether sign-in `attempt` is still this server's latest.
pub(super) fn is_current(connection: Connection, attempt: u64) -> bool {
    stepping(connection, |s| s.attempt == attempt).unwrap_or(false)
}

/// The key the callback page posts the redirect URL under.
pub(super) const CALLBACK_KEY: &str = "mcpLensCallback";

/// The `BroadcastChannel` `callback.html` sends the redirect on (`src/callback/callback.js`).
pub(super) const CALLBACK_CHANNEL: &str = "mcp-lens.sign-in";

/// The sign-in this tab left for (pop-ups blocked), in sessionStorage while the page is away:
/// [`SameTab`]. `callback.js` reads it and adds the redirect under the same key.
pub(super) const PENDING_KEY: &str = "mcp-lens.sign-in";

pub(super) fn oauth_of(connection: Connection) -> Option<OAuth> {
    with_entry(connection, |entry| entry.oauth.clone())
}

/// `callback.html` beside the page.
pub(super) fn redirect_uri() -> String {
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
pub(super) fn metadata_document_url() -> Option<String> {
    let url = web_sys::window()?
        .document()?
        .query_selector(r#"meta[name="mcp-lens-client-id"]"#)
        .ok()??
        .get_attribute("content")?;
    check_metadata_document_url(&url).ok().map(|()| url)
}

/// Changes the sign-in state only when it changes (the bar is drawn anew on every set, and a
/// button drawn anew under the person's pointer loses their click).
pub(super) fn set_sign_in(connection: Connection, next: SignIn) {
    if connection.sign_in().with_untracked(|now| *now != next) {
        connection.set_sign_in(next);
    }
}

/// Why the server wants a (new) sign-in, if it does.
pub(super) fn needed_reason(oauth: &OAuth) -> Option<String> {
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

/// What a failed sign-in leaves the bar showing: why, and for a secret or key that waits for
/// the person's word on where it may go, the issuer to confirm.
pub(super) fn needed(error: &AuthError) -> SignIn {
    match &error.kind {
        AuthErrorKind::ConfirmIssuer { issuer } => SignIn::Confirm {
            reason: error.to_string(),
            issuer: issuer.clone(),
        },
        _ => SignIn::Needed(error.to_string()),
    }
}
