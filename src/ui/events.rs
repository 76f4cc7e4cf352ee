//! Messages from the server outside of answers: notifications, server requests, and
//! anything the client ignored (with the reason).

use super::store::use_connection;
use crate::client::ClientEvent;
use crate::protocol::error::excerpt;

/// How much of one message is shown in the list (a 20 MB notification would take seconds
/// to lay out); the wire log has the whole message.
const EVENT_TEXT_CHARS: usize = 2_000;
use crate::protocol::tasks::status_label;
use leptos::prelude::*;

fn describe(event: &ClientEvent) -> (&'static str, String) {
    match event {
        ClientEvent::Notification { method, params } => (
            "notification",
            match params {
                Some(params) => format!("{method} {params}"),
                None => method.clone(),
            },
        ),
        ClientEvent::Answered { id, method, how } => {
            ("server request", format!("{method} (id {id}): {how}"))
        }
        ClientEvent::ServerRequest { id, method, .. } => (
            "server request",
            format!("{method} (id {id}): waiting for you"),
        ),
        ClientEvent::ServerRequestExpired { id } => (
            "server request",
            format!("id {id}: nobody answered in time; declined"),
        ),
        ClientEvent::Progress(progress) => (
            "progress",
            format!("request {}: {}", progress.request, progress.progress),
        ),
        ClientEvent::TaskStatus(task) => (
            "task",
            format!("{}: {}", task.task_id, status_label(task.status)),
        ),
        ClientEvent::ExtensionTaskStatus(task) => (
            "task",
            format!("{}: {}", task.task_id, status_label(task.status)),
        ),
        ClientEvent::ListChanged(_) | ClientEvent::NextCursor { .. } => {
            ("list", "fetched again".to_owned())
        }
        ClientEvent::Wire(entry) => ("wire", entry.method_text().unwrap_or_default()),
        ClientEvent::WireAnswer(answer) => ("wire", format!("answer {}", answer.exchange)),
        ClientEvent::Ignored { reason } => ("ignored", reason.clone()),
        ClientEvent::NoServerStream { reason } => ("no server stream", reason.clone()),
        ClientEvent::ConnectionLost { reason } => ("connection lost", reason.clone()),
        ClientEvent::SessionRenewed { reason } => (
            "session renewed",
            format!("The server lost the session ({reason}); a new session was initialized and the request sent again."),
        ),
    }
}

#[component]
pub fn EventsPanel() -> impl IntoView {
    let connection = use_connection();
    let events = connection.events();
    // Rows are drawn only while the panel is open, and keyed: a new message adds one row
    // (a storm of thousands never rebuilds the list per message).
    let open = RwSignal::new(false);
    view! {
        <Show when=move || events.with(|e| !e.is_empty())>
            <details id="events" class="events"
                on:toggle=move |ev| open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
                <summary>{move || format!("Server messages ({})", events.with(|e| e.len()))}</summary>
                <ol>
                    <For each=move || if open.get() { events.get().into_iter().collect() } else { Vec::new() }
                        key=|(seq, _)| *seq
                        let:((_, event))>
                        {
                            let (kind, text) = describe(&event);
                            view! { <li><span class="event-kind">{kind}</span> " " <span class="event-text">{excerpt(&text, EVENT_TEXT_CHARS)}</span></li> }
                        }
                    </For>
                </ol>
            </details>
        </Show>
    }
}
