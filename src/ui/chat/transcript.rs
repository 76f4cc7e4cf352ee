//! The conversation saved and read back: JSON (the chat crate's versioned format, which holds
//! no key by construction) and Markdown, one file per lane; an import goes into every idle lane;
//! Clear empties them all.

use super::state::ChatState;
use crate::ui::content::download;
use leptos::prelude::*;
use mcp_lens_chat::export::{export_json, export_markdown, import_json, MAX_IMPORT_BYTES};
use wasm_bindgen::JsCast;

#[component]
pub fn Transcript() -> impl IntoView {
    let state = ChatState::get();
    let note = RwSignal::new(None::<(bool, String)>);
    let export = move |markdown: bool| {
        let lanes = state.lanes.get_untracked();
        let several = lanes.len() > 1;
        for (n, lane) in lanes.iter().enumerate() {
            let suffix = if several {
                format!("-{}", n + 1)
            } else {
                String::new()
            };
            lane.conversation.with_untracked(|conversation| {
                if markdown {
                    download(
                        &format!("mcp-lens-chat{suffix}.md"),
                        "text/markdown",
                        &export_markdown(conversation),
                    );
                } else {
                    download(
                        &format!("mcp-lens-chat{suffix}.json"),
                        "application/json",
                        &export_json(conversation),
                    );
                }
            });
        }
    };
    let import = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|files| files.get(0)) else {
            return;
        };
        input.set_value("");
        if file.size() > MAX_IMPORT_BYTES as f64 {
            note.set(Some((
                false,
                format!(
                    "{} is larger than {} MB; nothing was imported.",
                    file.name(),
                    MAX_IMPORT_BYTES / (1024 * 1024)
                ),
            )));
            return;
        }
        leptos::task::spawn_local(async move {
            let text = match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                Ok(value) => value.as_string().unwrap_or_default(),
                Err(_) => {
                    note.try_set(Some((
                        false,
                        format!("The file {} could not be read.", file.name()),
                    )));
                    return;
                }
            };
            match import_json(&text) {
                Ok(conversation) => {
                    for lane in state.lanes.get_untracked() {
                        if lane.running.get_untracked() {
                            continue;
                        }
                        lane.conversation.set(conversation.clone());
                        lane.revision.update(|r| *r += 1);
                        lane.error.set(None);
                    }
                    note.try_set(Some((
                        true,
                        format!("Imported {} message(s).", conversation.messages.len()),
                    )));
                }
                Err(error) => {
                    note.try_set(Some((false, error.to_string())));
                }
            }
        });
    };
    let clear = move |_| {
        for lane in state.lanes.get_untracked() {
            lane.stop();
            lane.conversation.update(|c| c.clear());
            lane.revision.update(|r| *r += 1);
            lane.error.set(None);
            lane.dropped.set(Vec::new());
        }
        note.set(None);
    };
    view! {
        <div class="actions chat-transcript">
            <button id="chat-export-json" class="secondary" on:click=move |_| export(false)>"Export JSON"</button>
            <button id="chat-export-markdown" class="secondary" on:click=move |_| export(true)>"Export Markdown"</button>
            <label class="secondary file-button">"Import JSON "
                <input id="chat-import" type="file" accept="application/json,.json" on:change=import/>
            </label>
            <button id="chat-clear" class="secondary" on:click=clear>"Clear"</button>
        </div>
        {move || note.get().map(|(ok, text)| view! { <p class="chat-transcript-note" class:error=!ok class:muted=ok>{text}</p> })}
    }
}
