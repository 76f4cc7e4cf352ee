//! MCP Apps in the page (SEP-1865): a tool's `ui://` resource framed beside its result, and
//! the page as the app's host. In the session wasm chunk (`lazy::mcp_app`; never in the
//! first paint).
//!
//! The decisions are `crate::protocol::apps`' (the CSP, the sandbox, which messages mean what,
//! what may be sent when): this file moves bytes between them, the browser and the server.
//!
//! Isolation: the app's document cannot be a `srcdoc` frame of this page (it would inherit the
//! page's policy, which runs no inline script), so the page frames the sandbox proxy
//! (`src/apps/sandbox.html`, copied into `dist/`) with `sandbox="allow-scripts"` and no
//! `allow-same-origin`: an opaque origin, out of reach of the page's DOM, storage and cookies.
//! The proxy adds the app's policy to itself and frames the app's HTML (with the same policy
//! as its first element) in a `srcdoc` frame of its own. Messages travel in envelopes
//! (`{ load }`, `{ post }` to the proxy; `{ proxy }`, `{ app }` from it), and only messages
//! whose `event.source` is this app's proxy frame are read; any other is ignored and logged.

use super::servers::Settings;
use super::{manager, Connection};
use crate::client::browser::timer::sleep;
use crate::client::ClientEvent;
use crate::client::McpClient;
use crate::protocol::apps::csp::{with_csp_meta, SANDBOX};
use crate::protocol::apps::message::{
    classify_text, container_for, Dimension, DisplayMode, HostCapabilities, HostContext, HostInfo,
    Layout, Theme, ToolInfo, INLINE_MAX_HEIGHT,
};
use crate::protocol::apps::session::{Phase, MAX_APP_MESSAGE_CHARS};
use crate::protocol::apps::{
    read_ui_resource, AppEvent, AppSession, Permissions, UiResource, WebLink,
};
use crate::protocol::error::{reveal_controls, ErrorKind, McpError, Step};
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::mcp::{RESOURCES_LIST_CHANGED, RESOURCES_UPDATED};
use crate::protocol::shrink::shrink_text;
use crate::protocol::wire_log::{Direction, WireEntry};
use leptos::html::Iframe;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::{json, Map, Value};
use std::cell::Cell;
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use std::sync::{Arc, Weak};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

// Every browser call of the apps host goes through this one function (`src/ui/apps_host.js`
// says what each operation does): each JavaScript function the wasm imports lives in the first
// paint's module (wasm-split leaves imports there), so one import instead of a dozen keeps the
// first paint from growing. And the host's code itself is not part of the first paint: this
// stub imports it (scripts/wasm-split.mjs ships it beside the loader, two folders above the
// snippets) the first time an app is drawn ([`host_loaded`]); until then there is no frame to
// speak to, and an operation does nothing.
#[wasm_bindgen(inline_js = "let host = null;
export function apps_host(op, target, text) { return host ? host(op, target, text) : ''; }
export function apps_host_load() {
  return host ? Promise.resolve() : import(new URL('../../apps_host.js', import.meta.url)).then((m) => { host = m.apps_host; });
}")]
extern "C" {
    fn apps_host(op: &str, target: &JsValue, text: &str) -> String;
    fn apps_host_load() -> js_sys::Promise;
}

/// Whether the host's JavaScript is here (fetched on the first call; a failed fetch is tried
/// again by the next).
pub(super) async fn host_loaded() -> bool {
    wasm_bindgen_futures::JsFuture::from(apps_host_load())
        .await
        .is_ok()
}

thread_local! {
    /// Numbers the apps' frames (`data-app`), so each host reads its own frame's messages.
    static NEXT_FRAME: Cell<u64> = const { Cell::new(0) };
}

/// What `apps_host("message", ...)` says of a message that is not app text.
#[derive(serde::Deserialize, Default)]
struct Envelope {
    frame: Option<String>,
    origin: String,
    proxy: Option<String>,
    count: Option<f64>,
    reason: Option<String>,
    body: String,
}

/// Where the sandbox proxy is, next to the page's `index.html`.
const PROXY_URL: &str = "sandbox.html";

/// How long an app may take from its frame's creation to `ui/notifications/initialized`.
const INITIALIZE_TIMEOUT_MS: u32 = 10_000;

/// How long the page waits for the answer to `ui/resource-teardown` before removing the frame
/// (on Close, and before a re-run, another tool or a disconnect takes the frame away).
use super::live_apps::TEARDOWN_TIMEOUT_MS;

/// The frame's height until the app says how tall it is.
const DEFAULT_HEIGHT_PX: u32 = 320;

/// How many notes (messages, model context, logs, notices) an app's panel keeps.
const NOTE_LIMIT: usize = 100;

/// The most of one note's text the panel keeps (the wire log has the whole message): a
/// hundred notes of megabytes each must not be gigabytes.
const NOTE_BYTES: usize = 64 * 1024;

/// How much of an app message longer than [`MAX_APP_MESSAGE_CHARS`] reaches the wasm and the
/// wire log (the sandbox proxy never relays one; this is the page's own bound).
const TOO_LARGE_KEPT_CHARS: usize = 64 * 1024;

/// Messages from windows other than the app's that are logged each second; the rest are
/// counted in one line, so a window flooding the page cannot flood the log.
const FOREIGN_PER_SECOND: u32 = 20;

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
enum Stage {
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
struct Note {
    seq: u64,
    /// `message`, `model-context`, `log`, `notice`.
    kind: &'static str,
    title: String,
    text: String,
}

thread_local! {
    /// `ui://` resources read, per server (by its entry id) and URI.
    static RESOURCES: RefCell<HashMap<(String, String), Cached>> = RefCell::new(HashMap::new());
}

/// A resource read, valid while the server's state is the one it was read under (any
/// `list_changed` makes a new state, once the list is fetched again), and no
/// `resources/list_changed` (the list may not be fetched yet) or `resources/updated` naming it
/// arrived since.
struct Cached {
    state: Weak<crate::client::ServerState>,
    events_seen: u64,
    resource: Rc<UiResource>,
}

/// Reads the app's resource, from the cache when it is still valid.
async fn ui_resource(connection: Connection, uri: &str) -> Result<Rc<UiResource>, String> {
    let server_id = connection.id.get_value();
    let state = connection
        .server
        .get_untracked()
        .ok_or_else(|| "Not connected.".to_owned())?;
    let key = (server_id, uri.to_owned());
    let updated_since = |seen: u64| {
        connection.events.with_untracked(|events| {
            events.iter().any(|(seq, event)| {
                *seq > seen
                    && matches!(event, ClientEvent::Notification { method, params }
                        if method == RESOURCES_LIST_CHANGED
                            || (method == RESOURCES_UPDATED
                                && params.as_ref().and_then(|p| p.get("uri")).and_then(Value::as_str)
                                    == Some(uri)))
            })
        })
    };
    let cached = RESOURCES.with(|cache| {
        let cache = cache.borrow();
        let entry = cache.get(&key)?;
        (entry.state.as_ptr() == Arc::as_ptr(&state) && !updated_since(entry.events_seen))
            .then(|| entry.resource.clone())
    });
    if let Some(resource) = cached {
        return Ok(resource);
    }
    let client = connection
        .client()
        .ok_or_else(|| "Not connected.".to_owned())?;
    let events_seen = connection.events_seen.get_value();
    let read = client
        .read_resource_json(uri)
        .await
        .map_err(|error| format!("Reading the app's resource {uri} failed: {error}"))?;
    let listing = match &state.resources {
        Some(Ok(resources)) => resources
            .iter()
            .find(|resource| resource.uri == uri)
            .and_then(|resource| serde_json::to_value(resource).ok()),
        _ => None,
    };
    let resource = read_ui_resource(&read, listing.as_ref())
        .map_err(|error| format!("The app's resource {uri} cannot be shown: {error}"))?;
    let resource = Rc::new(resource);
    RESOURCES.with(|cache| {
        cache.borrow_mut().insert(
            key,
            Cached {
                state: Arc::downgrade(&state),
                events_seen,
                resource: resource.clone(),
            },
        )
    });
    Ok(resource)
}

/// The host side of one framed app: signals the view reads, and the session.
#[derive(Clone, Copy)]
struct Host {
    connection: Connection,
    /// The server's name, as the wire log shows it.
    server: StoredValue<String>,
    uri: StoredValue<String>,
    /// The tool whose app this is.
    tool: StoredValue<String>,
    call: StoredValue<AppCall, LocalStorage>,
    stage: RwSignal<Stage>,
    /// The app said `ui/notifications/initialized`.
    ready: RwSignal<bool>,
    session: StoredValue<Option<AppSession>>,
    frame: NodeRef<Iframe>,
    /// This frame's `data-app`.
    frame_id: StoredValue<String>,
    /// What the proxy frames once it says it is ready: `{ html, csp, sandbox, allow }`.
    load: StoredValue<Option<Value>>,
    height: RwSignal<Option<u32>>,
    width: RwSignal<Option<u32>>,
    /// How the frame is shown (the app asked, or the person chose).
    mode: RwSignal<DisplayMode>,
    /// The viewport and the frame's inline width, as last measured.
    layout: RwSignal<Layout>,
    /// The resource read, until the app is framed (kept while the person decides on its
    /// permissions).
    resource: StoredValue<Option<Rc<UiResource>>, LocalStorage>,
    /// What it asks for, and what the person ticked (nothing until they do).
    requested: RwSignal<Permissions>,
    granted: RwSignal<Permissions>,
    /// The frame's `allow` attribute (set before the frame is made: it cannot change after).
    allow: RwSignal<String>,
    notes: RwSignal<VecDeque<Note>>,
    notes_seen: StoredValue<u64>,
    /// A `ui/open-link` waiting for the person.
    link: RwSignal<Option<(RequestId, WebLink)>>,
    /// A display mode the app asked for with no action of the person in it, waiting for
    /// their decision.
    display_ask: RwSignal<Option<(RequestId, DisplayMode)>>,
    /// The app's requests proxied to the server: (the app's id, the server request's id).
    in_flight: StoredValue<Vec<(RequestId, RequestId)>>,
    frame_loads: StoredValue<u32>,
    /// (start of the current second, messages from other windows in it).
    foreign: StoredValue<(f64, u32)>,
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|window| window.performance())
        .map_or(0.0, |performance| performance.now())
}

impl Host {
    fn log(self, direction: Direction, body: &str, failure: Option<String>) {
        let entry = WireEntry::app(
            self.server.get_value(),
            now_ms(),
            direction,
            self.uri.get_value(),
            body,
            failure,
        );
        self.connection.wire.update(|log| log.push(entry));
    }

    fn note(self, kind: &'static str, mut title: String, mut text: String) {
        shrink_text(&mut title, 1024);
        shrink_text(&mut text, NOTE_BYTES);
        self.notes_seen.update_value(|n| *n += 1);
        let seq = self.notes_seen.get_value();
        self.notes.update(|notes| {
            if notes.len() >= NOTE_LIMIT {
                notes.pop_front();
            }
            notes.push_back(Note {
                seq,
                kind,
                title,
                text,
            });
        });
    }

    /// Posts an envelope to the proxy frame (its origin is opaque, hence `"*"`; only this
    /// frame's window receives it).
    fn to_proxy(self, envelope: &Value) {
        if let Some(frame) = self.frame.get_untracked() {
            apps_host("post", &frame, &envelope.to_string());
        }
    }

    /// Sends the session's messages to the app, each logged.
    fn send(self, messages: Vec<Value>) {
        for message in messages {
            let text = message.to_string();
            self.log(Direction::Sent, &text, None);
            self.to_proxy(&json!({ "post": text }));
        }
    }

    fn with_session<R>(self, f: impl FnOnce(&mut AppSession) -> R) -> Option<R> {
        self.session
            .try_update_value(|session| session.as_mut().map(f))
            .flatten()
    }

    /// The app is gone (failed, or torn down without an answer): nothing more is sent.
    fn fail(self, reason: String) {
        self.with_session(AppSession::close);
        self.note("notice", "Closed".to_owned(), reason.clone());
        self.stage.set(Stage::Failed(reason));
    }

    /// A `message` event anywhere on the page.
    fn on_message(self, event: web_sys::MessageEvent) {
        let limits = format!("{MAX_APP_MESSAGE_CHARS} {TOO_LARGE_KEPT_CHARS}");
        let read = apps_host("message", &event, &limits);
        let own = self.frame_id.get_value();
        if let Some(rest) = read.strip_prefix('A') {
            match rest.split_once('\n') {
                // The proxy's `gesture` flag, then the app's text.
                Some((frame, flagged)) if frame == own => {
                    let gesture = flagged.starts_with('1');
                    self.app_said(flagged.get(1..).unwrap_or_default(), gesture);
                }
                _ => {} // another app's frame: its own host reads it
            }
            return;
        }
        if let Some(rest) = read.strip_prefix('T') {
            if let Some((frame, flagged)) = rest.split_once('\n') {
                if frame == own {
                    let (length, start) = flagged
                        .get(1..)
                        .unwrap_or_default()
                        .split_once('\n')
                        .unwrap_or_default();
                    self.app_too_large(length.parse().unwrap_or(0), start);
                }
            }
            return;
        }
        let envelope: Envelope = read
            .strip_prefix('J')
            .and_then(|json| serde_json::from_str(json).ok())
            .unwrap_or_default();
        match envelope.frame.as_deref() {
            None => self.foreign_message(&envelope),
            Some(frame) if frame != own => {}
            Some(_) => self.proxy_said(envelope),
        }
    }

    fn proxy_said(self, envelope: Envelope) {
        match envelope.proxy.as_deref() {
            Some("ready") => self.proxy_ready(),
            Some("loaded") => {
                if envelope.count.unwrap_or(0.0) > 1.0 {
                    self.log(
                        Direction::Received,
                        "",
                        Some("the app's frame loaded another document".to_owned()),
                    );
                    self.fail(
                        "The app navigated or reloaded its frame; mcp-lens closed it (an app \
                         must stay the document it was framed as)."
                            .to_owned(),
                    );
                }
            }
            Some(_) => {
                let reason = envelope.reason.unwrap_or_default();
                self.log(
                    Direction::Received,
                    "",
                    Some(format!("ignored by the sandbox proxy: {reason}")),
                );
            }
            None => self.log(
                Direction::Received,
                "",
                Some("a message from the proxy frame in no known envelope".to_owned()),
            ),
        }
    }

    /// Logs (at most [`FOREIGN_PER_SECOND`] a second) a message from a window that is not
    /// an app's proxy: another frame, or the app posting to the page directly.
    fn foreign_message(self, envelope: &Envelope) {
        let now = now_ms();
        let (start, count) = self.foreign.get_value();
        let (start, count) = if now - start >= 1000.0 {
            (now, 0)
        } else {
            (start, count)
        };
        self.foreign.set_value((start, count + 1));
        if count >= FOREIGN_PER_SECOND {
            return;
        }
        let origin = &envelope.origin;
        let more = if count + 1 == FOREIGN_PER_SECOND {
            " (more this second are not logged)"
        } else {
            ""
        };
        let why = format!(
            "a message from another window (origin {origin}), not this app's frame: ignored{more}"
        );
        self.log(Direction::Received, &envelope.body, Some(why));
    }

    fn proxy_ready(self) {
        let Some(load) = self.load.try_update_value(Option::take).flatten() else {
            return; // framed already: a second "ready" changes nothing
        };
        // Measured before the app asks `ui/initialize`, so its answer has the frame's width;
        // from then on, a change of theme or size is told to the app (`env_changed`).
        if let Some(frame) = self.frame.get_untracked() {
            apps_host("watch", &frame, "");
        }
        self.env_changed();
        self.to_proxy(&json!({ "load": load }));
        // In view: Chromium runs no animation frames in a cross-origin frame out of view, and
        // apps measure themselves (and send their size) in one.
        if let Some(frame) = self.frame.get_untracked() {
            apps_host("show", &frame, "");
        }
        let stage = self.stage;
        spawn_local(async move {
            sleep(INITIALIZE_TIMEOUT_MS).await;
            let Some(Some(phase)) = self
                .session
                .try_with_value(|s| s.as_ref().map(|s| s.phase().clone()))
            else {
                return; // this app's view is gone
            };
            if matches!(phase, Phase::Loading | Phase::Initializing)
                && stage.get_untracked() == Stage::Framed
            {
                self.log(
                    Direction::Received,
                    "",
                    Some("no ui/notifications/initialized in time".to_owned()),
                );
                self.fail(format!(
                    "The app did not complete ui/initialize within {} s.",
                    INITIALIZE_TIMEOUT_MS / 1000
                ));
            }
        });
    }

    fn app_said(self, text: &str, gesture: bool) {
        let Some(received) =
            self.with_session(|session| session.handle_with_gesture(classify_text(text), gesture))
        else {
            return;
        };
        let failure = match &received.event {
            AppEvent::Refused { reason } => Some(format!("refused: {reason}")),
            AppEvent::Ignored { reason } => Some(format!("ignored: {reason}")),
            _ => None,
        };
        self.log(Direction::Received, text, failure);
        self.send(received.send);
        self.act(received.event);
    }

    /// A message from the app longer than an app message may be (the proxy relays none: this
    /// is the page's own bound): not read, its start logged with why.
    fn app_too_large(self, chars: usize, start: &str) {
        let why = format!(
            "refused: the app sent {chars} characters in one message, more than the {} an app message may have; only its first {} are logged",
            MAX_APP_MESSAGE_CHARS, TOO_LARGE_KEPT_CHARS
        );
        self.log(Direction::Received, start, Some(why));
    }

    /// The person decided on a display mode the app asked for by itself.
    fn decide_display_mode(self, allowed: bool) {
        let Some((id, _)) = self.display_ask.get_untracked() else {
            return;
        };
        self.display_ask.set(None);
        let confirmed = self.with_session(|s| s.confirm_display_mode(&id, allowed));
        if let Some(Some((send, mode))) = confirmed {
            self.mode.set(mode);
            self.send(send);
        }
    }

    fn answer(self, id: &RequestId, outcome: Result<Value, McpError>) {
        let reply = self.with_session(|session| match outcome {
            Ok(result) => session.answer(id, result),
            Err(error) => {
                let (code, message) = match &error.kind {
                    ErrorKind::JsonRpc { code, message } => (*code, message.clone()),
                    _ => (
                        crate::protocol::apps::message::codes::INTERNAL_ERROR,
                        error.to_string(),
                    ),
                };
                session.answer_error(id, code, &message)
            }
        });
        if let Some(Some(reply)) = reply {
            self.send(vec![reply]);
        }
    }

    /// The client to proxy an app's request `id` through; if there is none, the app is
    /// answered "not connected".
    fn client_for(self, id: &RequestId, step: Step) -> Option<McpClient> {
        let client = self.connection.client();
        if client.is_none() {
            self.answer(id, Err(McpError::new(step, ErrorKind::NotConnected)));
        }
        client
    }

    fn act(self, event: AppEvent) {
        match event {
            AppEvent::Handled | AppEvent::Refused { .. } | AppEvent::Ignored { .. } => {}
            AppEvent::Initialized => self.ready.set(true),
            AppEvent::Resize { width, height } => {
                if height.is_some() {
                    self.height.set(height);
                }
                if width.is_some() {
                    self.width.set(width);
                }
            }
            AppEvent::CallTool {
                id,
                name,
                arguments,
            } => {
                let Some(client) = self.client_for(&id, Step::CallTool) else {
                    return;
                };
                let (server_id, call) = client.call_tool_json(&name, arguments.unwrap_or_default());
                self.in_flight
                    .update_value(|calls| calls.push((id.clone(), server_id)));
                spawn_local(async move {
                    let outcome = call.await;
                    self.in_flight
                        .try_update_value(|calls| calls.retain(|(app, _)| *app != id));
                    self.answer(&id, outcome);
                });
            }
            AppEvent::ReadResource { id, uri } => {
                let Some(client) = self.client_for(&id, Step::ReadResource) else {
                    return;
                };
                spawn_local(async move {
                    let outcome = client.read_resource_json(&uri).await;
                    self.answer(&id, outcome);
                });
            }
            AppEvent::OpenLink { id, link } => self.link.set(Some((id, link))),
            AppEvent::Message { id, content } => {
                self.note("message", "ui/message".to_owned(), blocks_text(&content));
                self.answer(&id, Ok(json!({})));
            }
            AppEvent::UpdateModelContext {
                id,
                content,
                structured_content,
            } => {
                let mut text = content.as_deref().map(blocks_text).unwrap_or_default();
                if let Some(structured) = structured_content {
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(&pretty(&Value::Object(structured)));
                }
                self.note(
                    "model-context",
                    "ui/update-model-context (replaces the previous context)".to_owned(),
                    text,
                );
                self.answer(&id, Ok(json!({})));
            }
            AppEvent::DownloadFile { id, .. } => {
                // Not declared, so not expected; refused all the same.
                if let Some(Some(reply)) =
                    self.with_session(|s| s.deny(&id, "Downloads are not offered by this host"))
                {
                    self.send(vec![reply]);
                }
            }
            AppEvent::DisplayMode { mode } => self.mode.set(mode),
            AppEvent::ConfirmDisplayMode { id, mode } => self.display_ask.set(Some((id, mode))),
            AppEvent::TeardownRequested => {
                self.note(
                    "notice",
                    "Teardown".to_owned(),
                    "The app asked to be closed.".to_owned(),
                );
                self.teardown();
            }
            AppEvent::TeardownDone { error } => {
                if let Some(error) = error {
                    self.note(
                        "notice",
                        "Teardown".to_owned(),
                        format!(
                            "The app answered ui/resource-teardown with an error: {}",
                            error.message
                        ),
                    );
                }
                self.stage.set(Stage::Closed);
            }
            AppEvent::Cancelled { id, .. } => {
                let server_id = self.in_flight.try_with_value(|calls| {
                    calls
                        .iter()
                        .find(|(app, _)| *app == id)
                        .map(|(_, server)| server.clone())
                });
                if let (Some(Some(server_id)), Some(client)) = (server_id, self.connection.client())
                {
                    client.cancel(&server_id);
                }
            }
            AppEvent::Log {
                level,
                logger,
                data,
            } => {
                let title = match logger {
                    Some(logger) => format!("log {level} ({logger})"),
                    None => format!("log {level}"),
                };
                let text = match data {
                    Value::String(text) => text,
                    other => pretty(&other),
                };
                self.note("log", title, text);
            }
        }
    }

    /// The person answered a `ui/open-link`.
    fn decide_link(self, open: bool) {
        let Some((id, link)) = self.link.get_untracked() else {
            return;
        };
        self.link.set(None);
        let reply = if open {
            apps_host("open", &JsValue::NULL, &link.url);
            self.with_session(|s| s.answer(&id, json!({})))
        } else {
            self.with_session(|s| s.deny(&id, "Link opening denied by user"))
        };
        if let Some(Some(reply)) = reply {
            self.send(vec![reply]);
        }
    }

    /// `ui/resource-teardown`, then the frame goes (at the answer, or after a time limit).
    fn teardown(self) {
        match self.stage.try_get_untracked() {
            Some(Stage::Reading | Stage::Asking | Stage::Framed) => {}
            _ => return, // closing, closed, failed or gone already
        }
        match self.with_session(AppSession::teardown).flatten() {
            Some(request) => {
                self.stage.set(Stage::Closing);
                self.send(vec![request]);
                spawn_local(async move {
                    sleep(TEARDOWN_TIMEOUT_MS).await;
                    if self.stage.try_get_untracked() == Some(Stage::Closing) {
                        self.with_session(AppSession::close);
                        self.note(
                            "notice",
                            "Teardown".to_owned(),
                            format!(
                                "No answer to ui/resource-teardown within {} s: the frame was removed.",
                                TEARDOWN_TIMEOUT_MS / 1000
                            ),
                        );
                        self.stage.set(Stage::Closed);
                    }
                });
            }
            None => self.stage.set(Stage::Closed),
        }
    }

    /// Frames the app with the permissions `granted` (only those it asked for count).
    fn start(self, ui: &UiResource, granted: Permissions) {
        let policy = ui.csp.policy();
        let allow = ui.permissions.allow_attribute(granted);
        self.load.set_value(Some(json!({
            "html": with_csp_meta(&ui.html, &policy),
            "csp": policy,
            "sandbox": SANDBOX,
            "allow": allow,
        })));
        // The proxy's frame must be allowed what the app's frame is (a frame gets no feature
        // its parent lacks); set before the frame exists, as `allow` is read when it loads.
        self.allow.set(allow);
        let session = self
            .call
            .with_value(|call| new_session(call, ui, granted, self.page_env()));
        self.session.set_value(Some(session));
        self.stage.set(Stage::Framed);
    }

    /// "Start the app": framed with the permissions ticked (none, if none was).
    fn permissions_decided(self) {
        if self.stage.get_untracked() != Stage::Asking {
            return;
        }
        if let Some(ui) = self.resource.try_update_value(Option::take).flatten() {
            self.start(&ui, self.granted.get_untracked());
        }
    }

    /// The page as the app is told of it: theme, viewport, the frame's width.
    fn page_env(self) -> PageEnv {
        let frame = self.frame.try_get_untracked().flatten();
        let target = frame.map_or(JsValue::NULL, JsValue::from);
        serde_json::from_str(&apps_host("env", &target, "")).unwrap_or_default()
    }

    /// The theme, the viewport or the frame's size changed (or may have): the app is sent
    /// what changed of its host context, if anything did.
    fn env_changed(self) {
        let Some(old) = self.layout.try_get_untracked() else {
            return; // this app's view is gone
        };
        let env = self.page_env();
        let mut layout = Layout {
            viewport_width: env.vw,
            viewport_height: env.vh,
            ..old
        };
        // The panel's width is only measured inline (shown otherwise, the frame has another).
        if self.mode.get_untracked() == DisplayMode::Inline && env.w > 0 {
            layout.inline_width = env.w;
        }
        if layout != old {
            self.layout.set(layout);
        }
        let theme = if env.dark { Theme::Dark } else { Theme::Light };
        let changed = self.with_session(|s| {
            let mut send = s.set_theme(theme);
            send.extend(s.set_layout(layout));
            send
        });
        if let Some(changed) = changed {
            self.send(changed);
        }
    }

    /// The person shows the frame in `mode` (or back inline): the app is told.
    fn show_in(self, mode: DisplayMode) {
        if let Some(changed) = self.with_session(|s| s.set_display_mode(mode)) {
            self.mode.set(mode);
            self.send(changed);
        }
    }

    /// The frame was (re)loaded: the proxy's first document, or a navigation away from it.
    fn frame_loaded(self) {
        self.frame_loads.update_value(|n| *n += 1);
        if self.frame_loads.get_value() > 1 && matches!(self.stage.get_untracked(), Stage::Framed) {
            self.fail(
                "The sandbox frame loaded another document; mcp-lens closed the app.".to_owned(),
            );
        }
    }
}

/// Content blocks as a chat would show them: text as text, anything else as JSON.
fn blocks_text(blocks: &[Value]) -> String {
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

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Where the page runs, as the app is told: dark or light (the person's choice, else the
/// system's), the language and the time zone; the viewport and the frame's width.
#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct PageEnv {
    dark: bool,
    locale: Option<String>,
    time_zone: Option<String>,
    vw: u32,
    vh: u32,
    w: u32,
}

/// The session for `resource`, with the call's input and result (if the app renders one)
/// already queued (held until the app is initialized); `granted`: the permissions the person
/// gave it.
fn new_session(
    call: &AppCall,
    resource: &UiResource,
    granted: Permissions,
    env: PageEnv,
) -> AppSession {
    let tools: Vec<Value> = manager()
        .tools(&call.connection.id.get_value(), true)
        .unwrap_or_default()
        .iter()
        .filter_map(|tool| serde_json::to_value(tool).ok())
        .collect();
    let tool = tools
        .iter()
        .find(|tool| tool.get("name").and_then(Value::as_str) == Some(call.tool.as_str()))
        .cloned()
        .unwrap_or_else(|| json!({ "name": call.tool }));
    let (server_tools, server_resources) = call.connection.server.with_untracked(|state| {
        state.as_ref().map_or((false, false), |s| {
            (
                s.info.capabilities.tools.is_some(),
                s.info.capabilities.resources.is_some(),
            )
        })
    });
    let mut capabilities = HostCapabilities::mcp_lens(server_tools, server_resources);
    // Only what it asked for and the person granted (nothing unless they did).
    capabilities.sandbox = Some(resource.sandbox_capability(granted));
    let layout = Layout {
        viewport_width: env.vw,
        viewport_height: env.vh,
        inline_width: 0,
    };
    let context = HostContext {
        theme: Some(if env.dark { Theme::Dark } else { Theme::Light }),
        display_mode: Some(DisplayMode::Inline),
        available_display_modes: vec![
            DisplayMode::Inline,
            DisplayMode::Fullscreen,
            DisplayMode::Pip,
        ],
        container: Some(container_for(DisplayMode::Inline, layout)),
        locale: env.locale,
        time_zone: env.time_zone,
        user_agent: Some(format!("mcp-lens/{}", env!("CARGO_PKG_VERSION"))),
        // The tool (without a call's id when the app is only viewed).
        tool_info: Some(ToolInfo {
            id: call.call_id.clone(),
            tool,
        }),
        ..HostContext::default()
    };
    let mut session = AppSession::new(HostInfo::mcp_lens(), capabilities, context);
    session.set_tools(&tools);
    session.set_layout(layout);
    // Held (nothing is sent before `ui/notifications/initialized`), then released in order.
    if let Some(result) = &call.result {
        let _ = session.send_tool_input(&call.arguments);
        let _ = session.send_tool_result(result);
    }
    session
}

/// The permissions an app may ask for, as the person reads them.
const PERMISSION_NAMES: [(&str, &str); 4] = [
    ("camera", "Camera"),
    ("microphone", "Microphone"),
    ("geolocation", "Location"),
    ("clipboard-write", "Write to the clipboard"),
];

/// A tool's app, framed beside its result (or on its own, from "View app").
#[component]
pub fn McpApp(call: AppCall) -> impl IntoView {
    let connection = call.connection;
    let server = use_context::<Settings>()
        .map(|settings| settings.name.get_untracked())
        .unwrap_or_default();
    let preview = call.result.is_none();
    let host = Host {
        connection,
        server: StoredValue::new(server),
        uri: StoredValue::new(call.uri.clone()),
        tool: StoredValue::new(call.tool.clone()),
        call: StoredValue::new_local(call.clone()),
        stage: RwSignal::new(Stage::Reading),
        ready: RwSignal::new(false),
        session: StoredValue::new(None),
        frame: NodeRef::new(),
        frame_id: StoredValue::new(NEXT_FRAME.with(|n| {
            n.set(n.get() + 1);
            n.get().to_string()
        })),
        load: StoredValue::new(None),
        height: RwSignal::new(None),
        width: RwSignal::new(None),
        mode: RwSignal::new(DisplayMode::Inline),
        layout: RwSignal::new(Layout::default()),
        resource: StoredValue::new_local(None),
        requested: RwSignal::new(Permissions::default()),
        granted: RwSignal::new(Permissions::default()),
        allow: RwSignal::new(String::new()),
        notes: RwSignal::new(VecDeque::new()),
        notes_seen: StoredValue::new(0),
        link: RwSignal::new(None),
        display_ask: RwSignal::new(None),
        in_flight: StoredValue::new(Vec::new()),
        frame_loads: StoredValue::new(0),
        foreign: StoredValue::new((0.0, 0)),
    };
    let live_id = host.frame_id.get_value();
    let server_id = connection.id.get_value();
    super::live_apps::register(super::live_apps::LiveApp {
        server: server_id,
        frame: live_id.clone(),
        tool: std::rc::Rc::new(move || host.tool.try_get_value().unwrap_or_default()),
        teardown: std::rc::Rc::new(move || host.teardown()),
        closing: std::rc::Rc::new(move || host.stage.try_get_untracked() == Some(Stage::Closing)),
    });
    // What the app may reach, the domains refused, and those on the person's machine or
    // network (warnings).
    let resource = RwSignal::new(None::<(String, Vec<String>, Vec<String>)>);
    {
        let call = call.clone();
        spawn_local(async move {
            let read = ui_resource(connection, &call.uri).await;
            if host.stage.try_get_untracked() != Some(Stage::Reading) {
                return; // closed (or gone) while it was read
            }
            match read {
                Ok(ui) => {
                    let rejected = ui
                        .csp
                        .rejected
                        .iter()
                        .map(|r| {
                            let list = r.list.map_or("csp", |list| list.key());
                            format!("{list}: {} ({})", r.entry, r.reason)
                        })
                        .collect();
                    let reach = if ui.csp.reaches_network() {
                        format!(
                            "May reach: {}",
                            [
                                ("connect", &ui.csp.connect),
                                ("resources", &ui.csp.resource),
                                ("frames", &ui.csp.frame),
                                ("base", &ui.csp.base_uri)
                            ]
                            .iter()
                            .filter(|(_, list)| !list.is_empty())
                            .map(|(what, list)| format!("{what} {}", list.join(" ")))
                            .collect::<Vec<_>>()
                            .join("; ")
                        )
                    } else {
                        "No network access (the app declares no domains).".to_owned()
                    };
                    let local = ui
                        .csp
                        .local_sources()
                        .iter()
                        .map(ToString::to_string)
                        .collect();
                    let _ = resource.try_set(Some((reach, rejected, local)));
                    if ui.permissions.any() {
                        // Nothing is framed until the person has chosen: the frame's `allow`
                        // cannot change once it exists.
                        host.requested.set(ui.permissions);
                        host.resource.set_value(Some(ui));
                        host.stage.set(Stage::Asking);
                    } else {
                        host.start(&ui, Permissions::default());
                    }
                }
                Err(reason) => {
                    let _ = host.stage.try_set(Stage::Failed(reason));
                }
            }
        });
    }
    let listener = window_event_listener(leptos::ev::message, move |event| host.on_message(event));
    // The theme or a size changed: the app is told (`apps_host`'s `watch`).
    let env_listener =
        window_event_listener_untyped("mcp-lens-app-env", move |_| host.env_changed());
    let listeners = StoredValue::new_local(Some((listener, env_listener)));
    on_cleanup(move || {
        if let Some(Some((listener, env_listener))) = listeners.try_update_value(Option::take) {
            listener.remove();
            env_listener.remove();
        }
        super::live_apps::unregister(&live_id);
        if let Some(Some(frame)) = host.frame.try_get_untracked() {
            apps_host("unwatch", &frame, "");
        }
        // The view is going without having been closed first (another tab, another server):
        // the app is told, though its frame goes with the view at once. A re-run, another
        // tool and a disconnect close it first (`close_apps`) and wait for its answer.
        if let Some(Some(Some(request))) = host
            .session
            .try_update_value(|s| s.as_mut().map(AppSession::teardown))
        {
            host.send(vec![request]);
        }
        host.with_session(AppSession::close);
    });
    let stage_text = move || match host.stage.get() {
        Stage::Reading => "Reading the app…".to_owned(),
        Stage::Asking => "Waiting for your decision on permissions".to_owned(),
        Stage::Framed if host.ready.get() => "Running".to_owned(),
        Stage::Framed => "Starting…".to_owned(),
        Stage::Closing => "Closing…".to_owned(),
        Stage::Closed => "Closed".to_owned(),
        Stage::Failed(_) => "Not shown".to_owned(),
    };
    let framed = move || matches!(host.stage.get(), Stage::Framed | Stage::Closing);
    let container = move || container_for(host.mode.get(), host.layout.get());
    // Set through the CSSOM (`style:`), which the page's policy allows; a `style` attribute
    // it would refuse (no 'unsafe-inline'). The frame gets what the app is told it gets.
    let frame_height = move || {
        let wanted = host.height.get().unwrap_or(DEFAULT_HEIGHT_PX);
        let px = match container().0 {
            Dimension::Fixed(px) => px,
            Dimension::Max(max) => wanted.min(max),
            Dimension::Unbounded => wanted.min(INLINE_MAX_HEIGHT),
        };
        format!("{px}px")
    };
    let frame_width = move || match container().1 {
        Dimension::Fixed(px) => format!("{px}px"),
        _ => String::new(),
    };
    // Inline, the app's width is a minimum within the panel (as the reference host): a fixed
    // width would outlive a narrower panel and clip the app.
    let frame_min_width = move || match (host.mode.get(), host.width.get()) {
        (DisplayMode::Inline, Some(w)) => format!("min({w}px, 100%)"),
        _ => String::new(),
    };
    // The modes the person may switch to now (the host offers them and the app, if it said,
    // supports them).
    let offered = move |mode: DisplayMode| {
        host.ready.get()
            && host.mode.get() == DisplayMode::Inline
            && host
                .session
                .try_with_value(|s| s.as_ref().is_some_and(|s| s.offers(mode)))
                .unwrap_or(false)
    };
    let granted_text = move || {
        let requested = host.requested.get();
        if !requested.any() || host.stage.get() == Stage::Asking {
            return None;
        }
        let granted = requested.intersect(host.granted.get());
        let list = |p: Permissions| p.features().join(", ");
        Some(if granted.any() {
            format!(
                "Permissions asked for: {}; granted: {}.",
                list(requested),
                list(granted)
            )
        } else {
            format!("Permissions asked for: {}; none granted.", list(requested))
        })
    };
    view! {
        <section class="mcp-app" data-stage=move || format!("{:?}", host.stage.get()).to_lowercase()
            aria-label="MCP App">
            <header class="mcp-app-head">
                <strong>"MCP App"</strong>
                <code class="app-uri">{reveal_controls(&call.uri)}</code>
                <span class="app-stage" role="status">{stage_text}</span>
                <Show when=move || offered(DisplayMode::Fullscreen)>
                    <button class="secondary app-mode" data-mode="fullscreen"
                        on:click=move |_| host.show_in(DisplayMode::Fullscreen)>"Full screen"</button>
                </Show>
                <Show when=move || offered(DisplayMode::Pip)>
                    <button class="secondary app-mode" data-mode="pip"
                        on:click=move |_| host.show_in(DisplayMode::Pip)>"Picture-in-picture"</button>
                </Show>
                <Show when=framed>
                    <button class="secondary app-close" on:click=move |_| host.teardown()>"Close app"</button>
                </Show>
            </header>
            {preview.then(|| view! {
                <p class="muted app-preview">"Viewed on its own: the tool was not called, so the app gets no tool input or result."</p>
            })}
            {move || resource.get().map(|(reach, rejected, local)| view! {
                <p class="muted app-reach">{reach}</p>
                {(!local.is_empty()).then(|| view! {
                    <ul class="app-local" role="alert">
                        {local.into_iter().map(|warning| view! { <li class="warning app-local-source">{format!("Warning: {warning}")}</li> }).collect_view()}
                    </ul>
                })}
                {(!rejected.is_empty()).then(|| view! {
                    <ul class="app-rejected">
                        {rejected.into_iter().map(|r| view! { <li class="error">{format!("Domain refused: {r}")}</li> }).collect_view()}
                    </ul>
                })}
            })}
            {move || granted_text().map(|text| view! { <p class="muted app-granted">{text}</p> })}
            {move || match host.stage.get() {
                Stage::Failed(reason) => Some(view! { <p class="error app-error" role="alert">{reason}</p> }.into_any()),
                Stage::Asking => Some(view! { <PermissionChoice host/> }.into_any()),
                _ => None,
            }}
            <Show when=framed>
                <div class="app-frame-box" data-mode=move || host.mode.get().as_str()>
                    <iframe class="app-frame" node_ref=host.frame data-app=host.frame_id.get_value() title="MCP App (sandboxed)"
                        sandbox="allow-scripts" allow=host.allow.with_untracked(|a| (!a.is_empty()).then(|| a.clone())) referrerpolicy="no-referrer" src=PROXY_URL
                        style:height=frame_height style:width=frame_width style:min-width=frame_min_width
                        on:load=move |_| host.frame_loaded()></iframe>
                    // After the frame, so showing it never moves the frame (which would reload
                    // it); drawn above it by CSS.
                    <Show when=move || host.mode.get() != DisplayMode::Inline>
                        <div class="app-mode-bar">
                            <strong>"MCP App"</strong>
                            <button class="secondary app-exit-mode" on:click=move |_| host.show_in(DisplayMode::Inline)>
                                {move || if host.mode.get() == DisplayMode::Fullscreen { "Exit full screen" } else { "Back inline" }}
                            </button>
                        </div>
                    </Show>
                </div>
            </Show>
            {move || host.display_ask.get().filter(|_| framed()).map(|(_, mode)| view! {
                <div class="app-display-ask card" role="alertdialog" aria-label="The app asks to change how it is shown">
                    <p>{format!("The app asks to be shown {}, though you did nothing in it just now. Allow it?", match mode {
                        DisplayMode::Fullscreen => "full screen, covering this page",
                        DisplayMode::Pip => "picture-in-picture",
                        DisplayMode::Inline => "inline",
                    })}</p>
                    <button class="app-display-allow" on:click=move |_| host.decide_display_mode(true)>"Allow"</button>
                    <button class="secondary app-display-decline" on:click=move |_| host.decide_display_mode(false)>"Keep it inline"</button>
                </div>
            })}
            {move || host.link.get().map(|(_, link)| view! {
                <div class="app-link card" role="alertdialog" aria-label="The app asks to open a link">
                    <p>"The app asks to open this link in a new tab:"</p>
                    <p><code class="app-link-url">{reveal_controls(&link.url)}</code></p>
                    <button class="app-link-open" on:click=move |_| host.decide_link(true)>"Open"</button>
                    <button class="secondary app-link-decline" on:click=move |_| host.decide_link(false)>"Decline"</button>
                </div>
            })}
            <AppNotes notes=host.notes/>
        </section>
    }
}

/// The permissions the app's resource asks for, each unticked: the frame is made with only
/// those the person ticks.
#[component]
fn PermissionChoice(host: Host) -> impl IntoView {
    let requested = host.requested.get_untracked();
    let features = requested.features();
    let rows = PERMISSION_NAMES
        .iter()
        .filter(|(feature, _)| features.contains(feature))
        .map(|&(feature, name)| {
            let toggle = move |ev: leptos::ev::Event| {
                let on = event_target_checked(&ev);
                host.granted.update(|granted| granted.set(feature, on));
            };
            view! {
                <li><label>
                    <input type="checkbox" class="app-permission" data-permission=feature on:change=toggle/>
                    " " {name}
                </label></li>
            }
        })
        .collect_view();
    view! {
        <div class="app-permissions card" role="group" aria-label="Permissions the app asks for">
            <p>"The app asks for these permissions. It gets none unless you tick them:"</p>
            <ul>{rows}</ul>
            <button class="app-start" on:click=move |_| host.permissions_decided()>"Start the app"</button>
        </div>
    }
}

/// What the app said to the "chat" (there is none here: this is what one would receive),
/// its logs, and what the page noticed.
#[component]
fn AppNotes(notes: RwSignal<VecDeque<Note>>) -> impl IntoView {
    let rows = move || notes.with(|notes| notes.iter().cloned().collect::<Vec<_>>());
    view! {
        <Show when=move || notes.with(|n| !n.is_empty())>
            <div class="app-notes">
                <h3>"From the app"</h3>
                <ul>
                    <For each=rows key=|note| note.seq let:note>
                        <li class="app-note" data-kind=note.kind>
                            <span class="app-note-title">{note.title}</span>
                            <pre class="app-note-text">{note.text}</pre>
                        </li>
                    </For>
                </ul>
            </div>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
