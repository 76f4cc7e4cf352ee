//! Tasks (2025-11-25): a tool call augmented with a task, what the server and its tools
//! declare about tasks, and following a task to its end.

use crate::client::McpClient;
use crate::engine::decode;
use crate::lists::{decode_pages, MAX_PAGES};
use futures::future::LocalBoxFuture;
use mcp_lens_protocol::error::{McpError, Step};
use mcp_lens_protocol::jsonrpc::RequestId;
use mcp_lens_protocol::mcp;
use mcp_lens_protocol::tasks::{
    self, CreateTaskResult, ListTasksResult, ServerTasks, Task, TaskStatus, TaskSupport,
};
use rmcp::model::{CallToolResult, JsonObject};
use serde_json::json;
use std::rc::Rc;

impl McpClient {
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

    /// What the server declared about tasks (`capabilities.tasks`).
    pub fn server_tasks(&self) -> ServerTasks {
        self.session().server_tasks()
    }

    /// A tool's `execution.taskSupport`, as the last tools list said.
    pub fn task_support(&self, tool: &str) -> TaskSupport {
        self.lists().task_support(tool)
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
                        Err(error) if client.session().is_closed() => return Err(error),
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
}
