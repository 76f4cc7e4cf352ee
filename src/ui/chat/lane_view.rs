//! One lane: its provider, its messages, the turn being streamed, how its last run failed (with
//! what to do when the provider refused the page), and its stop and retry buttons.

use super::lane::{start, Action};
use super::message::MessageView;
use super::provider_form::ProviderForm;
use super::state::{ChatState, Lane};
use crate::ui::servers::use_servers;
use leptos::prelude::*;
use mcp_lens_chat::conversation::ToolResult;
use mcp_lens_chat::ChatErrorKind;
use std::collections::HashMap;

#[component]
pub fn LaneView(lane: Lane) -> impl IntoView {
    let state = ChatState::get();
    let servers = use_servers();
    let results = Memo::new(move |_| {
        lane.conversation.with(|c| {
            c.messages
                .iter()
                .flat_map(|m| m.tool_results())
                .map(|r| (r.call_id.clone(), r.clone()))
                .collect::<HashMap<String, ToolResult>>()
        })
    });
    let messages = move || {
        let revision = lane.revision.get();
        lane.conversation.with(|c| {
            c.messages
                .iter()
                .map(|m| ((revision, m.id), m.clone()))
                .collect::<Vec<_>>()
        })
    };
    let summary = move || {
        let fields = lane.provider;
        let model = fields.model.get();
        if model.trim().is_empty() {
            "Choose a model".to_owned()
        } else if fields.in_page.get() {
            format!("{model} (in this page)")
        } else {
            format!("{model} ({})", fields.dialect.get().label())
        }
    };
    let live = move || {
        lane.live.get().map(|live| {
            let calls = (!live.calls.is_empty())
                .then(|| format!("Calling {}…", live.calls.join(", ")));
            view! {
                <div class="chat-message from-model live" aria-busy="true">
                    {(!live.reasoning.is_empty()).then(|| view! { <details class="reasoning" open><summary>"Reasoning"</summary><div class="message-text">{live.reasoning.clone()}</div></details> })}
                    <div class="message-text model-text live-text">{live.text}</div>
                    {calls.map(|c| view! { <p class="muted">{c}</p> })}
                </div>
            }
        })
    };
    let error = move || {
        lane.error.get().map(|error| {
            let kind = match &error.kind {
                ChatErrorKind::Unreachable { .. } => "unreachable",
                ChatErrorKind::Stopped => "stopped",
                ChatErrorKind::Unauthorized { .. } => "unauthorized",
                ChatErrorKind::RateLimited { .. } => "rate-limited",
                _ => "other",
            };
            let advice = match &error.kind {
                ChatErrorKind::Unreachable { advice, .. } => Some(advice.clone()),
                _ => None,
            };
            view! {
                <div class="chat-error error" role="alert" data-kind=kind>
                    <p>{error.to_string()}</p>
                    {advice.map(|a| view! { <p class="cors-advice">{a}</p> })}
                </div>
            }
        })
    };
    let usage = move || {
        let total = lane.conversation.with(|c| c.total_usage());
        (total.input_tokens.is_some() || total.output_tokens.is_some()).then(|| {
            let n = |n: Option<u64>| n.map_or("?".to_owned(), |n| n.to_string());
            format!(
                "This conversation: {} tokens in, {} out.",
                n(total.input_tokens),
                n(total.output_tokens)
            )
        })
    };
    let can_retry = move || {
        !lane.running.get()
            && lane
                .conversation
                .with(|c| c.messages.iter().any(|m| m.is_from_person()))
    };
    let several = move || state.lanes.with(|l| l.len() > 1);
    view! {
        <section class="chat-lane" data-lane=lane.index aria-label=move || format!("Model {}", lane.index + 1)>
            <details class="lane-provider" open=!lane.provider.ready()>
                <summary class="lane-summary">{summary}</summary>
                <ProviderForm fields=lane.provider index=lane.index/>
                <Show when=several>
                    <button class="remove-lane secondary" on:click=move |_| state.remove_lane(lane.key)>"Remove this model"</button>
                </Show>
            </details>
            <div class="chat-messages" aria-live="polite">
                <For each=messages key=|(key, _)| *key let:item>
                    <MessageView message=item.1 lane results/>
                </For>
                {live}
            </div>
            {error}
            {move || {
                let notes = lane.dropped.get();
                (!notes.is_empty()).then(|| view! {
                    <details class="dropped-notes">
                        <summary class="muted">{format!("What {} could not take ({})", lane.provider.dialect.get().label(), notes.len())}</summary>
                        <ul>{notes.into_iter().map(|n| view! { <li class="muted">{n}</li> }).collect_view()}</ul>
                    </details>
                })
            }}
            {move || usage().map(|u| view! { <p class="muted lane-usage">{u}</p> })}
            <div class="actions lane-actions">
                <Show when=move || lane.running.get()>
                    <button class="stop-lane secondary" on:click=move |_| lane.stop()>"Stop"</button>
                </Show>
                <button class="retry secondary" disabled=move || !can_retry()
                    on:click=move |_| start(state, servers, lane, Action::Retry)>"Retry"</button>
            </div>
        </section>
    }
}
