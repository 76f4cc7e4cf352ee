//! Many servers at once, by id: the shape of MCPJam's `MCPClientManager`, in Rust.
//!
//! A [`Manager`] owns one [`McpClient`] per server id and routes everything the servers send:
//! notifications to handlers registered per server and kind (or for all servers), server
//! requests that wait for a person (sampling, elicitation) to a handler per server with a
//! global fallback, or, with no handler, to a queue of pending requests answered by id; wire
//! entries to loggers per server or global. Tools are cached per server with their `_meta`,
//! and tools meant only for MCP Apps (`_meta.ui.visibility == ["app"]`) are left out of
//! model-facing lists unless asked for. Tool calls resolve `server:tool` names; every other
//! call goes through the server's client ([`Manager::client`]).
//!
//! ```no_run
//! # async fn run() -> Result<(), mcp_lens_client::manager::ManagerError> {
//! use mcp_lens_client::{manager::Manager, ClientConfig};
//! let manager = Manager::new();
//! manager.connect("everything", ClientConfig::new("http://127.0.0.1:3001/mcp")).await?;
//! for tagged in manager.all_tools(false) {
//!     println!("{}:{}", tagged.server, tagged.tool.name);
//! }
//! let result = manager
//!     .call_tool("everything:echo", serde_json::Map::from_iter([("message".into(), "hi".into())]))
//!     .await?;
//! println!("{:?}", result.content);
//! manager.disconnect_all().await;
//! # Ok(()) }
//! ```

mod error;
mod routing;
mod tools;

pub use error::ManagerError;
pub use routing::{NotificationKind, PendingRequest, WireLine};
pub use tools::{is_app_only, resolve_tool_name, ServerTool};

use crate::client::McpClient;
use crate::config::ClientConfig;
use crate::events::{ClientEvent, ListKind, ListUpdate, ServerState};
use crate::runtime::Runtime;
use error::mcp;
use mcp_lens_protocol::error::McpError;
use mcp_lens_protocol::jsonrpc::RequestId;
use rmcp::model::{CallToolResult, JsonObject, Tool};
use routing::Handlers;
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::{Rc, Weak};
use std::sync::Arc;

/// Where a server stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Disconnected,
    Connecting,
    Connected,
}

/// A server's settings and state, without secrets (the token and header values are never
/// part of a summary).
#[derive(Debug, Clone, PartialEq)]
pub struct ServerSummary {
    pub id: String,
    pub url: String,
    pub transport: String,
    pub status: Status,
    /// The names of the custom headers sent (their values are secrets).
    pub header_names: Vec<String>,
    pub has_token: bool,
    pub server_name: Option<String>,
    pub protocol_version: Option<String>,
}

struct Entry {
    /// Which `connect` made this entry: a slower, older connect of the same id (removed
    /// meanwhile) must not settle into a newer one.
    attempt: u64,
    config: ClientConfig,
    status: Status,
    client: Option<McpClient>,
    state: Option<Arc<ServerState>>,
    /// The tools as last listed (with their `_meta`).
    tools: Vec<Tool>,
}

#[derive(Default)]
struct Inner {
    /// `None`: the page's ([`Runtime::browser`]).
    runtime: Option<Runtime>,
    servers: RefCell<BTreeMap<String, Entry>>,
    handlers: RefCell<Handlers>,
    pending: RefCell<Vec<PendingRequest>>,
    attempts: Cell<u64>,
    /// Tool lists stay as the server pages them (see [`Manager::with_tool_pages`]).
    tool_pages: Cell<bool>,
}

/// Many MCP servers by id. Clones share one manager.
#[derive(Clone, Default)]
pub struct Manager(Rc<Inner>);

impl Manager {
    pub fn new() -> Self {
        Self::default()
    }

    /// A manager whose clients use `runtime` (a scripted HTTP fake and a manual clock in
    /// tests) rather than the page's.
    pub fn with_runtime(runtime: Runtime) -> Self {
        Self(Rc::new(Inner {
            runtime: Some(runtime),
            ..Inner::default()
        }))
    }

    /// A manager that keeps tool lists as the server pages them: connect and a re-list hold
    /// the first page, and the caller continues with [`Manager::list_more`] (an
    /// inspector's "Load more"). By default the manager follows every cursor at once, since
    /// the tools a model may call are all of them. Call before connecting any server.
    pub fn with_tool_pages(self) -> Self {
        self.0.tool_pages.set(true);
        self
    }

    fn runtime(&self) -> Runtime {
        self.0.runtime.clone().unwrap_or_else(Runtime::browser)
    }

    /// Connects a new server under `id`; an id in use is an error, not a reconnect.
    pub async fn connect(
        &self,
        id: &str,
        config: ClientConfig,
    ) -> Result<Arc<ServerState>, ManagerError> {
        let attempt = self.0.attempts.get() + 1;
        self.0.attempts.set(attempt);
        {
            let mut servers = self.0.servers.borrow_mut();
            if servers.contains_key(id) {
                return Err(ManagerError::AlreadyExists(id.to_owned()));
            }
            servers.insert(
                id.to_owned(),
                Entry {
                    attempt,
                    config: config.clone(),
                    status: Status::Connecting,
                    client: None,
                    state: None,
                    tools: Vec::new(),
                },
            );
        }
        // The client's events reach the manager through a weak handle: a manager that is
        // dropped does not live on in its clients' callbacks.
        let weak: Weak<Inner> = Rc::downgrade(&self.0);
        let server = id.to_owned();
        let outcome = McpClient::connect_with(self.runtime(), config, move |event| {
            if let Some(inner) = weak.upgrade() {
                Manager(inner).route(&server, event);
            }
        })
        .await;
        let (client, state) = self.settle_connect(id, attempt, outcome)?;
        // Connect lists one page; the tools a model may call are all of them.
        if let (false, Some(cursor)) = (self.0.tool_pages.get(), state.more.get(ListKind::Tools)) {
            self.complete_tools(id, &client, cursor).await;
        }
        Ok(state)
    }

    /// Records how a connect ended.
    fn settle_connect(
        &self,
        id: &str,
        attempt: u64,
        outcome: Result<(McpClient, ServerState), McpError>,
    ) -> Result<(McpClient, Arc<ServerState>), ManagerError> {
        let mut servers = self.0.servers.borrow_mut();
        // Removed while connecting (and perhaps connected anew): the session ends with its
        // last handle, here.
        let Some(entry) = servers.get_mut(id).filter(|entry| entry.attempt == attempt) else {
            drop(servers);
            drop(outcome);
            return Err(ManagerError::UnknownServer(id.to_owned()));
        };
        match outcome {
            Ok((client, state)) => {
                let state = Arc::new(state);
                entry.status = Status::Connected;
                entry.client = Some(client.clone());
                entry.tools = state
                    .tools
                    .as_ref()
                    .and_then(|t| t.as_ref().ok())
                    .cloned()
                    .unwrap_or_default();
                entry.state = Some(state.clone());
                Ok((client, state))
            }
            Err(error) => {
                entry.status = Status::Disconnected;
                Err(ManagerError::Mcp {
                    server: id.to_owned(),
                    error,
                })
            }
        }
    }

    /// Ends a server's session; the server stays known (and can be connected again with
    /// [`Manager::reconnect`]).
    pub async fn disconnect(&self, id: &str) -> Result<(), ManagerError> {
        let client = {
            let mut servers = self.0.servers.borrow_mut();
            let entry = servers
                .get_mut(id)
                .ok_or_else(|| ManagerError::UnknownServer(id.to_owned()))?;
            entry.status = Status::Disconnected;
            entry.state = None;
            entry.client.take()
        };
        self.0.pending.borrow_mut().retain(|p| p.server != id);
        match client {
            Some(client) => client
                .disconnect()
                .await
                .map_err(|error| ManagerError::Mcp {
                    server: id.to_owned(),
                    error,
                }),
            None => Ok(()),
        }
    }

    /// Connects a known server again with its settings.
    pub async fn reconnect(&self, id: &str) -> Result<Arc<ServerState>, ManagerError> {
        let _ = self.disconnect(id).await;
        let config = self
            .0
            .servers
            .borrow_mut()
            .remove(id)
            .ok_or_else(|| ManagerError::UnknownServer(id.to_owned()))?
            .config;
        self.connect(id, config).await
    }

    /// Ends every session (failures to end one are ignored: the sessions are gone here).
    pub async fn disconnect_all(&self) {
        let ids: Vec<String> = self.0.servers.borrow().keys().cloned().collect();
        for id in ids {
            let _ = self.disconnect(&id).await;
        }
    }

    /// Disconnects and forgets a server.
    pub async fn remove(&self, id: &str) -> Result<(), ManagerError> {
        let ended = self.disconnect(id).await;
        self.0.servers.borrow_mut().remove(id);
        self.0.handlers.borrow_mut().forget(id);
        ended
    }

    pub fn status(&self, id: &str) -> Option<Status> {
        self.0.servers.borrow().get(id).map(|e| e.status)
    }

    /// Verifies a connected server with a ping: the round trip in milliseconds. A server
    /// that does not answer is marked disconnected.
    pub async fn check(&self, id: &str) -> Result<f64, ManagerError> {
        let client = self.client(id)?;
        match client.ping().await {
            Ok(ms) => Ok(ms),
            Err(error) => {
                if let Some(entry) = self.0.servers.borrow_mut().get_mut(id) {
                    entry.status = Status::Disconnected;
                }
                Err(ManagerError::Mcp {
                    server: id.to_owned(),
                    error,
                })
            }
        }
    }

    /// Every server, in id order, without secrets.
    pub fn summaries(&self) -> Vec<ServerSummary> {
        self.0
            .servers
            .borrow()
            .iter()
            .map(|(id, entry)| ServerSummary {
                id: id.clone(),
                url: entry.config.url.clone(),
                transport: entry.config.transport.key().to_owned(),
                status: entry.status,
                header_names: entry
                    .config
                    .headers
                    .iter()
                    .map(|(n, _)| n.clone())
                    .collect(),
                has_token: entry.config.bearer_token.is_some(),
                server_name: entry
                    .state
                    .as_ref()
                    .map(|s| s.info.server_info.name.clone()),
                protocol_version: entry
                    .state
                    .as_ref()
                    .map(|s| s.info.protocol_version.to_string()),
            })
            .collect()
    }

    /// What the server offered when it connected.
    pub fn server_state(&self, id: &str) -> Option<Arc<ServerState>> {
        self.0.servers.borrow().get(id)?.state.clone()
    }

    /// The connected client of a server, for anything the manager does not wrap.
    pub fn client(&self, id: &str) -> Result<McpClient, ManagerError> {
        let servers = self.0.servers.borrow();
        let entry = servers
            .get(id)
            .ok_or_else(|| ManagerError::UnknownServer(id.to_owned()))?;
        entry
            .client
            .clone()
            .ok_or_else(|| ManagerError::NotConnected(id.to_owned()))
    }

    /// A server's tools as last listed; app-only tools (MCP Apps) only if `include_app_only`.
    pub fn tools(&self, id: &str, include_app_only: bool) -> Result<Vec<Tool>, ManagerError> {
        let servers = self.0.servers.borrow();
        let entry = servers
            .get(id)
            .ok_or_else(|| ManagerError::UnknownServer(id.to_owned()))?;
        Ok(entry
            .tools
            .iter()
            .filter(|tool| include_app_only || !is_app_only(tool))
            .cloned()
            .collect())
    }

    /// Every connected server's tools, flattened and tagged with their server.
    pub fn all_tools(&self, include_app_only: bool) -> Vec<ServerTool> {
        self.0
            .servers
            .borrow()
            .iter()
            .filter(|(_, entry)| entry.status == Status::Connected)
            .flat_map(|(id, entry)| {
                entry
                    .tools
                    .iter()
                    .filter(|tool| include_app_only || !is_app_only(tool))
                    .map(|tool| ServerTool {
                        server: id.clone(),
                        tool: tool.clone(),
                    })
            })
            .collect()
    }

    /// A tool's `_meta` as last listed.
    pub fn tool_meta(&self, id: &str, tool: &str) -> Option<JsonObject> {
        let servers = self.0.servers.borrow();
        let found = servers.get(id)?.tools.iter().find(|t| t.name == tool)?;
        found.meta.as_ref().map(|meta| meta.0.clone())
    }

    /// Lists a server's tools again (refreshing the cache).
    pub async fn list_tools(&self, id: &str) -> Result<Vec<Tool>, ManagerError> {
        let tools = self
            .client(id)?
            .list_tools()
            .await
            .map_err(|error| mcp(id, error))?;
        if let Some(entry) = self.0.servers.borrow_mut().get_mut(id) {
            entry.tools = tools.clone();
        }
        Ok(tools)
    }

    /// The next page of one of a server's lists (all the rest with `all`), from `cursor`
    /// (the state's `more`, or the cursor the last page gave), with the cursor after it.
    /// Tools are added to the manager's cache. An inspector's "Load more" on a manager
    /// [`with_tool_pages`](Manager::with_tool_pages); the page's own failure is in the update.
    pub async fn list_more(
        &self,
        id: &str,
        kind: ListKind,
        cursor: &str,
        all: bool,
    ) -> Result<(ListUpdate, Option<String>), ManagerError> {
        let client = self.client(id)?;
        let (page, next) = client.list_more(kind, cursor, all).await;
        if let ListUpdate::Tools(Ok(tools)) = &page {
            self.add_tools(id, &client, tools.clone());
        }
        Ok((page, next))
    }

    /// Appends the rest of a paginated tool list (from `cursor`) to the server's tools, as
    /// long as the server still has this session.
    async fn complete_tools(&self, id: &str, client: &McpClient, cursor: &str) {
        let (rest, _) = client.list_more(ListKind::Tools, cursor, true).await;
        if let ListUpdate::Tools(Ok(rest)) = rest {
            self.add_tools(id, client, rest);
        }
    }

    /// Adds tools to a server's cache, as long as the server still has this session.
    fn add_tools(&self, id: &str, client: &McpClient, tools: Vec<Tool>) {
        if let Some(entry) = self.0.servers.borrow_mut().get_mut(id) {
            if entry
                .client
                .as_ref()
                .is_some_and(|c| c.same_session(client))
            {
                entry.tools.extend(tools);
            }
        }
    }

    /// Calls a tool: `server:tool`, or a bare name that exactly one connected server offers.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: JsonObject,
    ) -> Result<CallToolResult, ManagerError> {
        let (server, tool) = self.resolve_tool(name)?;
        self.call_tool_on(&server, &tool, arguments).await
    }

    /// Calls a tool on the named server.
    pub async fn call_tool_on(
        &self,
        server: &str,
        tool: &str,
        arguments: JsonObject,
    ) -> Result<CallToolResult, ManagerError> {
        let (_, call) = self.client(server)?.call_tool(tool, arguments);
        call.await.map_err(|error| mcp(server, error))
    }

    /// Which server and tool a name means.
    pub fn resolve_tool(&self, name: &str) -> Result<(String, String), ManagerError> {
        let offered: Vec<(String, String)> = self
            .all_tools(true)
            .into_iter()
            .map(|t| (t.server, t.tool.name.to_string()))
            .collect();
        resolve_tool_name(name, &offered)
    }

    /// Handles notifications of `kind` from one server (`Some(id)`) or from every server
    /// that has no handler of its own for that kind (`None`). Replaces an earlier handler.
    /// The handler gets the server id, the method and the params.
    pub fn on_notification(
        &self,
        server: Option<&str>,
        kind: NotificationKind,
        handler: impl Fn(&str, &str, Option<&Value>) + 'static,
    ) {
        self.0
            .handlers
            .borrow_mut()
            .on_notification(server, kind, Rc::new(handler));
    }

    /// Handles server requests that wait for a person (sampling, elicitation) from one server,
    /// or from all (`None`, the fallback). Answer them with [`Manager::answer`]. Without any
    /// handler they wait in [`Manager::pending_requests`]; either way the client declines
    /// them after its time limit.
    pub fn on_server_request(
        &self,
        server: Option<&str>,
        handler: impl Fn(&PendingRequest) + 'static,
    ) {
        self.0
            .handlers
            .borrow_mut()
            .on_server_request(server, Rc::new(handler));
    }

    /// Logs every message of one server, or of all servers (`None`), already redacted. A
    /// server's own logger and the global one both get each line.
    pub fn on_wire(&self, server: Option<&str>, logger: impl Fn(&str, WireLine) + 'static) {
        self.0
            .handlers
            .borrow_mut()
            .on_wire(server, Rc::new(logger));
    }

    /// Everything else a server's client reports ([`ClientEvent`]: notifications, server
    /// requests, progress, task status, re-listed lists, next cursors, lost connections,
    /// ignored messages), for one server or, when it has no tap of its own, for all
    /// (`None`). Wire lines go to the loggers ([`Manager::on_wire`]), not here. The manager's
    /// own bookkeeping and handlers run first. Replaces an earlier tap.
    ///
    /// ```no_run
    /// # let manager = mcp_lens_client::manager::Manager::new();
    /// manager.on_event(Some("everything"), |server, event| {
    ///     if let mcp_lens_client::ClientEvent::Progress(progress) = event {
    ///         println!("{server}: {progress:?}");
    ///     }
    /// });
    /// ```
    pub fn on_event(&self, server: Option<&str>, tap: impl Fn(&str, ClientEvent) + 'static) {
        self.0.handlers.borrow_mut().on_event(server, Rc::new(tap));
    }

    /// Server requests waiting for an answer, oldest first.
    pub fn pending_requests(&self) -> Vec<PendingRequest> {
        self.0.pending.borrow().clone()
    }

    /// Answers (or, with an error, declines) a server request. False when it is no longer
    /// waiting (answered, expired, or its server disconnected).
    pub fn answer(
        &self,
        server: &str,
        id: &RequestId,
        outcome: Result<Value, (i32, String)>,
    ) -> bool {
        self.0
            .pending
            .borrow_mut()
            .retain(|p| !(p.server == server && &p.id == id));
        match self.client(server) {
            Ok(client) => client.answer_server_request(id, outcome),
            Err(_) => false,
        }
    }

    /// What the client of `server` reports, sent to the right handler.
    fn route(&self, server: &str, event: ClientEvent) {
        match event {
            ClientEvent::Wire(entry) => self.log(server, WireLine::Entry(entry)),
            ClientEvent::WireAnswer(answer) => self.log(server, WireLine::Answer(answer)),
            event => {
                self.observe(server, &event);
                let tap = self.0.handlers.borrow().tap(server);
                if let Some(tap) = tap {
                    tap(server, event);
                }
            }
        }
    }

    /// The manager's own bookkeeping, and the handlers by kind.
    fn observe(&self, server: &str, event: &ClientEvent) {
        match event {
            ClientEvent::Notification { method, params } => {
                let kind = NotificationKind::of(method);
                let handler = self.0.handlers.borrow().notification(server, kind);
                if let Some(handler) = handler {
                    handler(server, method, params.as_ref());
                }
            }
            ClientEvent::ServerRequest { id, method, params } => {
                let request = PendingRequest {
                    server: server.to_owned(),
                    id: id.clone(),
                    method: method.clone(),
                    params: params.clone(),
                };
                self.0.pending.borrow_mut().push(request.clone());
                let handler = self.0.handlers.borrow().server_request(server);
                if let Some(handler) = handler {
                    handler(&request);
                }
            }
            ClientEvent::ServerRequestExpired { id } => self
                .0
                .pending
                .borrow_mut()
                .retain(|p| !(p.server == server && &p.id == id)),
            ClientEvent::ListChanged(ListUpdate::Tools(Ok(tools))) => {
                if let Some(entry) = self.0.servers.borrow_mut().get_mut(server) {
                    entry.tools = tools.clone();
                }
            }
            // A re-listed tool list that paginates: the rest follows the first page.
            ClientEvent::NextCursor {
                kind: ListKind::Tools,
                cursor,
            } if !self.0.tool_pages.get() => {
                if let Ok(client) = self.client(server) {
                    let manager = self.clone();
                    let server = server.to_owned();
                    let cursor = cursor.clone();
                    self.runtime().spawner.spawn(Box::pin(async move {
                        manager.complete_tools(&server, &client, &cursor).await;
                    }));
                }
            }
            ClientEvent::ConnectionLost { .. } => {
                if let Some(entry) = self.0.servers.borrow_mut().get_mut(server) {
                    entry.status = Status::Disconnected;
                }
            }
            _ => {}
        }
    }

    /// Gives a wire line to the server's logger and the global one (a copy only when both
    /// want it: a line can hold a 10 MB body).
    fn log(&self, server: &str, line: WireLine) {
        let mut loggers = self.0.handlers.borrow().loggers(server);
        let last = loggers.pop();
        for logger in loggers {
            logger(server, line.clone());
        }
        if let Some(logger) = last {
            logger(server, line);
        }
    }
}
