//! The host side of one framed app ([`Host`]): the messages between the app (through the
//! sandbox proxy), its `AppSession` (`crate::protocol::apps`, which decides) and the server,
//! each logged in the wire log; and its session made for a call ([`new_session`]).

use super::host_js::*;
use super::model::*;
use crate::client::browser::timer::sleep;
use crate::client::McpClient;
use crate::protocol::apps::csp::{with_csp_meta, SANDBOX};
use crate::protocol::apps::message::{
    classify_text, container_for, DisplayMode, HostCapabilities, HostContext, HostInfo, Layout,
    Theme, ToolInfo,
};
use crate::protocol::apps::session::{Phase, MAX_APP_MESSAGE_CHARS};
use crate::protocol::apps::{AppEvent, AppSession, Permissions, UiResource, WebLink};
use crate::protocol::error::{ErrorKind, McpError, Step};
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::shrink::shrink_text;
use crate::protocol::wire_log::{Direction, WireEntry};
use crate::ui::store::{manager, Connection};
use leptos::html::Iframe;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// The host side of one framed app: signals the view reads, and the session.
#[derive(Clone, Copy)]
pub(super) struct Host {
    pub(super) connection: Connection,
    /// The server's name, as the wire log shows it.
    pub(super) server: StoredValue<String>,
    pub(super) uri: StoredValue<String>,
    /// The tool whose app this is.
    pub(super) tool: StoredValue<String>,
    pub(super) call: StoredValue<AppCall, LocalStorage>,
    pub(super) stage: RwSignal<Stage>,
    /// The app said `ui/notifications/initialized`.
    pub(super) ready: RwSignal<bool>,
    pub(super) session: StoredValue<Option<AppSession>>,
    pub(super) frame: NodeRef<Iframe>,
    /// This frame's `data-app`.
    pub(super) frame_id: StoredValue<String>,
    /// What the proxy frames once it says it is ready: `{ html, csp, sandbox, allow }`.
    pub(super) load: StoredValue<Option<Value>>,
    pub(super) height: RwSignal<Option<u32>>,
    pub(super) width: RwSignal<Option<u32>>,
    /// How the frame is shown (the app asked, or the person chose).
    pub(super) mode: RwSignal<DisplayMode>,
    /// The viewport and the frame's inline width, as last measured.
    pub(super) layout: RwSignal<Layout>,
    /// The resource read, until the app is framed (kept while the person decides on its
    /// permissions).
    pub(super) resource: StoredValue<Option<Rc<UiResource>>, LocalStorage>,
    /// What it asks for, and what the person ticked (nothing until they do).
    pub(super) requested: RwSignal<Permissions>,
    pub(super) granted: RwSignal<Permissions>,
    /// The frame's `allow` attribute (set before the frame is made: it cannot change after).
    pub(super) allow: RwSignal<String>,
    pub(super) notes: RwSignal<VecDeque<Note>>,
    pub(super) notes_seen: StoredValue<u64>,
    /// A `ui/open-link` waiting for the person.
    pub(super) link: RwSignal<Option<(RequestId, WebLink)>>,
    /// A display mode the app asked for with no action of the person in it, waiting for
    /// their decision.
    pub(super) display_ask: RwSignal<Option<(RequestId, DisplayMode)>>,
    /// The app's requests proxied to the server: (the app's id, the server request's id).
    pub(super) in_flight: StoredValue<Vec<(RequestId, RequestId)>>,
    pub(super) frame_loads: StoredValue<u32>,
    /// (start of the current second, messages from other windows in it).
    pub(super) foreign: StoredValue<(f64, u32)>,
}

impl Host {
    pub(super) fn log(self, direction: Direction, body: &str, failure: Option<String>) {
        let entry = WireEntry::app(
            self.server.get_value(),
            now_ms(),
            direction,
            self.uri.get_value(),
            body,
            failure,
        );
        self.connection.log_wire(entry);
    }

    pub(super) fn note(self, kind: &'static str, mut title: String, mut text: String) {
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
    pub(super) fn to_proxy(self, envelope: &Value) {
        if let Some(frame) = self.frame.get_untracked() {
            apps_host("post", &frame, &envelope.to_string());
        }
    }

    /// Sends the session's messages to the app, each logged.
    pub(super) fn send(self, messages: Vec<Value>) {
        for message in messages {
            let text = message.to_string();
            self.log(Direction::Sent, &text, None);
            self.to_proxy(&json!({ "post": text }));
        }
    }

    pub(super) fn with_session<R>(self, f: impl FnOnce(&mut AppSession) -> R) -> Option<R> {
        self.session
            .try_update_value(|session| session.as_mut().map(f))
            .flatten()
    }

    /// The app is gone (failed, or torn down without an answer): nothing more is sent.
    pub(super) fn fail(self, reason: String) {
        self.with_session(AppSession::close);
        self.note("notice", "Closed".to_owned(), reason.clone());
        self.stage.set(Stage::Failed(reason));
    }

    /// A `message` event anywhere on the page.
    pub(super) fn on_message(self, event: web_sys::MessageEvent) {
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

    pub(super) fn proxy_said(self, envelope: Envelope) {
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
    pub(super) fn foreign_message(self, envelope: &Envelope) {
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

    pub(super) fn proxy_ready(self) {
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

    pub(super) fn app_said(self, text: &str, gesture: bool) {
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
    pub(super) fn app_too_large(self, chars: usize, start: &str) {
        let why = format!(
            "refused: the app sent {chars} characters in one message, more than the {} an app message may have; only its first {} are logged",
            MAX_APP_MESSAGE_CHARS, TOO_LARGE_KEPT_CHARS
        );
        self.log(Direction::Received, start, Some(why));
    }

    /// The person decided on a display mode the app asked for by itself.
    pub(super) fn decide_display_mode(self, allowed: bool) {
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

    pub(super) fn answer(self, id: &RequestId, outcome: Result<Value, McpError>) {
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
    pub(super) fn client_for(self, id: &RequestId, step: Step) -> Option<McpClient> {
        let client = self.connection.client();
        if client.is_none() {
            self.answer(id, Err(McpError::new(step, ErrorKind::NotConnected)));
        }
        client
    }

    pub(super) fn act(self, event: AppEvent) {
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
    pub(super) fn decide_link(self, open: bool) {
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
    pub(super) fn teardown(self) {
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
    pub(super) fn start(self, ui: &UiResource, granted: Permissions) {
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
    pub(super) fn permissions_decided(self) {
        if self.stage.get_untracked() != Stage::Asking {
            return;
        }
        if let Some(ui) = self.resource.try_update_value(Option::take).flatten() {
            self.start(&ui, self.granted.get_untracked());
        }
    }

    /// The page as the app is told of it: theme, viewport, the frame's width.
    pub(super) fn page_env(self) -> PageEnv {
        let frame = self.frame.try_get_untracked().flatten();
        let target = frame.map_or(JsValue::NULL, JsValue::from);
        serde_json::from_str(&apps_host("env", &target, "")).unwrap_or_default()
    }

    /// The theme, the viewport or the frame's size changed (or may have): the app is sent
    /// what changed of its host context, if anything did.
    pub(super) fn env_changed(self) {
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
    pub(super) fn show_in(self, mode: DisplayMode) {
        if let Some(changed) = self.with_session(|s| s.set_display_mode(mode)) {
            self.mode.set(mode);
            self.send(changed);
        }
    }

    /// The frame was (re)loaded: the proxy's first document, or a navigation away from it.
    pub(super) fn frame_loaded(self) {
        self.frame_loads.update_value(|n| *n += 1);
        if self.frame_loads.get_value() > 1 && matches!(self.stage.get_untracked(), Stage::Framed) {
            self.fail(
                "The sandbox frame loaded another document; mcp-lens closed the app.".to_owned(),
            );
        }
    }
}

/// The session for `resource`, with the call's input and result (if the app renders one)
/// already queued (held until the app is initialized); `granted`: the permissions the person
/// gave it.
pub(super) fn new_session(
    call: &AppCall,
    resource: &UiResource,
    granted: Permissions,
    env: PageEnv,
) -> AppSession {
    let tools: Vec<Value> = manager()
        .tools(&call.connection.id(), true)
        .unwrap_or_default()
        .iter()
        .filter_map(|tool| serde_json::to_value(tool).ok())
        .collect();
    let tool = tools
        .iter()
        .find(|tool| tool.get("name").and_then(Value::as_str) == Some(call.tool.as_str()))
        .cloned()
        .unwrap_or_else(|| json!({ "name": call.tool }));
    let (server_tools, server_resources) = call.connection.server().with_untracked(|state| {
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

/// What `apps_host("message", ...)` says of a message that is not app text.
#[derive(serde::Deserialize, Default)]
pub(super) struct Envelope {
    pub(super) frame: Option<String>,
    pub(super) origin: String,
    pub(super) proxy: Option<String>,
    pub(super) count: Option<f64>,
    pub(super) reason: Option<String>,
    pub(super) body: String,
}
