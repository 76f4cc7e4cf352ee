//! The session's tasks as the page knows them (`Connection::tasks`): one row per task, in
//! either shape, and how a status the server sends updates them. Data only; `tasks.rs` draws
//! them.

use crate::protocol::jsonrpc::RequestId;
use crate::protocol::task_extension::AnyTask;
use leptos::prelude::*;
use rmcp::model::CallToolResult;

/// One task as the page knows it.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskRow {
    pub task: AnyTask,
    /// The tool whose call created it (empty for a task only listed).
    pub(super) tool: String,
    /// The tool call's request id: its progress token for the task's whole life.
    pub(super) token: Option<RequestId>,
    /// The result once the task ended (`tasks/result`), or why it could not be had.
    pub(super) result: Option<Result<CallToolResult, String>>,
}

/// Adds a task, or updates it if `task` is not older than what is known.
pub fn upsert(
    tasks: RwSignal<Vec<TaskRow>>,
    task: AnyTask,
    tool: Option<String>,
    token: Option<RequestId>,
) {
    tasks.update(
        |rows| match rows.iter_mut().find(|r| r.task.task_id == task.task_id) {
            Some(row) => {
                if task.supersedes(&row.task) {
                    row.task = task;
                }
                if let Some(tool) = tool {
                    row.tool = tool;
                }
                if token.is_some() {
                    row.token = token;
                }
            }
            None => rows.insert(
                0,
                TaskRow {
                    task,
                    tool: tool.unwrap_or_default(),
                    token,
                    result: None,
                },
            ),
        },
    );
}
