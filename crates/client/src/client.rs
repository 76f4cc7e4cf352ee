//! The session handle: [`McpClient`] holds the session's runtime (its HTTP already layered),
//! its configuration, the event callback, the transport in use, and one of each state of
//! `state/`. Its methods live in the files named for their jobs (`session.rs`, `engine.rs`,
//! `incoming.rs`, `server_requests.rs`, `lists.rs`, `streams.rs`, `api.rs`, `tasks.rs`);
//! this file only builds it and hands its parts to them.

use crate::config::ClientConfig;
use crate::events::{ClientEvent, Events};
use crate::runtime::{Pacer, Runtime};
use crate::state::engine::Engine;
use crate::state::lists::Lists;
use crate::state::server_requests::ServerRequests;
use crate::state::session::SessionState;
use crate::transport::streamable::StreamableHttp;
use crate::transport::{Endpoint, Transport};
use crate::wire::WireLog;
use futures::future::LocalBoxFuture;
use std::cell::RefCell;
use std::future::Future;
use std::rc::{Rc, Weak};

struct Inner {
    /// Its `http` is the session's: authorization around the wire log around the runtime's.
    runtime: Runtime,
    config: ClientConfig,
    events: Events,
    /// Where messages go: Streamable HTTP until the legacy transport replaces it.
    transport: RefCell<Rc<dyn Transport>>,
    engine: Engine,
    session: SessionState,
    lists: Lists,
    server_requests: ServerRequests,
}

/// A handle to one session; clones share it. Everything it sends goes through one request
/// engine over the transport chosen at connect; events arrive at the `on_event` callback.
///
/// When the last handle is dropped, the session ends as if [`McpClient::disconnect`] was
/// called: its background work (the GET stream, `subscriptions/listen`, re-lists, timers)
/// stops and the server is told (DELETE). The client's own background tasks hold handles
/// that do not count (`McpClient::background`).
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

/// Shared by the handles a caller holds, not by the client's background tasks: its drop is
/// the drop of the last such handle. Ending the session is reached through a function
/// pointer set at connect, so code that merely drops a client (in the app's first wasm
/// module) does not pull the whole disconnect path in with it.
struct Owner {
    inner: Weak<Inner>,
    end: fn(McpClient),
}

impl Drop for Owner {
    fn drop(&mut self) {
        if let Some(inner) = self.inner.upgrade() {
            if !inner.session.is_closed() {
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

/// Where `config` sends its requests, and with which headers.
pub(crate) fn endpoint(config: &ClientConfig) -> Endpoint {
    Endpoint {
        url: config.url.clone(),
        headers: config.user_headers(),
        max_message_bytes: config.max_message_bytes,
    }
}

impl McpClient {
    /// A session not yet opened, over Streamable HTTP, whose HTTP is composed once here:
    /// authorization around the wire log around `runtime`'s (`withOAuth(withLogging(fetch))`).
    pub(crate) fn new(runtime: Runtime, config: ClientConfig, events: Events) -> McpClient {
        let endpoint = endpoint(&config);
        let logged = WireLog::around(
            runtime.http.clone(),
            runtime.clock.clone(),
            events.clone(),
            config.name.clone(),
        );
        let http = match &config.auth {
            Some(auth) => auth.around(logged),
            None => logged,
        };
        let runtime = Runtime { http, ..runtime };
        let transport = StreamableHttp::new(endpoint, runtime.clone());
        McpClient(
            Rc::new(Inner {
                runtime,
                config,
                events,
                transport: RefCell::new(Rc::new(transport)),
                engine: Engine::default(),
                session: SessionState::default(),
                lists: Lists::default(),
                server_requests: ServerRequests::default(),
            }),
            None,
        )
    }

    /// The caller's handle: when its last clone goes, so does the session.
    pub(crate) fn owned(self) -> McpClient {
        let owner = Rc::new(Owner {
            inner: Rc::downgrade(&self.0),
            end: end_abandoned_session,
        });
        McpClient(self.0, Some(owner))
    }

    /// Whether two handles share one session.
    pub fn same_session(&self, other: &McpClient) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    pub(crate) fn config(&self) -> &ClientConfig {
        &self.0.config
    }

    /// The session's runtime (its HTTP is the layered one).
    pub(crate) fn runtime(&self) -> &Runtime {
        &self.0.runtime
    }

    pub(crate) fn engine(&self) -> &Engine {
        &self.0.engine
    }

    pub(crate) fn session(&self) -> &SessionState {
        &self.0.session
    }

    pub(crate) fn lists(&self) -> &Lists {
        &self.0.lists
    }

    pub(crate) fn server_requests(&self) -> &ServerRequests {
        &self.0.server_requests
    }

    /// The transport in use (cloned out, so no borrow is held across an `.await`).
    pub(crate) fn transport(&self) -> Rc<dyn Transport> {
        self.0.transport.borrow().clone()
    }

    pub(crate) fn set_transport(&self, transport: Rc<dyn Transport>) {
        *self.0.transport.borrow_mut() = transport;
    }

    pub(crate) fn is_legacy(&self) -> bool {
        self.transport().is_legacy()
    }

    pub(crate) fn emit(&self, event: ClientEvent) {
        (self.0.events)(event);
    }

    /// What this session declares in each request of the 2026-07-28 era (the `_meta`
    /// envelope): MCP's capabilities and the extensions its config turns on.
    pub(crate) fn envelope_capabilities(&self) -> serde_json::Value {
        let mut capabilities =
            mcp_lens_protocol::capabilities::client_capabilities(self.config().mcp_apps);
        if self.config().tasks_extension {
            mcp_lens_protocol::task_extension::declare(&mut capabilities);
        }
        capabilities
    }

    pub(crate) fn now_ms(&self) -> f64 {
        self.0.runtime.clock.now_ms()
    }

    pub(crate) fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        self.0.runtime.clock.sleep(ms)
    }

    /// A turn of the page's event loop (see [`crate::runtime::Clock::yield_now`]).
    pub(crate) fn yield_now(&self) -> LocalBoxFuture<'static, ()> {
        self.0.runtime.clock.yield_now()
    }

    /// A pacer for a loop over a stream's events or a list's pages, started now.
    pub(crate) fn pacer(&self) -> Pacer {
        Pacer::new(self.0.runtime.clock.clone())
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
