//! The wire log panel: every message in both directions, filterable, exportable as JSON,
//! and any request copyable as a curl command. Entries arrive already redacted.

use super::servers::use_servers;
use crate::protocol::wire_log::{curl_command, Direction, Filter, WireEntry};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// At most this many rows are drawn; the rest stay in the log (and in exports).
const SHOWN_ROWS: usize = 200;

#[component]
pub fn WireLogPanel() -> impl IntoView {
    let wire = use_servers().wire;
    let direction = RwSignal::new(String::new());
    let method = RwSignal::new(String::new());
    let server = RwSignal::new(String::new());
    let selected = RwSignal::new(None::<WireEntry>);
    let cap_text = RwSignal::new(wire.with_untracked(|log| log.capacity().to_string()));
    let filter = move || Filter {
        server: Some(server.get()).filter(|s| !s.is_empty()),
        direction: match direction.get().as_str() {
            "sent" => Some(Direction::Sent),
            "received" => Some(Direction::Received),
            _ => None,
        },
        method: method.get(),
    };
    let open = RwSignal::new(false);
    let servers = move || {
        if !open.get() {
            return Vec::new();
        }
        wire.with(|log| {
            let mut servers: Vec<String> = log
                .entries(&Filter::default())
                .map(|e| e.server.clone())
                .collect();
            servers.dedup();
            servers.sort();
            servers.dedup();
            servers
        })
    };
    // Nothing is drawn while the log is closed; when open, only the newest rows, keyed, so
    // a new message adds one row instead of rebuilding the table.
    let shown = Memo::new(move |_| {
        if !open.get() {
            return (Vec::new(), 0);
        }
        let filter = filter();
        wire.with(|log| {
            let matching = log.entries(&filter).count();
            let skipped = matching.saturating_sub(SHOWN_ROWS);
            let rows: Vec<WireEntry> = log.entries(&filter).skip(skipped).cloned().collect();
            (rows, skipped)
        })
    });
    let export = move |_| {
        let text = wire.with_untracked(|log| log.export(&filter()));
        download("mcp-lens-wire-log.json", &text);
    };
    let apply_cap = move |_| {
        if let Ok(cap) = cap_text.get_untracked().trim().parse::<usize>() {
            wire.update(|log| log.set_capacity(cap));
        }
        cap_text.set(wire.with_untracked(|log| log.capacity().to_string()));
    };
    view! {
        <details id="wire-log" class="wire-log"
            on:toggle=move |ev| open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
            <summary>{move || format!("Wire log ({})", wire.with(|log| log.len()))}</summary>
            <div class="wire-controls">
                <select id="wire-server" aria-label="Server" on:change=move |ev| server.set(event_target_value(&ev))>
                    <option value="">"All servers"</option>
                    {move || servers().into_iter().map(|s| { let label = s.clone(); view! { <option value=s>{label}</option> } }).collect_view()}
                </select>
                <select id="wire-direction" aria-label="Direction" on:change=move |ev| direction.set(event_target_value(&ev))>
                    <option value="">"Both directions"</option>
                    <option value="sent">"Sent"</option>
                    <option value="received">"Received"</option>
                </select>
                <input id="wire-method" type="search" placeholder="Filter by method" aria-label="Filter by method"
                    prop:value=move || method.get() on:input=move |ev| method.set(event_target_value(&ev))/>
                <label>"Keep "
                    <input id="wire-cap" class="narrow" inputmode="numeric" prop:value=move || cap_text.get()
                        on:input=move |ev| cap_text.set(event_target_value(&ev)) on:change=apply_cap/>
                    " entries"
                </label>
                <button id="wire-clear" class="secondary" on:click=move |_| { wire.update(|log| log.clear()); selected.set(None); }>"Clear"</button>
                <button id="wire-export" class="secondary" on:click=export>"Export JSON"</button>
            </div>
            {move || {
                let skipped = shown.with(|(_, skipped)| *skipped);
                (skipped > 0).then(|| view! { <p class="muted">{format!("{skipped} older entries are not drawn (they are in the export).")}</p> })
            }}
            <table class="wire-table">
                <thead><tr><th>"time"</th><th></th><th>"via"</th><th>"method"</th><th>"id"</th><th>"status"</th><th>"took"</th></tr></thead>
                <tbody>
                    // A row is redrawn only when its request is completed (status, timing).
                    <For each=move || shown.get().0
                        key=|entry| (entry.server.clone(), entry.seq, entry.pending, entry.http_status, entry.response_body.is_some())
                        let:entry>
                        <WireRow entry selected/>
                    </For>
                </tbody>
            </table>
            {move || selected.get().map(|entry| view! { <WireDetail entry/> })}
        </details>
    }
}

#[component]
fn WireRow(entry: WireEntry, selected: RwSignal<Option<WireEntry>>) -> impl IntoView {
    let arrow = match entry.direction {
        Direction::Sent => "→",
        Direction::Received => "←",
    };
    let seq = entry.seq;
    let is_selected = move || selected.with(|s| s.as_ref().is_some_and(|s| s.seq == seq));
    let cells = (
        format!("{:.0}", entry.at_ms),
        entry.via.clone(),
        entry.method.clone().unwrap_or_default(),
        entry.id.clone().unwrap_or_default(),
        match (entry.pending, entry.http_status, &entry.failure) {
            (true, _, _) => "pending".to_owned(),
            (_, Some(status), _) => status.to_string(),
            (_, None, Some(_)) => "failed".to_owned(),
            _ => String::new(),
        },
        entry
            .duration_ms
            .map(|d| format!("{d:.0} ms"))
            .unwrap_or_default(),
    );
    let direction = match entry.direction {
        Direction::Sent => "sent",
        Direction::Received => "received",
    };
    view! {
        <tr class="wire-entry" data-direction=direction class:selected=is_selected class:pending=entry.pending
            on:click=move |_| selected.set(Some(entry.clone()))>
            <td>{cells.0}</td><td class="arrow">{arrow}</td><td>{cells.1}</td>
            <td class="wire-method">{cells.2}</td><td class="wire-id">{cells.3}</td>
            <td class="wire-status">{cells.4}</td><td class="wire-duration">{cells.5}</td>
        </tr>
    }
}

#[component]
fn WireDetail(entry: WireEntry) -> impl IntoView {
    let body = serde_json::from_str::<serde_json::Value>(&entry.body)
        .ok()
        .and_then(|value| serde_json::to_string_pretty(&value).ok())
        .unwrap_or_else(|| entry.body.clone());
    let curl = (entry.direction == Direction::Sent).then(|| curl_command(&entry));
    let shown_curl = RwSignal::new(None::<String>);
    view! {
        <div id="wire-detail" class="panel">
            <p><code>{entry.url.clone()}</code></p>
            <ul class="wire-headers">
                {entry.headers.iter().map(|(name, value)| view! { <li><code>{format!("{name}: {value}")}</code></li> }).collect_view()}
            </ul>
            <pre class="wire-body">{body}</pre>
            {entry.failure.clone().map(|failure| view! { <p class="error wire-failure">{failure}</p> })}
            {(!entry.response_headers.is_empty()).then(|| view! {
                <p class="muted">{format!("Answer: HTTP {}", entry.http_status.map(|s| s.to_string()).unwrap_or_default())}</p>
                <ul class="wire-response-headers">
                    {entry.response_headers.iter().map(|(name, value)| view! { <li><code>{format!("{name}: {value}")}</code></li> }).collect_view()}
                </ul>
            })}
            {entry.response_body.clone().map(|text| view! { <pre class="wire-response-body">{text}</pre> })}
            {curl.map(|command| view! {
                <button id="wire-curl" class="secondary" on:click=move |_| {
                    copy_to_clipboard(&command);
                    shown_curl.set(Some(command.clone()));
                }>"Copy as curl"</button>
                {move || shown_curl.get().map(|c| view! { <pre class="curl">{c}</pre> })}
            })}
        </div>
    }
}

/// Offers `text` as a file download (the export never leaves the browser otherwise).
fn download(filename: &str, text: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Some(anchor) = document
        .create_element("a")
        .ok()
        .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        anchor.set_href(&url);
        anchor.set_download(filename);
        anchor.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

fn copy_to_clipboard(text: &str) {
    if let Some(window) = web_sys::window() {
        // Resolves or rejects later (permissions); the command is also shown on the page.
        let _ = window.navigator().clipboard().write_text(text);
    }
}
