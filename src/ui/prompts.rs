//! The prompts tab: list, an argument form per prompt, and the rendered messages.

use super::content::Content;
use super::form::{FormState, SchemaForm};
use super::use_connection;
use crate::schema::FormModel;
use leptos::prelude::*;
use leptos::task::spawn_local;
use rmcp::model::{GetPromptResult, Prompt};
use serde_json::{json, Map, Value};

/// Prompt arguments are all strings: describe them as a JSON Schema and reuse the form.
fn argument_form(prompt: &Prompt) -> FormModel {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for argument in prompt.arguments.iter().flatten() {
        let mut property = json!({ "type": "string" });
        if let Some(title) = &argument.title {
            property["title"] = Value::from(title.clone());
        }
        if let Some(description) = &argument.description {
            property["description"] = Value::from(description.clone());
        }
        properties.insert(argument.name.clone(), property);
        if argument.required == Some(true) {
            required.push(Value::from(argument.name.clone()));
        }
    }
    let schema = json!({ "type": "object", "properties": properties, "required": required });
    FormModel::from_schema(schema.as_object().expect("built as an object"))
}

#[component]
pub fn PromptsTab() -> impl IntoView {
    let connection = use_connection();
    let selected = RwSignal::new(None::<Prompt>);
    let list = move || {
        match connection.server.with(|s| s.as_ref().and_then(|s| s.prompts.clone())) {
        None => view! { <p class="muted">"This server does not offer prompts."</p> }.into_any(),
        Some(Err(error)) => view! { <p class="error">{error.to_string()}</p> }.into_any(),
        Some(Ok(prompts)) if prompts.is_empty() => view! { <p class="muted">"No prompts."</p> }.into_any(),
        Some(Ok(prompts)) => prompts
            .into_iter()
            .map(|prompt| {
                let name = prompt.name.clone();
                let key = name.clone();
                let is_selected = {
                    let name = name.clone();
                    move || selected.with(|s| s.as_ref().is_some_and(|p| p.name == name))
                };
                view! {
                    <li class="prompt-item item" data-prompt=key class:selected=is_selected
                        on:click=move |_| selected.set(Some(prompt.clone()))>
                        <span class="item-name">{name}</span>
                        {prompt.description.clone().map(|d| view! { <span class="item-description">{d}</span> })}
                    </li>
                }
            })
            .collect_view()
            .into_any(),
    }
    };
    view! {
        <section class="split">
            <div class="list-pane"><ul class="items">{list}</ul></div>
            <div class="detail-pane">
                {move || match selected.get() {
                    Some(prompt) => view! { <PromptPanel prompt/> }.into_any(),
                    None => view! { <p class="muted">"Select a prompt."</p> }.into_any(),
                }}
            </div>
        </section>
    }
}

#[component]
fn PromptPanel(prompt: Prompt) -> impl IntoView {
    let connection = use_connection();
    let form = FormState::new(argument_form(&prompt));
    let busy = RwSignal::new(false);
    let result = RwSignal::new(None::<Result<GetPromptResult, String>>);
    let name = prompt.name.clone();
    let get = {
        let name = name.clone();
        move |_| {
            let Some(arguments) = form.arguments() else {
                return;
            };
            let Some(client) = connection.client() else {
                result.set(Some(Err("Not connected.".to_owned())));
                return;
            };
            let name = name.clone();
            busy.set(true);
            spawn_local(async move {
                let outcome = client.get_prompt(&name, arguments).await;
                result.set(Some(outcome.map_err(|e| e.to_string())));
                busy.set(false);
            });
        }
    };
    view! {
        <div id="prompt-panel" class="panel">
            <h2>{prompt.title.clone().unwrap_or_else(|| name.clone())}</h2>
            {prompt.description.clone().map(|d| view! { <p class="description">{d}</p> })}
            <SchemaForm state=form/>
            <button id="get-prompt" on:click=get disabled=move || busy.get()>"Get prompt"</button>
            {move || result.get().map(|outcome| match outcome {
                Err(message) => view! { <div id="prompt-result" class="result result-error"><p class="error">{message}</p></div> }.into_any(),
                Ok(rendered) => view! {
                    <div id="prompt-result" class="result">
                        {rendered.description.map(|d| view! { <p class="description">{d}</p> })}
                        {rendered.messages.into_iter().map(|message| {
                            let role = serde_json::to_value(&message.role).ok().and_then(|r| r.as_str().map(str::to_owned)).unwrap_or_default();
                            view! {
                                <div class="prompt-message">
                                    <span class="role">{role}</span>
                                    <Content block=message.content/>
                                </div>
                            }
                        }).collect_view()}
                    </div>
                }.into_any(),
            })}
        </div>
    }
}
