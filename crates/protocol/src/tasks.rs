//! Tasks as the 2025-11-25 specification shapes them (SEP-1686): a request augmented with
//! `task` is answered at once with a task the requestor polls (`tasks/get`), whose result it
//! fetches when done (`tasks/result`), lists (`tasks/list`) and may cancel (`tasks/cancel`);
//! the receiver may announce changes (`notifications/tasks/status`).
//!
//! rmcp 3.11 models the later tasks extension (SEP-2663: `ttlMs`, `pollIntervalMs`,
//! `resultType: "task"`), whose wire shape differs, so the task itself is declared here;
//! its status is rmcp's [`TaskStatus`] (the same five values on the wire).

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use rmcp::model::TaskStatus;

pub const TASKS_GET: &str = "tasks/get";
pub const TASKS_RESULT: &str = "tasks/result";
pub const TASKS_LIST: &str = "tasks/list";
pub const TASKS_CANCEL: &str = "tasks/cancel";
pub const TASK_STATUS: &str = "notifications/tasks/status";

/// How often a task is polled when the server suggests nothing, and the bounds applied to
/// what it suggests (a zero interval would poll in a loop).
pub const DEFAULT_POLL_MS: u64 = 1_000;
const MIN_POLL_MS: u64 = 100;
const MAX_POLL_MS: u64 = 60_000;

/// A task (spec `Task`, also the result of `tasks/get` and `tasks/cancel`, and the params
/// of `notifications/tasks/status`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Task {
    pub task_id: String,
    pub status: TaskStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// ISO 8601.
    pub created_at: String,
    /// ISO 8601.
    pub last_updated_at: String,
    /// Retention from creation in milliseconds; `None` (`null`) is unlimited.
    #[serde(default)]
    pub ttl: Option<u64>,
    /// The server's suggested polling interval in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_interval: Option<u64>,
}

impl Task {
    pub fn is_terminal(&self) -> bool {
        self.status.is_terminal()
    }

    /// The wait before the next `tasks/get`: the server's `pollInterval`, bounded.
    pub fn poll_ms(&self) -> u64 {
        bounded_poll_ms(self.poll_interval)
    }

    /// Whether `self` may replace `known` (the same task seen through a poll, a status
    /// notification or a cancel, in any order): not older, and never leaving an end.
    pub fn supersedes(&self, known: &Task) -> bool {
        (self.is_terminal() || !known.is_terminal())
            && self.last_updated_at >= known.last_updated_at
    }
}

/// The wait before the next poll: the server's suggestion, bounded (either tasks shape).
pub fn bounded_poll_ms(suggested: Option<u64>) -> u64 {
    suggested
        .unwrap_or(DEFAULT_POLL_MS)
        .clamp(MIN_POLL_MS, MAX_POLL_MS)
}

/// The status as the protocol spells it.
pub fn status_label(status: TaskStatus) -> &'static str {
    match status {
        TaskStatus::Working => "working",
        TaskStatus::InputRequired => "input_required",
        TaskStatus::Completed => "completed",
        TaskStatus::Failed => "failed",
        TaskStatus::Cancelled => "cancelled",
        _ => "unknown",
    }
}

/// The answer to a task-augmented request (spec `CreateTaskResult`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct CreateTaskResult {
    pub task: Task,
}

/// The answer to `tasks/list` (one page).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListTasksResult {
    pub tasks: Vec<Task>,
    #[serde(default)]
    pub next_cursor: Option<String>,
}

/// A tool's `execution.taskSupport` (absent: forbidden). rmcp's `Tool` drops the field, so
/// it is read from the listed JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TaskSupport {
    #[default]
    Forbidden,
    Optional,
    Required,
}

impl TaskSupport {
    /// Read from one tool as listed; anything unknown is forbidden.
    pub fn of_tool(tool: &Value) -> Self {
        match tool
            .get("execution")
            .and_then(|e| e.get("taskSupport"))
            .and_then(Value::as_str)
        {
            Some("required") => TaskSupport::Required,
            Some("optional") => TaskSupport::Optional,
            _ => TaskSupport::Forbidden,
        }
    }
}

/// What the server's `capabilities.tasks` declares (rmcp's `ServerCapabilities` drops it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ServerTasks {
    /// `capabilities.tasks` is present.
    pub declared: bool,
    /// `tasks/list` is supported.
    pub list: bool,
    /// `tasks/cancel` is supported.
    pub cancel: bool,
    /// `tools/call` may be augmented with a task.
    pub tool_call: bool,
}

impl ServerTasks {
    /// Read from the raw `capabilities` object of the initialize (or discover) result.
    pub fn from_capabilities(capabilities: Option<&Value>) -> Self {
        let Some(tasks) = capabilities
            .and_then(|c| c.get("tasks"))
            .filter(|t| t.is_object())
        else {
            return Self::default();
        };
        let has = |pointer: &str| tasks.pointer(pointer).is_some_and(Value::is_object);
        ServerTasks {
            declared: true,
            list: has("/list"),
            cancel: has("/cancel"),
            tool_call: has("/requests/tools/call"),
        }
    }

    /// Whether a call of a tool with this support goes as a task: always when the tool
    /// requires it (it cannot run otherwise), when it is optional only if the server
    /// declares task-augmented tool calls.
    pub fn run_as_task(&self, support: TaskSupport) -> bool {
        match support {
            TaskSupport::Required => true,
            TaskSupport::Optional => self.tool_call,
            TaskSupport::Forbidden => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Recorded from server-everything 2026.8.31 (TypeScript SDK 1.32.2).
    fn recorded(status: &str, updated: &str) -> Value {
        json!({"taskId":"5f0c","status":status,"ttl":300000,"createdAt":"2026-01-01T10:00:00.000Z",
               "lastUpdatedAt":updated,"pollInterval":1000,"statusMessage":"Gathering sources..."})
    }

    #[test]
    fn tasks_decode_in_the_2025_11_25_shape() {
        let created: CreateTaskResult = serde_json::from_value(
            json!({"task": recorded("working", "2026-01-01T10:00:00.000Z")}),
        )
        .unwrap();
        assert_eq!(created.task.status, TaskStatus::Working);
        assert_eq!(created.task.ttl, Some(300_000));
        assert_eq!(created.task.poll_ms(), 1_000);
        let task: Task = serde_json::from_value(json!({"taskId":"t","status":"input_required",
            "createdAt":"a","lastUpdatedAt":"a","ttl":null}))
        .unwrap();
        assert_eq!(task.status, TaskStatus::InputRequired);
        assert_eq!(task.ttl, None);
        assert_eq!(task.poll_ms(), DEFAULT_POLL_MS);
        let list: ListTasksResult =
            serde_json::from_value(json!({"tasks":[recorded("completed", "b")],"_meta":{}}))
                .unwrap();
        assert_eq!(list.tasks[0].status, TaskStatus::Completed);
        assert_eq!(status_label(list.tasks[0].status), "completed");
    }

    #[test]
    fn the_poll_interval_is_bounded() {
        let mut task: Task = serde_json::from_value(recorded("working", "a")).unwrap();
        task.poll_interval = Some(0);
        assert_eq!(task.poll_ms(), 100);
        task.poll_interval = Some(u64::MAX);
        assert_eq!(task.poll_ms(), 60_000);
    }

    #[test]
    fn an_older_or_unfinished_view_never_replaces_a_newer_or_finished_one() {
        let task = |status, updated| -> Task {
            serde_json::from_value(recorded(status, updated)).unwrap()
        };
        let working = task("working", "2026-01-01T10:00:01.000Z");
        let done = task("completed", "2026-01-01T10:00:04.000Z");
        assert!(done.supersedes(&working));
        assert!(!working.supersedes(&done));
        assert!(!task("working", "2026-01-01T10:00:05.000Z").supersedes(&done));
        assert!(working.supersedes(&working.clone()));
    }

    #[test]
    fn capabilities_and_tool_support() {
        let everything =
            json!({"tools":{},"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}});
        let tasks = ServerTasks::from_capabilities(Some(&everything));
        assert_eq!(
            tasks,
            ServerTasks {
                declared: true,
                list: true,
                cancel: true,
                tool_call: true
            }
        );
        assert_eq!(
            ServerTasks::from_capabilities(Some(&json!({"tasks": true}))),
            ServerTasks::default()
        );
        assert_eq!(ServerTasks::from_capabilities(None), ServerTasks::default());
        let bare = ServerTasks::from_capabilities(Some(&json!({"tasks": {}})));
        assert!(bare.declared && !bare.tool_call);

        let required =
            TaskSupport::of_tool(&json!({"name":"r","execution":{"taskSupport":"required"}}));
        let optional =
            TaskSupport::of_tool(&json!({"name":"o","execution":{"taskSupport":"optional"}}));
        assert_eq!(required, TaskSupport::Required);
        assert_eq!(
            TaskSupport::of_tool(&json!({"name":"f","execution":{"taskSupport":"forbidden"}})),
            TaskSupport::Forbidden
        );
        assert_eq!(
            TaskSupport::of_tool(&json!({"name":"x","execution":5})),
            TaskSupport::Forbidden
        );
        assert!(tasks.run_as_task(required) && tasks.run_as_task(optional));
        assert!(bare.run_as_task(required) && !bare.run_as_task(optional));
        assert!(!tasks.run_as_task(TaskSupport::Forbidden));
    }
}
