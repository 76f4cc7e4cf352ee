//! Many servers at once, by id: the shape of MCPJam's `MCPClientManager`, in Rust.
//!
//! A [`Manager`] owns one [`McpClient`] per server id and routes everything the servers send:
//! notifications to handlers registered per server and kind (or for all servers), server
//! requests that wait for a person (sampling, elicitation) to a handler per server with a
//! global fallback, or, with no handler, to a queue of pending requests answered by id; wire
//! entries to loggers per server or global. Tools are cached per server with their `_meta`,
//! and tools meant only for MCP Apps (`_meta.ui.visibility == ["app"]`) are left out of
//! model-facing lists unless asked for.
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

use crate::client::McpClient;
use crate::config::ClientConfig;
use crate::events::{ClientEvent, ListKind, ListUpdate, ServerState};
use crate::runtime::Runtime;
use mcp_lens_protocol::error::McpError;
use mcp_lens_protocol::jsonrpc::RequestId;
use mcp_lens_protocol::wire_log::{WireAnswer, WireEntry};
use rmcp::model::{
    CallToolResult, GetPromptResult, JsonObject, Prompt, ReadResourceResult, Resource,
    ResourceTemplate, Tool,
};
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::fmt;
use std::rc::{Rc, Weak};
use std::sync::Arc;

/// Where a server stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Disconnected,
    Connecting,
    Connected,
}

/// What a manager call failed on: which server, and why.
#[derive(Debug, Clone, PartialEq)]
pub enum ManagerError {
    /// No server has this id.
    UnknownServer(String),
    /// `connect` was given an id that is already in use (disconnect or remove it first).
    AlreadyExists(String),
    /// The server is known but not connected.
    NotConnected(String),
    /// A `server:tool` name named no server, or a bare tool name was offered by several.
    UnresolvedTool { name: String, why: String },
    /// The server's answer (or the request) failed.
    Mcp { server: String, error: McpError },
}

impl fmt::Display for ManagerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ManagerError::UnknownServer(id) => write!(f, "there is no server \"{id}\"."),
            ManagerError::AlreadyExists(id) => write!(
                f,
                "a server \"{id}\" exists already; disconnect or remove it first."
            ),
            ManagerError::NotConnected(id) => write!(f, "the server \"{id}\" is not connected."),
            ManagerError::UnresolvedTool { name, why } => {
                write!(f, "the tool \"{name}\" cannot be called: {why}.")
            }
            ManagerError::Mcp { server, error } => write!(f, "{server}: {error}"),
        }
    }
}

impl std::error::Error for ManagerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ManagerError::Mcp { error, .. } => Some(error),
            _ => None,
        }
    }
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

/// A tool, tagged with the server that offers it.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerTool {
    pub server: String,
    pub tool: Tool,
}

/// The kinds of notification a handler can be registered for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum NotificationKind {
    ResourceUpdated,
    ListChanged,
    Progress,
    Logging,
    /// Any other notification method.
    Other,
}

impl NotificationKind {
    /// The kind of a notification method.
    pub fn of(method: &str) -> Self {
        match method {
            "notifications/resources/updated" => Self::ResourceUpdated,
            "notifications/progress" => Self::Progress,
            "notifications/message" => Self::Logging,
            m if m.ends_with("/list_changed") => Self::ListChanged,
            _ => Self::Other,
        }
    }
}

/// A server request waiting for a person (sampling, elicitation).
#[derive(Debug, Clone, PartialEq)]
pub struct PendingRequest {
    pub server: String,
    pub id: RequestId,
    pub method: String,
    pub params: Option<Value>,
}

type NotificationHandler = Rc<dyn Fn(&str, &str, Option<&Value>)>;
type RequestHandler = Rc<dyn Fn(&PendingRequest)>;
type Logger = Rc<dyn Fn(&str, WireLine)>;
type EventTap = Rc<dyn Fn(&str, ClientEvent)>;

/// What an RPC logger is given: a new entry, or the completion of a pending one.
#[derive(Debug, Clone, PartialEq)]
pub enum WireLine {
    Entry(WireEntry),
    Answer(WireAnswer),
}

/// Handlers registered for one server (`Some(id)`) or for all (`None`).
#[derive(Default)]
struct Handlers {
    notifications: Registry<(Option<String>, NotificationKind), NotificationHandler>,
    requests: Registry<Option<String>, RequestHandler>,
    loggers: Registry<Option<String>, Logger>,
    taps: Registry<Option<String>, EventTap>,
}

/// A handful of handlers by key. A list, not a map: there are a few per server, and each
/// map type's code would cost the page's download several kilobytes.
struct Registry<K, V>(Vec<(K, V)>);

impl<K, V> Default for Registry<K, V> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<K: PartialEq, V> Registry<K, V> {
    /// Sets the handler for `key`, replacing an earlier one.
    fn insert(&mut self, key: K, value: V) {
        self.0.retain(|(k, _)| k != &key);
        self.0.push((key, value));
    }

    fn get(&self, key: &K) -> Option<&V> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    fn retain(&mut self, mut keep: impl FnMut(&K) -> bool) {
        self.0.retain(|(k, _)| keep(k));
    }
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
        let mut handlers = self.0.handlers.borrow_mut();
        let own = Some(id.to_owned());
        handlers.notifications.retain(|(server, _)| server != &own);
        handlers.requests.retain(|server| server != &own);
        handlers.loggers.retain(|server| server != &own);
        handlers.taps.retain(|server| server != &own);
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

    pub async fn list_prompts(&self, id: &str) -> Result<Vec<Prompt>, ManagerError> {
        let client = self.client(id)?;
        client.list_prompts().await.map_err(|error| mcp(id, error))
    }

    pub async fn get_prompt(
        &self,
        id: &str,
        name: &str,
        arguments: JsonObject,
    ) -> Result<GetPromptResult, ManagerError> {
        let client = self.client(id)?;
        client
            .get_prompt(name, arguments)
            .await
            .map_err(|error| mcp(id, error))
    }

    pub async fn list_resources(&self, id: &str) -> Result<Vec<Resource>, ManagerError> {
        let client = self.client(id)?;
        client
            .list_resources()
            .await
            .map_err(|error| mcp(id, error))
    }

    pub async fn list_resource_templates(
        &self,
        id: &str,
    ) -> Result<Vec<ResourceTemplate>, ManagerError> {
        let client = self.client(id)?;
        client
            .list_resource_templates()
            .await
            .map_err(|error| mcp(id, error))
    }

    pub async fn read_resource(
        &self,
        id: &str,
        uri: &str,
    ) -> Result<ReadResourceResult, ManagerError> {
        let client = self.client(id)?;
        client
            .read_resource(uri)
            .await
            .map_err(|error| mcp(id, error))
    }

    /// Subscribes to a resource of a server (`resources/subscribe`); its changes arrive as
    /// [`NotificationKind::ResourceUpdated`] notifications. Subscriptions last as long as
    /// the session: a reconnect starts with none.
    pub async fn subscribe_resource(&self, id: &str, uri: &str) -> Result<(), ManagerError> {
        let client = self.client(id)?;
        client
            .subscribe_resource(uri)
            .await
            .map_err(|error| mcp(id, error))
    }

    /// Ends a subscription (`resources/unsubscribe`).
    pub async fn unsubscribe_resource(&self, id: &str, uri: &str) -> Result<(), ManagerError> {
        let client = self.client(id)?;
        client
            .unsubscribe_resource(uri)
            .await
            .map_err(|error| mcp(id, error))
    }

    /// The resources a server's session is subscribed to.
    pub fn subscriptions(&self, id: &str) -> Result<Vec<String>, ManagerError> {
        Ok(self.client(id)?.subscriptions())
    }

    /// Completion values for a prompt argument.
    pub async fn complete_prompt_argument(
        &self,
        id: &str,
        prompt: &str,
        argument: &str,
        value: &str,
    ) -> Result<Vec<String>, ManagerError> {
        let client = self.client(id)?;
        client
            .complete_prompt_argument(prompt, argument, value)
            .await
            .map_err(|error| mcp(id, error))
    }

    pub async fn set_log_level(&self, id: &str, level: &str) -> Result<(), ManagerError> {
        let client = self.client(id)?;
        client
            .set_log_level(level)
            .await
            .map_err(|error| mcp(id, error))
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
            .notifications
            .insert((server.map(str::to_owned), kind), Rc::new(handler));
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
            .requests
            .insert(server.map(str::to_owned), Rc::new(handler));
    }

    /// Logs every message of one server, or of all servers (`None`), already redacted. A
    /// server's own logger and the global one both get each line.
    pub fn on_wire(&self, server: Option<&str>, logger: impl Fn(&str, WireLine) + 'static) {
        self.0
            .handlers
            .borrow_mut()
            .loggers
            .insert(server.map(str::to_owned), Rc::new(logger));
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
        self.0
            .handlers
            .borrow_mut()
            .taps
            .insert(server.map(str::to_owned), Rc::new(tap));
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
                let tap = {
                    let handlers = self.0.handlers.borrow();
                    handlers
                        .taps
                        .get(&Some(server.to_owned()))
                        .or_else(|| handlers.taps.get(&None))
                        .cloned()
                };
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
                let handler = {
                    let handlers = self.0.handlers.borrow();
                    handlers
                        .notifications
                        .get(&(Some(server.to_owned()), kind))
                        .or_else(|| handlers.notifications.get(&(None, kind)))
                        .cloned()
                };
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
                let handler = {
                    let handlers = self.0.handlers.borrow();
                    handlers
                        .requests
                        .get(&Some(server.to_owned()))
                        .or_else(|| handlers.requests.get(&None))
                        .cloned()
                };
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
        let mut loggers: Vec<Logger> = {
            let handlers = self.0.handlers.borrow();
            [
                handlers.loggers.get(&Some(server.to_owned())),
                handlers.loggers.get(&None),
            ]
            .into_iter()
            .flatten()
            .cloned()
            .collect()
        };
        let last = loggers.pop();
        for logger in loggers {
            logger(server, line.clone());
        }
        if let Some(logger) = last {
            logger(server, line);
        }
    }
}

fn mcp(server: &str, error: McpError) -> ManagerError {
    ManagerError::Mcp {
        server: server.to_owned(),
        error,
    }
}

/// Whether a tool is meant only for MCP Apps, not for a model (SEP-1865:
/// `_meta.ui.visibility` lists `"app"` and not `"model"`).
pub fn is_app_only(tool: &Tool) -> bool {
    let visibility = tool
        .meta
        .as_ref()
        .and_then(|meta| meta.0.get("ui"))
        .and_then(|ui| ui.get("visibility"))
        .and_then(Value::as_array);
    visibility.is_some_and(|list| {
        let has = |name: &str| list.iter().any(|v| v.as_str() == Some(name));
        has("app") && !has("model")
    })
}

/// Resolves `server:tool`, or a bare tool name offered by exactly one server, against
/// `offered` (server, tool) pairs. A server id may itself contain `:`, so the longest server
/// id that prefixes the name wins; a tool whose own name contains `:` is found as a bare name.
pub fn resolve_tool_name(
    name: &str,
    offered: &[(String, String)],
) -> Result<(String, String), ManagerError> {
    let exact: Vec<&(String, String)> = offered
        .iter()
        .filter(|(server, tool)| {
            name.strip_prefix(server.as_str())
                .and_then(|rest| rest.strip_prefix(':'))
                == Some(tool.as_str())
        })
        .collect();
    if let Some(best) = exact.iter().max_by_key(|(server, _)| server.len()) {
        return Ok((*best).clone());
    }
    let bare: Vec<&(String, String)> = offered.iter().filter(|(_, tool)| tool == name).collect();
    match bare.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(ManagerError::UnresolvedTool {
            name: name.to_owned(),
            why: "no connected server offers it".to_owned(),
        }),
        several => Err(ManagerError::UnresolvedTool {
            name: name.to_owned(),
            why: format!(
                "{} servers offer it ({}); name one as server:tool",
                several.len(),
                several
                    .iter()
                    .map(|(s, _)| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(s, t)| (s.to_string(), t.to_string()))
            .collect()
    }

    #[test]
    fn tool_names_resolve_to_their_server() {
        let offered = pairs(&[("a", "echo"), ("b", "echo"), ("b", "sum"), ("x:y", "z")]);
        let ok = |s: &str, t: &str| Ok((s.to_owned(), t.to_owned()));
        assert_eq!(resolve_tool_name("b:echo", &offered), ok("b", "echo"));
        assert_eq!(resolve_tool_name("sum", &offered), ok("b", "sum"));
        assert_eq!(resolve_tool_name("x:y:z", &offered), ok("x:y", "z"));
        let ambiguous = resolve_tool_name("echo", &offered).unwrap_err();
        assert_eq!(
            ambiguous.to_string(),
            "the tool \"echo\" cannot be called: 2 servers offer it (a, b); name one as server:tool."
        );
        assert!(matches!(
            resolve_tool_name("c:echo", &offered),
            Err(ManagerError::UnresolvedTool { .. })
        ));
    }

    #[test]
    fn app_only_tools_are_recognised_by_their_visibility() {
        let tool = |meta: Value| -> Tool {
            serde_json::from_value(
                json!({"name": "t", "inputSchema": {"type": "object"}, "_meta": meta}),
            )
            .unwrap()
        };
        assert!(is_app_only(&tool(json!({"ui": {"visibility": ["app"]}}))));
        assert!(!is_app_only(&tool(
            json!({"ui": {"visibility": ["model", "app"]}})
        )));
        assert!(!is_app_only(&tool(
            json!({"ui": {"resourceUri": "ui://x"}})
        )));
        assert!(!is_app_only(&tool(json!({"ui": {"visibility": "app"}}))));
    }

    #[test]
    fn notification_kinds() {
        assert_eq!(
            NotificationKind::of("notifications/tools/list_changed"),
            NotificationKind::ListChanged
        );
        assert_eq!(
            NotificationKind::of("notifications/resources/updated"),
            NotificationKind::ResourceUpdated
        );
        assert_eq!(
            NotificationKind::of("notifications/message"),
            NotificationKind::Logging
        );
        assert_eq!(NotificationKind::of("x/y"), NotificationKind::Other);
    }

    #[test]
    fn errors_are_std_errors_with_their_cause() {
        use mcp_lens_protocol::error::{ErrorKind, Step};
        let error = mcp("a", McpError::new(Step::Ping, ErrorKind::NotConnected));
        let dynamic: &dyn std::error::Error = &error;
        assert!(dynamic.source().is_some());
        assert_eq!(
            error.to_string(),
            "a: Ping failed: there is no connection; connect first."
        );
    }
}
