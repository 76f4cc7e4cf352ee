//! The sign-in window and the callback it posts, or signing in within this tab (the
//! authorization kept in sessionStorage across the redirect, resumed on the page it returns to).

use super::connect::*;
use super::entries::*;
use crate::client::auth::{OAuth, PendingSignIn};
use crate::client::config::parse_header_lines;
use crate::protocol::auth::messages::Callback;
use crate::protocol::wire_log::url_has_credentials;
use crate::ui::servers::{Servers, Settings};
use crate::ui::storage::session_storage;
use crate::ui::store::{Connection, SignIn};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::Cell;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// Whether the bar offers (or does) signing in within this tab for this entry.
pub(super) fn set_same_tab(connection: Connection, same_tab: bool) {
    with_entry(connection, |entry| entry.same_tab = same_tab);
}

/// Why this server cannot sign in within this tab, which leaves the page and so its memory
/// (the sentence after "The browser blocked the sign-in window."), if it cannot.
pub(super) fn same_tab_refusal(settings: Option<Settings>) -> Option<&'static str> {
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
pub(super) struct SameTab {
    pub(super) entry: String,
    pub(super) state: String,
    pub(super) sign_in: PendingSignIn,
    #[serde(default)]
    pub(super) redirect: Option<String>,
}

/// Pop-ups blocked: starts an authorization, keeps it in this tab's sessionStorage, and sends
/// the tab to the authorization URL. The authorization server sends it back to
/// `callback.html`, which hands the redirect to the app's page, and `resume_in_this_tab`
/// finishes there.
pub(super) fn sign_in_here(connection: Connection, settings: Option<Settings>) {
    let Some(oauth) = oauth_of(connection) else {
        return;
    };
    let id = connection.id();
    // The settings may have changed since the offer (a secret typed, "Remember" unticked).
    if let Some(refusal) = same_tab_refusal(settings) {
        set_same_tab(connection, false);
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

/// A new blank sign-in window, opened by the person's click (a browser blocks one opened
/// later). Its `opener` is cut before it leaves for the authorization server, so that server's
/// pages cannot reach this tab (say, send it to a look-alike page); the redirect comes back
/// through `callback.html`'s broadcast instead ([`listen_for_callbacks`]).
pub(super) fn open_window() -> Option<web_sys::Window> {
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

pub(super) fn leave_for(entry: String, oauth: &OAuth, url: &str) -> Result<(), String> {
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

pub(super) fn forget_pending() {
    if let Some(storage) = session_storage() {
        let _ = storage.remove_item(PENDING_KEY);
    }
}

/// The person came back (the Back button) to this very page, kept by the browser, before the
/// sign-in finished: what the tab kept for it goes, and the bar offers the sign-in again.
pub(super) fn when_shown_again() {
    // Page-wide: one listener for the page, whichever server signs in.
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
        let waiting = every_entry(|entry| entry.same_tab.then_some(entry.connection));
        for connection in waiting {
            if connection
                .sign_in()
                .with_untracked(|s| *s == SignIn::Waiting)
            {
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
pub(in crate::ui) fn left_for_sign_in() -> bool {
    session_storage().is_some_and(|storage| storage.get_item(PENDING_KEY).ok().flatten().is_some())
}

pub(in crate::ui) fn resume_in_this_tab(servers: Servers) {
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
    let (config, identity) = match crate::ui::config::config_of(entry.settings) {
        Ok(prepared) => prepared,
        Err(reason) => {
            connection.report(reason);
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
    set_same_tab(connection, true);
    finish(oauth, connection, config, known_handshake, redirect);
}

/// One listener for every server: `callback.html` broadcasts the redirect URL on a channel of
/// this origin (it has no opener to post to); the flow whose `state` it carries takes it.
pub(super) fn listen_for_callbacks() {
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

pub(super) fn on_callback(event: web_sys::MessageEvent) {
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
    let found = find_entry(|entry| {
        (entry.oauth.pending_state().as_deref() == Some(state.as_str())).then(|| {
            (
                entry.oauth.clone(),
                entry.connection,
                entry.config.clone(),
                entry.known_handshake,
                entry.popup.take(),
            )
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
