//! One lane's runs: the loop made for each run (the provider, the chosen servers' tools, the
//! page's fetch and MCP clients), its events turned into what the lane shows, and the
//! conversation written back when it ends.

use super::approver::PageApprover;
use super::model_http::ModelHttp;
use super::runner::PageTools;
use super::state::{CallState, ChatState, Lane, LiveTurn};
use crate::ui::servers::Servers;
use crate::ui::store::Status;
use leptos::prelude::*;
use mcp_lens_chat::chat_loop::{ChatEvent, Limits};
use mcp_lens_chat::conversation::{MessageId, Part, Role};
use mcp_lens_chat::stream::Delta;
use mcp_lens_chat::tools::ServerTools;
use mcp_lens_chat::{ChatError, ChatErrorKind, ChatLoop, ChatSetup, ChatStep, ToolSet};
use serde_json::Value;
use std::rc::Rc;

/// What a run starts with.
pub enum Action {
    /// The person's message (its text and attached parts).
    Send(Vec<Part>),
    /// The person's last message answered again.
    Retry,
    /// The person's message changed, and what followed it answered again.
    Edit(MessageId, String),
}

/// A chat server: its name in the tool set (unique), its connection id, its tools as JSON.
pub struct ChatServer {
    pub name: String,
    pub connection_id: String,
    pub tools: Vec<Value>,
}

/// The connected servers the chat uses (those not left out), named uniquely.
pub fn chat_servers(servers: Servers, state: ChatState) -> Vec<ChatServer> {
    let excluded = state.excluded.get_untracked();
    let mut chosen: Vec<ChatServer> = Vec::new();
    for entry in servers.list.get_untracked() {
        let connection = entry.connection;
        if connection.status().get_untracked() != Status::Connected {
            continue;
        }
        let connection_id = connection.id();
        if excluded.contains(&connection_id) {
            continue;
        }
        let tools = connection.server().with_untracked(|state| {
            let Some(Ok(tools)) = state.as_ref().and_then(|s| s.tools.as_ref()) else {
                return Vec::new();
            };
            tools
                .iter()
                .filter_map(|tool| serde_json::to_value(tool).ok())
                .collect()
        });
        let base = entry.settings.name.get_untracked();
        let base = if base.trim().is_empty() {
            "server".to_owned()
        } else {
            base
        };
        let mut name = base.clone();
        let mut n = 2;
        while chosen.iter().any(|s| s.name == name) {
            name = format!("{base} {n}");
            n += 1;
        }
        chosen.push(ChatServer {
            name,
            connection_id,
            tools,
        });
    }
    chosen
}

/// The page's origin, for what to do when a provider refuses it.
pub fn page_origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}

/// The wire log's name for a lane's model requests.
pub fn wire_name(lane: &Lane) -> String {
    format!("model {}", lane.provider.config().label())
}

/// Starts a run on `lane` (nothing if one is under way).
pub fn start(state: ChatState, servers: Servers, lane: Lane, action: Action) {
    if lane.running.get_untracked() {
        return;
    }
    let fail = |detail: String| {
        lane.error.set(Some(ChatError::new(
            ChatStep::BuildRequest,
            ChatErrorKind::InvalidSettings { detail },
        )));
    };
    let mut conversation = lane.conversation.get_untracked();
    if let Err(detail) = state.apply_settings(&mut conversation) {
        fail(detail);
        return;
    }
    // A message changed in place (an edit) is drawn anew; added and removed ones are not.
    let redraw = matches!(action, Action::Edit(..));
    let outcome = match action {
        Action::Send(parts) => {
            conversation.push(Role::User, parts, None);
            Ok(())
        }
        Action::Retry => conversation.prepare_retry(),
        Action::Edit(id, text) => conversation.edit(id, &text),
    };
    if let Err(error) = outcome {
        lane.error.set(Some(error));
        return;
    }
    let provider = lane.provider.config();
    let chat_servers = chat_servers(servers, state);
    let server_tools: Vec<ServerTools<'_>> = chat_servers
        .iter()
        .map(|server| ServerTools {
            server_id: &server.name,
            tools: &server.tools,
        })
        .collect();
    let tools = ToolSet::build(provider.dialect, &server_tools);
    let in_page = provider.is_in_page();
    let (http, clock) = ModelHttp::page(servers.wire, wire_name(&lane), in_page);
    let runner = Rc::new(PageTools {
        servers: chat_servers
            .iter()
            .map(|s| (s.name.clone(), s.connection_id.clone()))
            .collect(),
        running: lane.running_call,
    });
    let on_event: Rc<dyn Fn(&ChatEvent)> = Rc::new(move |event: &ChatEvent| apply(lane, event));
    let chat_loop = Rc::new(ChatLoop::new(ChatSetup {
        http,
        clock,
        provider,
        tools,
        runner,
        approver: Rc::new(PageApprover { lane }),
        limits: Limits::default(),
        page_origin: page_origin(),
        on_event,
    }));
    for ((server, tool), policy) in state.policies.get_untracked() {
        chat_loop.set_policy(&server, &tool, policy);
    }
    lane.chat_loop.set_value(Some(chat_loop.clone()));
    lane.error.set(None);
    lane.dropped.set(Vec::new());
    lane.calls.set(Default::default());
    lane.conversation.set(conversation.clone());
    if redraw {
        lane.revision.update(|r| *r += 1);
    }
    lane.running.set(true);
    leptos::task::spawn_local(async move {
        chat_loop.run(&mut conversation).await;
        if in_page {
            super::in_page::refresh_numbers(state.in_page);
        }
        // The same messages as the events added (the loop's own copy is the reference).
        lane.conversation.try_set(conversation);
        lane.live.try_set(None);
        lane.calls.try_set(Default::default());
        lane.running_call.try_set(None);
        lane.approvals.try_update_value(|waiting| waiting.clear());
        lane.chat_loop.try_set_value(None);
        lane.running.try_set(false);
    });
}

/// What an event of the run changes in the lane.
fn apply(lane: Lane, event: &ChatEvent) {
    match event {
        ChatEvent::TurnStarted { message_id } => {
            lane.live.try_set(Some(LiveTurn {
                id: *message_id,
                ..LiveTurn::default()
            }));
        }
        ChatEvent::RequestDropped { dropped, .. } => {
            let notes: Vec<String> = dropped
                .iter()
                .map(|d| format!("{} ({}): {}", d.what, d.path, d.why))
                .collect();
            lane.dropped.try_update(|all| {
                for note in notes {
                    if !all.contains(&note) && all.len() < 100 {
                        all.push(note);
                    }
                }
            });
        }
        ChatEvent::Delta { delta, .. } => {
            lane.live.try_update(|live| {
                let Some(live) = live else { return };
                match delta {
                    Delta::Text(text) | Delta::Refusal(text) => live.text.push_str(text),
                    Delta::Reasoning(text) => live.reasoning.push_str(text),
                    Delta::ToolCallStart { name, .. } => live.calls.push(name.clone()),
                    _ => {}
                }
            });
        }
        ChatEvent::TurnFinished { message } => {
            lane.live.try_set(None);
            let message = message.clone();
            lane.conversation.try_update(|c| c.messages.push(message));
        }
        ChatEvent::ApprovalNeeded { request } => {
            let request = request.clone();
            lane.calls.try_update(|calls| {
                calls.insert(request.call_id.clone(), CallState::Waiting(request));
            });
        }
        ChatEvent::ToolCallStarted { call } => {
            let id = call.id.clone();
            lane.calls.try_update(|calls| {
                calls.insert(id, CallState::Running);
            });
        }
        ChatEvent::ToolCallFinished { result } => {
            let result = result.clone();
            lane.calls.try_update(|calls| {
                calls.insert(result.call_id.clone(), CallState::Finished(result));
            });
        }
        ChatEvent::ResultsAdded { message } => {
            let message = message.clone();
            lane.conversation.try_update(|c| c.messages.push(message));
            lane.calls.try_set(Default::default());
        }
        ChatEvent::Error { error } => {
            lane.error.try_set(Some(error.clone()));
        }
        ChatEvent::Ended { .. } => {}
    }
}
