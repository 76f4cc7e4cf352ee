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
mod tests;
