//! One message of a lane: the person's (with edit-and-resend), or the model's (its text as
//! text, never HTML; its reasoning; its tool calls; how the turn went: time, first token,
//! tokens, why it stopped). Tool results are drawn with their calls, not as messages.

use super::lane::{start, Action};
use super::state::{ChatState, Lane};
use super::tool_call::ToolCallView;
use crate::ui::servers::use_servers;
use leptos::prelude::*;
use mcp_lens_chat::conversation::{Message, Part, Role, StopReason, ToolResult, TurnInfo};
use std::collections::HashMap;

/// "1.2 s, first token 0.3 s, 812 tokens in, 40 out".
pub fn turn_facts(turn: &TurnInfo) -> String {
    let mut facts = vec![format!("{:.1} s", turn.duration_ms / 1000.0)];
    if let Some(first) = turn.time_to_first_token_ms {
        facts.push(format!("first token {:.1} s", first / 1000.0));
    }
    if let Some(usage) = turn.usage {
        let n = |n: Option<u64>| n.map_or("?".to_owned(), |n| n.to_string());
        facts.push(format!(
            "{} tokens in, {} out",
            n(usage.input_tokens),
            n(usage.output_tokens)
        ));
        // Generation speed: the output over the time after the first token (the time before
        // it is the provider reading the prompt).
        let generating = turn.duration_ms - turn.time_to_first_token_ms.unwrap_or(0.0);
        // (Not for answers too short to time.)
        if let Some(out) = usage
            .output_tokens
            .filter(|&n| n > 1 && generating >= 200.0)
        {
            facts.push(format!(
                "{:.0} tokens/s",
                out as f64 / (generating / 1000.0)
            ));
        }
    }
    match &turn.stop {
        Some(StopReason::MaxTokens) => facts.push("stopped at the token limit".into()),
        Some(StopReason::Refusal { detail }) => facts.push(format!("refused: {detail}")),
        Some(StopReason::StopSequence { .. }) => facts.push("stopped at a stop sequence".into()),
        Some(StopReason::Other { reason }) => facts.push(format!("stopped: {reason}")),
        _ => {}
    }
    if turn.interrupted {
        facts.push("interrupted".into());
    }
    facts.join(", ")
}

#[component]
pub fn MessageView(
    message: Message,
    lane: Lane,
    results: Memo<HashMap<String, ToolResult>>,
) -> impl IntoView {
    match message.role {
        Role::User if !message.is_from_person() => ().into_any(),
        Role::User => view! { <PersonMessage message lane/> }.into_any(),
        Role::Assistant => view! { <ModelMessage message lane results/> }.into_any(),
    }
}

#[component]
fn PersonMessage(message: Message, lane: Lane) -> impl IntoView {
    let state = ChatState::get();
    let servers = use_servers();
    let editing = RwSignal::new(None::<String>);
    let text = message.text();
    let others = message
        .parts
        .iter()
        .filter(|p| !matches!(p, Part::Text { .. }))
        .count();
    let id = message.id;
    let shown = text.clone();
    view! {
        <div class="chat-message from-person" data-id=id.to_string()>
            {move || match editing.get() {
                None => {
                    let text = text.clone();
                    view! {
                        <div class="message-text">{shown.clone()}</div>
                        {(others > 0).then(|| view! { <p class="muted">{format!("and {others} attachment part(s)")}</p> })}
                        <button class="edit-message secondary" disabled=move || lane.running.get()
                            on:click=move |_| editing.set(Some(text.clone()))>"Edit"</button>
                    }.into_any()
                }
                Some(draft) => view! {
                    <textarea class="edit-text" rows="3" prop:value=draft
                        on:input=move |ev| editing.set(Some(event_target_value(&ev)))></textarea>
                    <div class="actions">
                        <button class="resend" on:click=move |_| {
                            let text = editing.get_untracked().unwrap_or_default();
                            editing.set(None);
                            start(state, servers, lane, Action::Edit(id, text));
                        }>"Resend"</button>
                        <button class="secondary" on:click=move |_| editing.set(None)>"Cancel"</button>
                    </div>
                }.into_any(),
            }}
        </div>
    }
}

#[component]
fn ModelMessage(
    message: Message,
    lane: Lane,
    results: Memo<HashMap<String, ToolResult>>,
) -> impl IntoView {
    let facts = message.turn.as_ref().map(|turn| {
        let label = format!("{}: {}", turn.model, turn_facts(turn));
        view! { <p class="muted turn-facts">{label}</p> }
    });
    let parts = message
        .parts
        .into_iter()
        .map(|part| match part {
            Part::Text { text } => view! { <div class="message-text model-text">{text}</div> }.into_any(),
            Part::Reasoning { text } => view! {
                <details class="reasoning"><summary>"Reasoning"</summary><div class="message-text">{text}</div></details>
            }
            .into_any(),
            Part::ToolCall(call) => view! { <ToolCallView call lane results/> }.into_any(),
            Part::Image { mime_type, data } => view! {
                <p class="muted">{format!("[an image, {mime_type}, {} bytes]", data.len() / 4 * 3)}</p>
            }
            .into_any(),
            Part::Audio { mime_type, .. } => {
                view! { <p class="muted">{format!("[audio, {mime_type}]")}</p> }.into_any()
            }
            Part::ToolResult(_) => ().into_any(),
        })
        .collect_view();
    view! {
        <div class="chat-message from-model" data-id=message.id.to_string()>
            {parts}
            {facts}
        </div>
    }
}
