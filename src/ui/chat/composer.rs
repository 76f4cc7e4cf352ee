//! What the person writes, sent to every lane at once (the same prompt to each model), with the
//! attached resources; Ctrl+Enter sends. Sending nothing answers the person's last message
//! (a prompt inserted as the conversation's start, say).

use super::lane::{start, Action};
use super::state::ChatState;
use crate::ui::servers::use_servers;
use leptos::prelude::*;
use mcp_lens_chat::conversation::Part;

#[component]
pub fn Composer() -> impl IntoView {
    let state = ChatState::get();
    let servers = use_servers();
    let running = move || {
        state
            .lanes
            .with(|lanes| lanes.iter().any(|l| l.running.get()))
    };
    let send = move || {
        let text = state.draft.get_untracked();
        let attachments = state.attachments.get_untracked();
        for lane in state.lanes.get_untracked() {
            if lane.running.get_untracked() {
                continue;
            }
            let action = if text.trim().is_empty() && attachments.is_empty() {
                Action::Retry
            } else {
                let mut parts = Vec::new();
                if !text.trim().is_empty() {
                    parts.push(Part::Text { text: text.clone() });
                }
                for attachment in &attachments {
                    parts.extend(attachment.parts.iter().cloned());
                }
                Action::Send(parts)
            };
            start(state, servers, lane, action);
        }
        state.draft.set(String::new());
        state.attachments.set(Vec::new());
    };
    let stop_all = move |_| {
        for lane in state.lanes.get_untracked() {
            lane.stop();
        }
    };
    view! {
        <div class="chat-composer">
            {move || {
                let list = state.attachments.get();
                (!list.is_empty()).then(|| view! {
                    <ul class="chat-attachments">
                        {list.into_iter().enumerate().map(|(i, a)| view! {
                            <li class="chat-attachment">{a.label}" "
                                <button class="link remove-attachment" aria-label="Remove the attachment"
                                    on:click=move |_| state.attachments.update(|l| { if i < l.len() { l.remove(i); } })>"×"</button>
                            </li>
                        }).collect_view()}
                    </ul>
                })
            }}
            <textarea id="chat-input" rows="3" placeholder="Ask the model; it may call the servers' tools. Ctrl+Enter sends."
                prop:value=move || state.draft.get()
                on:input=move |ev| state.draft.set(event_target_value(&ev))
                on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                    if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
                        ev.prevent_default();
                        send();
                    }
                }></textarea>
            <div class="actions">
                <button id="chat-send" disabled=running on:click=move |_| send()>"Send"</button>
                <Show when=running>
                    <button id="chat-stop" class="secondary" on:click=stop_all>"Stop"</button>
                </Show>
            </div>
        </div>
    }
}
