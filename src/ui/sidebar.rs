//! The sidebar: the servers, each with its status, the one shown picked with a click or the
//! arrow keys; New, Import and Export.

use super::lazy::views::ImportExport;
use super::servers::{use_servers, Dialog};
use super::store::Status;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Makes `entry` the sidebar list's one Tab stop and focuses it.
fn rove(entry: &web_sys::Element) {
    let mut at = entry
        .parent_element()
        .and_then(|list| list.first_element_child());
    while let Some(other) = at {
        let _ = other.set_attribute("tabindex", if &other == entry { "0" } else { "-1" });
        at = other.next_element_sibling();
    }
    if let Some(entry) = entry.dyn_ref::<web_sys::HtmlElement>() {
        let _ = entry.focus();
    }
}

#[component]
pub fn Sidebar() -> impl IntoView {
    let servers = use_servers();
    let rows = move || {
        servers
            .list
            .get()
            .into_iter()
            .map(|entry| {
                let key = entry.key;
                let status = entry.connection.status();
                let waiting = entry.connection.server_requests();
                view! {
                    <li class="server-entry" data-server=move || entry.settings.name.get()
                        class:selected=move || servers.selected.get() == key
                        // One Tab stop for the list (a roving tabindex): the selected entry at
                        // first, then the one the keys moved to (`rove`).
                        tabindex=if servers.selected.get_untracked() == key { "0" } else { "-1" }
                        aria-current=move || (servers.selected.get() == key).then_some("true")
                        on:click=move |ev| {
                            servers.selected.set(key);
                            if let Some(entry) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                                rove(&entry);
                            }
                        }
                        on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                            match ev.key().as_str() {
                                "Enter" | " " => {
                                    ev.prevent_default();
                                    servers.selected.set(key);
                                }
                                // The arrows, Home and End move between the entries, as in the tools list.
                                "ArrowDown" | "ArrowUp" | "Home" | "End" => {
                                    ev.prevent_default();
                                    let row = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
                                    let next = row.and_then(|row| match ev.key().as_str() {
                                        "ArrowDown" => row.next_element_sibling(),
                                        "ArrowUp" => row.previous_element_sibling(),
                                        "Home" => row.parent_element()?.first_element_child(),
                                        _ => row.parent_element()?.last_element_child(),
                                    });
                                    if let Some(next) = next {
                                        rove(&next);
                                    }
                                }
                                _ => {}
                            }
                        }>
                        <span class="server-entry-name">{move || entry.settings.name.get()}</span>
                        <span class=move || format!("server-entry-status status-{:?}", status.get()).to_lowercase()>
                            {move || status.get().label()}
                        </span>
                        {move || {
                            let count = waiting.with(Vec::len);
                            (count > 0).then(|| view! { <span class="badge" title="requests waiting for you">{count}</span> })
                        }}
                    </li>
                }
            })
            .collect_view()
    };
    let toggle = move |dialog: Dialog| {
        servers
            .dialog
            .update(|open| *open = (*open != Some(dialog)).then_some(dialog))
    };
    // In the full app's `<aside id="servers">`, drawn a task after the first paint.
    view! {
        <h2>"Servers"</h2>
        <ul class="server-list">{rows}</ul>
        <button id="add-server" class="secondary" on:click=move |_| { servers.add(""); }>"+ Add server"</button>
        <button id="import-servers" class="secondary" on:click=move |_| toggle(Dialog::Import)>"Import"</button>
        <button id="export-servers" class="secondary" on:click=move |_| toggle(Dialog::Export)>"Export"</button>
        {move || servers.dialog.get().map(|dialog| view! { <ImportExport dialog/> })}
        <p class="muted connected-count">
            {move || {
                let connected = servers.list.with(|list| {
                    list.iter().filter(|e| e.connection.status().get() == Status::Connected).count()
                });
                format!("{connected} connected")
            }}
        </p>
    }
}
