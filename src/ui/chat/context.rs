//! What a server gives the conversation besides tools: one of its prompts as the conversation's
//! start (`prompts/get`, its arguments typed here), and resources attached to the next message
//! as context (`resources/read`).

use super::state::{Attachment, ChatState};
use crate::ui::servers::use_servers;
use crate::ui::store::Status;
use leptos::prelude::*;
use mcp_lens_chat::conversation::{Message, Part, Role};
use mcp_lens_chat::Conversation;
use serde_json::{Map, Value};

/// The most of one resource's text put into the conversation (it is sent with every request).
const MAX_RESOURCE_CHARS: usize = 200_000;

/// (connection id, server name, item as JSON) of every chosen server's prompts or resources.
fn items(kind: &'static str) -> Vec<(String, String, Value)> {
    let servers = use_servers();
    let state = ChatState::get();
    let excluded = state.excluded.get();
    let mut out = Vec::new();
    for entry in servers.list.get() {
        let connection = entry.connection;
        if connection.status().get() != Status::Connected {
            continue;
        }
        let id = connection.id();
        if excluded.contains(&id) {
            continue;
        }
        let name = entry.settings.name.get();
        connection.server().with(|state| {
            let Some(state) = state else { return };
            let list: Vec<Value> = match kind {
                "prompts" => match &state.prompts {
                    Some(Ok(prompts)) => prompts
                        .iter()
                        .filter_map(|p| serde_json::to_value(p).ok())
                        .collect(),
                    _ => Vec::new(),
                },
                _ => match &state.resources {
                    Some(Ok(resources)) => resources
                        .iter()
                        .filter_map(|r| serde_json::to_value(r).ok())
                        .collect(),
                    _ => Vec::new(),
                },
            };
            for item in list {
                out.push((id.clone(), name.clone(), item));
            }
        });
    }
    out
}

fn text_of(value: &Value, key: &str) -> String {
    value
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// A prompt message's or resource's content as conversation parts.
fn content_parts(content: &Value, parts: &mut Vec<Part>) {
    match content.get("type").and_then(Value::as_str) {
        Some("text") => parts.push(Part::Text {
            text: text_of(content, "text"),
        }),
        Some("image") => parts.push(Part::Image {
            mime_type: text_of(content, "mimeType"),
            data: text_of(content, "data"),
        }),
        Some("audio") => parts.push(Part::Audio {
            mime_type: text_of(content, "mimeType"),
            data: text_of(content, "data"),
        }),
        Some("resource") => {
            if let Some(resource) = content.get("resource") {
                resource_parts(resource, parts);
            }
        }
        Some("resource_link") => parts.push(Part::Text {
            text: format!("Resource link: {}", text_of(content, "uri")),
        }),
        other => parts.push(Part::Text {
            text: format!("[content of type {other:?}]"),
        }),
    }
}

/// One entry of `contents` (a resource's text, or its blob) as parts.
fn resource_parts(contents: &Value, parts: &mut Vec<Part>) {
    let uri = text_of(contents, "uri");
    let mime = text_of(contents, "mimeType");
    if let Some(text) = contents.get("text").and_then(Value::as_str) {
        let mut text = text.to_owned();
        if let Some((cut, _)) = text.char_indices().nth(MAX_RESOURCE_CHARS) {
            text.truncate(cut);
            text.push_str("\n[… the rest of the resource is not sent]");
        }
        parts.push(Part::Text {
            text: format!("Resource {uri} ({mime}):\n{text}"),
        });
    } else if let Some(blob) = contents.get("blob").and_then(Value::as_str) {
        if mime.starts_with("image/") {
            parts.push(Part::Image {
                mime_type: mime,
                data: blob.to_owned(),
            });
        } else {
            parts.push(Part::Text {
                text: format!(
                    "[Resource {uri} ({mime}), {} bytes of binary data, not sent to the model]",
                    blob.len() / 4 * 3
                ),
            });
        }
    }
}

/// The conversation with `start` before its messages (their ids renumbered).
fn with_start(conversation: &Conversation, start: &[(Role, Vec<Part>)]) -> Conversation {
    let mut next = Conversation::new();
    next.system_prompt = conversation.system_prompt.clone();
    next.temperature = conversation.temperature;
    next.max_tokens = conversation.max_tokens;
    for (role, parts) in start {
        next.push(*role, parts.clone(), None);
    }
    for Message {
        role, parts, turn, ..
    } in &conversation.messages
    {
        next.push(*role, parts.clone(), turn.clone());
    }
    next
}

#[component]
pub fn PromptStart() -> impl IntoView {
    let state = ChatState::get();
    let prompts = Memo::new(move |_| items("prompts"));
    let chosen = RwSignal::new(None::<usize>);
    let arguments = RwSignal::new(Vec::<(String, bool, RwSignal<String>)>::new());
    let note = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let choose = move |ev| {
        let index = event_target_value(&ev).parse::<usize>().ok();
        chosen.set(index);
        let args = index
            .and_then(|i| prompts.with_untracked(|p| p.get(i).cloned()))
            .and_then(|(_, _, prompt)| prompt.get("arguments").and_then(Value::as_array).cloned())
            .unwrap_or_default()
            .into_iter()
            .map(|arg| {
                let required = arg.get("required").and_then(Value::as_bool) == Some(true);
                (
                    text_of(&arg, "name"),
                    required,
                    RwSignal::new(String::new()),
                )
            })
            .collect();
        arguments.set(args);
    };
    let insert = move |_| {
        let Some((connection_id, server, prompt)) = chosen
            .get_untracked()
            .and_then(|i| prompts.with_untracked(|p| p.get(i).cloned()))
        else {
            return;
        };
        let Ok(client) = crate::ui::store::manager().client(&connection_id) else {
            note.set(Some(format!("{server} is no longer connected.")));
            return;
        };
        let mut args = Map::new();
        for (name, _, value) in arguments.get_untracked() {
            let value = value.get_untracked();
            if !value.is_empty() {
                args.insert(name, Value::String(value));
            }
        }
        let name = text_of(&prompt, "name");
        busy.set(true);
        note.set(None);
        leptos::task::spawn_local(async move {
            let outcome = client.get_prompt(&name, args).await;
            busy.try_set(false);
            let result = match outcome.map(|r| serde_json::to_value(r).unwrap_or_default()) {
                Ok(result) => result,
                Err(error) => {
                    note.try_set(Some(error.to_string()));
                    return;
                }
            };
            let mut start = Vec::new();
            for message in result
                .get("messages")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let role = match message.get("role").and_then(Value::as_str) {
                    Some("assistant") => Role::Assistant,
                    _ => Role::User,
                };
                let mut parts = Vec::new();
                if let Some(content) = message.get("content") {
                    content_parts(content, &mut parts);
                }
                start.push((role, parts));
            }
            for lane in state.lanes.get_untracked() {
                if lane.running.get_untracked() {
                    continue;
                }
                lane.conversation.update(|c| *c = with_start(c, &start));
                lane.revision.update(|r| *r += 1);
            }
            note.try_set(Some(format!(
                "The prompt {name} of {server} now starts the conversation ({} message(s)).",
                start.len()
            )));
        });
    };
    view! {
        <div class="chat-prompt">
            <label class="field">
                <span class="field-label">"Start from a server's prompt"</span>
                <select id="chat-prompt" on:change=choose>
                    <option value="">"Choose a prompt"</option>
                    {move || prompts.get().into_iter().enumerate().map(|(i, (_, server, prompt))| view! {
                        <option value=i.to_string()>{format!("{server}: {}", text_of(&prompt, "name"))}</option>
                    }).collect_view()}
                </select>
            </label>
            {move || arguments.get().into_iter().map(|(name, required, value)| view! {
                <label class="field">
                    <span class="field-label">{name.clone()}{required.then_some(" (required)")}</span>
                    <input class="chat-prompt-argument" data-argument=name prop:value=move || value.get()
                        on:input=move |ev| value.set(event_target_value(&ev))/>
                </label>
            }).collect_view()}
            <button id="chat-prompt-insert" class="secondary" disabled=move || chosen.get().is_none() || busy.get()
                on:click=insert>"Insert as the conversation's start"</button>
            {move || note.get().map(|n| view! { <p class="muted chat-prompt-note">{n}</p> })}
        </div>
    }
}

#[component]
pub fn ResourceAttach() -> impl IntoView {
    let state = ChatState::get();
    let resources = Memo::new(move |_| items("resources"));
    let chosen = RwSignal::new(None::<usize>);
    let note = RwSignal::new(None::<String>);
    let attach = move |_| {
        let Some((connection_id, server, resource)) = chosen
            .get_untracked()
            .and_then(|i| resources.with_untracked(|r| r.get(i).cloned()))
        else {
            return;
        };
        let Ok(client) = crate::ui::store::manager().client(&connection_id) else {
            note.set(Some(format!("{server} is no longer connected.")));
            return;
        };
        let uri = text_of(&resource, "uri");
        note.set(None);
        leptos::task::spawn_local(async move {
            match client.read_resource_json(&uri).await {
                Ok(read) => {
                    let mut parts = Vec::new();
                    for contents in read
                        .get("contents")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                    {
                        resource_parts(contents, &mut parts);
                    }
                    state.attachments.update(|list| {
                        list.push(Attachment {
                            label: format!("{server}: {uri}"),
                            parts,
                        })
                    });
                }
                Err(error) => {
                    note.try_set(Some(error.to_string()));
                }
            }
        });
    };
    view! {
        <div class="chat-resource">
            <label class="field">
                <span class="field-label">"Attach a resource to your next message"</span>
                <select id="chat-resource" on:change=move |ev| chosen.set(event_target_value(&ev).parse().ok())>
                    <option value="">"Choose a resource"</option>
                    {move || resources.get().into_iter().enumerate().map(|(i, (_, server, resource))| {
                        let name = text_of(&resource, "name");
                        let uri = text_of(&resource, "uri");
                        view! { <option value=i.to_string()>{format!("{server}: {name} ({uri})")}</option> }
                    }).collect_view()}
                </select>
            </label>
            <button id="chat-resource-attach" class="secondary" disabled=move || chosen.get().is_none() on:click=attach>"Attach"</button>
            {move || note.get().map(|n| view! { <p class="error">{n}</p> })}
        </div>
    }
}
