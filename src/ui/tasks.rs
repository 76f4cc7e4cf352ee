//! Tasks, in either shape: the 2025-11-25 tasks and the tasks extension (SEP-2663), each with
//! its shape, status, message, times, progress, result when it ends, and Cancel. A tool that
//! runs as a task shows the same card in its panel. The client follows each task (polling at
//! the server's interval); status notifications and cancels update the same rows, the newest
//! state winning. An extension task that needs input asks through the server requests'
//! cards, and the answers go back with `tasks/update`.

use super::browse::outcome::Outcome;
use super::browse::result_view::ResultView;
use super::store::{use_connection, Connection};
use crate::client::McpClient;
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::task_extension::{AnyTask, TaskOutcome, TaskShape};
use crate::protocol::tasks::{status_label, Task, TaskStatus};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::rc::Rc;

/// Shows a task a tool call created and follows it to its end.
pub fn follow(
    connection: Connection,
    client: McpClient,
    tool: String,
    token: RequestId,
    task: Task,
) {
    let id = task.task_id.clone();
    connection.record_task(task.clone().into(), Some(tool), Some(token));
    spawn_local(async move {
        let end = client
            .follow_task(
                task,
                Rc::new(move |t: &Task| connection.record_task(t.clone().into(), None, None)),
            )
            .await;
        connection.task_ended(&id, end);
    });
}

/// Shows a task of the extension a tool call created and follows it to its end.
pub fn follow_extension(
    connection: Connection,
    client: McpClient,
    tool: String,
    token: RequestId,
    task: AnyTask,
) {
    let id = task.task_id.clone();
    connection.record_task(task.clone(), Some(tool), Some(token));
    spawn_local(async move {
        let end = client
            .follow_extension_task(
                task,
                Rc::new(move |t: &AnyTask| connection.record_task(t.clone(), None, None)),
            )
            .await;
        connection.task_ended(&id, end);
    });
}

/// The Tasks tab: every task of the session, newest first.
#[component]
pub fn TasksView() -> impl IntoView {
    let connection = use_connection();
    let tasks = connection.tasks();
    let problem = RwSignal::new(None::<String>);
    let can_list = connection
        .client()
        .is_some_and(|client| client.server_tasks().list);
    let refresh = move |_| {
        if let Some(client) = connection.client() {
            spawn_local(async move {
                match client.list_tasks().await {
                    Ok(listed) => {
                        problem.set(None);
                        for task in listed {
                            connection.record_task(task.into(), None, None);
                        }
                    }
                    Err(error) => problem.set(Some(error.to_string())),
                }
            });
        }
    };
    let ids = Memo::new(move |_| {
        tasks.with(|rows| {
            rows.iter()
                .map(|r| r.task.task_id.clone())
                .collect::<Vec<_>>()
        })
    });
    view! {
        <section id="tasks" class="tasks">
            <button id="refresh-tasks" class="secondary" disabled=!can_list on:click=refresh>"Refresh (tasks/list)"</button>
            {move || problem.get().map(|p| view! { <p class="error">{p}</p> })}
            {move || {
                let ids = ids.get();
                if ids.is_empty() {
                    return view! { <p class="muted">"No tasks yet: run a tool that supports tasks."</p> }.into_any();
                }
                view! { <ul class="task-list">{ids.into_iter().map(|id| view! { <li><TaskCard id/></li> }).collect_view()}</ul> }.into_any()
            }}
        </section>
    }
}

/// One task: status, message, times, progress, Cancel, and the result once it ended.
#[component]
pub fn TaskCard(id: String) -> impl IntoView {
    let connection = use_connection();
    let tasks = connection.tasks();
    let key = id.clone();
    let row =
        Memo::new(move |_| tasks.with(|rows| rows.iter().find(|r| r.task.task_id == key).cloned()));
    let cancel_problem = RwSignal::new(None::<String>);
    let cancel = move |shape: TaskShape| {
        let (Some(client), id) = (connection.client(), id.clone()) else {
            return;
        };
        spawn_local(async move {
            let cancelled = match shape {
                TaskShape::Core20251125 => client.cancel_task(&id).await.map(AnyTask::from),
                TaskShape::Extension => client.cancel_extension_task(&id).await,
            };
            match cancelled {
                Ok(task) => connection.record_task(task, None, None),
                Err(error) => cancel_problem.set(Some(error.to_string())),
            }
        });
    };
    move || {
        let row = row.get()?;
        let task = row.task;
        let status = status_label(task.status);
        let token = row.token;
        let progress = move || {
            let token = token.clone()?;
            connection.progress().get().filter(|p| p.request == token)
        };
        let mut facts = format!(
            "created {} · updated {}",
            task.created_at, task.last_updated_at
        );
        if let Some(ttl) = task.ttl_ms {
            facts.push_str(&format!(" · ttl {ttl} ms"));
        }
        if let Some(poll) = task.poll_interval_ms {
            facts.push_str(&format!(" · poll every {poll} ms"));
        }
        let cancel = cancel.clone();
        let shape = task.shape;
        // What the extension's tasks/get said beyond the status (the result itself comes
        // through the follower, decoded, below).
        let waiting = match &task.outcome {
            TaskOutcome::InputRequired(requests) if task.status == TaskStatus::InputRequired => {
                Some(format!(
                    "Waiting for {} answer(s): see the server requests; sent with tasks/update.",
                    requests.len()
                ))
            }
            _ => None,
        };
        let failure = match (&task.outcome, &row.result) {
            (TaskOutcome::Failed(error), None) => error
                .get("message")
                .and_then(serde_json::Value::as_str)
                .map(|message| format!("Failed: {message}")),
            _ => None,
        };
        Some(view! {
            <div class="task" data-task-id=task.task_id.clone() data-status=status
                data-shape=match shape { TaskShape::Extension => "extension", TaskShape::Core20251125 => "2025-11-25" }>
                <p class="task-head">
                    <span class=format!("task-status status-{status}")>{status}</span>" "
                    {(!row.tool.is_empty()).then(|| view! { <span class="task-tool">{row.tool.clone()}</span> " " })}
                    <code class="task-id">{task.task_id.clone()}</code>" "
                    <span class="task-shape muted">{shape.label()}</span>
                </p>
                {task.status_message.map(|m| view! { <p class="task-message">{m}</p> })}
                <p class="task-times muted">{facts}</p>
                {waiting.map(|w| view! { <p class="task-waiting">{w}</p> })}
                {failure.map(|f| view! { <p class="error task-error">{f}</p> })}
                {move || progress().map(|p| view! {
                    <p class="task-progress">
                        <progress max=p.total.unwrap_or(0.0) value=p.progress></progress>
                        " " {p.message.unwrap_or_default()}
                    </p>
                })}
                {(!task.status.is_terminal()).then(|| view! {
                    <button class="secondary cancel-task" on:click=move |_| cancel(shape)>"Cancel task"</button>
                })}
                {move || cancel_problem.get().map(|p| view! { <p class="error">{p}</p> })}
                {row.result.map(|result| view! {
                    <ResultView id=None outcome=match result {
                        Ok(result) => Outcome::Tool(result),
                        Err(problem) => Outcome::Failed(problem),
                    } output_schema=None/>
                })}
            </div>
        })
    }
}
