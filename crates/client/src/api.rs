//! The typed API: lists (every page), tool calls, tasks, prompts, resources, completion,
//! logging.
//! Each sends a raw request through the engine and decodes the `result` into the rmcp type
//! it expects (never through rmcp's message unions: they triple the wasm size).

use crate::McpClient;
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
    ) -> Option<Result<Vec<T>, McpError>>
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

    /// Every tool, following `nextCursor` (up to 100 pages; a repeated cursor ends the list).
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let tools = client.clone().list_tools().await?;
    /// println!("{}", tools.len());
    /// # Ok(()) }
    /// ```
    pub async fn list_tools(self) -> Result<Vec<Tool>, McpError> {
        let pages = self.list_pages(Step::ListTools, mcp::TOOLS_LIST).await?;
        // rmcp's Tool has no `execution`: remember which tools may run as tasks.
        *self.0.task_support.borrow_mut() = pages
            .iter()
            .filter_map(|page| page.get("tools").and_then(Value::as_array))
            .flatten()
            .filter_map(|tool| {
                let name = tool.get("name").and_then(Value::as_str)?;
                let support = TaskSupport::of_tool(tool);
                (support != TaskSupport::Forbidden).then(|| (name.to_owned(), support))
            })
            .collect();
        decode_pages(
            Step::ListTools,
            mcp::TOOLS_LIST,
            pages,
            |page: ListToolsResult| page.tools,
        )
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

    /// Every resource, following `nextCursor`.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let resources = client.clone().list_resources().await?;
    /// println!("{}", resources.len());
    /// # Ok(()) }
    /// ```
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
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let templates = client.clone().list_resource_templates().await?;
    /// println!("{}", templates.len());
    /// # Ok(()) }
    /// ```
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
        let pages = self.list_pages(Step::ListTasks, tasks::TASKS_LIST).await?;
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
