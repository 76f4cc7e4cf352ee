//! Tasks as an extension (SEP-2663, `io.modelcontextprotocol/tasks`), beside the 2025-11-25
//! tasks of [`crate::tasks`]. Where the two differ:
//!
//! | | 2025-11-25 | extension |
//! |---|---|---|
//! | who asks for a task | the client (`task` param) | the server decides; the client only declares the extension |
//! | declared in | `capabilities.tasks` | `capabilities.extensions["io.modelcontextprotocol/tasks"]` |
//! | created | `{ task: {…} }` | flat: `resultType: "task"`, `taskId`, `status`, … |
//! | durations | `ttl`, `pollInterval` | `ttlMs`, `pollIntervalMs` |
//! | result | `tasks/result` | inlined in `tasks/get` (`result`, or `error` when failed) |
//! | input | server requests on a stream | `inputRequests` in `tasks/get`, answered with `tasks/update` |
//! | list | `tasks/list` | none |
//! | notification | `notifications/tasks/status` | `notifications/tasks` |
//!
//! [`read_task`] reads either shape and says which; the Tasks tab shows both the same way.
//!
//! ```
//! use mcp_lens_protocol::task_extension::{read_task, TaskShape};
//! use serde_json::json;
//! let created = json!({"resultType": "task", "taskId": "786512e2", "status": "working",
//!     "createdAt": "2025-11-25T10:30:00Z", "lastUpdatedAt": "2025-11-25T10:40:00Z", "ttlMs": 60000, "pollIntervalMs": 5000});
//! let task = read_task(&created, TaskShape::Extension).unwrap();
//! assert_eq!((task.shape, task.task_id.as_str(), task.poll_ms()), (TaskShape::Extension, "786512e2", 5000));
//! ```

use crate::era::{input_requests, InputRequest};
use crate::tasks::{bounded_poll_ms, Task, TaskStatus};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;

/// The extension's identifier, in `capabilities.extensions`.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/tasks";
pub const TASKS_GET: &str = "tasks/get";
pub const TASKS_UPDATE: &str = "tasks/update";
pub const TASKS_CANCEL: &str = "tasks/cancel";
/// The extension's status notification (the 2025-11-25 one is `notifications/tasks/status`).
pub const TASK_NOTIFICATION: &str = "notifications/tasks";
/// The JSON-RPC error a server answers when a request needs an extension the client did not
/// declare (the tasks extension names itself in `data.requiredCapabilities.extensions`).
pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i32 = -32021;

/// Which specification a task came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskShape {
    /// The experimental tasks of 2025-11-25 (SEP-1686).
    Core20251125,
    /// The tasks extension (SEP-2663).
    Extension,
}

impl TaskShape {
    /// For the Tasks tab's badge.
    pub fn label(self) -> &'static str {
        match self {
            TaskShape::Core20251125 => "2025-11-25 tasks",
            TaskShape::Extension => "tasks extension (SEP-2663)",
        }
    }
}

/// What a task has to show besides its status.
#[derive(Debug, Clone, PartialEq)]
pub enum TaskOutcome {
    /// Working, or a 2025-11-25 task (whose result is fetched with `tasks/result`).
    Nothing,
    /// The server's requests waiting for answers (`tasks/update`).
    InputRequired(Vec<InputRequest>),
    /// The original request's result, e.g. a `CallToolResult` (also when `isError`).
    Completed(Value),
    /// The JSON-RPC error that ended the task.
    Failed(Value),
}

/// A task in either shape, as the Tasks tab shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct AnyTask {
    pub shape: TaskShape,
    pub task_id: String,
    pub status: TaskStatus,
    pub status_message: Option<String>,
    pub created_at: String,
    pub last_updated_at: String,
    /// Retention from creation in milliseconds; `None` is unlimited (or unsaid).
    pub ttl_ms: Option<u64>,
    pub poll_interval_ms: Option<u64>,
    pub outcome: TaskOutcome,
}

impl AnyTask {
    pub fn is_terminal(&self) -> bool {
        self.status.is_terminal()
    }

    /// The wait before the next `tasks/get`: the server's suggestion, bounded.
    pub fn poll_ms(&self) -> u64 {
        bounded_poll_ms(self.poll_interval_ms)
    }

    /// Whether `self` may replace `known` (seen through a poll or a notification, in any
    /// order): not older, and never leaving an end.
    pub fn supersedes(&self, known: &AnyTask) -> bool {
        (self.is_terminal() || !known.is_terminal())
            && self.last_updated_at >= known.last_updated_at
    }
}

/// A 2025-11-25 task as the Tasks tab holds it (its result comes from `tasks/result`).
impl From<Task> for AnyTask {
    fn from(task: Task) -> Self {
        AnyTask {
            shape: TaskShape::Core20251125,
            task_id: task.task_id,
            status: task.status,
            status_message: task.status_message,
            created_at: task.created_at,
            last_updated_at: task.last_updated_at,
            ttl_ms: task.ttl,
            poll_interval_ms: task.poll_interval,
            outcome: TaskOutcome::Nothing,
        }
    }
}

/// The task a `tools/call` answered with instead of its result (`resultType: "task"`): only
/// an explicit `CreateTaskResult` of the extension, never a result that happens to carry a
/// `taskId`.
pub fn created_task(result: &Value) -> Option<AnyTask> {
    (result.get("resultType").and_then(Value::as_str) == Some("task"))
        .then(|| read_flat(result, TaskShape::Extension))
        .flatten()
}

fn status_of(text: &str) -> Option<TaskStatus> {
    serde_json::from_value(Value::String(text.to_owned())).ok()
}

fn millis(value: Option<&Value>) -> Option<u64> {
    let number = value?.as_f64()?;
    (number.is_finite() && number >= 0.0).then_some(number as u64)
}

/// Reads a task from a `tools/call` result (`CreateTaskResult` in either shape), a
/// `tasks/get` result, or a task notification's params. `Err`-free: `None` when it is no
/// task. A bare task without any field that tells the shapes apart is read as `default`
/// (the shape the session's era implies).
pub fn read_task(value: &Value, default: TaskShape) -> Option<AnyTask> {
    // 2025-11-25 `CreateTaskResult` wraps the task.
    if let Some(inner) = value.get("task").filter(|t| t.is_object()) {
        return read_flat(inner, TaskShape::Core20251125);
    }
    let has = |key: &str| value.get(key).is_some();
    let shape = if value.get("resultType").and_then(Value::as_str) == Some("task")
        || [
            "ttlMs",
            "pollIntervalMs",
            "result",
            "error",
            "inputRequests",
        ]
        .into_iter()
        .any(has)
    {
        TaskShape::Extension
    } else if has("ttl") || has("pollInterval") {
        TaskShape::Core20251125
    } else {
        default
    };
    read_flat(value, shape)
}

fn read_flat(task: &Value, shape: TaskShape) -> Option<AnyTask> {
    let text = |key: &str| task.get(key).and_then(Value::as_str).map(str::to_owned);
    let status = status_of(task.get("status")?.as_str()?)?;
    let (ttl_key, poll_key) = match shape {
        TaskShape::Extension => ("ttlMs", "pollIntervalMs"),
        TaskShape::Core20251125 => ("ttl", "pollInterval"),
    };
    let outcome = match (shape, status) {
        (TaskShape::Extension, TaskStatus::InputRequired) => {
            TaskOutcome::InputRequired(input_requests(task.get("inputRequests")))
        }
        (TaskShape::Extension, TaskStatus::Completed) => task
            .get("result")
            .cloned()
            .map_or(TaskOutcome::Nothing, TaskOutcome::Completed),
        (TaskShape::Extension, TaskStatus::Failed) => task
            .get("error")
            .cloned()
            .map_or(TaskOutcome::Nothing, TaskOutcome::Failed),
        _ => TaskOutcome::Nothing,
    };
    Some(AnyTask {
        shape,
        task_id: text("taskId").filter(|id| !id.is_empty())?,
        status,
        status_message: text("statusMessage"),
        created_at: text("createdAt").unwrap_or_default(),
        last_updated_at: text("lastUpdatedAt").unwrap_or_default(),
        ttl_ms: millis(task.get(ttl_key)),
        poll_interval_ms: millis(task.get(poll_key)),
        outcome,
    })
}

/// The requests of an `input_required` task the person has not been shown yet: keys are
/// unique over a task's life, and a poll repeats the still-pending ones (the specification
/// asks clients to deduplicate across polls).
pub fn unseen_requests<'a>(task: &'a AnyTask, seen: &BTreeSet<String>) -> Vec<&'a InputRequest> {
    match &task.outcome {
        TaskOutcome::InputRequired(requests) => requests
            .iter()
            .filter(|request| !seen.contains(&request.key))
            .collect(),
        _ => Vec::new(),
    }
}

/// The params of `tasks/get` and `tasks/cancel`.
pub fn task_params(task_id: &str) -> Value {
    json!({ "taskId": task_id })
}

/// The params of `tasks/update`: answers keyed as the task's `inputRequests` were (a subset
/// is allowed; the task stays `input_required` until all are answered).
pub fn update_params(task_id: &str, responses: Map<String, Value>) -> Value {
    json!({ "taskId": task_id, "inputResponses": responses })
}

/// Whether a `tasks/update` or `tasks/cancel` answer is the empty acknowledgement the
/// extension requires (the task's new state comes with the next `tasks/get`).
pub fn is_acknowledgement(result: &Value) -> bool {
    result.is_object()
        && result
            .get("resultType")
            .and_then(Value::as_str)
            .is_none_or(|t| t == "complete")
        && ["taskId", "status", "result", "error"]
            .into_iter()
            .all(|key| result.get(key).is_none())
}

/// Whether a server's capabilities declare the extension (an object under its identifier).
pub fn server_declares(capabilities: Option<&Value>) -> bool {
    capabilities
        .and_then(|c| c.get("extensions"))
        .and_then(|e| e.get(EXTENSION_ID))
        .is_some_and(Value::is_object)
}

/// Declares the extension in the client's capabilities (in each request's `_meta` in the
/// 2026-07-28 era). Only a client that handles `CreateTaskResult` on every `tools/call`
/// may declare it: the server then decides, call by call, whether to answer with a task.
pub fn declare(capabilities: &mut Value) {
    if !capabilities.is_object() {
        *capabilities = json!({});
    }
    let extensions = &mut capabilities["extensions"];
    if !extensions.is_object() {
        *extensions = json!({});
    }
    extensions[EXTENSION_ID] = json!({});
}

/// The extensions a -32021 error's `data` says are required (for "this tool needs the tasks
/// extension, which this session did not declare").
pub fn required_extensions(error_data: &Value) -> Vec<String> {
    error_data
        .pointer("/requiredCapabilities/extensions")
        .and_then(Value::as_object)
        .map(|extensions| extensions.keys().cloned().collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The specification's examples (SEP-2663).
    fn created() -> Value {
        json!({"resultType": "task", "taskId": "786512e2-9e0d-44bd-8f29-789f320fe840", "status": "working",
            "statusMessage": "The operation is now in progress.", "createdAt": "2025-11-25T10:30:00Z",
            "lastUpdatedAt": "2025-11-25T10:40:00Z", "ttlMs": 60000, "pollIntervalMs": 5000})
    }

    #[test]
    fn both_shapes_are_read_and_told_apart() {
        let extension = read_task(&created(), TaskShape::Core20251125).unwrap();
        assert_eq!(extension.shape, TaskShape::Extension);
        assert_eq!(
            (extension.ttl_ms, extension.poll_interval_ms),
            (Some(60_000), Some(5_000))
        );
        assert_eq!(
            extension.status_message.as_deref(),
            Some("The operation is now in progress.")
        );
        // Recorded from server-everything 2026.8.31: the 2025-11-25 CreateTaskResult.
        let core = json!({"task": {"taskId": "5f0c", "status": "working", "ttl": 300000, "createdAt": "2026-01-01T10:00:00.000Z",
            "lastUpdatedAt": "2026-01-01T10:00:00.000Z", "pollInterval": 1000}});
        let core = read_task(&core, TaskShape::Extension).unwrap();
        assert_eq!(
            (core.shape, core.ttl_ms, core.poll_ms()),
            (TaskShape::Core20251125, Some(300_000), 1_000)
        );
        assert_eq!(core.shape.label(), "2025-11-25 tasks");
        // A bare task says nothing of its shape: the session's era decides.
        let bare =
            json!({"taskId": "t", "status": "cancelled", "createdAt": "a", "lastUpdatedAt": "b"});
        assert_eq!(
            read_task(&bare, TaskShape::Extension).unwrap().shape,
            TaskShape::Extension
        );
        assert_eq!(
            read_task(&bare, TaskShape::Core20251125).unwrap().shape,
            TaskShape::Core20251125
        );
        // A synchronous tool result is no task.
        assert!(read_task(
            &json!({"resultType": "complete", "content": []}),
            TaskShape::Extension
        )
        .is_none());
        assert!(read_task(
            &json!({"taskId": "", "status": "working"}),
            TaskShape::Extension
        )
        .is_none());
        assert!(read_task(
            &json!({"taskId": "t", "status": "paused"}),
            TaskShape::Extension
        )
        .is_none());
    }

    #[test]
    fn only_an_explicit_task_result_is_a_created_task_and_core_tasks_convert() {
        let created_task_value = created_task(&created()).unwrap();
        assert_eq!(created_task_value.ttl_ms, Some(60_000));
        let mut complete = created();
        complete["resultType"] = json!("complete");
        assert!(created_task(&complete).is_none());
        assert!(
            created_task(&json!({"content": [], "taskId": "t", "status": "working"})).is_none()
        );
        assert!(created_task(&json!({"resultType": "task", "status": "working"})).is_none());
        let core: Task =
            serde_json::from_value(json!({"taskId": "5f0c", "status": "input_required",
            "ttl": 300000, "createdAt": "a", "lastUpdatedAt": "b", "pollInterval": 1000}))
            .unwrap();
        let any = AnyTask::from(core);
        assert_eq!(
            (any.shape, any.ttl_ms, any.poll_interval_ms, any.outcome),
            (
                TaskShape::Core20251125,
                Some(300_000),
                Some(1_000),
                TaskOutcome::Nothing
            )
        );
    }

    #[test]
    fn tasks_get_inlines_the_result_the_error_and_the_input_requests() {
        let read = |extra: Value| {
            let mut task = created();
            task["resultType"] = json!("complete");
            for (key, value) in extra.as_object().unwrap() {
                task[key] = value.clone();
            }
            read_task(&task, TaskShape::Extension).unwrap()
        };
        let done = read(
            json!({"status": "completed", "result": {"content": [{"type": "text", "text": "ok"}], "isError": true}}),
        );
        assert!(
            matches!(&done.outcome, TaskOutcome::Completed(result) if result["isError"] == true)
        );
        let failed = read(
            json!({"status": "failed", "error": {"code": -32603, "message": "Internal error"}}),
        );
        assert!(matches!(&failed.outcome, TaskOutcome::Failed(error) if error["code"] == -32603));
        let waiting = read(json!({"status": "input_required", "inputRequests": {
            "elicit-1": {"method": "elicitation/create", "params": {"message": "Delete it?"}},
            "elicit-2": {"method": "elicitation/create", "params": {"message": "Really?"}}}}));
        let TaskOutcome::InputRequired(requests) = &waiting.outcome else {
            panic!("{waiting:?}")
        };
        assert_eq!(requests.len(), 2);
        let seen: BTreeSet<String> = ["elicit-1".to_owned()].into();
        let unseen = unseen_requests(&waiting, &seen);
        assert_eq!(unseen.len(), 1);
        assert_eq!(unseen[0].key, "elicit-2");
        assert!(unseen_requests(&done, &BTreeSet::new()).is_empty());
        assert!(done.supersedes(&waiting) && !waiting.supersedes(&done));
    }

    #[test]
    fn requests_acknowledgements_and_capabilities() {
        let mut responses = Map::new();
        responses.insert(
            "elicit-1".into(),
            json!({"action": "accept", "content": {"confirm": true}}),
        );
        assert_eq!(
            update_params("t1", responses),
            json!({"taskId": "t1", "inputResponses": {"elicit-1": {"action": "accept", "content": {"confirm": true}}}})
        );
        assert_eq!(task_params("t1"), json!({"taskId": "t1"}));
        assert!(is_acknowledgement(&json!({"resultType": "complete"})));
        assert!(is_acknowledgement(&json!({})));
        assert!(!is_acknowledgement(
            &json!({"resultType": "complete", "taskId": "t1", "status": "cancelled"})
        ));
        assert!(!is_acknowledgement(&json!("ok")));
        let mut capabilities =
            json!({"roots": {}, "extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": []}}});
        declare(&mut capabilities);
        assert_eq!(capabilities["extensions"][EXTENSION_ID], json!({}));
        assert_eq!(
            capabilities["extensions"]["io.modelcontextprotocol/ui"]["mimeTypes"],
            json!([])
        );
        let mut empty = Value::Null;
        declare(&mut empty);
        assert!(server_declares(Some(&empty)));
        assert!(server_declares(Some(
            &json!({"tools": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}})
        )));
        assert!(!server_declares(Some(&json!({"tasks": {"list": {}}}))));
        assert!(!server_declares(Some(
            &json!({"extensions": {"io.modelcontextprotocol/tasks": true}})
        )));
        assert_eq!(
            required_extensions(
                &json!({"requiredCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}})
            ),
            [EXTENSION_ID]
        );
        assert!(required_extensions(&json!(null)).is_empty());
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn any_answer_is_read_without_panicking(value in crate::arbitrary::json()) {
                for shape in [TaskShape::Extension, TaskShape::Core20251125] {
                    if let Some(task) = read_task(&value, shape) {
                        prop_assert!(!task.task_id.is_empty());
                        let _ = unseen_requests(&task, &BTreeSet::new());
                        prop_assert!(task.poll_ms() >= 100);
                    }
                }
                let _ = is_acknowledgement(&value);
                let _ = server_declares(Some(&value));
                let _ = required_extensions(&value);
                let mut capabilities = value;
                declare(&mut capabilities);
                prop_assert!(server_declares(Some(&capabilities)));
            }
        }
    }
}
