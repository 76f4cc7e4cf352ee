//! [`AppSession`]: one rendered app, host side, as a pure state machine. The page feeds it
//! every `postMessage` payload from the app's frame (after checking `event.source` is that
//! frame's window: anything else is ignored before it gets here) and every host event (tool
//! input, result, context change, teardown); it answers with the JSON to post to the frame
//! and an [`AppEvent`] saying what the page must do.
//!
//! Rules (the spec's, and the reference host's where the spec is silent):
//! - nothing is sent to the app before it sends `ui/notifications/initialized` (the spec:
//!   "The Host MUST NOT send any request or notification to the View before it receives an
//!   `initialized` notification"; `basic-host` awaits `oninitialized` before
//!   `sendToolInput`): notifications are held, then released in order;
//! - `ui/initialize` is answered at once, again if repeated (as `AppBridge`, which warns);
//! - `tools/call` only for tools of this server whose visibility includes `"app"`;
//! - requests waiting for the page or the person are capped ([`MAX_APP_REQUESTS`], one
//!   `ui/open-link` at a time), held notifications too ([`MAX_HELD`]; partial input and
//!   context changes are coalesced), so a flooding app cannot grow the host's memory;
//! - `ui/request-display-mode` for full screen is granted at once only when the person had
//!   just clicked or typed in the app (the sandbox proxy's `gesture`, which the app cannot
//!   set): otherwise the page asks the person ([`AppEvent::ConfirmDisplayMode`]), so an app
//!   cannot cover the page by itself;
//! - after teardown nothing is accepted or sent.

use std::collections::VecDeque;

use serde_json::{json, Map, Value};

use super::link::WebLink;
use super::message::{
    self, classify, codes, container_for, decide_display_mode, AppInit, AppMessage, DisplayMode,
    HostCapabilities, HostContext, HostInfo, Layout, RequestId, RpcError, Theme,
};
use super::spec::methods as m;
use super::tool::{ToolUi, Visibility};

/// Most app requests waiting for the page (a server call, the person) at once.
pub const MAX_APP_REQUESTS: usize = 16;

/// Most notifications held until the app is initialized.
pub const MAX_HELD: usize = 64;

/// The most characters of JSON text one message from an app may have: the sandbox proxy
/// (`src/apps/sandbox.js`, its `MAX_MESSAGE_CHARS`) relays none longer, and the page reads
/// none longer either. Apps send requests and notifications, not payloads: a tool's large
/// result goes to the app, not from it.
pub const MAX_APP_MESSAGE_CHARS: usize = 8 * 1024 * 1024;

/// What an app request waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Waiting {
    /// The page (a server call, a note).
    Page,
    /// The person's decision on a link (one at a time).
    Link,
    /// The person's decision on a display mode the app asked for by itself (one at a time).
    DisplayMode(DisplayMode),
}

/// Where the session is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    /// Framed; no `ui/initialize` yet.
    Loading,
    /// `ui/initialize` answered; waiting for `ui/notifications/initialized`.
    Initializing,
    /// Initialized: notifications flow.
    Ready,
    /// `ui/resource-teardown` sent; waiting for its answer.
    TearingDown { id: RequestId },
    /// Torn down: nothing is accepted or sent.
    Closed,
}

/// What the page must do about a message from the app. Whatever must be posted back to the
/// app is in [`Received::send`] already.
#[derive(Debug, Clone, PartialEq)]
pub enum AppEvent {
    /// Answered or noted; nothing else to do (log it).
    Handled,
    /// The handshake is complete (held notifications are in `send`).
    Initialized,
    /// Resize the frame (CSS pixels; `None`: that side did not change).
    Resize {
        width: Option<u32>,
        height: Option<u32>,
    },
    /// Proxy to the server, then [`AppSession::answer`] with its result or error.
    CallTool {
        id: RequestId,
        name: String,
        arguments: Option<Map<String, Value>>,
    },
    /// Proxy to the server, then answer.
    ReadResource { id: RequestId, uri: String },
    /// Ask the person; open it (new tab, `noopener`) and answer `{}` if they agree, else
    /// [`AppSession::deny`].
    OpenLink { id: RequestId, link: WebLink },
    /// Show what a chat would receive, then answer `{}`.
    Message { id: RequestId, content: Vec<Value> },
    /// Show it (it replaces the previous context), then answer `{}`.
    UpdateModelContext {
        id: RequestId,
        content: Option<Vec<Value>>,
        structured_content: Option<Map<String, Value>>,
    },
    /// Only when `downloadFile` is declared: ask the person, then answer.
    DownloadFile { id: RequestId, contents: Vec<Value> },
    /// Show the frame in this mode (already answered and announced to the app).
    DisplayMode { mode: DisplayMode },
    /// The app asked for `mode` (full screen) with no action of the person in it: ask the
    /// person, then [`AppSession::confirm_display_mode`] (which answers the app).
    ConfirmDisplayMode { id: RequestId, mode: DisplayMode },
    /// The app asks to be closed; the page decides (and calls [`AppSession::teardown`]).
    TeardownRequested,
    /// The app answered `ui/resource-teardown` (or failed it): remove the frame.
    TeardownDone { error: Option<RpcError> },
    /// The app cancelled its request `id`, which was waiting: cancel the server request if
    /// one is in flight, and send no answer (MCP: a cancelled request gets none).
    Cancelled {
        id: RequestId,
        reason: Option<String>,
    },
    /// `notifications/message` from the app.
    Log {
        level: String,
        logger: Option<String>,
        data: Value,
    },
    /// Refused (answered with an error if it was a request): log why.
    Refused { reason: String },
    /// Not acted on and not answered (a notification, a stray answer, garbage, or anything
    /// after teardown): log why.
    Ignored { reason: String },
}

/// The outcome of one message from the app.
#[derive(Debug, Clone, PartialEq)]
pub struct Received {
    /// Post these to the app's frame, in order.
    pub send: Vec<Value>,
    pub event: AppEvent,
}

impl Received {
    fn new(send: Vec<Value>, event: AppEvent) -> Self {
        Received { send, event }
    }

    fn only(event: AppEvent) -> Self {
        Received::new(Vec::new(), event)
    }
}

/// One app's host side.
///
/// ```
/// use mcp_lens_protocol::apps::message::{HostCapabilities, HostContext, HostInfo};
/// use mcp_lens_protocol::apps::{AppEvent, AppSession};
/// use serde_json::json;
///
/// let mut session = AppSession::new(
///     HostInfo::mcp_lens(),
///     HostCapabilities::mcp_lens(true, true),
///     HostContext::default(),
/// );
/// session.set_tools(&[json!({ "name": "refresh", "_meta": { "ui": { "visibility": ["app"] } } })]);
/// // The tool's input is held: the app is not initialized yet.
/// let args = json!({ "city": "Paris" }).as_object().unwrap().clone();
/// assert!(session.send_tool_input(&args).is_empty());
/// let init = session.receive(&json!({ "jsonrpc": "2.0", "id": 1, "method": "ui/initialize",
///     "params": { "appInfo": { "name": "a", "version": "1" }, "appCapabilities": {},
///                 "protocolVersion": "2026-01-26" } }));
/// assert_eq!(init.send[0]["result"]["protocolVersion"], "2026-01-26");
/// let ready = session.receive(&json!({ "jsonrpc": "2.0", "method": "ui/notifications/initialized" }));
/// assert_eq!(ready.event, AppEvent::Initialized);
/// assert_eq!(ready.send[0]["method"], "ui/notifications/tool-input");
/// // The app may call its app-only tool; the page proxies it and answers.
/// let call = session.receive(&json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
///     "params": { "name": "refresh" } }));
/// assert!(matches!(call.event, AppEvent::CallTool { .. }));
/// let id = mcp_lens_protocol::apps::message::RequestId::Number(2);
/// let answer = session.answer(&id, json!({ "content": [] })).unwrap();
/// assert_eq!(answer["id"], 2);
/// ```
#[derive(Debug, Clone)]
pub struct AppSession {
    phase: Phase,
    host: HostInfo,
    capabilities: HostCapabilities,
    context: HostContext,
    tools: Vec<(String, Visibility)>,
    app: Option<AppInit>,
    held: VecDeque<Value>,
    dropped: usize,
    /// App requests the page has yet to answer, and what each waits for.
    waiting: Vec<(RequestId, Waiting)>,
    next_host_id: i64,
    tool_input_sent: bool,
    /// Where the page can put the frame: `containerDimensions` follows it and the mode.
    layout: Layout,
}

impl AppSession {
    /// A session for a freshly framed app. `context` is what `ui/initialize` will report.
    pub fn new(host: HostInfo, capabilities: HostCapabilities, context: HostContext) -> Self {
        AppSession {
            phase: Phase::Loading,
            host,
            capabilities,
            context,
            tools: Vec::new(),
            app: None,
            held: VecDeque::new(),
            dropped: 0,
            waiting: Vec::new(),
            next_host_id: 0,
            tool_input_sent: false,
            layout: Layout::default(),
        }
    }

    /// The server's tools (as JSON, from `tools/list`): which the app may call. Replaces the
    /// previous list (call it again when the list changes). Tools without a string name are
    /// skipped.
    pub fn set_tools(&mut self, tools: &[Value]) {
        self.tools = tools
            .iter()
            .filter_map(|tool| {
                let name = tool.get("name")?.as_str()?;
                Some((name.to_owned(), ToolUi::from_tool(tool).visibility))
            })
            .collect();
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// What the app said about itself in `ui/initialize`.
    pub fn app(&self) -> Option<&AppInit> {
        self.app.as_ref()
    }

    pub fn context(&self) -> &HostContext {
        &self.context
    }

    /// How many notifications are held.
    pub fn held(&self) -> usize {
        self.held.len()
    }

    /// How many notifications were dropped because [`MAX_HELD`] were held.
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// How many app requests wait for the page.
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// Handles one message from the app (any JSON), sent with no action of the person.
    pub fn receive(&mut self, message: &Value) -> Received {
        self.handle(classify(message))
    }

    /// Handles an already classified message (e.g. from [`message::classify_text`]) sent
    /// with no action of the person.
    pub fn handle(&mut self, message: AppMessage) -> Received {
        self.handle_with_gesture(message, false)
    }

    /// Handles a message the app sent; `gesture`: the person had just clicked or typed in
    /// the app's frame when it came (the sandbox proxy says so; the app cannot). Only a
    /// request for full screen reads it.
    pub fn handle_with_gesture(&mut self, message: AppMessage, gesture: bool) -> Received {
        if self.phase == Phase::Closed {
            return Received::only(AppEvent::Ignored {
                reason: "the app was torn down".into(),
            });
        }
        if let Some(refusal) = self.undeclared(&message) {
            return refusal;
        }
        match message {
            AppMessage::Initialize { id, init } => {
                let result = message::initialize_result(
                    &init.protocol_version,
                    &self.host,
                    &self.capabilities,
                    &self.context,
                );
                self.app = Some(init);
                if self.phase == Phase::Loading {
                    self.phase = Phase::Initializing;
                }
                Received::new(vec![message::result(&id, result)], AppEvent::Handled)
            }
            AppMessage::Initialized => match self.phase {
                Phase::Loading | Phase::Initializing => {
                    self.phase = Phase::Ready;
                    Received::new(self.held.drain(..).collect(), AppEvent::Initialized)
                }
                _ => Received::only(AppEvent::Ignored {
                    reason: "ui/notifications/initialized again".into(),
                }),
            },
            AppMessage::SizeChanged { width, height } => {
                Received::only(AppEvent::Resize { width, height })
            }
            AppMessage::Ping { id } => {
                Received::new(vec![message::result(&id, json!({}))], AppEvent::Handled)
            }
            AppMessage::RequestDisplayMode { id, mode } => self.display_mode(id, mode, gesture),
            AppMessage::RequestTeardown => Received::only(AppEvent::TeardownRequested),
            AppMessage::Log {
                level,
                logger,
                data,
            } => Received::only(AppEvent::Log {
                level,
                logger,
                data,
            }),
            AppMessage::Response { id, outcome } => match &self.phase {
                Phase::TearingDown { id: teardown } if *teardown == id => {
                    self.phase = Phase::Closed;
                    self.held.clear();
                    self.waiting.clear();
                    Received::only(AppEvent::TeardownDone {
                        error: outcome.err(),
                    })
                }
                _ => Received::only(AppEvent::Ignored {
                    reason: "an answer to no request of the host".into(),
                }),
            },
            AppMessage::CallTool {
                id,
                name,
                arguments,
            } => match self.tools.iter().find(|(tool, _)| *tool == name) {
                None => {
                    let reason = format!("Unknown tool: {}", crate::error::excerpt(&name, 100));
                    self.refuse(&id, codes::INVALID_PARAMS, &reason)
                }
                Some((_, visibility)) if !visibility.app_may_call() => {
                    let reason = format!(
                            "Tool {} is not callable by the app (its _meta.ui.visibility does not include \"app\")",
                            crate::error::excerpt(&name, 100)
                        );
                    self.refuse(&id, codes::INVALID_PARAMS, &reason)
                }
                Some(_) => self.wait(id.clone(), Waiting::Page, |id| AppEvent::CallTool {
                    id,
                    name,
                    arguments,
                }),
            },
            AppMessage::ReadResource { id, uri } => {
                self.wait(id, Waiting::Page, |id| AppEvent::ReadResource { id, uri })
            }
            AppMessage::OpenLink { id, link, .. } => match link {
                Err(refusal) => self.refuse(&id, codes::DENIED, &format!("Invalid URL: {refusal}")),
                Ok(_) if self.waiting.iter().any(|(_, kind)| *kind == Waiting::Link) => self
                    .refuse(
                        &id,
                        codes::DENIED,
                        "Another link is waiting for the person's decision",
                    ),
                Ok(link) => self.wait(id, Waiting::Link, |id| AppEvent::OpenLink { id, link }),
            },
            AppMessage::Message { id, content } => {
                self.wait(id, Waiting::Page, |id| AppEvent::Message { id, content })
            }
            AppMessage::UpdateModelContext {
                id,
                content,
                structured_content,
            } => self.wait(id, Waiting::Page, |id| AppEvent::UpdateModelContext {
                id,
                content,
                structured_content,
            }),
            AppMessage::DownloadFile { id, contents } => self.wait(id, Waiting::Page, |id| {
                AppEvent::DownloadFile { id, contents }
            }),
            AppMessage::OtherRequest { id, method } => self.refuse(
                &id,
                codes::METHOD_NOT_FOUND,
                &format!("Method not found: {method}"),
            ),
            AppMessage::Cancelled { request_id, reason } => {
                if self.take_waiting(&request_id) {
                    Received::only(AppEvent::Cancelled {
                        id: request_id,
                        reason,
                    })
                } else {
                    Received::only(AppEvent::Ignored {
                        reason: "a cancellation of no waiting request".into(),
                    })
                }
            }
            AppMessage::OtherNotification { method } => Received::only(AppEvent::Ignored {
                reason: format!("a notification this host does not handle: {method}"),
            }),
            AppMessage::Invalid {
                id: Some(id),
                code,
                reason,
            } => self.refuse(&id, code, &reason),
            AppMessage::Invalid {
                id: None, reason, ..
            } => Received::only(AppEvent::Ignored { reason }),
        }
    }

    /// Requests for a capability the host did not declare: "method not found", as the SDK
    /// answers a method without a handler.
    fn undeclared(&self, message: &AppMessage) -> Option<Received> {
        let c = &self.capabilities;
        let declared = match message {
            AppMessage::CallTool { .. } => c.server_tools,
            AppMessage::ReadResource { .. } => c.server_resources,
            AppMessage::OpenLink { .. } => c.open_links,
            AppMessage::Message { .. } => c.message,
            AppMessage::UpdateModelContext { .. } => c.update_model_context,
            AppMessage::DownloadFile { .. } => c.download_file,
            _ => true,
        };
        if declared {
            return None;
        }
        let reason = format!("Method not found: {}", message.method().unwrap_or_default());
        Some(self.refuse(message.request_id()?, codes::METHOD_NOT_FOUND, &reason))
    }

    fn refuse(&self, id: &RequestId, code: i32, reason: &str) -> Received {
        Received::new(
            vec![message::error(id, code, reason)],
            AppEvent::Refused {
                reason: reason.to_owned(),
            },
        )
    }

    /// Counts a request the page must answer, unless too many wait or the id is in use.
    fn wait(
        &mut self,
        id: RequestId,
        kind: Waiting,
        event: impl FnOnce(RequestId) -> AppEvent,
    ) -> Received {
        if self.waiting.iter().any(|(waiting, _)| *waiting == id) {
            return self.refuse(
                &id,
                codes::INVALID_REQUEST,
                "The request id is already in use",
            );
        }
        if self.waiting.len() >= MAX_APP_REQUESTS {
            return self.refuse(
                &id,
                codes::DENIED,
                &format!("Too many requests in progress (at most {MAX_APP_REQUESTS})"),
            );
        }
        self.waiting.push((id.clone(), kind));
        Received::only(event(id))
    }

    fn display_mode(&mut self, id: RequestId, requested: DisplayMode, gesture: bool) -> Received {
        let current = self.context.display_mode.unwrap_or(DisplayMode::Inline);
        let app_modes = self
            .app
            .as_ref()
            .and_then(|app| app.display_modes.as_deref());
        let mode = decide_display_mode(
            requested,
            current,
            &self.context.available_display_modes,
            app_modes,
        );
        let answer = message::result(&id, json!({ "mode": mode.as_str() }));
        if mode == current {
            return Received::new(vec![answer], AppEvent::Handled);
        }
        // Full screen covers the page: without the person's own action in the app, the
        // person decides. One question at a time; another is answered with the mode it is in.
        if mode == DisplayMode::Fullscreen && !gesture {
            let asking = self
                .waiting
                .iter()
                .any(|(_, kind)| matches!(kind, Waiting::DisplayMode(_)));
            if asking {
                let answer = message::result(&id, json!({ "mode": current.as_str() }));
                return Received::new(vec![answer], AppEvent::Handled);
            }
            return self.wait(id, Waiting::DisplayMode(mode), |id| {
                AppEvent::ConfirmDisplayMode { id, mode }
            });
        }
        // As basic-host: the context change (the mode, and the container it comes with)
        // first, then the answer.
        let mut send = self.set_display_mode(mode);
        send.push(answer);
        Received::new(send, AppEvent::DisplayMode { mode })
    }

    /// The person decided on a display mode the app asked for by itself
    /// ([`AppEvent::ConfirmDisplayMode`]): allowed, the frame goes to that mode (the context
    /// change, then the answer); declined, the app is answered with the mode it is in, as a
    /// host that does not grant a mode answers. Returns what to post and the mode to show;
    /// `None` if that request is not waiting (answered already, cancelled, torn down).
    pub fn confirm_display_mode(
        &mut self,
        id: &RequestId,
        allowed: bool,
    ) -> Option<(Vec<Value>, DisplayMode)> {
        let at = self
            .waiting
            .iter()
            .position(|(waiting, kind)| waiting == id && matches!(kind, Waiting::DisplayMode(_)))?;
        if self.phase == Phase::Closed {
            return None;
        }
        let (_, kind) = self.waiting.remove(at);
        let current = self.context.display_mode.unwrap_or(DisplayMode::Inline);
        let mode = match kind {
            Waiting::DisplayMode(mode) if allowed => mode,
            _ => current,
        };
        let answer = message::result(id, json!({ "mode": mode.as_str() }));
        if mode == current {
            return Some((vec![answer], current));
        }
        let mut send = self.set_display_mode(mode);
        send.push(answer);
        Some((send, mode))
    }

    /// The display mode the frame is shown in now (the app asked, or the person changed it,
    /// e.g. "Exit full screen"): `displayMode` and the container that mode gives, as one
    /// `ui/notifications/host-context-changed` (if anything changed).
    pub fn set_display_mode(&mut self, mode: DisplayMode) -> Vec<Value> {
        let mut context = self.context.clone();
        context.display_mode = Some(mode);
        context.container = Some(container_for(mode, self.layout));
        self.set_host_context(context)
    }

    /// Whether the person may switch the frame to `mode` now: the host offers it and the app,
    /// if it declared its modes, listed it (the rule [`decide_display_mode`] applies to the
    /// app's own requests).
    pub fn offers(&self, mode: DisplayMode) -> bool {
        let app_modes = self
            .app
            .as_ref()
            .and_then(|app| app.display_modes.as_deref());
        let current = self.context.display_mode.unwrap_or(DisplayMode::Inline);
        mode != current
            && decide_display_mode(
                mode,
                current,
                &self.context.available_display_modes,
                app_modes,
            ) == mode
    }

    /// The page measured where the frame can go (the viewport or the panel changed size):
    /// `containerDimensions` for the current mode, sent if it changed.
    pub fn set_layout(&mut self, layout: Layout) -> Vec<Value> {
        self.layout = layout;
        let mode = self.context.display_mode.unwrap_or(DisplayMode::Inline);
        let mut context = self.context.clone();
        context.container = Some(container_for(mode, layout));
        self.set_host_context(context)
    }

    /// The person switched the page's theme (or the system's changed): `theme`, sent if it
    /// changed.
    pub fn set_theme(&mut self, theme: Theme) -> Vec<Value> {
        let mut context = self.context.clone();
        context.theme = Some(theme);
        self.set_host_context(context)
    }

    /// Answers a request an [`AppEvent`] handed to the page. `None` (send nothing) if it is
    /// not waiting (already answered, never asked) or the app was torn down.
    pub fn answer(&mut self, id: &RequestId, result: Value) -> Option<Value> {
        self.take_waiting(id).then(|| message::result(id, result))
    }

    /// Answers with an error: the server's JSON-RPC error for a proxied call (its code and
    /// message), [`codes::INTERNAL_ERROR`] when the server could not be reached, ...
    pub fn answer_error(&mut self, id: &RequestId, code: i32, text: &str) -> Option<Value> {
        self.take_waiting(id)
            .then(|| message::error(id, code, text))
    }

    /// The person declined (a link, a download): [`codes::DENIED`] with `reason` (e.g. the
    /// spec's "Link opening denied by user").
    pub fn deny(&mut self, id: &RequestId, reason: &str) -> Option<Value> {
        self.answer_error(id, codes::DENIED, reason)
    }

    fn take_waiting(&mut self, id: &RequestId) -> bool {
        if self.phase == Phase::Closed {
            return false;
        }
        match self.waiting.iter().position(|(waiting, _)| waiting == id) {
            Some(at) => {
                self.waiting.remove(at);
                true
            }
            None => false,
        }
    }

    /// Sends a notification now if the app is initialized, holds it otherwise; nothing after
    /// teardown began.
    fn notify(&mut self, notification: Value) -> Vec<Value> {
        match self.phase {
            Phase::Ready => vec![notification],
            Phase::Loading | Phase::Initializing => {
                self.hold(notification);
                Vec::new()
            }
            Phase::TearingDown { .. } | Phase::Closed => Vec::new(),
        }
    }

    fn hold(&mut self, notification: Value) {
        let method = notification.get("method").and_then(Value::as_str);
        let last_method = self
            .held
            .back()
            .and_then(|last| last.get("method"))
            .and_then(Value::as_str);
        // A newer partial input replaces the one just before it.
        if method == Some(m::TOOL_INPUT_PARTIAL) && last_method == Some(m::TOOL_INPUT_PARTIAL) {
            self.held.pop_back();
        }
        // Context changes merge into one held change (later values win).
        if method == Some(m::HOST_CONTEXT_CHANGED) {
            if let Some(held) = self
                .held
                .iter_mut()
                .find(|n| n.get("method").and_then(Value::as_str) == Some(m::HOST_CONTEXT_CHANGED))
            {
                if let (Some(into), Some(from)) = (
                    held.get_mut("params").and_then(Value::as_object_mut),
                    notification.get("params").and_then(Value::as_object),
                ) {
                    for (key, value) in from {
                        into.insert(key.clone(), value.clone());
                    }
                }
                return;
            }
        }
        if self.held.len() >= MAX_HELD {
            self.dropped += 1;
            return;
        }
        self.held.push_back(notification);
    }

    /// `ui/notifications/tool-input` (once; later calls send nothing).
    pub fn send_tool_input(&mut self, arguments: &Map<String, Value>) -> Vec<Value> {
        if self.tool_input_sent {
            return Vec::new();
        }
        self.tool_input_sent = true;
        self.notify(message::tool_input(arguments))
    }

    /// `ui/notifications/tool-input-partial`; nothing once the complete input was sent (the
    /// spec: the host "MUST stop sending once `ui/notifications/tool-input` is sent").
    pub fn send_tool_input_partial(&mut self, arguments: &Map<String, Value>) -> Vec<Value> {
        if self.tool_input_sent {
            return Vec::new();
        }
        self.notify(message::tool_input_partial(arguments))
    }

    /// `ui/notifications/tool-result` with the server's `CallToolResult`.
    pub fn send_tool_result(&mut self, call_tool_result: &Value) -> Vec<Value> {
        self.notify(message::tool_result(call_tool_result))
    }

    /// `ui/notifications/tool-cancelled` (the spec: MUST be sent when the call was cancelled
    /// for any reason, e.g. it failed: `basic-host` sends the error's message).
    pub fn send_tool_cancelled(&mut self, reason: Option<&str>) -> Vec<Value> {
        self.notify(message::tool_cancelled(reason))
    }

    /// Replaces the host context; if the app was told the old one, sends (or holds)
    /// `ui/notifications/host-context-changed` with the changed members only (as
    /// `AppBridge.setHostContext`: members compared as JSON). Before `ui/initialize` nothing
    /// is sent: the result will carry the new context.
    pub fn set_host_context(&mut self, context: HostContext) -> Vec<Value> {
        let old = self.context.to_json();
        let new = context.to_json();
        self.context = context;
        if self.phase == Phase::Loading {
            return Vec::new();
        }
        let mut changed = Map::new();
        if let Value::Object(new) = new {
            for (key, value) in new {
                if old.get(&key) != Some(&value) {
                    changed.insert(key, value);
                }
            }
        }
        if changed.is_empty() {
            return Vec::new();
        }
        self.notify(message::host_context_changed(changed))
    }

    /// Begins teardown: the `ui/resource-teardown` request to post (then wait for
    /// [`AppEvent::TeardownDone`], or a timeout of the page's choosing and [`AppSession::close`]).
    /// `None` when the app never finished initializing (nothing may be sent to it: remove the
    /// frame at once; the session is closed) or teardown already began.
    pub fn teardown(&mut self) -> Option<Value> {
        match self.phase {
            Phase::Ready => {
                let id = RequestId::Number(self.next_host_id);
                self.next_host_id += 1;
                self.phase = Phase::TearingDown { id: id.clone() };
                self.held.clear();
                Some(message::resource_teardown(&id))
            }
            Phase::Loading | Phase::Initializing => {
                self.close();
                None
            }
            Phase::TearingDown { .. } | Phase::Closed => None,
        }
    }

    /// Ends the session at once (the frame is gone): nothing is accepted or sent after.
    pub fn close(&mut self) {
        self.phase = Phase::Closed;
        self.held.clear();
        self.waiting.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::super::message::{Dimension, Theme};
    use super::*;

    fn session() -> AppSession {
        let context = HostContext {
            theme: Some(Theme::Light),
            display_mode: Some(DisplayMode::Inline),
            available_display_modes: vec![DisplayMode::Inline, DisplayMode::Fullscreen],
            container: Some((Dimension::Max(6000), Dimension::Unbounded)),
            ..HostContext::default()
        };
        let mut session = AppSession::new(
            HostInfo::mcp_lens(),
            HostCapabilities::mcp_lens(true, true),
            context,
        );
        session.set_tools(&[
            json!({ "name": "both" }),
            json!({ "name": "app_only", "_meta": { "ui": { "visibility": ["app"] } } }),
            json!({ "name": "model_only", "_meta": { "ui": { "visibility": ["model"] } } }),
            json!({ "name": "garbled", "_meta": { "ui": { "visibility": "app" } } }),
        ]);
        session
    }

    /// A measured page: a 1000 x 700 viewport, a 600 px wide panel.
    const LAYOUT: Layout = Layout {
        viewport_width: 1000,
        viewport_height: 700,
        inline_width: 600,
    };

    fn initialize(session: &mut AppSession) -> Received {
        session.receive(
            &json!({ "jsonrpc": "2.0", "id": 0, "method": "ui/initialize", "params": {
            "appInfo": { "name": "app", "version": "1" },
            "appCapabilities": { "availableDisplayModes": ["inline", "fullscreen"] },
            "protocolVersion": "2026-01-26" } }),
        )
    }

    fn initialized(session: &mut AppSession) -> Received {
        session.receive(&json!({ "jsonrpc": "2.0", "method": "ui/notifications/initialized" }))
    }

    fn ready() -> AppSession {
        let mut s = session();
        initialize(&mut s);
        initialized(&mut s);
        s
    }

    fn call(session: &mut AppSession, id: i64, name: &str) -> Received {
        session.receive(&json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
                                 "params": { "name": name, "arguments": {} } }))
    }

    fn args() -> Map<String, Value> {
        json!({ "location": "San Francisco" })
            .as_object()
            .unwrap()
            .clone()
    }

    #[test]
    fn notifications_wait_for_initialized_then_go_in_order() {
        let mut s = session();
        assert!(s.send_tool_input_partial(&args()).is_empty());
        assert!(s.send_tool_input_partial(&args()).is_empty());
        assert!(s.send_tool_input(&args()).is_empty());
        assert!(s.send_tool_result(&json!({ "content": [] })).is_empty());
        // Partials after the complete input are never sent.
        assert!(s.send_tool_input_partial(&args()).is_empty());
        assert_eq!(s.held(), 3);
        let init = initialize(&mut s);
        assert_eq!(
            init.send.len(),
            1,
            "only the initialize result before initialized"
        );
        let result = &init.send[0]["result"];
        assert_eq!(result["hostContext"]["theme"], "light");
        assert_eq!(
            result["hostContext"]["containerDimensions"],
            json!({ "maxHeight": 6000 })
        );
        assert_eq!(*s.phase(), Phase::Initializing);
        // Still held after initialize: only initialized releases them.
        assert!(s.send_tool_cancelled(None).is_empty());
        let released = initialized(&mut s);
        assert_eq!(released.event, AppEvent::Initialized);
        let methods: Vec<&str> = released
            .send
            .iter()
            .map(|n| n["method"].as_str().unwrap())
            .collect();
        assert_eq!(
            methods,
            [
                m::TOOL_INPUT_PARTIAL,
                m::TOOL_INPUT,
                m::TOOL_RESULT,
                m::TOOL_CANCELLED
            ]
        );
        assert_eq!(s.held(), 0);
        // Now sent at once; a second complete input is not.
        assert_eq!(s.send_tool_result(&json!({ "content": [] })).len(), 1);
        assert!(s.send_tool_input(&args()).is_empty());
        assert!(matches!(
            initialized(&mut s).event,
            AppEvent::Ignored { .. }
        ));
    }

    #[test]
    fn context_changes_are_diffed_merged_while_held_and_carried_by_initialize() {
        let mut s = session();
        // Before ui/initialize: nothing to send, the result carries it.
        let mut dark = s.context().clone();
        dark.theme = Some(Theme::Dark);
        assert!(s.set_host_context(dark.clone()).is_empty());
        let init = initialize(&mut s);
        assert_eq!(init.send[0]["result"]["hostContext"]["theme"], "dark");
        // Between initialize and initialized: held, merged into one.
        let mut next = dark.clone();
        next.locale = Some("fr-FR".into());
        assert!(s.set_host_context(next.clone()).is_empty());
        next.time_zone = Some("Europe/Paris".into());
        assert!(s.set_host_context(next.clone()).is_empty());
        assert!(
            s.set_host_context(next.clone()).is_empty(),
            "no change, nothing held"
        );
        assert_eq!(s.held(), 1);
        let released = initialized(&mut s);
        assert_eq!(
            released.send,
            [json!({ "jsonrpc": "2.0", "method": m::HOST_CONTEXT_CHANGED,
                     "params": { "locale": "fr-FR", "timeZone": "Europe/Paris" } })]
        );
        let mut light = next;
        light.theme = Some(Theme::Light);
        assert_eq!(
            s.set_host_context(light)[0]["params"],
            json!({ "theme": "light" })
        );
    }

    #[test]
    fn the_app_calls_only_tools_visible_to_it() {
        let mut s = ready();
        for (id, name) in [(1, "both"), (2, "app_only")] {
            match call(&mut s, id, name).event {
                AppEvent::CallTool { name: called, .. } => assert_eq!(called, name),
                other => panic!("{name}: {other:?}"),
            }
        }
        for (id, name, text) in [
            (3, "model_only", "not callable by the app"),
            (4, "garbled", "not callable by the app"),
            (5, "nope", "Unknown tool: nope"),
        ] {
            let out = call(&mut s, id, name);
            assert!(matches!(out.event, AppEvent::Refused { .. }), "{name}");
            assert_eq!(out.send[0]["id"], id);
            assert_eq!(out.send[0]["error"]["code"], codes::INVALID_PARAMS);
            assert!(
                out.send[0]["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains(text),
                "{name}"
            );
        }
        // A cancelled request is no longer waiting, and is not answered.
        let out = call(&mut s, 6, "both");
        assert!(matches!(out.event, AppEvent::CallTool { .. }));
        let cancel = json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 6 } });
        assert_eq!(
            s.receive(&cancel).event,
            AppEvent::Cancelled {
                id: RequestId::Number(6),
                reason: None
            }
        );
        assert!(matches!(s.receive(&cancel).event, AppEvent::Ignored { .. }));
        assert_eq!(s.answer(&RequestId::Number(6), json!({})), None);
        // Answers: once each, to waiting ids only.
        assert_eq!(s.waiting(), 2);
        assert_eq!(
            s.answer(&RequestId::Number(1), json!({ "content": [] }))
                .unwrap()["result"],
            json!({ "content": [] })
        );
        assert_eq!(s.answer(&RequestId::Number(1), json!({})), None);
        assert_eq!(s.answer(&RequestId::Number(3), json!({})), None);
        let failed = s
            .answer_error(&RequestId::Number(2), -32603, "server unreachable")
            .unwrap();
        assert_eq!(
            failed["error"],
            json!({ "code": -32603, "message": "server unreachable" })
        );
        // A server without tools: not proxied at all.
        let mut bare = AppSession::new(
            HostInfo::mcp_lens(),
            HostCapabilities::mcp_lens(false, false),
            HostContext::default(),
        );
        let out = call(&mut bare, 1, "both");
        assert_eq!(out.send[0]["error"]["code"], codes::METHOD_NOT_FOUND);
        let out = bare.receive(&json!({ "jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": { "uri": "ui://x" } }));
        assert_eq!(out.send[0]["error"]["code"], codes::METHOD_NOT_FOUND);
    }

    #[test]
    fn a_flooding_app_is_capped() {
        let mut s = ready();
        for id in 0..MAX_APP_REQUESTS as i64 {
            assert!(matches!(
                call(&mut s, id, "both").event,
                AppEvent::CallTool { .. }
            ));
        }
        // A reused id while waiting, and one too many.
        let out = call(&mut s, 0, "both");
        assert_eq!(out.send[0]["error"]["code"], codes::INVALID_REQUEST);
        let out = call(&mut s, 1000, "both");
        assert_eq!(out.send[0]["error"]["code"], codes::DENIED);
        assert_eq!(s.waiting(), MAX_APP_REQUESTS);
        // Notifications held before initialization are bounded too.
        let mut s = session();
        for _ in 0..(MAX_HELD * 3) {
            s.send_tool_result(&json!({}));
        }
        assert_eq!(s.held(), MAX_HELD);
        assert_eq!(s.dropped(), MAX_HELD * 2);
        // Partial input never piles up.
        let mut s = session();
        for _ in 0..1000 {
            s.send_tool_input_partial(&args());
        }
        assert_eq!(s.held(), 1);
        // Garbage costs nothing and is answered when it can be.
        let mut s = ready();
        for junk in [
            json!(1),
            json!("x"),
            json!({ "jsonrpc": "2.0", "id": 5, "method": "tools/call" }),
        ] {
            let out = s.receive(&junk);
            assert!(matches!(
                out.event,
                AppEvent::Ignored { .. } | AppEvent::Refused { .. }
            ));
        }
        assert_eq!(s.waiting(), 0);
    }

    #[test]
    fn links_are_checked_and_asked_one_at_a_time() {
        let mut s = ready();
        let link = |s: &mut AppSession, id: i64, url: &str| {
            s.receive(&json!({ "jsonrpc": "2.0", "id": id, "method": "ui/open-link", "params": { "url": url } }))
        };
        let out = link(&mut s, 1, "javascript:alert(document.cookie)");
        assert_eq!(out.send[0]["error"]["code"], codes::DENIED);
        assert!(out.send[0]["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Invalid URL"));
        assert!(matches!(
            link(&mut s, 2, "https://example.com").event,
            AppEvent::OpenLink { .. }
        ));
        let out = link(&mut s, 3, "https://example.org");
        assert_eq!(out.send[0]["error"]["code"], codes::DENIED);
        let denied = s
            .deny(&RequestId::Number(2), "Link opening denied by user")
            .unwrap();
        assert_eq!(denied["error"]["message"], "Link opening denied by user");
        assert!(matches!(
            link(&mut s, 4, "https://example.org").event,
            AppEvent::OpenLink { .. }
        ));
    }

    #[test]
    fn display_modes_follow_host_and_app_declarations() {
        let mut s = ready();
        s.set_layout(LAYOUT);
        // Asked from a click in the app (its proxy says so).
        let ask = |s: &mut AppSession, mode: &str| {
            s.handle_with_gesture(classify(&json!({ "jsonrpc": "2.0", "id": 9, "method": "ui/request-display-mode", "params": { "mode": mode } })), true)
        };
        let out = ask(&mut s, "fullscreen");
        assert_eq!(
            out.event,
            AppEvent::DisplayMode {
                mode: DisplayMode::Fullscreen
            }
        );
        assert_eq!(
            out.send[0]["params"],
            json!({ "displayMode": "fullscreen",
                    "containerDimensions": { "height": 660, "width": 1000 } })
        );
        assert_eq!(out.send[1]["result"], json!({ "mode": "fullscreen" }));
        // pip is not offered by the host: the current mode is returned, nothing changes.
        let out = ask(&mut s, "pip");
        assert_eq!(out.event, AppEvent::Handled);
        assert_eq!(
            out.send,
            [json!({ "jsonrpc": "2.0", "id": 9, "result": { "mode": "fullscreen" } })]
        );
    }

    #[test]
    fn full_screen_asked_with_no_action_of_the_person_waits_for_their_decision() {
        let mut s = ready();
        s.set_layout(LAYOUT);
        let ask = |s: &mut AppSession, id: i64, gesture: bool| {
            s.handle_with_gesture(
                classify(
                    &json!({ "jsonrpc": "2.0", "id": id, "method": "ui/request-display-mode",
                                  "params": { "mode": "fullscreen" } }),
                ),
                gesture,
            )
        };
        // On its own (at load, on a timer): nothing is sent, the person is asked.
        let out = ask(&mut s, 1, false);
        assert_eq!(
            out.event,
            AppEvent::ConfirmDisplayMode {
                id: RequestId::Number(1),
                mode: DisplayMode::Fullscreen
            }
        );
        assert!(out.send.is_empty());
        assert_eq!(s.context().display_mode, Some(DisplayMode::Inline));
        // Asked again meanwhile: answered with the mode it is in, no second question.
        let again = ask(&mut s, 2, false);
        assert_eq!(again.event, AppEvent::Handled);
        assert_eq!(again.send[0]["result"], json!({ "mode": "inline" }));
        // Declined: answered with the mode it is in; nothing changes.
        let (send, mode) = s
            .confirm_display_mode(&RequestId::Number(1), false)
            .expect("waiting");
        assert_eq!(mode, DisplayMode::Inline);
        assert_eq!(
            send,
            [json!({ "jsonrpc": "2.0", "id": 1, "result": { "mode": "inline" } })]
        );
        assert_eq!(s.confirm_display_mode(&RequestId::Number(1), true), None);
        // Asked again and allowed: the context change, then the answer.
        assert!(matches!(
            ask(&mut s, 3, false).event,
            AppEvent::ConfirmDisplayMode { .. }
        ));
        let (send, mode) = s
            .confirm_display_mode(&RequestId::Number(3), true)
            .expect("waiting");
        assert_eq!(mode, DisplayMode::Fullscreen);
        assert_eq!(send[0]["params"]["displayMode"], "fullscreen");
        assert_eq!(send[1]["result"], json!({ "mode": "fullscreen" }));
        // Back inline, then asked from a click in the app: granted at once.
        s.set_display_mode(DisplayMode::Inline);
        assert_eq!(
            ask(&mut s, 4, true).event,
            AppEvent::DisplayMode {
                mode: DisplayMode::Fullscreen
            }
        );
        // A question left open at teardown is never answered.
        let mut s = ready();
        assert!(matches!(
            ask(&mut s, 5, false).event,
            AppEvent::ConfirmDisplayMode { .. }
        ));
        s.close();
        assert_eq!(s.confirm_display_mode(&RequestId::Number(5), true), None);
        // Picture-in-picture covers no page: it needs no question.
        let mut s = session();
        let mut context = s.context().clone();
        context.available_display_modes = vec![DisplayMode::Inline, DisplayMode::Pip];
        s.set_host_context(context);
        initialized(&mut s);
        let pip = s.receive(
            &json!({ "jsonrpc": "2.0", "id": 6, "method": "ui/request-display-mode",
                                     "params": { "mode": "pip" } }),
        );
        assert_eq!(
            pip.event,
            AppEvent::DisplayMode {
                mode: DisplayMode::Pip
            }
        );
    }

    #[test]
    fn display_modes_carry_their_container_and_pip_is_granted_only_when_declared() {
        let layout = LAYOUT;
        let ask = |s: &mut AppSession, id: i64, mode: &str| {
            s.handle_with_gesture(
                classify(
                    &json!({ "jsonrpc": "2.0", "id": id, "method": "ui/request-display-mode",
                               "params": { "mode": mode } }),
                ),
                true,
            )
        };
        let mut s = session();
        let mut context = s.context().clone();
        context.available_display_modes = vec![
            DisplayMode::Inline,
            DisplayMode::Fullscreen,
            DisplayMode::Pip,
        ];
        s.set_host_context(context);
        // Measured before initialize: nothing sent, the result carries it.
        assert!(s.set_layout(layout).is_empty());
        let init = s.receive(
            &json!({ "jsonrpc": "2.0", "id": 0, "method": "ui/initialize",
            "params": { "appInfo": { "name": "app", "version": "1" }, "appCapabilities": {},
                        "protocolVersion": "2026-01-26" } }),
        );
        let context = &init.send[0]["result"]["hostContext"];
        assert_eq!(
            context["containerDimensions"],
            json!({ "maxHeight": 6000, "maxWidth": 600 })
        );
        assert_eq!(
            context["availableDisplayModes"],
            json!(["inline", "fullscreen", "pip"])
        );
        initialized(&mut s);
        // The app declared no modes: pip is granted, with a fixed width and a capped height.
        let out = ask(&mut s, 1, "pip");
        assert_eq!(
            out.event,
            AppEvent::DisplayMode {
                mode: DisplayMode::Pip
            }
        );
        assert_eq!(
            out.send,
            [
                json!({ "jsonrpc": "2.0", "method": m::HOST_CONTEXT_CHANGED, "params": {
                    "displayMode": "pip",
                    "containerDimensions": { "maxHeight": 350, "width": 400 } } }),
                json!({ "jsonrpc": "2.0", "id": 1, "result": { "mode": "pip" } }),
            ]
        );
        let out = ask(&mut s, 2, "fullscreen");
        assert_eq!(
            out.send[0]["params"],
            json!({ "displayMode": "fullscreen",
                    "containerDimensions": { "height": 660, "width": 1000 } })
        );
        // The viewport grows while full screen: the container follows; a second identical
        // measure sends nothing.
        let bigger = Layout {
            viewport_width: 1200,
            ..layout
        };
        assert_eq!(
            s.set_layout(bigger),
            [
                json!({ "jsonrpc": "2.0", "method": m::HOST_CONTEXT_CHANGED, "params": {
                "containerDimensions": { "height": 660, "width": 1200 } } })
            ]
        );
        assert!(s.set_layout(bigger).is_empty());
        // The person leaves full screen: inline again, with the panel's width.
        assert_eq!(
            s.set_display_mode(DisplayMode::Inline),
            [
                json!({ "jsonrpc": "2.0", "method": m::HOST_CONTEXT_CHANGED, "params": {
                "displayMode": "inline",
                "containerDimensions": { "maxHeight": 6000, "maxWidth": 600 } } })
            ]
        );
        // Asking for the mode it is in: answered, nothing announced.
        let out = ask(&mut s, 3, "inline");
        assert_eq!(out.event, AppEvent::Handled);
        assert_eq!(out.send.len(), 1);

        assert!(s.offers(DisplayMode::Pip) && s.offers(DisplayMode::Fullscreen));
        assert!(!s.offers(DisplayMode::Inline), "the mode it is in");

        // An app that declared only inline and fullscreen is answered with the mode it is in,
        // and the person is not offered pip either.
        let mut s = ready();
        let mut context = s.context().clone();
        context.available_display_modes = vec![
            DisplayMode::Inline,
            DisplayMode::Fullscreen,
            DisplayMode::Pip,
        ];
        s.set_host_context(context);
        assert!(!s.offers(DisplayMode::Pip) && s.offers(DisplayMode::Fullscreen));
        let out = ask(&mut s, 4, "pip");
        assert_eq!(out.event, AppEvent::Handled);
        assert_eq!(
            out.send,
            [json!({ "jsonrpc": "2.0", "id": 4, "result": { "mode": "inline" } })]
        );
    }

    #[test]
    fn theme_changes_reach_a_running_app_once_and_none_after_teardown() {
        let mut s = ready();
        assert!(s.set_theme(Theme::Light).is_empty(), "unchanged");
        assert_eq!(
            s.set_theme(Theme::Dark),
            [json!({ "jsonrpc": "2.0", "method": m::HOST_CONTEXT_CHANGED,
                     "params": { "theme": "dark" } })]
        );
        assert!(s.teardown().is_some());
        assert!(s.set_theme(Theme::Light).is_empty());
        assert!(s
            .set_layout(Layout {
                viewport_width: 10,
                viewport_height: 10,
                inline_width: 10
            })
            .is_empty());
    }

    #[test]
    fn teardown_waits_for_the_answer_then_accepts_nothing() {
        let mut s = ready();
        let out = call(&mut s, 1, "both");
        assert!(matches!(out.event, AppEvent::CallTool { .. }));
        let request = s.teardown().unwrap();
        assert_eq!(request["method"], m::RESOURCE_TEARDOWN);
        assert!(s.teardown().is_none());
        assert!(s.send_tool_result(&json!({})).is_empty());
        // A stray answer does not end it.
        let stray = s.receive(&json!({ "jsonrpc": "2.0", "id": 77, "result": {} }));
        assert!(matches!(stray.event, AppEvent::Ignored { .. }));
        let done =
            s.receive(&json!({ "jsonrpc": "2.0", "id": request["id"].clone(), "result": {} }));
        assert_eq!(done.event, AppEvent::TeardownDone { error: None });
        assert_eq!(*s.phase(), Phase::Closed);
        for message in [
            json!({ "jsonrpc": "2.0", "id": 2, "method": "ping" }),
            json!({ "jsonrpc": "2.0", "method": "ui/notifications/initialized" }),
        ] {
            let out = s.receive(&message);
            assert!(out.send.is_empty());
            assert!(matches!(out.event, AppEvent::Ignored { .. }));
        }
        assert_eq!(s.answer(&RequestId::Number(1), json!({})), None);
        assert!(s.send_tool_input(&args()).is_empty());
        // Never initialized: nothing may be sent, so teardown is immediate.
        let mut early = session();
        assert!(early.teardown().is_none());
        assert_eq!(*early.phase(), Phase::Closed);
    }

    #[test]
    fn other_requests_and_undeclared_capabilities_are_method_not_found() {
        let mut s = ready();
        for method in [
            "resources/list",
            "sampling/createMessage",
            "ui/download-file",
        ] {
            let out = s.receive(&json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": { "contents": [] } }));
            assert_eq!(
                out.send[0]["error"]["code"],
                codes::METHOD_NOT_FOUND,
                "{method}"
            );
        }
        let out = s.receive(&json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" }));
        assert_eq!(
            out.send,
            [json!({ "jsonrpc": "2.0", "id": 1, "result": {} })]
        );
        let out = s.receive(&json!({ "jsonrpc": "2.0", "method": "ui/notifications/sandbox-proxy-ready", "params": {} }));
        assert!(matches!(out.event, AppEvent::Ignored { .. }));
        let out = s.receive(&json!({ "jsonrpc": "2.0", "method": "ui/notifications/size-changed", "params": { "height": 120 } }));
        assert_eq!(
            out.event,
            AppEvent::Resize {
                width: None,
                height: Some(120)
            }
        );
    }
}
