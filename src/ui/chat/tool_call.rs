//! A tool call the model asked for: its tool and server, its arguments, the person's approval
//! while it waits, its progress while it runs, and its result drawn by the tool panel's own
//! result views (and the tool's MCP App, when it has one).

use super::lane::chat_servers;
use super::state::{CallState, ChatState, Lane};
use crate::protocol::apps::tool::ToolUi;
use crate::ui::apps::AppCall;
use crate::ui::browse::outcome::Outcome;
use crate::ui::browse::outcome_view::OutcomeView;
use crate::ui::lazy::apps::mcp_app;
use crate::ui::servers::use_servers;
use crate::ui::store::Connection;
use leptos::prelude::*;
use mcp_lens_chat::chat_loop::{Approval, ApprovalPolicy};
use mcp_lens_chat::conversation::{ToolCall, ToolResult, ToolStatus};
use rmcp::model::CallToolResult;
use serde_json::Value;
use std::collections::HashMap;

/// The connection a chat server name stands for now.
fn connection_of(server: &str) -> Option<Connection> {
    let servers = use_servers();
    let id = chat_servers(servers, ChatState::get())
        .into_iter()
        .find(|s| s.name == server)?
        .connection_id;
    servers.list.with_untracked(|list| {
        list.iter()
            .find(|e| e.connection.id() == id)
            .map(|e| e.connection)
    })
}

#[component]
pub fn ToolCallView(
    call: ToolCall,
    lane: Lane,
    results: Memo<HashMap<String, ToolResult>>,
) -> impl IntoView {
    let target = match (&call.server_id, &call.tool_name) {
        (Some(server), Some(tool)) => format!("{tool} on {server}"),
        _ => call.name.clone(),
    };
    let arguments = match &call.invalid_arguments {
        Some(why) => format!("{} ({why})", call.arguments),
        None => serde_json::to_string_pretty(&call.arguments).unwrap_or_default(),
    };
    let id = call.id.clone();
    // Memoized: the result's view (and an app opened from it) stays when its result moves from
    // the run's calls into the conversation.
    let state = {
        let id = id.clone();
        Memo::new(move |_| {
            let state = lane
                .calls
                .with(|calls| calls.get(&id).cloned())
                .or_else(|| results.with(|r| r.get(&id).cloned().map(CallState::Finished)));
            let running = state.is_none() && lane.running.get();
            (state, running)
        })
    };
    let call_for_result = call.clone();
    let body = move || {
        match state.get() {
        (Some(CallState::Waiting(request)), _) => view! { <ApprovalCard lane request_id=request.call_id.clone() server=request.server_id.clone() tool=request.tool_name.clone() read_only=request.read_only/> }.into_any(),
        (Some(CallState::Running), _) => view! { <Running lane/> }.into_any(),
        (Some(CallState::Finished(result)), _) => view! { <ResultView call=call_for_result.clone() result/> }.into_any(),
        (None, true) => view! { <p class="muted call-state">"Waiting to run."</p> }.into_any(),
        (None, false) => view! { <p class="muted call-state">"Not run."</p> }.into_any(),
    }
    };
    view! {
        <div class="tool-call" data-tool=call.tool_name.clone().unwrap_or_else(|| call.name.clone()) data-call-id=id>
            <p class="tool-call-head"><span class="tool-call-label">"Tool call "</span><strong class="tool-call-target">{target}</strong></p>
            <pre class="tool-arguments">{arguments}</pre>
            {body}
        </div>
    }
}

/// The person's yes or no for a call.
#[component]
fn ApprovalCard(
    lane: Lane,
    request_id: String,
    server: String,
    tool: String,
    read_only: bool,
) -> impl IntoView {
    let state = ChatState::get();
    let reason = RwSignal::new(String::new());
    let decide = {
        let (request_id, server, tool) = (request_id.clone(), server.clone(), tool.clone());
        move |approval: Approval, policy: Option<ApprovalPolicy>| {
            if let Some(policy) = policy {
                let key = (server.clone(), tool.clone());
                state.policies.update(|p| {
                    p.insert(key, policy);
                });
                // Every running lane follows the new policy from its next call on.
                for lane in state.lanes.get_untracked() {
                    if let Some(chat_loop) = lane.chat_loop.get_value() {
                        chat_loop.set_policy(&server, &tool, policy);
                    }
                }
            }
            lane.decide(&request_id, approval);
        }
    };
    let (allow, always, decline, never) = (decide.clone(), decide.clone(), decide.clone(), decide);
    let deny = move || Approval::Deny {
        reason: Some(reason.get_untracked()).filter(|r| !r.trim().is_empty()),
    };
    view! {
        <div class="approval" role="group" aria-label="Approve the call">
            <p>{format!("The model wants to call {tool} on {server}.")}
                {(!read_only).then(|| view! { <span class="muted">" The tool is not marked read-only."</span> })}</p>
            <div class="actions">
                <button class="approve" on:click=move |_| allow(Approval::Allow, None)>"Allow"</button>
                <button class="approve-always secondary" on:click=move |_| always(Approval::Allow, Some(ApprovalPolicy::AlwaysAllow))>"Always allow this tool"</button>
                <button class="decline secondary" on:click=move |_| decline(deny(), None)>"Decline"</button>
                <button class="never secondary" on:click=move |_| never(deny(), Some(ApprovalPolicy::Never))>"Never allow this tool"</button>
            </div>
            <input class="decline-reason" placeholder="Why not (optional, told to the model)" prop:value=move || reason.get()
                on:input=move |ev| reason.set(event_target_value(&ev))/>
        </div>
    }
}

/// A call running: its progress, as the server reports it.
#[component]
fn Running(lane: Lane) -> impl IntoView {
    let servers = use_servers();
    let progress = move || {
        let (connection_id, request) = lane.running_call.get()?;
        let connection = servers.list.with(|list| {
            list.iter()
                .find(|e| e.connection.id() == connection_id)
                .map(|e| e.connection)
        })?;
        let progress = connection
            .progress()
            .get()
            .filter(|p| p.request == request)?;
        let amount = match progress.total {
            Some(total) => format!("{} of {total}", progress.progress),
            None => progress.progress.to_string(),
        };
        Some(format!(
            "Progress: {amount}{}",
            progress
                .message
                .map(|m| format!(" ({m})"))
                .unwrap_or_default()
        ))
    };
    view! {
        <p class="muted call-state call-running">"Running…"</p>
        {move || progress().map(|p| view! { <p class="muted call-progress">{p}</p> })}
    }
}

/// A call's result: the server's, through the tool panel's views, or why it did not run.
#[component]
fn ResultView(call: ToolCall, result: ToolResult) -> impl IntoView {
    let status = result.outcome();
    let took = result
        .duration_ms
        .map(|ms| format!(", {:.0} ms", ms))
        .unwrap_or_default();
    let ran = result.status == ToolStatus::Done;
    let decoded = ran
        .then(|| serde_json::from_value::<CallToolResult>(result.result.clone()).ok())
        .flatten();
    let body = match decoded {
        Some(decoded) => {
            view! { <OutcomeView id=None outcome=Outcome::Tool(decoded) output_schema=None/> }
                .into_any()
        }
        None => {
            let text = result.result["content"][0]["text"]
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| result.result.to_string());
            view! { <p class="call-not-run" class:error=!ran>{text}</p> }.into_any()
        }
    };
    // The tool's MCP App, on request, when it has one and ran.
    let app = RwSignal::new(None::<AppCall>);
    let app_call = ran
        .then(|| {
            let server = call.server_id.clone()?;
            let tool = call.tool_name.clone()?;
            let connection = connection_of(&server)?;
            let uri = connection.server().with_untracked(|state| {
                let Some(Ok(tools)) = state.as_ref()?.tools.as_ref() else {
                    return None;
                };
                let found = tools.iter().find(|t| t.name == tool)?;
                let json = serde_json::to_value(found).ok()?;
                ToolUi::from_tool(&json).resource_uri().map(str::to_owned)
            })?;
            let arguments = match &call.arguments {
                Value::Object(map) => map.clone(),
                _ => Default::default(),
            };
            Some(AppCall {
                connection,
                tool,
                uri,
                arguments,
                result: Some(result.result.clone()),
                call_id: None,
            })
        })
        .flatten();
    view! {
        <p class="muted call-status" data-status=status>{format!("Result: {status}{took}")}</p>
        {body}
        {app_call.map(|call| view! {
            <button class="secondary show-app" on:click=move |_| app.set(Some(call.clone()))>"Show the tool's app"</button>
        })}
        {move || app.get().map(mcp_app)}
    }
}
