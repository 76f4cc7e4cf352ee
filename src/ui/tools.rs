//! The tools tab: a filterable list and the selected tool's form, Run button and result.

use super::content::{ContentList, TextBlock};
use super::form::{FormState, SchemaForm};
use super::use_connection;
use crate::schema::FormModel;
use leptos::prelude::*;
use leptos::task::spawn_local;
use rmcp::model::{CallToolResult, Tool};

/// Case-insensitive match on the name, title and description.
fn matches(tool: &Tool, filter: &str) -> bool {
    let filter = filter.trim().to_lowercase();
    filter.is_empty()
        || tool.name.to_lowercase().contains(&filter)
        || tool
            .title
            .as_deref()
            .is_some_and(|t| t.to_lowercase().contains(&filter))
        || tool
            .description
            .as_deref()
            .is_some_and(|d| d.to_lowercase().contains(&filter))
}

#[component]
pub fn ToolsTab() -> impl IntoView {
    let connection = use_connection();
    let filter = RwSignal::new(String::new());
    let selected = RwSignal::new(None::<Tool>);
    let tools = move || {
        connection
            .server
            .with(|s| s.as_ref().and_then(|s| s.tools.clone()))
    };
    let list = move || match tools() {
        None => view! { <p class="muted">"This server does not offer tools."</p> }.into_any(),
        Some(Err(error)) => view! { <p class="error">{error.to_string()}</p> }.into_any(),
        Some(Ok(tools)) => {
            let needle = filter.get();
            let shown: Vec<Tool> = tools.into_iter().filter(|t| matches(t, &needle)).collect();
            if shown.is_empty() {
                return view! { <p class="muted">"No tool matches."</p> }.into_any();
            }
            shown
                .into_iter()
                .map(|tool| {
                    let name = tool.name.to_string();
                    let key = name.clone();
                    let is_selected = {
                        let name = name.clone();
                        move || selected.with(|s| s.as_ref().is_some_and(|t| t.name == name))
                    };
                    view! {
                        <li class="tool-item item" data-tool=key class:selected=is_selected
                            on:click=move |_| selected.set(Some(tool.clone()))>
                            <span class="item-name">{name}</span>
                            {tool.description.clone().map(|d| view! { <span class="item-description">{d.to_string()}</span> })}
                        </li>
                    }
                })
                .collect_view()
                .into_any()
        }
    };
    view! {
        <section class="split">
            <div class="list-pane">
                <input id="tool-filter" type="search" placeholder="Filter tools" aria-label="Filter tools"
                    prop:value=move || filter.get() on:input=move |ev| filter.set(event_target_value(&ev))/>
                <ul class="items">{list}</ul>
            </div>
            <div class="detail-pane">
                {move || match selected.get() {
                    Some(tool) => view! { <ToolPanel tool/> }.into_any(),
                    None => view! { <p class="muted">"Select a tool."</p> }.into_any(),
                }}
            </div>
        </section>
    }
}

#[component]
fn ToolPanel(tool: Tool) -> impl IntoView {
    let connection = use_connection();
    let form = FormState::new(FormModel::from_schema(&tool.input_schema));
    let running = RwSignal::new(false);
    let result = RwSignal::new(None::<Result<CallToolResult, String>>);
    let name = tool.name.to_string();
    let run = {
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
            running.set(true);
            spawn_local(async move {
                let outcome = client.call_tool(&name, arguments).await;
                result.set(Some(outcome.map_err(|e| e.to_string())));
                running.set(false);
            });
        }
    };
    view! {
        <div id="tool-panel" class="panel">
            <h2>{tool.title.clone().unwrap_or_else(|| name.clone())}</h2>
            {tool.description.clone().map(|d| view! { <p class="description">{d.to_string()}</p> })}
            <SchemaForm state=form/>
            <button id="run-tool" on:click=run disabled=move || running.get()>
                {move || if running.get() { "Running…" } else { "Run" }}
            </button>
            {move || result.get().map(|outcome| view! { <ToolResult outcome/> })}
        </div>
    }
}

#[component]
fn ToolResult(outcome: Result<CallToolResult, String>) -> impl IntoView {
    match outcome {
        Err(message) => view! {
            <div id="tool-result" class="result result-error"><p class="error">{message}</p></div>
        }
        .into_any(),
        Ok(result) => {
            let is_error = result.is_error == Some(true);
            let structured = result
                .structured_content
                .as_ref()
                .map(|value| serde_json::to_string_pretty(value).unwrap_or_default());
            view! {
                <div id="tool-result" class="result" class:result-error=is_error>
                    {is_error.then(|| view! { <p class="error">"The tool reported an error."</p> })}
                    <ContentList content=result.content/>
                    {structured.map(|text| view! {
                        <h3>"Structured content"</h3>
                        <div class="structured"><TextBlock text/></div>
                    })}
                </div>
            }
            .into_any()
        }
    }
}
