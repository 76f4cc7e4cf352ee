//! Signed-in tokens remembered in this tab's sessionStorage (only when the person ticked
//! "Remember"), and the sign-in's steps logged on the wire log.

use super::entries::*;
use crate::client::auth::{AuthLogEntry, SavedFlow};
use crate::protocol::auth::messages::Tokens;
use crate::protocol::transport_choice::origin_of;
use crate::protocol::wire_log::WireEntry;
use crate::ui::storage::{session_storage, TOKENS_KEY};
use crate::ui::store::Connection;

/// What "Remember in this tab" keeps of a signed-in server: its tokens, bound to the origin
/// they were got for, and what discovery found and the client (no secret: a client secret
/// comes back with the settings the tab remembered), so the refresh works after a reload.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct KeptTokens {
    pub(super) origin: String,
    pub(super) access_token: String,
    pub(super) refresh_token: Option<String>,
    #[serde(default)]
    pub(super) flow: Option<SavedFlow>,
}

/// Writes the tokens held to sessionStorage when the person asked to remember secrets.
pub(super) fn remember_tokens(connection: Connection) {
    let id = connection.id();
    let kept = with_entry(connection, |entry| {
        if !entry.remember {
            return None;
        }
        let tokens = entry.oauth.tokens()?;
        Some(KeptTokens {
            origin: origin_of(&entry.made_for.0)?,
            access_token: tokens.access_token().to_owned(),
            refresh_token: tokens.refresh_token().map(str::to_owned),
            flow: entry.oauth.saved_flow(),
        })
    })
    .flatten();
    if let (Some(kept), Some(storage)) = (kept, session_storage()) {
        let text = serde_json::to_string(&kept).unwrap_or_default();
        let _ = storage.set_item(&format!("{TOKENS_KEY}{id}"), &text);
    }
}

/// Tokens this tab remembered for this entry, if they were got for `url`'s origin, with the
/// flow they came from.
pub(super) fn remembered_tokens(id: &str, url: &str) -> Option<(Tokens, Option<SavedFlow>)> {
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

pub(super) fn forget_tokens(id: &str) {
    if let Some(storage) = session_storage() {
        let _ = storage.remove_item(&format!("{TOKENS_KEY}{id}"));
    }
}

/// An authorization request (with its answer) in the wire log beside the MCP traffic, as
/// redacted as in the steps view.
pub(super) fn log_on_wire(connection: Connection, entry: &AuthLogEntry) {
    let (Some(method), Some(url)) = (entry.method, entry.url.clone()) else {
        return; // a decision, not a request
    };
    let server = with_entry(connection, |e| e.config.name.clone()).unwrap_or_default();
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
    connection.log_wire(wire);
}
