//! Tasks (2025-11-25): the tasks of the session, each with its status, message, times,
//! progress, result when it ends, and Cancel. A tool that runs as a task shows the same card
//! in its panel. The client follows each task (polling at the server's `pollInterval`);
//! status notifications and cancels update the same rows, the newest state winning.

use super::browse::outcome::Outcome;
use super::browse::result_view::ResultView;
use super::store::{use_connection, Connection};
use super::task_rows::upsert;
use crate::client::McpClient;
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::tasks::{status_label, Task};
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
    let tasks = connection.tasks;
    let id = task.task_id.clone();
    upsert(tasks, task.clone(), Some(tool), Some(token));
    spawn_local(async move {
        let end = client
            .follow_task(
                task,
                Rc::new(move |t: &Task| upsert(tasks, t.clone(), None, None)),
            )
            .await;
        tasks.update(|rows| {
            if let Some(row) = rows.iter_mut().find(|r| r.task.task_id == id) {
                row.result = end.map_err(|e| e.to_string()).transpose();
            }
        });
    });
}

/// The Tasks tab: every task of the session, newest first.
#[component]
pub fn TasksView() -> impl IntoView {
    let connection = use_connection();
    let tasks = connection.tasks;
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
                            upsert(tasks, task, None, None);
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
    let tasks = connection.tasks;
    let key = id.clone();
    let row =
        Memo::new(move |_| tasks.with(|rows| rows.iter().find(|r| r.task.task_id == key).cloned()));
    let cancel_problem = RwSignal::new(None::<String>);
    let cancel = move |_| {
        let (Some(client), id) = (connection.client(), id.clone()) else {
            return;
        };
        spawn_local(async move {
            match client.cancel_task(&id).await {
                Ok(task) => upsert(tasks, task, None, None),
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
            connection.progress.get().filter(|p| p.request == token)
        };
        let mut facts = format!(
            "created {} · updated {}",
            task.created_at, task.last_updated_at
        );
        if let Some(ttl) = task.ttl {
            facts.push_str(&format!(" · ttl {ttl} ms"));
        }
        if let Some(poll) = task.poll_interval {
            facts.push_str(&format!(" · poll every {poll} ms"));
        }
        let cancel = cancel.clone();
        Some(view! {
            <div class="task" data-task-id=task.task_id.clone() data-status=status>
                <p class="task-head">
                    <span class=format!("task-status status-{status}")>{status}</span>" "
                    {(!row.tool.is_empty()).then(|| view! { <span class="task-tool">{row.tool.clone()}</span> " " })}
                    <code class="task-id">{task.task_id.clone()}</code>
                </p>
                {task.status_message.map(|m| view! { <p class="task-message">{m}</p> })}
                <p class="task-times muted">{facts}</p>
                {move || progress().map(|p| view! {
                    <p class="task-progress">
                        <progress max=p.total.unwrap_or(0.0) value=p.progress></progress>
                        " " {p.message.unwrap_or_default()}
                    </p>
                })}
                {(!task.status.is_terminal()).then(|| view! {
                    <button class="secondary cancel-task" on:click=cancel>"Cancel task"</button>
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
