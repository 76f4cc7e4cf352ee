//! The Chat tab: the servers and tools it uses, the conversation's settings and context, the
//! lanes side by side, what the servers ask during the chat (elicitation and sampling, inline),
//! and the composer.

use super::composer::Composer;
use super::context::{PromptStart, ResourceAttach};
use super::lane_view::LaneView;
use super::servers_pick::ServersPick;
use super::settings::ConversationSettings;
use super::state::{ChatState, MAX_LANES};
use super::transcript::Transcript;
use crate::ui::server_requests::RequestCard;
use crate::ui::servers::use_servers;
use crate::ui::store::{Connection, Status};
use leptos::prelude::*;

/// The chat's stylesheet, fetched with its chunk (the first paint's stylesheet stays as it was).
const STYLESHEET: &str = "chat.css";

fn load_stylesheet() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if document.get_element_by_id("chat-stylesheet").is_some() {
        return;
    }
    let Ok(link) = document.create_element("link") else {
        return;
    };
    link.set_id("chat-stylesheet");
    let _ = link.set_attribute("rel", "stylesheet");
    let _ = link.set_attribute("href", STYLESHEET);
    if let Some(head) = document.head() {
        let _ = head.append_child(&link);
    }
}

#[component]
pub fn ChatView() -> impl IntoView {
    load_stylesheet();
    let state = ChatState::get();
    let columns = move || format!("lanes-{}", state.lanes.with(Vec::len));
    view! {
        <section id="chat-view" class="chat" aria-label="Chat">
            <details class="chat-setup" open>
                <summary>"Servers and tools"</summary>
                <ServersPick/>
            </details>
            <details class="chat-setup">
                <summary>"Conversation: system prompt, temperature, a prompt or resource of a server"</summary>
                <ConversationSettings/>
                <PromptStart/>
                <ResourceAttach/>
            </details>
            <Transcript/>
            <div class=move || format!("chat-lanes {}", columns())>
                <For each=move || state.lanes.get() key=|lane| lane.key let:lane>
                    <LaneView lane/>
                </For>
            </div>
            <Show when=move || state.lanes.with(|l| l.len() < MAX_LANES)>
                <button id="chat-add-model" class="secondary" on:click=move |_| state.add_lane()>
                    "Add a model side by side"
                </button>
            </Show>
            <ServerAsks/>
            <Composer/>
        </section>
    }
}

/// What the chat's servers ask while it runs: their elicitation and sampling cards, inline.
#[component]
fn ServerAsks() -> impl IntoView {
    let servers = use_servers();
    let state = ChatState::get();
    let asking = move || {
        let excluded = state.excluded.get();
        servers
            .list
            .get()
            .into_iter()
            .filter(|entry| {
                let connection = entry.connection;
                connection.status().get() == Status::Connected
                    && !excluded.contains(&connection.id())
                    && connection.server_requests().with(|r| !r.is_empty())
            })
            .map(|entry| {
                (
                    entry.key,
                    entry.connection,
                    entry.settings.name.get_untracked(),
                )
            })
            .collect::<Vec<_>>()
    };
    view! {
        <For each=asking key=|(key, _, _)| *key let:item>
            <Asks connection=item.1 name=item.2/>
        </For>
    }
}

#[component]
fn Asks(connection: Connection, name: String) -> impl IntoView {
    provide_context(connection);
    let requests = connection.server_requests();
    view! {
        <section class="chat-asks server-requests" aria-live="polite">
            <h3>{format!("{name} asks")}</h3>
            <For each=move || requests.get() key=|request| request.id.to_string() let:request>
                <RequestCard request/>
            </For>
        </section>
    }
}
