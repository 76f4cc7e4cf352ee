//! The MCP client of mcp-lens: one session with one server over Streamable HTTP or the
//! legacy HTTP+SSE transport, through the browser's `fetch`, in either protocol era.
//!
//! Correlation and timeouts live here, above the transports (as in the TypeScript SDK's
//! `Protocol`): every request gets an id and a waiter in the pending table; whatever stream an
//! answer arrives on, it is matched by id. Server-to-client requests are answered here too.
//!
//! Modules by job: `session` (transport choice, era negotiation, renewal, disconnect),
//! `engine` (correlation, timeouts, `input_required` rounds, replay after renewal),
//! `transport` (the `Transport` trait: Streamable HTTP, legacy HTTP+SSE), `incoming`
//! (everything the server sends), `get_stream` and `listen` (the long-lived streams),
//! [`auth`] (MCP authorization: discovery, sign-in, tokens the engine sends and renews),
//! `wire` (the wire log), `api` (the typed calls); [`runtime`] is the I/O they use.
//!
//! Architecture invariant: no UI framework here (no Leptos); the rules are data in
//! [`mcp_lens_protocol`] (re-exported as [`protocol`]). All I/O goes through a
//! [`runtime::Runtime`] (HTTP, clock, spawning); [`browser`] is the page's, so the logic runs
//! natively in tests over a scripted HTTP fake (`tests/client.rs`).
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

mod api;
pub mod auth;
pub mod browser;
pub mod config;
mod engine;
mod get_stream;
mod incoming;
mod listen;
pub mod manager;
pub mod mcp_config;
pub mod runtime;
pub mod saved;
mod session;
mod transport;
pub mod warm_up;
mod wire;

pub(crate) use api::decode;
pub use config::ClientConfig;
use futures::channel::oneshot;
use futures::future::{LocalBoxFuture, Shared};
use mcp_lens_protocol::error::{ErrorKind, McpError, Step};
use mcp_lens_protocol::jsonrpc::{IdAllocator, RequestId};
use mcp_lens_protocol::mcp;
use mcp_lens_protocol::pending::PendingRequests;
use mcp_lens_protocol::streamable::Session;
use mcp_lens_protocol::tasks::{ServerTasks, Task, TaskSupport};
use mcp_lens_protocol::transport_choice::TransportUsed;
use rmcp::model::{InitializeResult, Prompt, Resource, ResourceTemplate, Tool};
use runtime::{Abort, Runtime};
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::rc::Rc;
use transport::{StreamableHttp, Transport};

/// Something the server said, or that the client noticed, outside of a request's answer.
/// Handed to the `on_event` callback given to [`McpClient::connect`].
///
/// ```
/// use mcp_lens_client::ClientEvent;
/// fn on_event(event: ClientEvent) {
///     match event {
///         ClientEvent::Progress(progress) => println!("{}: {}", progress.request, progress.progress),
///         ClientEvent::ConnectionLost { reason } => eprintln!("{reason}"),
///         ClientEvent::Wire(_) | ClientEvent::WireAnswer(_) => {} // the wire log
///         other => println!("{other:?}"),
///     }
/// }
/// on_event(ClientEvent::Ignored { reason: "an answer for unknown request id 7".to_owned() });
/// ```
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
    /// A task's status changed (`notifications/tasks/status`, also reported as a
    /// `Notification`). Merge it with what polling saw through [`Task::supersedes`].
    TaskStatus(Task),
    /// A list changed on the server and was fetched again: its first page (or, for the
    /// resource templates after connect, their first page).
    ListChanged(ListUpdate),
    /// The list just updated (by the `ListChanged` before this event) has more pages:
    /// continue it with [`McpClient::list_more`]. No such event means it is complete.
    NextCursor { kind: ListKind, cursor: String },
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

/// What an event costs to keep besides its server text (the enum, ids, a list slot).
const EVENT_OVERHEAD: usize = 64;

impl ClientEvent {
    /// Cuts the server's text this event carries (a notification's method and params, a
    /// reason, a progress message) to about `max_bytes`, marking each cut, so a list that
    /// shows events can keep many without keeping megabytes of each. Returns
    /// [`ClientEvent::held_bytes`] after the cut.
    pub fn shrink(&mut self, max_bytes: usize) -> usize {
        use mcp_lens_protocol::shrink::{shrink_json, shrink_text};
        let name_bytes = max_bytes.min(1024);
        match self {
            ClientEvent::Notification { method, params }
            | ClientEvent::ServerRequest { method, params, .. } => {
                shrink_text(method, name_bytes);
                if let Some(params) = params {
                    shrink_json(params, max_bytes);
                }
            }
            ClientEvent::Answered { method, how, .. } => {
                shrink_text(method, name_bytes);
                shrink_text(how, max_bytes);
            }
            ClientEvent::Ignored { reason }
            | ClientEvent::ConnectionLost { reason }
            | ClientEvent::SessionRenewed { reason }
            | ClientEvent::NoServerStream { reason } => {
                shrink_text(reason, max_bytes);
            }
            ClientEvent::Progress(progress) => {
                if let Some(message) = &mut progress.message {
                    shrink_text(message, max_bytes);
                }
            }
            ClientEvent::Wire(entry) => {
                shrink_text(&mut entry.body, max_bytes);
            }
            ClientEvent::ServerRequestExpired { .. }
            | ClientEvent::TaskStatus(_)
            | ClientEvent::ListChanged(_)
            | ClientEvent::NextCursor { .. }
            | ClientEvent::WireAnswer(_) => {}
        }
        self.held_bytes()
    }

    /// About the bytes this event holds of server text (what [`ClientEvent::shrink`] cuts),
    /// plus a fixed overhead. Lists it carries (a list change) count as the overhead only:
    /// they are not kept in an events list.
    pub fn held_bytes(&self) -> usize {
        use mcp_lens_protocol::shrink::json_bytes;
        EVENT_OVERHEAD
            + match self {
                ClientEvent::Notification { method, params }
                | ClientEvent::ServerRequest { method, params, .. } => {
                    method.len() + params.as_ref().map_or(0, json_bytes)
                }
                ClientEvent::Answered { method, how, .. } => method.len() + how.len(),
                ClientEvent::Ignored { reason }
                | ClientEvent::ConnectionLost { reason }
                | ClientEvent::SessionRenewed { reason }
                | ClientEvent::NoServerStream { reason } => reason.len(),
                ClientEvent::Progress(progress) => progress.message.as_ref().map_or(0, String::len),
                ClientEvent::Wire(entry) => entry.body.len(),
                ClientEvent::ServerRequestExpired { .. }
                | ClientEvent::TaskStatus(_)
                | ClientEvent::ListChanged(_)
                | ClientEvent::NextCursor { .. }
                | ClientEvent::WireAnswer(_) => 0,
            }
    }
}

/// Progress of a request (a tool call's id is its progress token).
///
/// ```
/// use mcp_lens_client::Progress;
/// use mcp_lens_client::protocol::jsonrpc::RequestId;
/// let progress = Progress { request: RequestId::Number(3), progress: 1.0, total: Some(4.0), message: None };
/// assert_eq!(progress.total.map(|total| progress.progress / total), Some(0.25));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub request: RequestId,
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

/// The lists a server may offer (and announce changes of).
///
/// ```
/// use mcp_lens_client::ListKind;
/// assert_ne!(ListKind::Resources, ListKind::Templates);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    Tools,
    Prompts,
    Resources,
    Templates,
}

/// One page of a list and the cursor of the next one (`None`: the list is complete).
///
/// ```
/// use mcp_lens_client::ListPage;
/// let page = ListPage { items: vec!["a"], next_cursor: Some("2".to_owned()) };
/// assert!(page.next_cursor.is_some());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ListPage<T> {
    pub items: Vec<T>,
    pub next_cursor: Option<String>,
}

/// The `nextCursor` of each list as loaded so far (connect loads the first page of each):
/// `None` for a list that is complete.
///
/// ```
/// use mcp_lens_client::{Cursors, ListKind};
/// let mut cursors = Cursors::default();
/// cursors.set(ListKind::Tools, Some("page-2".to_owned()));
/// assert_eq!(cursors.get(ListKind::Tools), Some("page-2"));
/// assert_eq!(cursors.get(ListKind::Prompts), None);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cursors([Option<String>; 4]);

impl Cursors {
    pub fn get(&self, kind: ListKind) -> Option<&str> {
        self.0[kind as usize].as_deref()
    }

    pub fn set(&mut self, kind: ListKind, cursor: Option<String>) {
        self.0[kind as usize] = cursor;
    }
}

/// A listed page as items, its cursor handed to `cursor`.
fn split_page<T>(
    page: Option<Result<ListPage<T>, McpError>>,
    cursor: impl FnOnce(Option<String>),
) -> Option<Result<Vec<T>, McpError>> {
    page.map(|page| {
        page.map(|page| {
            cursor(page.next_cursor);
            page.items
        })
    })
}

/// A list fetched again after the server announced a change (or, for the resource templates,
/// after the connect result was painted). Per kind, updates arrive in the order they were
/// fetched, at most one fetch in flight.
///
/// ```
/// use mcp_lens_client::{ClientEvent, ListUpdate};
/// fn on_event(event: ClientEvent) {
///     if let ClientEvent::ListChanged(ListUpdate::Tools(Ok(tools))) = event {
///         println!("{} tools now", tools.len());
///     }
/// }
/// on_event(ClientEvent::ListChanged(ListUpdate::Tools(Ok(Vec::new()))));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum ListUpdate {
    Tools(Result<Vec<Tool>, McpError>),
    Prompts(Result<Vec<Prompt>, McpError>),
    Resources(Result<Vec<Resource>, McpError>),
    Templates(Result<Vec<ResourceTemplate>, McpError>),
}

/// Everything the server offered at connect time. A list the server does not offer is `None`.
///
/// ```no_run
/// # async fn run() -> Result<(), mcp_lens_client::protocol::error::McpError> {
/// use mcp_lens_client::{ClientConfig, McpClient};
/// let (_client, state) = McpClient::connect(ClientConfig::new("http://127.0.0.1:3001/mcp"), |_| {}).await?;
/// println!("{} over {} ({})", state.info.server_info.name, state.transport.label(), state.era_reason);
/// if let Some(Err(error)) = &state.prompts {
///     eprintln!("prompts: {error}");
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct ServerState {
    pub info: InitializeResult,
    /// The transport in use and why it was chosen.
    pub transport: TransportUsed,
    /// Why this protocol era (stateless 2026-07-28, or the handshake) is in use.
    pub era_reason: String,
    /// The reason is a problem the person should fix (the browser blocked `server/discover`:
    /// the server's CORS settings lack the 2026-07-28 headers), not just a fact.
    pub era_warning: bool,
    pub tools: Option<Result<Vec<Tool>, McpError>>,
    pub prompts: Option<Result<Vec<Prompt>, McpError>>,
    pub resources: Option<Result<Vec<Resource>, McpError>>,
    /// Fetched after the connect result is painted; `None` until then (or when the server
    /// offers no resources).
    pub templates: Option<Result<Vec<ResourceTemplate>, McpError>>,
    /// Where each list continues: connect loads one page of each, so a server that
    /// paginates leaves a cursor here (see [`McpClient::list_more`]).
    pub more: Cursors,
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

struct Inner {
    runtime: Runtime,
    config: ClientConfig,
    /// Where messages go: Streamable HTTP until the legacy transport replaces it.
    transport: RefCell<Rc<dyn Transport>>,
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
    era_warning: Cell<bool>,
    /// HTTP exchanges sent so far (numbers them for the wire log).
    exchanges: Cell<u64>,
    /// Re-lists after `list_changed`, one in flight per kind (see `incoming`).
    relists: RefCell<incoming::Relists>,
    /// The client's own messages (answers to server requests, cancellations) not sent yet.
    outbox: RefCell<incoming::Outbox>,
    /// What the server's `capabilities.tasks` declares.
    server_tasks: Cell<ServerTasks>,
    /// The tools (by name) of the last tools list that may or must run as tasks.
    task_support: RefCell<std::collections::HashMap<String, TaskSupport>>,
    /// The resources subscribed to in this session.
    subscriptions: RefCell<Vec<String>>,
}

/// Where a person's answer to an embedded (2026-07-28) input request goes.
type PersonAnswer = oneshot::Sender<Result<Value, (i32, String)>>;

/// A handle to one session; clones share it. Everything it sends goes through one request
/// engine over the transport chosen at connect; events arrive at the `on_event` callback.
///
/// When the last handle is dropped, the session ends as if [`McpClient::disconnect`] was
/// called: its background work (the GET stream, `subscriptions/listen`, re-lists, timers)
/// stops and the server is told (DELETE). The client's own background tasks hold handles
/// that do not count ([`McpClient::background`]).
///
/// ```no_run
/// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
/// let round_trip_ms = client.ping().await?;
/// let tools = client.clone().list_tools().await?;
/// println!("{} tools, {round_trip_ms} ms", tools.len());
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct McpClient(
    Rc<Inner>,
    #[allow(dead_code)] /* held for its Drop */ Option<Rc<Owner>>,
);

/// How long the client handles one burst of messages before it lets the page breathe.
const BURST_MS: f64 = 8.0;

/// When the current burst of a stream's messages started (see [`McpClient::pace`]).
pub(crate) struct Pacer {
    since: f64,
}

/// Shared by the handles a caller holds, not by the client's background tasks: its drop is
/// the drop of the last such handle. Ending the session is reached through a function
/// pointer set at connect, so code that merely drops a client (in the app's first wasm
/// module) does not pull the whole disconnect path in with it.
struct Owner {
    inner: std::rc::Weak<Inner>,
    end: fn(McpClient),
}

impl Drop for Owner {
    fn drop(&mut self) {
        if let Some(inner) = self.inner.upgrade() {
            if !inner.closed.get() {
                (self.end)(McpClient(inner, None));
            }
        }
    }
}

/// What [`Owner`] does when the last handle goes: ends the session in the background.
fn end_abandoned_session(client: McpClient) {
    client.spawn({
        let client = client.clone();
        async move {
            // Nobody is left to hear how it went.
            let _ = client.disconnect().await;
        }
    });
}

/// The address every request of a session goes to: the server URL as a browser reads it
/// ([`config::check_server_url`]), written the way the standard writes it, so that what is
/// checked (its origin, where the token goes) and what `fetch` reads are one reading. In the
/// page the browser's own parser must find the same origin, or nothing is sent.
fn server_address(url: &str) -> Result<String, McpError> {
    let invalid =
        |detail: String| McpError::new(Step::CheckAddress, ErrorKind::InvalidAddress { detail });
    let url = config::check_server_url(url).map_err(invalid)?;
    #[cfg(target_arch = "wasm32")]
    if browser::url::origin(url.href()).as_deref() != Some(url.origin().as_str()) {
        return Err(invalid(format!(
            "the browser reads this address differently than mcp-lens does (mcp-lens: {}; the browser: {}), so nothing was sent.",
            url.origin(),
            browser::url::origin(url.href()).unwrap_or_else(|| "not a URL".to_owned())
        )));
    }
    Ok(url.into_href())
}

impl McpClient {
    /// Initializes a session, sends `notifications/initialized`, then fetches the tools,
    /// prompts and resources in parallel, each only if the server offers it.
    ///
    /// In the page, over `fetch` ([`Runtime::browser`]); see [`McpClient::connect_with`]
    /// for another runtime.
    pub async fn connect(
        config: ClientConfig,
        on_event: impl Fn(ClientEvent) + 'static,
    ) -> Result<(McpClient, ServerState), McpError> {
        Self::connect_with(Runtime::browser(), config, on_event).await
    }

    /// [`McpClient::connect`] over the given runtime (a scripted HTTP fake and a manual
    /// clock in tests).
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// use mcp_lens_client::{runtime::Runtime, ClientConfig, McpClient};
    /// let config = ClientConfig::new("http://127.0.0.1:3001/mcp");
    /// let (client, _state) = McpClient::connect_with(Runtime::browser(), config, |_| {}).await?;
    /// client.ping().await?;
    /// # Ok(()) }
    /// ```
    pub async fn connect_with(
        runtime: Runtime,
        config: ClientConfig,
        on_event: impl Fn(ClientEvent) + 'static,
    ) -> Result<(McpClient, ServerState), McpError> {
        let mut config = config;
        config.url = server_address(&config.url)?;
        let choice = config.transport;
        let client = McpClient(
            Rc::new(Inner {
                runtime,
                config,
                transport: RefCell::new(Rc::new(StreamableHttp)),
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
                era_warning: Cell::default(),
                exchanges: Cell::new(0),
                relists: RefCell::default(),
                outbox: RefCell::default(),
                server_tasks: Cell::default(),
                task_support: RefCell::default(),
                subscriptions: RefCell::default(),
            }),
            None,
        );
        let (info, transport) = client.initialize(choice).await?;
        // rmcp's capabilities have no `tasks` (2025-11-25): read it from the raw result.
        client
            .0
            .server_tasks
            .set(ServerTasks::from_capabilities(info.get("capabilities")));
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
        // The stream for the server's own messages opens a task after the list requests below
        // have left (`keep_stream_open`), so nothing but them stands between Connect and the
        // tools. (In the stateless era, subscriptions/listen replaces the GET stream.)
        if modern {
            client.start_listening();
        } else if !client.is_legacy() {
            client.start_get_stream();
        }
        // The first page of each list: a server that paginates shows something at once,
        // and the person loads more (or all) of it (`ServerState::more`).
        let (tools, prompts, resources) = futures::join!(
            client.connect_list(
                ListKind::Tools,
                client.list_if(capabilities.tools.is_some(), |c| async move {
                    c.tools_from(None, 1).await
                })
            ),
            client.connect_list(
                ListKind::Prompts,
                client.list_if(capabilities.prompts.is_some(), |c| async move {
                    c.prompts_from(None, 1).await
                })
            ),
            client.connect_list(
                ListKind::Resources,
                client.list_if(offers_resources, |c| async move {
                    c.resources_from(None, 1).await
                })
            ),
        );
        let mut more = Cursors::default();
        let tools = split_page(tools, |cursor| more.set(ListKind::Tools, cursor));
        let prompts = split_page(prompts, |cursor| more.set(ListKind::Prompts, cursor));
        let resources = split_page(resources, |cursor| more.set(ListKind::Resources, cursor));
        // Resource templates arrive after the connect result is painted (as a list update):
        // they are not needed to show the tools, so they do not delay them.
        if offers_resources {
            client.relist_after_paint(ListKind::Templates);
        }
        let state = ServerState {
            info,
            transport,
            era_reason: client.0.era_reason.borrow().clone(),
            era_warning: client.0.era_warning.get(),
            tools,
            prompts,
            resources,
            templates: None,
            more,
        };
        // The caller's handle: when its last clone goes, so does the session.
        let owner = Rc::new(Owner {
            inner: Rc::downgrade(&client.0),
            end: end_abandoned_session,
        });
        Ok((McpClient(client.0, Some(owner)), state))
    }

    /// Whether two handles share one session.
    pub fn same_session(&self, other: &McpClient) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    fn is_legacy(&self) -> bool {
        self.transport().is_legacy()
    }

    /// The transport in use (cloned out, so no borrow is held across an `.await`).
    pub(crate) fn transport(&self) -> Rc<dyn Transport> {
        self.0.transport.borrow().clone()
    }

    pub(crate) fn set_transport(&self, transport: impl Transport + 'static) {
        *self.0.transport.borrow_mut() = Rc::new(transport);
    }

    pub(crate) fn now_ms(&self) -> f64 {
        self.0.runtime.clock.now_ms()
    }

    pub(crate) fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        self.0.runtime.clock.sleep(ms)
    }

    /// A pacer for a loop over a stream's events, started now (see [`McpClient::pace`]).
    pub(crate) fn pacer(&self) -> Pacer {
        Pacer {
            since: self.now_ms(),
        }
    }

    /// Lets the page render and take input once a burst of messages has been handled for
    /// [`BURST_MS`]: events already buffered are read without any pause, so a storm of
    /// 10,000 messages in one chunk would otherwise be one long task.
    pub(crate) async fn pace(&self, pacer: &mut Pacer) {
        if self.now_ms() - pacer.since >= BURST_MS {
            self.sleep(0).await;
            pacer.since = self.now_ms();
        }
    }

    /// A turn of the page's event loop (see [`crate::runtime::Clock::yield_now`]).
    pub(crate) fn yield_now(&self) -> LocalBoxFuture<'static, ()> {
        self.0.runtime.clock.yield_now()
    }

    /// A handle for the client's own background work: it does not keep the session alive
    /// once the caller's handles are gone (see [`McpClient`]).
    pub(crate) fn background(&self) -> McpClient {
        McpClient(self.0.clone(), None)
    }

    pub(crate) fn spawn(&self, task: impl Future<Output = ()> + 'static) {
        self.0.runtime.spawner.spawn(Box::pin(task));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_flooding_notification_is_kept_small_and_still_says_what_it_was() {
        let mut event = ClientEvent::Notification {
            method: "notifications/message".to_owned(),
            params: Some(
                json!({ "level": "info", "logger": "flood", "data": "x".repeat(10 << 20) }),
            ),
        };
        let held = event.shrink(16 * 1024);
        assert!(held < 16 * 1024 + 200, "{held}");
        assert_eq!(held, event.held_bytes());
        let ClientEvent::Notification { method, params } = &event else {
            unreachable!("still a notification");
        };
        assert_eq!(method, "notifications/message");
        let params = params.as_ref().expect("params kept");
        assert_eq!(params["logger"], "flood");
        assert!(params["data"]
            .as_str()
            .is_some_and(|data| data.ends_with("more bytes)")));
        // A reason of server text is cut too; a small event is left as it is.
        let mut ignored = ClientEvent::Ignored {
            reason: "y".repeat(1 << 20),
        };
        assert!(ignored.shrink(1_000) < 1_200);
        let mut small = ClientEvent::Ignored {
            reason: "an answer for unknown request id 7".to_owned(),
        };
        let before = small.clone();
        small.shrink(1_000);
        assert_eq!(small, before);
    }
}
