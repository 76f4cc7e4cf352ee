//! The typed API: lists (every page, or one page at a time), tool calls, tasks, prompts,
//! resources, completion, logging.
//! Each sends a raw request through the engine and decodes the `result` into the rmcp type
//! it expects (never through rmcp's message unions: they triple the wasm size).

use crate::{ClientEvent, ListKind, ListPage, ListUpdate, McpClient};
use futures::future::LocalBoxFuture;
use mcp_lens_protocol::error::{ErrorKind, McpError, Step};
use mcp_lens_protocol::jsonrpc::RequestId;
use mcp_lens_protocol::mcp::{self, decode_result};
use mcp_lens_protocol::tasks::{
    self, CreateTaskResult, ListTasksResult, ServerTasks, Task, TaskStatus, TaskSupport,
};
use rmcp::model::{
    CallToolResult, GetPromptResult, JsonObject, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, Prompt, ReadResourceResult, Resource, ResourceTemplate,
    Tool,
};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use std::rc::Rc;

/// A server that keeps handing out cursors is cut off after this many pages.
const MAX_PAGES: usize = 100;

impl McpClient {
    pub(crate) async fn list_if<T, F, Fut>(
        &self,
        offered: bool,
        list: F,
    ) -> Option<Result<ListPage<T>, McpError>>
    where
        F: FnOnce(McpClient) -> Fut,
        Fut: std::future::Future<Output = Result<ListPage<T>, McpError>>,
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
            }) => Ok(ListPage {
                items: Vec::new(),
                next_cursor: None,
            }),
            other => other,
        })
    }

    /// Every tool, following `nextCursor` (up to 100 pages; a repeated cursor ends the list).
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let tools = client.clone().list_tools().await?;
    /// println!("{}", tools.len());
    /// # Ok(()) }
    /// ```
    pub async fn list_tools(self) -> Result<Vec<Tool>, McpError> {
        self.tools_from(None, MAX_PAGES)
            .await
            .map(|page| page.items)
    }

    /// One page of tools: the first (`None`) or the one a `nextCursor` names.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let first = client.list_tools_page(None).await?;
    /// if let Some(cursor) = &first.next_cursor {
    ///     let second = client.list_tools_page(Some(cursor)).await?;
    ///     println!("{} more", second.items.len());
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn list_tools_page(&self, cursor: Option<&str>) -> Result<ListPage<Tool>, McpError> {
        self.tools_from(cursor.map(str::to_owned), 1).await
    }

    /// Every prompt, following `nextCursor`.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let prompts = client.clone().list_prompts().await?;
    /// println!("{}", prompts.len());
    /// # Ok(()) }
    /// ```
    pub async fn list_prompts(self) -> Result<Vec<Prompt>, McpError> {
        self.prompts_from(None, MAX_PAGES)
            .await
            .map(|page| page.items)
    }

    /// One page of prompts (see [`McpClient::list_tools_page`]).
    pub async fn list_prompts_page(
        &self,
        cursor: Option<&str>,
    ) -> Result<ListPage<Prompt>, McpError> {
        self.prompts_from(cursor.map(str::to_owned), 1).await
    }

    /// Every resource, following `nextCursor`.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let resources = client.clone().list_resources().await?;
    /// println!("{}", resources.len());
    /// # Ok(()) }
    /// ```
    pub async fn list_resources(self) -> Result<Vec<Resource>, McpError> {
        self.resources_from(None, MAX_PAGES)
            .await
            .map(|page| page.items)
    }

    /// One page of resources (see [`McpClient::list_tools_page`]).
    pub async fn list_resources_page(
        &self,
        cursor: Option<&str>,
    ) -> Result<ListPage<Resource>, McpError> {
        self.resources_from(cursor.map(str::to_owned), 1).await
    }

    /// A server that offers resources but no templates may not know the method at all:
    /// that is an empty list, not a failure.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let templates = client.clone().list_resource_templates().await?;
    /// println!("{}", templates.len());
    /// # Ok(()) }
    /// ```
    pub async fn list_resource_templates(self) -> Result<Vec<ResourceTemplate>, McpError> {
        self.templates_from(None, MAX_PAGES)
            .await
            .map(|page| page.items)
    }

    /// One page of resource templates (see [`McpClient::list_tools_page`]).
    pub async fn list_resource_templates_page(
        &self,
        cursor: Option<&str>,
    ) -> Result<ListPage<ResourceTemplate>, McpError> {
        self.templates_from(cursor.map(str::to_owned), 1).await
    }

    /// Continues a list of `kind` from `cursor` (a `nextCursor`): one page, or with `all`
    /// every page to the end (up to 100). Gives the items as a [`ListUpdate`] (to append to
    /// what was listed so far) and the cursor that continues it (`None`: complete).
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) {
    /// use mcp_lens_client::{ListKind, ListUpdate};
    /// let (more, next) = client.list_more(ListKind::Tools, "page-2", false).await;
    /// if let ListUpdate::Tools(Ok(tools)) = more {
    ///     println!("{} more tools, complete: {}", tools.len(), next.is_none());
    /// }
    /// # }
    /// ```
    pub async fn list_more(
        &self,
        kind: ListKind,
        cursor: &str,
        all: bool,
    ) -> (ListUpdate, Option<String>) {
        let pages = if all { MAX_PAGES } else { 1 };
        self.list_of(kind, Some(cursor.to_owned()), pages).await
    }

    /// Up to `pages` pages of a list from `start`, as a list update and the next cursor.
    pub(crate) async fn list_of(
        &self,
        kind: ListKind,
        start: Option<String>,
        pages: usize,
    ) -> (ListUpdate, Option<String>) {
        fn split<T>(
            page: Result<ListPage<T>, McpError>,
        ) -> (Result<Vec<T>, McpError>, Option<String>) {
            match page {
                Ok(page) => (Ok(page.items), page.next_cursor),
                Err(error) => (Err(error), None),
            }
        }
        match kind {
            ListKind::Tools => {
                let (items, next) = split(self.tools_from(start, pages).await);
                (ListUpdate::Tools(items), next)
            }
            ListKind::Prompts => {
                let (items, next) = split(self.prompts_from(start, pages).await);
                (ListUpdate::Prompts(items), next)
            }
            ListKind::Resources => {
                let (items, next) = split(self.resources_from(start, pages).await);
                (ListUpdate::Resources(items), next)
            }
            ListKind::Templates => {
                let (items, next) = split(self.templates_from(start, pages).await);
                (ListUpdate::Templates(items), next)
            }
        }
    }

    pub(crate) async fn tools_from(
        &self,
        start: Option<String>,
        pages: usize,
    ) -> Result<ListPage<Tool>, McpError> {
        self.list_kind(
            Step::ListTools,
            mcp::TOOLS_LIST,
            start,
            pages,
            |page: ListToolsResult| page.tools,
        )
        .await
    }

    pub(crate) async fn prompts_from(
        &self,
        start: Option<String>,
        pages: usize,
    ) -> Result<ListPage<Prompt>, McpError> {
        self.list_kind(
            Step::ListPrompts,
            mcp::PROMPTS_LIST,
            start,
            pages,
            |page: ListPromptsResult| page.prompts,
        )
        .await
    }

    pub(crate) async fn resources_from(
        &self,
        start: Option<String>,
        pages: usize,
    ) -> Result<ListPage<Resource>, McpError> {
        self.list_kind(
            Step::ListResources,
            mcp::RESOURCES_LIST,
            start,
            pages,
            |page: ListResourcesResult| page.resources,
        )
        .await
    }

    pub(crate) async fn templates_from(
        &self,
        start: Option<String>,
        pages: usize,
    ) -> Result<ListPage<ResourceTemplate>, McpError> {
        self.list_kind(
            Step::ListResourceTemplates,
            mcp::RESOURCE_TEMPLATES_LIST,
            start,
            pages,
            |page: ListResourceTemplatesResult| page.resource_templates,
        )
        .await
    }

    /// Up to `pages` pages from `start`, decoded. A server that does not know the templates
    /// method has none (resources without templates are common).
    /// rmcp's Tool has no `execution`: remember which listed tools may run as tasks (a
    /// first page starts the list afresh; later pages add to it).
    fn remember_task_support(&self, pages: &[Value], first: bool) {
        let listed = pages
            .iter()
            .filter_map(|page| page.get("tools").and_then(Value::as_array))
            .flatten()
            .filter_map(|tool| {
                let name = tool.get("name").and_then(Value::as_str)?;
                let support = TaskSupport::of_tool(tool);
                (support != TaskSupport::Forbidden).then(|| (name.to_owned(), support))
            });
        let mut known = self.0.task_support.borrow_mut();
        if first {
            known.clear();
        }
        known.extend(listed);
    }

    async fn list_kind<P: DeserializeOwned, T>(
        &self,
        step: Step,
        method: &'static str,
        start: Option<String>,
        pages: usize,
        items: impl Fn(P) -> Vec<T>,
    ) -> Result<ListPage<T>, McpError> {
        let start_is_first = start.is_none();
        let (raw, next_cursor) = match self.list_pages(step, method, start, pages).await {
            Err(McpError {
                kind: ErrorKind::JsonRpc { code: -32601, .. },
                ..
            }) if method == mcp::RESOURCE_TEMPLATES_LIST => {
                return Ok(ListPage {
                    items: Vec::new(),
                    next_cursor: None,
                })
            }
            other => other?,
        };
        if method == mcp::TOOLS_LIST {
            self.remember_task_support(&raw, start_is_first);
        }
        // Hundreds of items: reading the answer (the task it arrived in), decoding it and
        // drawing it (the caller's) are tasks of their own; at connect, the three made one
        // task of 60-90 ms for a page of 500 tools.
        let many = raw.iter().map(item_count).sum::<usize>() >= MANY_ITEMS;
        if many {
            self.yield_now().await;
        }
        // Page by page, letting the page breathe between bursts: "Load all" of 5,000 tools
        // decoded at once was one task of 30-90 ms.
        let mut decoded = Vec::new();
        let mut pacer = self.pacer();
        let pages = raw.len();
        for (n, page) in raw.into_iter().enumerate() {
            decoded.extend(items(decode(step, method, page)?));
            // Between pages only: after the last one the caller goes on at once.
            if n + 1 < pages {
                self.pace(&mut pacer).await;
            }
        }
        if many {
            self.yield_now().await;
        }
        Ok(ListPage {
            items: decoded,
            next_cursor,
        })
    }

    /// Starts a tool call. Returns its request id at once (the progress token, and what
    /// [`McpClient::cancel`] takes) and the future of its result.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let arguments = serde_json::Map::from_iter([("message".to_owned(), serde_json::json!("hi"))]);
    /// let (_id, call) = client.call_tool("echo", arguments);
    /// let result = call.await?;
    /// println!("{:?}", result.content);
    /// # Ok(()) }
    /// ```
    pub fn call_tool(
        &self,
        name: &str,
        arguments: JsonObject,
    ) -> (
        RequestId,
        LocalBoxFuture<'static, Result<CallToolResult, McpError>>,
    ) {
        let (id, call) = self.tool_call(name, arguments, None);
        (
            id,
            Box::pin(async move { decode(Step::CallTool, mcp::TOOLS_CALL, call.await?) }),
        )
    }

    /// [`McpClient::call_tool`] with the result undecoded: what an MCP App asked for is
    /// passed back to it exactly as the server answered.
    pub fn call_tool_json(
        &self,
        name: &str,
        arguments: JsonObject,
    ) -> (RequestId, LocalBoxFuture<'static, Result<Value, McpError>>) {
        self.tool_call(name, arguments, None)
    }

    /// Starts a tool call augmented with a task (2025-11-25): the server answers at once
    /// with the task it created, to follow with [`McpClient::follow_task`]. `ttl_ms` asks
    /// for a retention time. The request id stays the progress token for the whole task.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let arguments = serde_json::Map::from_iter([("topic".to_owned(), serde_json::json!("tides"))]);
    /// if client.runs_as_task("simulate-research-query") {
    ///     let (_id, call) = client.call_tool_as_task("simulate-research-query", arguments, None);
    ///     let task = call.await?;
    ///     let result = client.follow_task(task, std::rc::Rc::new(|task| println!("{:?}", task.status))).await?;
    ///     println!("{result:?}");
    /// }
    /// # Ok(()) }
    /// ```
    pub fn call_tool_as_task(
        &self,
        name: &str,
        arguments: JsonObject,
        ttl_ms: Option<u64>,
    ) -> (RequestId, LocalBoxFuture<'static, Result<Task, McpError>>) {
        let task = match ttl_ms {
            Some(ttl) => json!({ "ttl": ttl }),
            None => json!({}),
        };
        let (id, call) = self.tool_call(name, arguments, Some(task));
        let created = Box::pin(async move {
            let created: CreateTaskResult = decode(Step::CallTool, mcp::TOOLS_CALL, call.await?)?;
            Ok(created.task)
        });
        (id, created)
    }

    fn tool_call(
        &self,
        name: &str,
        arguments: JsonObject,
        task: Option<Value>,
    ) -> (RequestId, LocalBoxFuture<'static, Result<Value, McpError>>) {
        let id = self.0.ids.borrow_mut().next_id();
        let mut params = json!({ "name": name, "arguments": arguments });
        params["_meta"] = json!({ "progressToken": id.clone().into_json_value() });
        if let Some(task) = task {
            params["task"] = task;
        }
        let client = self.clone();
        let call_id = id.clone();
        let call = Box::pin(async move {
            client
                .request_as(call_id, Step::CallTool, mcp::TOOLS_CALL, Some(params))
                .await
        });
        (id, call)
    }

    /// What the server declared about tasks (`capabilities.tasks`).
    pub fn server_tasks(&self) -> ServerTasks {
        self.0.server_tasks.get()
    }

    /// A tool's `execution.taskSupport`, as the last tools list said.
    pub fn task_support(&self, tool: &str) -> TaskSupport {
        self.0
            .task_support
            .borrow()
            .get(tool)
            .copied()
            .unwrap_or_default()
    }

    /// Whether calling `tool` should go as a task: it requires one, or it allows one and
    /// the server declares task-augmented tool calls.
    pub fn runs_as_task(&self, tool: &str) -> bool {
        self.server_tasks().run_as_task(self.task_support(tool))
    }

    /// The task's current state (`tasks/get`).
    pub async fn get_task(&self, task_id: &str) -> Result<Task, McpError> {
        self.task_request(Step::GetTask, tasks::TASKS_GET, task_id)
            .await
    }

    /// Cancels a task (`tasks/cancel`); the server answers with the task as it is now.
    pub async fn cancel_task(&self, task_id: &str) -> Result<Task, McpError> {
        self.task_request(Step::CancelTask, tasks::TASKS_CANCEL, task_id)
            .await
    }

    /// A tool-call task's result (`tasks/result`). The server holds the answer until the
    /// task ends, and sends its requests for the task (elicitation, sampling) on its stream
    /// meanwhile: they reach the person handlers like any other.
    pub async fn task_result(&self, task_id: &str) -> Result<CallToolResult, McpError> {
        let value = self
            .request(
                Step::TaskResult,
                tasks::TASKS_RESULT,
                Some(json!({ "taskId": task_id })),
            )
            .await?;
        decode(Step::TaskResult, tasks::TASKS_RESULT, value)
    }

    /// Every task the server keeps for this session (`tasks/list`), following `nextCursor`.
    pub async fn list_tasks(self) -> Result<Vec<Task>, McpError> {
        let (pages, _) = self
            .list_pages(Step::ListTasks, tasks::TASKS_LIST, None, MAX_PAGES)
            .await?;
        decode_pages(
            Step::ListTasks,
            tasks::TASKS_LIST,
            pages,
            |page: ListTasksResult| page.tasks,
        )
    }

    /// Follows a task to its end: polls `tasks/get` at the server's `pollInterval`
    /// (bounded, see [`Task::poll_ms`]) and reports every state to `on_status`; while the
    /// task needs input, waits on `tasks/result`, which carries the server's requests and
    /// then the result. Ends with the result (completed or failed) or `None` (cancelled).
    pub fn follow_task(
        &self,
        task: Task,
        on_status: Rc<dyn Fn(&Task)>,
    ) -> LocalBoxFuture<'static, Result<Option<CallToolResult>, McpError>> {
        let client = self.clone();
        Box::pin(async move {
            let id = task.task_id.clone();
            let mut task = task;
            loop {
                match task.status {
                    TaskStatus::Cancelled => return Ok(None),
                    TaskStatus::InputRequired => match client.task_result(&id).await {
                        Ok(result) => {
                            if let Ok(task) = client.get_task(&id).await {
                                on_status(&task);
                            }
                            return Ok(Some(result));
                        }
                        Err(error) if client.0.closed.get() => return Err(error),
                        // E.g. timed out while a person answered: poll on.
                        Err(_) => client.sleep(task.poll_ms() as u32).await,
                    },
                    status if status.is_terminal() => {
                        return client.task_result(&id).await.map(Some)
                    }
                    _ => client.sleep(task.poll_ms() as u32).await,
                }
                task = client.get_task(&id).await?;
                on_status(&task);
            }
        })
    }

    async fn task_request(
        &self,
        step: Step,
        method: &'static str,
        task_id: &str,
    ) -> Result<Task, McpError> {
        let value = self
            .request(step, method, Some(json!({ "taskId": task_id })))
            .await?;
        decode(step, method, value)
    }

    /// Cancels a request in flight: its fetch is aborted, its caller gets "cancelled", and
    /// the server is told with `notifications/cancelled`.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let (id, call) = client.call_tool("slow", serde_json::Map::new());
    /// client.cancel(&id);
    /// assert!(call.await.is_err()); // ErrorKind::Cancelled
    /// # Ok(()) }
    /// ```
    pub fn cancel(&self, id: &RequestId) {
        let Some(pending) = self.0.pending.borrow_mut().take(id) else {
            return;
        };
        pending.waiter.abort.abort();
        let _ = pending.waiter.answer.send(Err(ErrorKind::Cancelled));
        self.cancel_on_server(id, "Cancelled by the user.");
    }

    /// Gets a prompt with its arguments filled in (`prompts/get`).
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let arguments = serde_json::Map::from_iter([("city".to_owned(), serde_json::json!("Paris"))]);
    /// let prompt = client.get_prompt("weather", arguments).await?;
    /// println!("{} messages", prompt.messages.len());
    /// # Ok(()) }
    /// ```
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

    /// Reads a resource (`resources/read`).
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let resource = client.read_resource("file:///notes.md").await?;
    /// println!("{} parts", resource.contents.len());
    /// # Ok(()) }
    /// ```
    pub async fn read_resource(&self, uri: &str) -> Result<ReadResourceResult, McpError> {
        let value = self.read_resource_json(uri).await?;
        decode(Step::ReadResource, mcp::RESOURCES_READ, value)
    }

    /// [`McpClient::read_resource`] as the server sent it, undecoded: an MCP App's `ui://`
    /// resource is read with its `_meta.ui` (CSP, permissions) exactly as written, and an
    /// app's own `resources/read` gets the server's answer unchanged.
    pub async fn read_resource_json(&self, uri: &str) -> Result<Value, McpError> {
        self.request(
            Step::ReadResource,
            mcp::RESOURCES_READ,
            Some(json!({ "uri": uri })),
        )
        .await
    }

    /// Subscribes to a resource's changes (`resources/subscribe`, when the server's
    /// `resources.subscribe` capability says so): the server then sends
    /// `notifications/resources/updated` with its URI (a [`crate::ClientEvent::Notification`]).
    /// Subscriptions belong to this session: a new session starts with none.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// client.subscribe_resource("file:///notes.md").await?;
    /// assert!(client.is_subscribed("file:///notes.md"));
    /// # Ok(()) }
    /// ```
    pub async fn subscribe_resource(&self, uri: &str) -> Result<(), McpError> {
        self.request(
            Step::SubscribeResource,
            mcp::RESOURCES_SUBSCRIBE,
            Some(json!({ "uri": uri })),
        )
        .await?;
        let mut subscribed = self.0.subscriptions.borrow_mut();
        if !subscribed.iter().any(|known| known == uri) {
            subscribed.push(uri.to_owned());
        }
        Ok(())
    }

    /// Ends a subscription (`resources/unsubscribe`). The URI counts as unsubscribed here
    /// even if the server's answer is an error: its updates are no longer wanted.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// client.unsubscribe_resource("file:///notes.md").await?;
    /// # Ok(()) }
    /// ```
    pub async fn unsubscribe_resource(&self, uri: &str) -> Result<(), McpError> {
        self.0
            .subscriptions
            .borrow_mut()
            .retain(|known| known != uri);
        self.request(
            Step::UnsubscribeResource,
            mcp::RESOURCES_UNSUBSCRIBE,
            Some(json!({ "uri": uri })),
        )
        .await
        .map(drop)
    }

    /// Subscribes again, in the background, to everything subscribed so far (after the
    /// server lost the session and a new one was initialized). A subscription the new session
    /// refuses is dropped and reported as [`ClientEvent::Ignored`].
    pub(crate) fn resubscribe(&self) {
        for uri in self.subscriptions() {
            let client = self.background();
            self.spawn(async move {
                let params = Some(json!({ "uri": uri }));
                let step = Step::SubscribeResource;
                if let Err(error) = client.request(step, mcp::RESOURCES_SUBSCRIBE, params).await {
                    client
                        .0
                        .subscriptions
                        .borrow_mut()
                        .retain(|known| known != &uri);
                    client.emit(ClientEvent::Ignored {
                        reason: format!("{error} (subscribing again to {uri} in the new session)"),
                    });
                }
            });
        }
    }

    /// Whether this session is subscribed to the resource.
    pub fn is_subscribed(&self, uri: &str) -> bool {
        self.0
            .subscriptions
            .borrow()
            .iter()
            .any(|known| known == uri)
    }

    /// The resources this session is subscribed to, in the order subscribed.
    pub fn subscriptions(&self) -> Vec<String> {
        self.0.subscriptions.borrow().clone()
    }

    /// Pings the server; returns the round trip in milliseconds.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// println!("{} ms", client.ping().await?);
    /// # Ok(()) }
    /// ```
    pub async fn ping(&self) -> Result<f64, McpError> {
        let started = self.now_ms();
        self.request(Step::Ping, mcp::PING, None).await?;
        Ok(self.now_ms() - started)
    }

    /// Completion values for a prompt argument as typed so far (`completion/complete`).
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let values = client.complete_prompt_argument("weather", "city", "Pa").await?;
    /// println!("{values:?}");
    /// # Ok(()) }
    /// ```
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
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// client.set_log_level("debug").await?;
    /// # Ok(()) }
    /// ```
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
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// println!("{:?}", client.protocol_version()); // Some("2025-11-25")
    /// # Ok(()) }
    /// ```
    pub fn protocol_version(&self) -> Option<String> {
        self.0.session.borrow().protocol_version.clone()
    }

    /// Fetches up to `max_pages` pages of a list from `start`, following `nextCursor`, as
    /// raw results, and the cursor that continues it (`None` once a page has none, or repeats
    /// the cursor that asked for it).
    async fn list_pages(
        &self,
        step: Step,
        method: &'static str,
        start: Option<String>,
        max_pages: usize,
    ) -> Result<(Vec<Value>, Option<String>), McpError> {
        let mut pages = Vec::new();
        let mut cursor = start;
        for _ in 0..max_pages {
            let params = cursor.clone().map(|c| json!({ "cursor": c }));
            let page = self.request(step, method, params).await?;
            let next = page
                .get("nextCursor")
                .and_then(Value::as_str)
                .map(str::to_owned);
            pages.push(page);
            match next {
                Some(next) if Some(&next) != cursor.as_ref() => cursor = Some(next),
                _ => return Ok((pages, None)),
            }
        }
        Ok((pages, cursor))
    }
}

/// A list this long is decoded in a task of its own (see `list_kind`).
const MANY_ITEMS: usize = 100;

/// How many items a list page holds (its arrays: `tools`, `prompts`, ...), unchecked.
fn item_count(page: &Value) -> usize {
    page.as_object().map_or(0, |page| {
        page.values()
            .filter_map(Value::as_array)
            .map(Vec::len)
            .sum()
    })
}

pub(crate) fn decode<R: DeserializeOwned>(
    step: Step,
    method: &str,
    value: Value,
) -> Result<R, McpError> {
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
