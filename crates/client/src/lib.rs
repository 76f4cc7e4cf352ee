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
mod events;
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
use events::Events;
pub use events::{ClientEvent, Cursors, ListKind, ListPage, ListUpdate, Progress, ServerState};
use futures::channel::oneshot;
use futures::future::{LocalBoxFuture, Shared};
use mcp_lens_protocol::error::{ErrorKind, McpError, Step};
use mcp_lens_protocol::jsonrpc::{IdAllocator, RequestId};
use mcp_lens_protocol::mcp;
use mcp_lens_protocol::pending::PendingRequests;
use mcp_lens_protocol::streamable::Session;
use mcp_lens_protocol::tasks::{ServerTasks, TaskSupport};
use rmcp::model::InitializeResult;
use runtime::{Abort, Runtime};
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::rc::Rc;
use transport::{StreamableHttp, Transport};

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
    on_event: Events,
    closed: Cell<bool>,
    /// Speaking the stateless 2026-07-28 era (no session; envelope and routing headers).
    modern: Cell<bool>,
    /// Requests embedded in `input_required` results, waiting for a person's answer.
    input_waiters: RefCell<Vec<(RequestId, PersonAnswer)>>,
    era_reason: RefCell<String>,
    era_warning: Cell<bool>,
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
        // The session's HTTP, composed once: authorization around the wire log around the
        // runtime's (`withOAuth(withLogging(fetch))`).
        let on_event: Events = Rc::new(on_event);
        let logged = wire::WireLog::around(
            runtime.http.clone(),
            runtime.clock.clone(),
            on_event.clone(),
            config.name.clone(),
        );
        let http = match &config.auth {
            Some(auth) => auth.around(logged),
            None => logged,
        };
        let runtime = Runtime { http, ..runtime };
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
                on_event,
                closed: Cell::new(false),
                modern: Cell::new(false),
                input_waiters: RefCell::default(),
                era_reason: RefCell::default(),
                era_warning: Cell::default(),
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
