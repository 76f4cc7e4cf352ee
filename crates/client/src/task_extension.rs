//! Tasks as an extension (SEP-2663, `io.modelcontextprotocol/tasks`): with the extension
//! declared (`ClientConfig::tasks_extension`), the server decides per `tools/call` whether to
//! answer with a task. The task is followed with `tasks/get` (its result, error and input
//! requests inlined), the person's answers go back with `tasks/update`, and `tasks/cancel`
//! asks it to stop; `notifications/tasks` are read in `incoming.rs`. The 2025-11-25 tasks are
//! in `tasks.rs`.

use crate::client::McpClient;
use crate::engine::decode;
use crate::events::ClientEvent;
use futures::future::LocalBoxFuture;
use mcp_lens_protocol::error::{ErrorKind, McpError, Step};
use mcp_lens_protocol::jsonrpc::RequestId;
use mcp_lens_protocol::mcp;
use mcp_lens_protocol::task_extension::{
    created_task, is_acknowledgement, read_task, task_params, unseen_requests, update_params,
    AnyTask, TaskOutcome, TaskShape, TASKS_CANCEL, TASKS_GET, TASKS_UPDATE,
};
use mcp_lens_protocol::tasks::TaskStatus;
use rmcp::model::{CallToolResult, JsonObject};
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::rc::Rc;

/// What a `tools/call` answered when the server may run it as a task.
#[derive(Debug, Clone)]
pub enum ToolAnswer {
    /// The result, at once.
    Result(CallToolResult),
    /// A task of the extension, to follow with [`McpClient::follow_extension_task`].
    Task(AnyTask),
}

impl McpClient {
    /// Starts a tool call that the server may answer with a task of the extension: the
    /// caller shows the task and follows it. Like [`McpClient::call_tool`] otherwise.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// use mcp_lens_client::ToolAnswer;
    /// let (_id, call) = client.call_tool_or_task("render", serde_json::Map::new());
    /// if let ToolAnswer::Task(task) = call.await? {
    ///     let result = client.follow_extension_task(task, std::rc::Rc::new(|task| println!("{:?}", task.status))).await?;
    ///     println!("{result:?}");
    /// }
    /// # Ok(()) }
    /// ```
    pub fn call_tool_or_task(
        &self,
        name: &str,
        arguments: JsonObject,
    ) -> (
        RequestId,
        LocalBoxFuture<'static, Result<ToolAnswer, McpError>>,
    ) {
        let (id, call) = self.tool_call(name, arguments, None);
        let answer = Box::pin(async move {
            let value = call.await?;
            match created_task(&value) {
                Some(task) => Ok(ToolAnswer::Task(task)),
                None => decode(Step::CallTool, mcp::TOOLS_CALL, value).map(ToolAnswer::Result),
            }
        });
        (id, answer)
    }

    /// The task's state (`tasks/get`), with its result, error or input requests inlined.
    pub async fn get_extension_task(&self, task_id: &str) -> Result<AnyTask, McpError> {
        let value = self
            .request(Step::GetTask, TASKS_GET, Some(task_params(task_id)))
            .await?;
        read_task(&value, TaskShape::Extension)
            .filter(|task| task.task_id == task_id)
            .ok_or_else(|| {
                McpError::new(
                    Step::GetTask,
                    ErrorKind::InvalidAnswer {
                        detail: format!("tasks/get answered with no task {task_id}"),
                    },
                )
            })
    }

    /// Answers some of an `input_required` task's requests (`tasks/update`), keyed as the
    /// task's `inputRequests` were. The server acknowledges; the next `tasks/get` shows the
    /// task's new state.
    pub async fn update_task(
        &self,
        task_id: &str,
        responses: Map<String, Value>,
    ) -> Result<(), McpError> {
        let value = self
            .request(
                Step::UpdateTask,
                TASKS_UPDATE,
                Some(update_params(task_id, responses)),
            )
            .await?;
        acknowledged(Step::UpdateTask, TASKS_UPDATE, &value)
    }

    /// Asks the server to cancel the task (`tasks/cancel`, acknowledged empty), then reads
    /// its state: a server may take a moment to stop, or the task may have ended first.
    pub async fn cancel_extension_task(&self, task_id: &str) -> Result<AnyTask, McpError> {
        let value = self
            .request(Step::CancelTask, TASKS_CANCEL, Some(task_params(task_id)))
            .await?;
        acknowledged(Step::CancelTask, TASKS_CANCEL, &value)?;
        self.get_extension_task(task_id).await
    }

    /// Follows a task of the extension to its end: polls `tasks/get` at the server's
    /// `pollIntervalMs` (bounded) and reports every newer state to `on_status`; the input
    /// requests it has not answered yet go to the person handlers (like a 2026-07-28
    /// `input_required` round) and their answers back with `tasks/update`. Ends with the
    /// result (also when `isError`), the task's JSON-RPC error, or `None` when cancelled.
    pub fn follow_extension_task(
        &self,
        task: AnyTask,
        on_status: Rc<dyn Fn(&AnyTask)>,
    ) -> LocalBoxFuture<'static, Result<Option<CallToolResult>, McpError>> {
        let follow = self.follow_raw(task, on_status);
        Box::pin(async move {
            match follow.await? {
                Some(result) => decode(Step::GetTask, TASKS_GET, result).map(Some),
                None => Ok(None),
            }
        })
    }

    /// A `tools/call` answered with a task by a caller that wants only the result (the chat,
    /// an MCP App): the task is followed here, each state reported as an event so the page's
    /// Tasks tab still shows it. Cancelled ends as a cancelled call.
    pub(crate) async fn finish_as_call(&self, task: AnyTask) -> Result<Value, McpError> {
        let client = self.clone();
        client.emit(ClientEvent::ExtensionTaskStatus(task.clone()));
        let events = self.clone();
        let report = Rc::new(move |task: &AnyTask| {
            events.emit(ClientEvent::ExtensionTaskStatus(task.clone()))
        });
        self.follow_raw(task, report)
            .await?
            .ok_or_else(|| McpError::new(Step::CallTool, ErrorKind::Cancelled))
    }

    fn follow_raw(
        &self,
        task: AnyTask,
        on_status: Rc<dyn Fn(&AnyTask)>,
    ) -> LocalBoxFuture<'static, Result<Option<Value>, McpError>> {
        let client = self.clone();
        Box::pin(async move {
            let id = task.task_id.clone();
            let mut task = task;
            // Input request keys are unique over a task's life; a poll repeats the pending ones.
            let mut answered = BTreeSet::new();
            let mut completed_without_result = false;
            loop {
                match (&task.status, &task.outcome) {
                    (TaskStatus::Cancelled, _) => return Ok(None),
                    (TaskStatus::Completed, TaskOutcome::Completed(result)) => {
                        return Ok(Some(result.clone()))
                    }
                    (TaskStatus::Failed, TaskOutcome::Failed(error)) => {
                        return Err(McpError::new(Step::GetTask, task_error(error)))
                    }
                    // An end seen without its payload (a notification may leave it out):
                    // tasks/get inlines it, asked once.
                    (TaskStatus::Completed | TaskStatus::Failed, _) => {
                        if completed_without_result {
                            return Err(McpError::new(
                                Step::GetTask,
                                ErrorKind::InvalidAnswer {
                                    detail: format!("task {id} ended without its result or error"),
                                },
                            ));
                        }
                        completed_without_result = true;
                    }
                    (TaskStatus::InputRequired, _) => {
                        let asked: Vec<_> = unseen_requests(&task, &answered)
                            .into_iter()
                            .cloned()
                            .collect();
                        if asked.is_empty() {
                            client.sleep(task.poll_ms() as u32).await;
                        } else {
                            answered.extend(asked.iter().map(|request| request.key.clone()));
                            let responses = client
                                .answer_input_requests(Step::UpdateTask, asked)
                                .await?;
                            client.update_task(&id, responses).await?;
                        }
                    }
                    _ => client.sleep(task.poll_ms() as u32).await,
                }
                let next = client.get_extension_task(&id).await?;
                // A poll never takes a task back to an older state, and a state seen
                // already is not reported again.
                if next.supersedes(&task) {
                    if next != task {
                        on_status(&next);
                    }
                    task = next;
                }
            }
        })
    }
}

/// `tasks/update` and `tasks/cancel` answer with an empty result; anything else is a server
/// that does not speak the extension as specified.
fn acknowledged(step: Step, method: &str, value: &Value) -> Result<(), McpError> {
    if is_acknowledgement(value) {
        Ok(())
    } else {
        Err(McpError::new(
            step,
            ErrorKind::InvalidAnswer {
                detail: format!("{method} answered with more than the empty acknowledgement"),
            },
        ))
    }
}

/// The JSON-RPC error a failed task carries, as the error a failed request would be.
fn task_error(error: &Value) -> ErrorKind {
    let code = error
        .get("code")
        .and_then(Value::as_i64)
        .and_then(|code| i32::try_from(code).ok())
        .unwrap_or(-32603);
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("the task failed")
        .to_owned();
    ErrorKind::from_jsonrpc(code, message, error.get("data"))
}
