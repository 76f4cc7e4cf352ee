//! The MCP client of mcp-lens: one session with one server over Streamable HTTP or the
//! legacy HTTP+SSE transport, through the browser's `fetch`, in either protocol era.
//!
//! Correlation and timeouts live here, above the transports (as in the TypeScript SDK's
//! `Protocol`): every request gets an id and a waiter in the pending table; whatever stream an
//! answer arrives on, it is matched by id. Server-to-client requests are answered here too.
//!
//! Architecture invariant: no UI framework here (no Leptos); the rules are data in
//! [`mcp_lens_protocol`] (re-exported as [`protocol`]), the browser I/O is [`browser`].
//!
//! ```no_run
//! # async fn run() -> Result<(), mcp_lens_client::protocol::error::McpError> {
//! use mcp_lens_client::{ClientConfig, McpClient};
//! let config = ClientConfig::new("http://127.0.0.1:3001/mcp".to_owned());
//! let (client, state) = McpClient::connect(config, |event| { let _ = event; }).await?;
//! let tools = state.tools.and_then(Result::ok).unwrap_or_default();
//! println!("{} tools", tools.len());
//! let (_id, call) = client.call_tool("echo", serde_json::Map::from_iter([
//!     ("message".to_owned(), serde_json::json!("hi")),
//! ]));
//! let result = call.await?;
//! println!("{:?}", result.content);
//! client.disconnect().await?;
//! # Ok(()) }
//! ```

pub use mcp_lens_protocol as protocol;

pub mod browser;
pub mod config;
mod get_stream;
mod incoming;
mod legacy;
mod listen;
pub mod manager;
pub mod saved;
mod wire;

use crate::browser::http::{Abort, HttpRequest, SseReader};
use crate::browser::timer::{now_ms, sleep};
pub use config::ClientConfig;
use futures::channel::oneshot;
use futures::future::{select, Either, LocalBoxFuture, Shared};
use futures::FutureExt;
use mcp_lens_protocol::deadline::{Deadline, Expired};
use mcp_lens_protocol::era::{self, DiscoverFailed, VersionChoice};
use mcp_lens_protocol::error::{ErrorKind, McpError, Step};
use mcp_lens_protocol::jsonrpc::{encode_notification, encode_request, IdAllocator, RequestId};
use mcp_lens_protocol::mcp::{self, decode_result};
use mcp_lens_protocol::pending::PendingRequests;
use mcp_lens_protocol::resume::{Next, ResumeState};
use mcp_lens_protocol::streamable::{
    adopted_session_id, classify_answer, media_type, session_gone, AnswerError, AnswerForm, Sent,
    Session, SESSION_ID_HEADER,
};
use mcp_lens_protocol::transport_choice::{
    auto_prefers_legacy, falls_back_to_legacy, TransportChoice, TransportUsed,
};
use rmcp::model::{
    CallToolResult, GetPromptResult, InitializeResult, JsonObject, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, Prompt, ReadResourceResult,
    Resource, ResourceTemplate, Tool,
};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::pin::pin;
use std::rc::Rc;
use wire::LoggedResponse;

/// A server that keeps asking for input (2026-07-28 `input_required`) is cut off after this
/// many rounds.
const MAX_INPUT_ROUNDS: u32 = 8;
/// A server that keeps handing out cursors is cut off after this many pages.
const MAX_PAGES: usize = 100;

/// Something the server said, or that the client noticed, outside of a request's answer.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientEvent {
    Notification {
        method: String,
        params: Option<Value>,
    },
    /// A request from the server that waits for a person (sampling, elicitation): answer it
    /// with [`McpClient::answer_server_request`].
    ServerRequest {
        id: RequestId,
        method: String,
        params: Option<Value>,
    },
    /// A server request nobody answered in time; it was declined.
    ServerRequestExpired { id: RequestId },
    /// A server request the client answered by itself (ping, roots/list, unsupported ones).
    Answered {
        id: RequestId,
        method: String,
        how: String,
    },
    /// Progress of one of our requests (its id is the progress token).
    Progress(Progress),
    /// A list changed on the server and was fetched again.
    ListChanged(ListUpdate),
    /// A message that was logged and otherwise ignored (unknown id, malformed JSON, ...).
    Ignored { reason: String },
    /// The stream that carried the server's messages ended: the session is unusable.
    ConnectionLost { reason: String },
    /// A message or HTTP exchange, for the wire log (already redacted).
    Wire(mcp_lens_protocol::wire_log::WireEntry),
    /// The answer to (or failure of) an HTTP request logged as pending.
    WireAnswer(mcp_lens_protocol::wire_log::WireAnswer),
    /// The server lost the session; a new one was initialized and the request replayed.
    SessionRenewed { reason: String },
    /// The server offers no stream for its own messages (no standalone GET stream, or no
    /// `subscriptions/listen`): a fact about the server, said once per session.
    NoServerStream { reason: String },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub request: RequestId,
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    Tools,
    Prompts,
    Resources,
    Templates,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ListUpdate {
    Tools(Result<Vec<Tool>, McpError>),
    Prompts(Result<Vec<Prompt>, McpError>),
    Resources(Result<Vec<Resource>, McpError>),
    Templates(Result<Vec<ResourceTemplate>, McpError>),
}

/// Everything the server offered at connect time. A list the server does not offer is `None`.
#[derive(Debug, Clone)]
pub struct ServerState {
    pub info: InitializeResult,
    /// The transport in use and why it was chosen.
    pub transport: TransportUsed,
    /// Why this protocol era (stateless 2026-07-28, or the handshake) is in use.
    pub era_reason: String,
    pub tools: Option<Result<Vec<Tool>, McpError>>,
    pub prompts: Option<Result<Vec<Prompt>, McpError>>,
    pub resources: Option<Result<Vec<Resource>, McpError>>,
    /// Fetched after the connect result is painted; `None` until then (or when the server
    /// offers no resources).
    pub templates: Option<Result<Vec<ResourceTemplate>, McpError>>,
}

type Answer = Result<Value, ErrorKind>;

/// A session renewal that every request which lost the session awaits.
type Renewal = Shared<LocalBoxFuture<'static, Result<(), McpError>>>;

struct Waiter {
    answer: oneshot::Sender<Answer>,
    abort: Abort,
    /// When the request was sent or last reported progress (for the idle timeout).
    activity: Rc<Cell<f64>>,
}

/// Where messages go once connected.
enum Wire {
    /// Streamable HTTP: every message is POSTed to the configured URL.
    Streamable,
    /// Legacy HTTP+SSE: messages are POSTed to the endpoint the SSE stream named; answers
    /// come back on that stream, which `stream` aborts.
    Legacy { post_url: String, stream: Abort },
}

struct Inner {
    config: ClientConfig,
    wire: RefCell<Wire>,
    session: RefCell<Session>,
    ids: RefCell<IdAllocator>,
    pending: RefCell<PendingRequests<Waiter>>,
    /// Server requests shown to a person and not answered yet.
    awaiting_person: RefCell<Vec<RequestId>>,
    /// A session renewal in progress (after the server lost the session).
    renewal: RefCell<Option<Renewal>>,
    /// The standalone GET stream (or `subscriptions/listen`) in flight, aborted on disconnect.
    get_stream: RefCell<Option<Abort>>,
    on_event: Box<dyn Fn(ClientEvent)>,
    closed: Cell<bool>,
    /// Speaking the stateless 2026-07-28 era (no session; envelope and routing headers).
    modern: Cell<bool>,
    /// Requests embedded in `input_required` results, waiting for a person's answer.
    input_waiters: RefCell<Vec<(RequestId, PersonAnswer)>>,
    era_reason: RefCell<String>,
    /// HTTP exchanges sent so far (numbers them for the wire log).
    exchanges: Cell<u64>,
}

/// Where a person's answer to an embedded (2026-07-28) input request goes.
type PersonAnswer = oneshot::Sender<Result<Value, (i32, String)>>;

/// A handle to one session; clones share it.
#[derive(Clone)]
pub struct McpClient(Rc<Inner>);

impl McpClient {
    /// Initializes a session, sends `notifications/initialized`, then fetches the tools,
    /// prompts and resources in parallel, each only if the server offers it.
    pub async fn connect(
        config: ClientConfig,
        on_event: impl Fn(ClientEvent) + 'static,
    ) -> Result<(McpClient, ServerState), McpError> {
        let choice = config.transport;
        let client = McpClient(Rc::new(Inner {
            config,
            wire: RefCell::new(Wire::Streamable),
            session: RefCell::default(),
            ids: RefCell::default(),
            pending: RefCell::default(),
            awaiting_person: RefCell::default(),
            renewal: RefCell::default(),
            get_stream: RefCell::default(),
            on_event: Box::new(on_event),
            closed: Cell::new(false),
            modern: Cell::new(false),
            input_waiters: RefCell::default(),
            era_reason: RefCell::default(),
            exchanges: Cell::new(0),
        }));
        let (info, transport) = client.initialize(choice).await?;
        let info: InitializeResult = decode(Step::Initialize, mcp::INITIALIZE, info)?;
        client.0.session.borrow_mut().protocol_version = Some(info.protocol_version.to_string());
        let modern = client.0.modern.get();
        if !modern {
            if let Err(error) = client
                .notify(Step::Initialized, mcp::INITIALIZED, None)
                .await
            {
                let _ = client.disconnect().await;
                return Err(error);
            }
        }
        let capabilities = &info.capabilities;
        let offers_resources = capabilities.resources.is_some();
        let (tools, prompts, resources) = futures::join!(
            client.list_if(capabilities.tools.is_some(), |c| c.list_tools()),
            client.list_if(capabilities.prompts.is_some(), |c| c.list_prompts()),
            client.list_if(offers_resources, |c| c.list_resources()),
        );
        // Resource templates arrive after the connect result is painted (as a list update):
        // they are not needed to show the tools, so they do not delay them.
        if offers_resources {
            client.relist_after_paint(ListKind::Templates);
        }
        // After the lists, so nothing but them stands between Connect and the tools.
        // (In the stateless era, subscriptions/listen replaces the GET stream.)
        if modern {
            client.start_listening();
        } else if !client.is_legacy() {
            client.start_get_stream();
        }
        let state = ServerState {
            info,
            transport,
            era_reason: client.0.era_reason.borrow().clone(),
            tools,
            prompts,
            resources,
            templates: None,
        };
        Ok((client, state))
    }

    /// Sends `initialize` over the chosen transport. Auto tries Streamable HTTP first and
    /// falls back to legacy SSE when the server refuses the POST with 400, 404 or 405.
    async fn initialize(
        &self,
        choice: TransportChoice,
    ) -> Result<(Value, TransportUsed), McpError> {
        let used = |legacy, reason: String| TransportUsed { legacy, reason };
        let legacy_reason = match choice {
            TransportChoice::LegacySse => Some("chosen in the connection settings"),
            TransportChoice::Auto if auto_prefers_legacy(&self.0.config.url) => {
                Some("the URL ends in /sse, where servers offer the legacy HTTP+SSE transport")
            }
            _ => None,
        };
        if let Some(reason) = legacy_reason {
            self.open_legacy_stream().await?;
            let info = self.open_session().await?;
            return Ok((info, used(true, reason.to_owned())));
        }
        match self.open_session().await {
            Ok(info) => {
                let reason = match choice {
                    TransportChoice::Auto => "the server accepted the Streamable HTTP POST",
                    _ => "chosen in the connection settings",
                };
                Ok((info, used(false, reason.to_owned())))
            }
            Err(McpError {
                step,
                kind: kind @ ErrorKind::HttpStatus { status, .. },
            }) if choice == TransportChoice::Auto && falls_back_to_legacy(status) => {
                // Should the fallback fail too, both failures are named, the Streamable HTTP
                // one first: it is what the person's URL answered.
                let fallback = async {
                    self.open_legacy_stream().await?;
                    self.open_session().await
                };
                let info = fallback.await.map_err(|legacy| {
                    McpError::new(
                        step,
                        ErrorKind::FallbackFailed {
                            streamable: Box::new(kind),
                            legacy: Box::new(legacy),
                        },
                    )
                })?;
                let reason = format!(
                    "the Streamable HTTP POST was answered {status}, so Auto fell back to the legacy HTTP+SSE transport"
                );
                Ok((info, used(true, reason)))
            }
            Err(error) => Err(error),
        }
    }

    /// Starts talking in the era the configuration allows: `server/discover` first (the
    /// stateless 2026-07-28 era) unless a handshake version is pinned or the transport is
    /// legacy SSE; `initialize` when the server is not provably modern. Returns an
    /// `initialize`-shaped result either way.
    async fn open_session(&self) -> Result<Value, McpError> {
        let choice = self.0.config.version;
        let why_handshake = if self.is_legacy() {
            "the legacy SSE transport has only the handshake era".to_owned()
        } else if !choice.tries_modern() {
            "pinned in the settings".to_owned()
        } else if self.0.config.known_handshake {
            "this server refused server/discover before, so initialize was used at once".to_owned()
        } else {
            self.0.modern.set(true);
            self.0.session.borrow_mut().protocol_version = Some(era::MODERN.to_owned());
            let refused = match self.request(Step::Discover, era::DISCOVER, None).await {
                Ok(result) => match era::discover_as_initialize(&result) {
                    Some(info) => {
                        self.set_era_reason("the server answered server/discover");
                        return Ok(info);
                    }
                    None => "server/discover listed no 2026-07-28".to_owned(),
                },
                Err(error) if choice == VersionChoice::Pinned(era::MODERN) => return Err(error),
                Err(error) => {
                    if era::after_failed_discover(&error.kind) == DiscoverFailed::Incompatible {
                        return Err(error);
                    }
                    era::discover_refusal(&error.kind)
                }
            };
            self.0.modern.set(false);
            self.0.session.borrow_mut().protocol_version = None;
            format!("{refused}, so initialize was used")
        };
        self.set_era_reason(&why_handshake);
        self.request(
            Step::Initialize,
            mcp::INITIALIZE,
            Some(mcp::initialize_params(choice.handshake_version())),
        )
        .await
    }

    fn set_era_reason(&self, reason: &str) {
        *self.0.era_reason.borrow_mut() = reason.to_owned();
    }

    /// Whether the session speaks the stateless 2026-07-28 era.
    pub fn is_stateless(&self) -> bool {
        self.0.modern.get()
    }

    async fn list_if<T, F, Fut>(&self, offered: bool, list: F) -> Option<Result<Vec<T>, McpError>>
    where
        F: FnOnce(McpClient) -> Fut,
        Fut: std::future::Future<Output = Result<Vec<T>, McpError>>,
    {
        if !offered {
            return None;
        }
        // A server that advertises a kind but does not implement its list method has none
        // of it: nothing to warn about.
        Some(match list(self.clone()).await {
            Err(McpError {
                kind: ErrorKind::JsonRpc { code: -32601, .. },
                ..
            }) => Ok(Vec::new()),
            other => other,
        })
    }

    pub async fn list_tools(self) -> Result<Vec<Tool>, McpError> {
        let pages = self.list_pages(Step::ListTools, mcp::TOOLS_LIST).await?;
        decode_pages(
            Step::ListTools,
            mcp::TOOLS_LIST,
            pages,
            |page: ListToolsResult| page.tools,
        )
    }

    pub async fn list_prompts(self) -> Result<Vec<Prompt>, McpError> {
        let pages = self
            .list_pages(Step::ListPrompts, mcp::PROMPTS_LIST)
            .await?;
        decode_pages(
            Step::ListPrompts,
            mcp::PROMPTS_LIST,
            pages,
            |page: ListPromptsResult| page.prompts,
        )
    }

    pub async fn list_resources(self) -> Result<Vec<Resource>, McpError> {
        let pages = self
            .list_pages(Step::ListResources, mcp::RESOURCES_LIST)
            .await?;
        decode_pages(
            Step::ListResources,
            mcp::RESOURCES_LIST,
            pages,
            |page: ListResourcesResult| page.resources,
        )
    }

    /// A server that offers resources but no templates may not know the method at all:
    /// that is an empty list, not a failure.
    pub async fn list_resource_templates(self) -> Result<Vec<ResourceTemplate>, McpError> {
        let pages = match self
            .list_pages(Step::ListResourceTemplates, mcp::RESOURCE_TEMPLATES_LIST)
            .await
        {
            Err(McpError {
                kind: ErrorKind::JsonRpc { code: -32601, .. },
                ..
            }) => return Ok(Vec::new()),
            other => other?,
        };
        decode_pages(
            Step::ListResourceTemplates,
            mcp::RESOURCE_TEMPLATES_LIST,
            pages,
            |page: ListResourceTemplatesResult| page.resource_templates,
        )
    }

    /// Starts a tool call. Returns its request id at once (the progress token, and what
    /// [`McpClient::cancel`] takes) and the future of its result.
    pub fn call_tool(
        &self,
        name: &str,
        arguments: JsonObject,
    ) -> (
        RequestId,
        LocalBoxFuture<'static, Result<CallToolResult, McpError>>,
    ) {
        let id = self.0.ids.borrow_mut().next_id();
        let mut params = json!({ "name": name, "arguments": arguments });
        params["_meta"] = json!({ "progressToken": id.clone().into_json_value() });
        let client = self.clone();
        let call_id = id.clone();
        let call = Box::pin(async move {
            let value = client
                .request_as(call_id, Step::CallTool, mcp::TOOLS_CALL, Some(params))
                .await?;
            decode(Step::CallTool, mcp::TOOLS_CALL, value)
        });
        (id, call)
    }

    /// Cancels a request in flight: its fetch is aborted, its caller gets "cancelled", and
    /// the server is told with `notifications/cancelled`.
    pub fn cancel(&self, id: &RequestId) {
        let Some(pending) = self.0.pending.borrow_mut().take(id) else {
            return;
        };
        pending.waiter.abort.abort();
        let _ = pending.waiter.answer.send(Err(ErrorKind::Cancelled));
        self.cancel_on_server(id, "Cancelled by the user.");
    }

    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: JsonObject,
    ) -> Result<GetPromptResult, McpError> {
        let params = json!({ "name": name, "arguments": arguments });
        let value = self
            .request(Step::GetPrompt, mcp::PROMPTS_GET, Some(params))
            .await?;
        decode(Step::GetPrompt, mcp::PROMPTS_GET, value)
    }

    pub async fn read_resource(&self, uri: &str) -> Result<ReadResourceResult, McpError> {
        let value = self
            .request(
                Step::ReadResource,
                mcp::RESOURCES_READ,
                Some(json!({ "uri": uri })),
            )
            .await?;
        decode(Step::ReadResource, mcp::RESOURCES_READ, value)
    }

    /// Pings the server; returns the round trip in milliseconds.
    pub async fn ping(&self) -> Result<f64, McpError> {
        let started = now_ms();
        self.request(Step::Ping, mcp::PING, None).await?;
        Ok(now_ms() - started)
    }

    /// Completion values for a prompt argument as typed so far (`completion/complete`).
    pub async fn complete_prompt_argument(
        &self,
        prompt: &str,
        argument: &str,
        value: &str,
    ) -> Result<Vec<String>, McpError> {
        let params = json!({
            "ref": { "type": "ref/prompt", "name": prompt },
            "argument": { "name": argument, "value": value }
        });
        let result = self
            .request(Step::Complete, mcp::COMPLETE, Some(params))
            .await?;
        let values = result
            .get("completion")
            .and_then(|c| c.get("values"))
            .and_then(Value::as_array)
            .map(|values| {
                values
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        Ok(values)
    }

    /// Asks the server to send log messages at `level` and above.
    pub async fn set_log_level(&self, level: &str) -> Result<(), McpError> {
        self.request(
            Step::SetLogLevel,
            mcp::SET_LOG_LEVEL,
            Some(json!({ "level": level })),
        )
        .await
        .map(drop)
    }

    /// The protocol version the server chose.
    pub fn protocol_version(&self) -> Option<String> {
        self.0.session.borrow().protocol_version.clone()
    }

    /// Ends the session: fails every request in flight, then sends DELETE (when the server
    /// gave a session id). The client is unusable afterwards, even if the DELETE fails.
    pub async fn disconnect(&self) -> Result<(), McpError> {
        if self.0.closed.replace(true) {
            return Ok(());
        }
        self.fail_pending(ErrorKind::Cancelled);
        self.0.awaiting_person.borrow_mut().clear();
        self.0.input_waiters.borrow_mut().clear(); // their rounds fail as declined
        if let Wire::Legacy { stream, .. } = &*self.0.wire.borrow() {
            stream.abort();
        }
        if let Some(stream) = self.0.get_stream.borrow_mut().take() {
            stream.abort();
        }
        let session = self.0.session.borrow().clone();
        if session.session_id.is_none() {
            return Ok(());
        }
        let headers = self.headers(session.session_headers());
        let response = self
            .send_http(HttpRequest {
                method: "DELETE",
                url: &self.0.config.url,
                headers,
                body: None,
                signal: None,
            })
            .await
            .map_err(|kind| {
                let kind = match kind {
                    // The session worked, so the server was reachable a moment ago.
                    ErrorKind::Network { detail } => ErrorKind::DeleteBlocked { detail },
                    other => other,
                };
                McpError::new(Step::Disconnect, kind)
            })?;
        // 405: the server does not let clients end sessions; that is allowed. A session the
        // server already forgot (404, or 400 naming the session: it may end a session when its
        // GET stream closes, just before the DELETE arrives) is ended too.
        match response.status() {
            200..=299 | 405 => Ok(()),
            status => {
                let body = self.error_body(&response).await;
                let kind = AnswerError::HttpStatus(status).with_body(&body);
                if session_gone(&kind, true) {
                    return Ok(());
                }
                Err(McpError::new(Step::Disconnect, kind))
            }
        }
    }

    /// Fails every request in flight (disconnect, or the stream that would answer them ended).
    fn fail_pending(&self, kind: ErrorKind) {
        let in_flight = self.0.pending.borrow_mut().drain();
        for (_, pending) in in_flight {
            pending.waiter.abort.abort();
            let _ = pending.waiter.answer.send(Err(kind.clone()));
        }
    }

    /// Fetches every page of a list, following `nextCursor`, as raw results.
    async fn list_pages(&self, step: Step, method: &'static str) -> Result<Vec<Value>, McpError> {
        let mut pages = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let params = cursor.clone().map(|c| json!({ "cursor": c }));
            let page = self.request(step, method, params).await?;
            let next = page
                .get("nextCursor")
                .and_then(Value::as_str)
                .map(str::to_owned);
            pages.push(page);
            match next {
                Some(next) if Some(&next) != cursor.as_ref() => cursor = Some(next),
                _ => break,
            }
        }
        Ok(pages)
    }

    /// Sends a request and waits for its raw `result`.
    ///
    /// Deliberately not generic over the result type, and boxed: async state machines are
    /// inlined into every caller otherwise, and this one is large. One copy in the wasm;
    /// decoding into the expected type happens after.
    fn request(
        &self,
        step: Step,
        method: &'static str,
        params: Option<Value>,
    ) -> LocalBoxFuture<'_, Result<Value, McpError>> {
        let id = self.0.ids.borrow_mut().next_id();
        self.request_as(id, step, method, params)
    }

    /// [`Self::request`] with an id allocated by the caller (who may need it first, to
    /// cancel the request or match its progress).
    fn request_as(
        &self,
        id: RequestId,
        step: Step,
        method: &'static str,
        params: Option<Value>,
    ) -> LocalBoxFuture<'_, Result<Value, McpError>> {
        Box::pin(self.request_inner(id, step, method, params, 0))
    }

    async fn request_inner(
        &self,
        id: RequestId,
        step: Step,
        method: &'static str,
        params: Option<Value>,
        round: u32,
    ) -> Result<Value, McpError> {
        let fail = |kind| McpError::new(step, kind);
        // Stateless era: every request carries the envelope and names itself in headers.
        let (sent_params, routing) = if self.0.modern.get() {
            let enveloped = era::with_envelope(params.clone(), &mcp::client_capabilities());
            let routing = era::routing_headers(method, &enveloped);
            (Some(enveloped), routing)
        } else {
            (params.clone(), Vec::new())
        };
        if self.0.closed.get() {
            return Err(fail(ErrorKind::NotConnected));
        }
        let (answer, answered) = oneshot::channel();
        let abort = Abort::new();
        let activity = Rc::new(Cell::new(now_ms()));
        self.0.pending.borrow_mut().insert(
            id.clone(),
            method,
            Waiter {
                answer,
                abort: abort.clone(),
                activity: activity.clone(),
            },
        );
        let body = encode_request(&id, method, sent_params.as_ref());
        let sent_session = self.0.session.borrow().session_id.clone();
        let exchange = async {
            self.exchange(method, &body, &id, &abort, &routing).await?;
            // The answer may have come with the POST's answer, or is still to come on
            // another stream (the legacy SSE stream).
            answered.await.unwrap_or(Err(ErrorKind::StreamEnded))
        };
        let outcome = match select(pin!(exchange), pin!(self.expiry(&activity))).await {
            Either::Left((outcome, _)) => outcome,
            Either::Right((expired, _)) => {
                abort.abort();
                // The specification forbids cancelling `initialize`.
                if method != mcp::INITIALIZE {
                    self.cancel_on_server(&id, "The request timed out.");
                }
                Err(expired)
            }
        };
        if outcome.is_err() {
            self.0.pending.borrow_mut().forget(&id);
        }
        match outcome {
            Err(kind)
                if method != mcp::INITIALIZE && session_gone(&kind, sent_session.is_some()) =>
            {
                // The server forgot the session (restarted, or expired it): start a new one
                // once, then send this request again.
                self.renew_session(sent_session, &kind).await?;
                self.request_as(id, step, method, params).await
            }
            Ok(result) if self.0.modern.get() => match era::input_required(&result) {
                // The server needs answers first (sampling, elicitation, roots): get them,
                // then send the request again with them, as a new request.
                Some(asked) if round < MAX_INPUT_ROUNDS => {
                    let responses = self.answer_input_requests(step, asked.requests).await?;
                    let retry = era::retry_params(params, responses, asked.request_state);
                    let id = self.0.ids.borrow_mut().next_id();
                    Box::pin(self.request_inner(id, step, method, Some(retry), round + 1)).await
                }
                Some(_) => Err(fail(ErrorKind::InvalidAnswer {
                    detail: format!("the server asked for input {MAX_INPUT_ROUNDS} times in a row"),
                })),
                None => Ok(result),
            },
            outcome => outcome.map_err(fail),
        }
    }

    /// Initializes a new session after the server lost ours. Requests that fail together
    /// share one renewal; a request that failed on an already-replaced session just retries.
    async fn renew_session(&self, lost: Option<String>, why: &ErrorKind) -> Result<(), McpError> {
        let running = self.0.renewal.borrow().clone();
        if let Some(running) = running {
            return running.await;
        }
        if self.0.session.borrow().session_id != lost {
            return Ok(()); // already renewed
        }
        let client = self.clone();
        let reason = why.to_string();
        let renewal = async move {
            client.0.session.borrow_mut().session_id = None;
            let info = client
                .request(
                    Step::Initialize,
                    mcp::INITIALIZE,
                    Some(mcp::initialize_params(
                        client.0.config.version.handshake_version(),
                    )),
                )
                .await?;
            let info: InitializeResult = decode(Step::Initialize, mcp::INITIALIZE, info)?;
            client.0.session.borrow_mut().protocol_version =
                Some(info.protocol_version.to_string());
            client
                .notify(Step::Initialized, mcp::INITIALIZED, None)
                .await?;
            client.emit(ClientEvent::SessionRenewed { reason });
            Ok(())
        }
        .boxed_local()
        .shared();
        *self.0.renewal.borrow_mut() = Some(renewal.clone());
        let outcome = renewal.await;
        *self.0.renewal.borrow_mut() = None;
        outcome
    }

    /// Resolves when the request should be given up: no answer or progress for the idle
    /// timeout, or the maximum total time reached.
    async fn expiry(&self, activity: &Cell<f64>) -> ErrorKind {
        let config = &self.0.config;
        let deadline = Deadline::new(config.request_timeout_ms, config.max_total_ms, now_ms());
        loop {
            match deadline.check(now_ms(), activity.get()) {
                Ok(wait_ms) => sleep(wait_ms.ceil() as u32).await,
                Err(Expired::Idle) => {
                    return ErrorKind::Timeout {
                        after_ms: u64::from(config.request_timeout_ms),
                    }
                }
                Err(Expired::Total) => {
                    return ErrorKind::TimeLimit {
                        after_ms: u64::from(config.max_total_ms),
                    }
                }
            }
        }
    }

    /// POSTs one request and reads its answer stream until the answer has arrived. Over the
    /// legacy transport the POST is only acknowledged; the answer comes on the SSE stream.
    async fn exchange(
        &self,
        method: &str,
        body: &str,
        id: &RequestId,
        abort: &Abort,
        routing: &[(&'static str, String)],
    ) -> Result<(), ErrorKind> {
        if self.is_legacy() {
            return self.post_message(body).await;
        }
        let signal = abort.signal();
        let response = self.post(body, signal.as_ref(), routing).await?;
        // Only a successful `initialize` answer starts a session: a refused `server/discover`
        // may carry a fresh session id too (Python SDK 1.x), which must not be kept.
        if let Some(session_id) = adopted_session_id(
            method,
            response.status(),
            response.header(SESSION_ID_HEADER),
        ) {
            self.0.session.borrow_mut().session_id = Some(session_id);
        }
        let content_type = response.header("content-type");
        match classify_answer(response.status(), content_type.as_deref(), Sent::Request) {
            AnswerForm::Json => {
                let text = response.text().await?;
                self.dispatch("JSON", &text, Some(id));
            }
            AnswerForm::EventStream => {
                let Some(body) = response.body() else {
                    return Err(ErrorKind::StreamEnded);
                };
                return self
                    .read_answer_stream(SseReader::new(body), id, signal.as_ref())
                    .await;
            }
            // The answer will come on the standalone GET stream.
            AnswerForm::Accepted => return Ok(()),
            AnswerForm::Error(error) => {
                let body = self.error_body(&response).await;
                return Err(error.with_body(&body));
            }
        }
        if self.0.pending.borrow().contains(id) {
            return Err(ErrorKind::StreamEnded);
        }
        Ok(())
    }

    /// Reads a request's event stream until its answer arrives. A stream that ends first
    /// is resumed with GET and `Last-Event-ID` after the server's `retry` delay, so an answer
    /// sent while the client was away still arrives (and only once: the pending table
    /// resolves each id once).
    async fn read_answer_stream(
        &self,
        mut events: SseReader,
        id: &RequestId,
        signal: Option<&web_sys::AbortSignal>,
    ) -> Result<(), ErrorKind> {
        let mut resume = ResumeState::default();
        loop {
            let ended = loop {
                match events.next_event().await {
                    Ok(Some(event)) => {
                        resume.saw_event(event.id.as_deref(), events.retry_ms());
                        if !event.data.trim().is_empty() {
                            self.dispatch("SSE", &event.data, Some(id));
                        }
                        if !self.0.pending.borrow().contains(id) {
                            events.cancel();
                            return Ok(());
                        }
                    }
                    Ok(None) => break ErrorKind::StreamEnded,
                    Err(ErrorKind::Cancelled) => return Err(ErrorKind::Cancelled),
                    Err(kind) => break kind,
                }
            };
            let Next::Resume {
                after_ms,
                last_event_id,
            } = resume.stream_ended()
            else {
                return Err(ended);
            };
            sleep(after_ms.min(u64::from(u32::MAX)) as u32).await;
            if !self.0.pending.borrow().contains(id) {
                return Ok(()); // answered meanwhile on another stream
            }
            let response = self.get_event_stream(Some(&last_event_id), signal).await?;
            let status = response.status();
            let content_type = response.header("content-type").unwrap_or_default();
            match (response.body(), media_type(&content_type).as_str()) {
                (Some(body), "text/event-stream") if (200..300).contains(&status) => {
                    events = SseReader::new(body);
                }
                _ => {
                    let body = self.error_body(&response).await;
                    let error = if (200..300).contains(&status) {
                        AnswerError::UnexpectedContent(content_type)
                    } else {
                        AnswerError::HttpStatus(status)
                    };
                    return Err(error.with_body(&body));
                }
            }
        }
    }

    /// Opens a GET event stream on the session, resuming after `last_event_id` if given.
    pub(crate) async fn get_event_stream(
        &self,
        last_event_id: Option<&str>,
        signal: Option<&web_sys::AbortSignal>,
    ) -> Result<LoggedResponse, ErrorKind> {
        let mut headers = vec![("accept", "text/event-stream".to_owned())];
        headers.extend(self.0.session.borrow().session_headers());
        if let Some(id) = last_event_id {
            headers.push(("last-event-id", id.to_owned()));
        }
        self.send_http(HttpRequest {
            method: "GET",
            url: &self.0.config.url,
            headers: self.headers(headers),
            body: None,
            signal,
        })
        .await
    }

    /// POSTs a notification or a response, which the server only acknowledges.
    async fn notify(
        &self,
        step: Step,
        method: &str,
        params: Option<&Value>,
    ) -> Result<(), McpError> {
        self.post_message(&encode_notification(method, params))
            .await
            .map_err(|kind| McpError::new(step, kind))
    }

    async fn post_message(&self, body: &str) -> Result<(), ErrorKind> {
        let response = self.post(body, None, &[]).await?;
        let content_type = response.header("content-type");
        match classify_answer(
            response.status(),
            content_type.as_deref(),
            Sent::NotificationOrResponse,
        ) {
            AnswerForm::Error(error) => {
                let body = self.error_body(&response).await;
                Err(error.with_body(&body))
            }
            _ => {
                // Drop any body the server sent with its acknowledgement.
                if let Some(body) = response.body() {
                    body.cancel();
                }
                Ok(())
            }
        }
    }

    /// Boxed for the same reason as [`Self::request`]: it is awaited from several places.
    fn post<'a>(
        &'a self,
        body: &'a str,
        signal: Option<&'a web_sys::AbortSignal>,
        routing: &'a [(&'static str, String)],
    ) -> LocalBoxFuture<'a, Result<LoggedResponse, ErrorKind>> {
        Box::pin(self.post_inner(body, signal, routing))
    }

    fn is_legacy(&self) -> bool {
        matches!(*self.0.wire.borrow(), Wire::Legacy { .. })
    }

    async fn post_inner(
        &self,
        body: &str,
        signal: Option<&web_sys::AbortSignal>,
        routing: &[(&'static str, String)],
    ) -> Result<LoggedResponse, ErrorKind> {
        let (url, mut protocol_headers) = match &*self.0.wire.borrow() {
            Wire::Streamable => (
                self.0.config.url.clone(),
                self.0.session.borrow().post_headers(),
            ),
            // The legacy transport predates session and version headers: the session is in
            // the endpoint URL.
            Wire::Legacy { post_url, .. } => (post_url.clone(), Session::default().post_headers()),
        };
        protocol_headers.extend(routing.iter().cloned());
        self.send_http(HttpRequest {
            method: "POST",
            url: &url,
            headers: self.headers(protocol_headers),
            body: Some(body),
            signal,
        })
        .await
    }

    fn headers(&self, protocol_headers: Vec<(&'static str, String)>) -> Vec<(String, String)> {
        let mut headers: Vec<(String, String)> = protocol_headers
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value))
            .collect();
        headers.extend(self.0.config.user_headers());
        headers
    }
}

fn decode<R: DeserializeOwned>(step: Step, method: &str, value: Value) -> Result<R, McpError> {
    decode_result(method, value).map_err(|kind| McpError::new(step, kind))
}

fn decode_pages<P: DeserializeOwned, T>(
    step: Step,
    method: &str,
    pages: Vec<Value>,
    items: impl Fn(P) -> Vec<T>,
) -> Result<Vec<T>, McpError> {
    let mut all = Vec::new();
    for page in pages {
        all.extend(items(decode(step, method, page)?));
    }
    Ok(all)
}
