//! The resources tab: list, and the selected resource's contents.

use super::content::ResourceContent;
use super::use_connection;
use leptos::prelude::*;
use leptos::task::spawn_local;
use rmcp::model::{ReadResourceResult, Resource};

#[component]
pub fn ResourcesTab() -> impl IntoView {
    let connection = use_connection();
    let selected = RwSignal::new(None::<Resource>);
    let list = move || {
        match connection.server.with(|s| s.as_ref().and_then(|s| s.resources.clone())) {
        None => view! { <p class="muted">"This server does not offer resources."</p> }.into_any(),
        Some(Err(error)) => view! { <p class="error">{error.to_string()}</p> }.into_any(),
        Some(Ok(resources)) if resources.is_empty() => view! { <p class="muted">"No resources."</p> }.into_any(),
        Some(Ok(resources)) => resources
            .into_iter()
            .map(|resource| {
                let uri = resource.uri.clone();
                let key = uri.clone();
                let is_selected = {
                    let uri = uri.clone();
                    move || selected.with(|s| s.as_ref().is_some_and(|r| r.uri == uri))
                };
                view! {
                    <li class="resource-item item" data-uri=key class:selected=is_selected
                        on:click=move |_| selected.set(Some(resource.clone()))>
                        <span class="item-name">{resource.title.clone().unwrap_or_else(|| resource.name.clone())}</span>
                        <span class="item-description"><code>{uri}</code></span>
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
                    Some(resource) => view! { <ResourcePanel resource/> }.into_any(),
                    None => view! { <p class="muted">"Select a resource."</p> }.into_any(),
                }}
            </div>
        </section>
    }
}

#[component]
fn ResourcePanel(resource: Resource) -> impl IntoView {
    let connection = use_connection();
    let busy = RwSignal::new(false);
    let result = RwSignal::new(None::<Result<ReadResourceResult, String>>);
    let uri = resource.uri.clone();
    let read = {
        let uri = uri.clone();
        move |_| {
            let Some(client) = connection.client() else {
                result.set(Some(Err("Not connected.".to_owned())));
                return;
            };
            let uri = uri.clone();
            busy.set(true);
            spawn_local(async move {
                let outcome = client.read_resource(&uri).await;
                result.set(Some(outcome.map_err(|e| e.to_string())));
                busy.set(false);
            });
        }
    };
    view! {
        <div id="resource-panel" class="panel">
            <h2>{resource.title.clone().unwrap_or_else(|| resource.name.clone())}</h2>
            <p><code>{uri}</code> {resource.mime_type.clone().map(|m| format!(" ({m})"))}</p>
            {resource.description.clone().map(|d| view! { <p class="description">{d}</p> })}
            <button id="read-resource" on:click=read disabled=move || busy.get()>"Read"</button>
            {move || result.get().map(|outcome| match outcome {
                Err(message) => view! { <div id="resource-result" class="result result-error"><p class="error">{message}</p></div> }.into_any(),
                Ok(read) if read.contents.is_empty() => view! {
                    <div id="resource-result" class="result"><p class="muted">"The resource is empty."</p></div>
                }.into_any(),
                Ok(read) => view! {
                    <div id="resource-result" class="result">
                        {read.contents.into_iter().map(|contents| view! { <ResourceContent contents/> }).collect_view()}
                    </div>
                }.into_any(),
            })}
        </div>
    }
}
