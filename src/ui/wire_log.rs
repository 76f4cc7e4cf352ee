//! The wire log panel: every message in both directions, filterable, exportable as JSON,
//! and any request copyable as a curl command. Entries arrive already redacted.
//!
//! A message can be megabytes: rows carry only their columns (never a body), and the opened
//! message's body shows its first part, the rest on request (`content::LongText`).

use super::content::{copy_to_clipboard, download, LongText};
use super::servers::use_servers;
use crate::protocol::wire_log::{curl_command, BodyCut, Direction, Filter, Via, WireEntry};
use leptos::prelude::*;

/// At most this many rows are drawn; the rest stay in the log (and in exports).
const SHOWN_ROWS: usize = 200;

#[component]
pub fn WireLogPanel() -> impl IntoView {
    let wire = use_servers().wire;
    let direction = RwSignal::new(String::new());
    let method = RwSignal::new(String::new());
    let server = RwSignal::new(String::new());
    // All traffic, only MCP, only the page's messages with MCP Apps' frames, or only the
    // chat's requests to model providers.
    let traffic = RwSignal::new(String::new());
    // The opened message, by its number in the log.
    let selected = RwSignal::new(None::<u64>);
    let cap_text = RwSignal::new(wire.with_untracked(|log| log.capacity().to_string()));
    let filter = move || Filter {
        server: Some(server.get()).filter(|s| !s.is_empty()),
        direction: match direction.get().as_str() {
            "sent" => Some(Direction::Sent),
            "received" => Some(Direction::Received),
            _ => None,
        },
        method: method.get(),
        app: match traffic.get().as_str() {
            "mcp" => Some(false),
            "app" => Some(true),
            _ => None,
        },
        model: match traffic.get().as_str() {
            "mcp" => Some(false),
            "model" => Some(true),
            _ => None,
        },
    };
    let servers = move || {
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
    // Drawn only while the log is open (`lazy::WireLog` makes this view then); only the
    // newest rows, keyed, so a new message adds one row instead of rebuilding the table. Rows
    // are their columns only: a body is read from the log when its message is opened.
    let shown = Memo::new(move |_| {
        let filter = filter();
        wire.with(|log| {
            let matching = log.entries(&filter).count();
            let skipped = matching.saturating_sub(SHOWN_ROWS);
            let rows: Vec<Row> = log.entries(&filter).skip(skipped).map(Row::of).collect();
            (rows, skipped)
        })
    });
    // "Selected" is part of a row's key (rows read no signal): a click redraws two rows.
    let rows = move || {
        let selected = selected.get();
        shown.with(|(rows, _)| {
            rows.iter()
                .map(|row| (row.clone(), Some(row.seq) == selected))
                .collect::<Vec<_>>()
        })
    };
    // The opened message, read from the log once (it stays shown if the log lets it go).
    let detail = move || {
        let seq = selected.get()?;
        let entry = wire.with_untracked(|log| {
            log.entries(&Filter::default())
                .find(|entry| entry.seq == seq)
                .cloned()
        })?;
        Some(view! { <WireDetail entry/> })
    };
    let export = move |_| {
        let text = wire.with_untracked(|log| log.export(&filter()));
        download("mcp-lens-wire-log.json", "application/json", &text);
    };
    let apply_cap = move |_| {
        if let Ok(cap) = cap_text.get_untracked().trim().parse::<usize>() {
            wire.update(|log| log.set_capacity(cap));
        }
        cap_text.set(wire.with_untracked(|log| log.capacity().to_string()));
    };
    view! {
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
                <select id="wire-traffic" aria-label="Traffic" on:change=move |ev| traffic.set(event_target_value(&ev))>
                    <option value="">"All traffic"</option>
                    <option value="mcp">"MCP only"</option>
                    <option value="app">"MCP Apps only"</option>
                    <option value="model">"Model requests only"</option>
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
            // On a narrow screen the table scrolls in its own box, not the page (focusable, so
            // a keyboard can scroll it too).
            <div class="wire-scroll" tabindex="0" role="region" aria-label="Messages">
            <table class="wire-table">
                <thead><tr><th>"time"</th><th></th><th>"via"</th><th>"method"</th><th>"id"</th><th>"status"</th><th>"took"</th></tr></thead>
                <tbody>
                    // A row is redrawn only when its request is completed (status, timing).
                    <For each=rows
                        key=|(row, selected)| (row.seq, row.pending, row.http_status, row.answered, row.cut, *selected)
                        let:row>
                        <WireRow row=row.0 is_selected=row.1 selected/>
                    </For>
                </tbody>
            </table>
            </div>
            {detail}
    }
}

/// A row's columns: what the table shows of an entry, without its headers or body.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    seq: u64,
    at_ms: f64,
    direction: Direction,
    via: Via,
    method: Option<String>,
    id: Option<String>,
    pending: bool,
    http_status: Option<u16>,
    failed: bool,
    duration_ms: Option<f64>,
    /// An error answer's body was added.
    answered: bool,
    /// Its body was cut short or dropped (the row says so).
    cut: Option<BodyCut>,
}

impl Row {
    fn of(entry: &WireEntry) -> Self {
        Row {
            seq: entry.seq,
            at_ms: entry.at_ms,
            direction: entry.direction,
            via: entry.via,
            method: entry.method_text(),
            id: entry.id.clone(),
            pending: entry.pending,
            http_status: entry.http_status,
            failed: entry.failure.is_some(),
            duration_ms: entry.duration_ms,
            answered: entry.response_body.is_some(),
            cut: entry.body_cut,
        }
    }
}

#[component]
fn WireRow(row: Row, is_selected: bool, selected: RwSignal<Option<u64>>) -> impl IntoView {
    let arrow = match row.direction {
        Direction::Sent => "→",
        Direction::Received => "←",
    };
    let seq = row.seq;
    let status = match (row.pending, row.http_status, row.failed) {
        (true, _, _) => "pending".to_owned(),
        (_, Some(status), _) => status.to_string(),
        // What the page did not accept from an app (ignored or refused; the detail says).
        (_, None, true) if row.via == Via::App => "not accepted".to_owned(),
        (_, None, true) => "failed".to_owned(),
        _ => String::new(),
    };
    let cells = (
        format!("{:.0}", row.at_ms),
        row.via.as_str(),
        row.method.unwrap_or_default(),
        row.id.unwrap_or_default(),
        status,
        row.duration_ms
            .map(|d| format!("{d:.0} ms"))
            .unwrap_or_default(),
    );
    let direction = match row.direction {
        Direction::Sent => "sent",
        Direction::Received => "received",
    };
    let via = cells.1;
    // The row keeps its columns when its body goes; it says the body is gone (or cut).
    let cut = row.cut.map(|cut| match cut {
        BodyCut::Dropped { .. } => view! { <span class="wire-body-dropped muted" title=cut.to_string()>" (body dropped)"</span> },
        BodyCut::Truncated { .. } => view! { <span class="wire-body-truncated muted" title=cut.to_string()>" (body cut)"</span> },
    });
    view! {
        <tr class="wire-entry" data-direction=direction data-via=via class:selected=is_selected class:pending=row.pending
            on:click=move |_| selected.set(Some(seq))>
            <td>{cells.0}</td><td class="arrow">{arrow}</td><td>{cells.1}</td>
            <td class="wire-method">{cells.2}{cut}</td><td class="wire-id">{cells.3}</td>
            <td class="wire-status">{cells.4}</td><td class="wire-duration">{cells.5}</td>
        </tr>
    }
}

#[component]
fn WireDetail(entry: WireEntry) -> impl IntoView {
    // A message to an app's frame is no HTTP request: there is nothing to repeat with curl.
    let curl =
        // An authorization request is logged redacted, and a body that is not whole would
        // send something else: a curl of either could not work.
        (entry.direction == Direction::Sent
            && entry.via != Via::App
            && entry.via != Via::Auth
            && entry.body_cut.is_none())
        .then(|| curl_command(&entry));
    let shown_curl = RwSignal::new(None::<String>);
    let WireEntry {
        url,
        headers,
        body,
        failure,
        http_status,
        response_headers,
        response_body,
        body_cut,
        ..
    } = entry;
    view! {
        <div id="wire-detail" class="panel">
            <p><code>{url}</code></p>
            <ul class="wire-headers">
                {headers.into_iter().map(|(name, value)| view! { <li><code>{format!("{name}: {value}")}</code></li> }).collect_view()}
            </ul>
            {body_cut.map(|cut| view! { <p class="muted wire-cut">{cut.to_string()}</p> })}
            <LongText text=body class="wire-body" file_name="message"/>
            {failure.map(|failure| view! { <p class="error wire-failure">{failure}</p> })}
            {(!response_headers.is_empty()).then(|| view! {
                <p class="muted">{format!("Answer: HTTP {}", http_status.map(|s| s.to_string()).unwrap_or_default())}</p>
                <ul class="wire-response-headers">
                    {response_headers.into_iter().map(|(name, value)| view! { <li><code>{format!("{name}: {value}")}</code></li> }).collect_view()}
                </ul>
            })}
            {response_body.map(|text| view! { <LongText text class="wire-response-body" file_name="answer"/> })}
            {curl.map(|command| view! {
                <button id="wire-curl" class="secondary" on:click=move |_| {
                    let _ = copy_to_clipboard(&command);
                    shown_curl.set(Some(command.clone()));
                }>"Copy as curl"</button>
                {move || shown_curl.get().map(|c| view! { <pre class="curl">{c}</pre> })}
            })}
        </div>
    }
}
