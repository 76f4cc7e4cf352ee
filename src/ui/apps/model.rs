//! What the apps host's files share: the limits, the call an app is drawn for ([`AppCall`]),
//! where a framed app stands ([`Stage`]), what the page noticed of it ([`Note`]), and small
//! readers of what it sends.

use crate::protocol::jsonrpc::RequestId;
use crate::ui::store::Connection;
use serde_json::{Map, Value};

/// Where the sandbox proxy is, next to the page's `index.html`.
pub(super) const PROXY_URL: &str = "sandbox.html";

/// How long an app may take from its frame's creation to `ui/notifications/initialized`.
pub(super) const INITIALIZE_TIMEOUT_MS: u32 = 10_000;

/// How long the page waits for the answer to `ui/resource-teardown` before removing the frame
/// (on Close, and before a re-run, another tool or a disconnect takes the frame away).
pub(super) use crate::ui::live_apps::TEARDOWN_TIMEOUT_MS;

/// The frame's height until the app says how tall it is.
pub(super) const DEFAULT_HEIGHT_PX: u32 = 320;

/// How many notes (messages, model context, logs, notices) an app's panel keeps.
pub(super) const NOTE_LIMIT: usize = 100;

/// The most of one note's text the panel keeps (the wire log has the whole message): a
/// hundred notes of megabytes each must not be gigabytes.
pub(super) const NOTE_BYTES: usize = 64 * 1024;

/// How much of an app message longer than [`MAX_APP_MESSAGE_CHARS`] reaches the wasm and the
/// wire log (the sandbox proxy never relays one; this is the page's own bound).
pub(super) const TOO_LARGE_KEPT_CHARS: usize = 64 * 1024;

/// Messages from windows other than the app's that are logged each second; the rest are
/// counted in one line, so a window flooding the page cannot flood the log.
pub(super) const FOREIGN_PER_SECOND: u32 = 20;

/// What a tool panel hands to the app view: the call that rendered the app.
#[derive(Clone)]
pub struct AppCall {
    pub connection: Connection,
    pub tool: String,
    /// The tool's `ui://` resource.
    pub uri: String,
    pub arguments: Map<String, Value>,
    /// The `tools/call` result, as JSON; `None`: the app opened on its own ("View app"), with
    /// no tool input or result.
    pub result: Option<Value>,
    /// The `tools/call` request's id (the host context's `toolInfo.id`).
    pub call_id: Option<RequestId>,
}

/// The app's life in the page.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Stage {
    /// Reading the `ui://` resource.
    Reading,
    /// The resource asks for permissions (camera, microphone, ...): nothing is framed until
    /// the person chooses which, if any, it gets.
    Asking,
    /// Framed: the proxy is loading, or the app is initializing or running.
    Framed,
    /// `ui/resource-teardown` sent; the frame goes when the app answers (or time is up).
    Closing,
    /// Torn down by the person or the app.
    Closed,
    /// Not shown, and why.
    Failed(String),
}

/// What a chat host would have received from the app, and what the page noticed.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Note {
    pub(super) seq: u64,
    /// `message`, `model-context`, `log`, `notice`.
    pub(super) kind: &'static str,
    pub(super) title: String,
    pub(super) text: String,
}

pub(super) fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|window| window.performance())
        .map_or(0.0, |performance| performance.now())
}

/// Content blocks as a chat would show them: text as text, anything else as JSON.
pub(super) fn blocks_text(blocks: &[Value]) -> String {
    blocks
        .iter()
        .map(|block| match block.get("text").and_then(Value::as_str) {
            Some(text) if block.get("type").and_then(Value::as_str) == Some("text") => {
                text.to_owned()
            }
            _ => pretty(block),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub(super) fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Where the page runs, as the app is told: dark or light (the person's choice, else the
/// system's), the language and the time zone; the viewport and the frame's width.
#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub(super) struct PageEnv {
    pub(super) dark: bool,
    pub(super) locale: Option<String>,
    pub(super) time_zone: Option<String>,
    pub(super) vw: u32,
    pub(super) vh: u32,
    pub(super) w: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn content_blocks_read_as_a_chat_shows_them() {
        let blocks = vec![
            json!({ "type": "text", "text": "hello" }),
            json!({ "type": "image", "data": "AA==", "mimeType": "image/png" }),
        ];
        let text = blocks_text(&blocks);
        assert!(text.starts_with("hello\n{"));
        assert!(text.contains("\"mimeType\": \"image/png\""));
    }
}
