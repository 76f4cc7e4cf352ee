//! Messages from the server outside of answers: notifications, server requests, and
//! anything the client ignored (with the reason).

use super::use_connection;
use crate::client::ClientEvent;
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
        ClientEvent::ListChanged(_) | ClientEvent::NextCursor { .. } => {
            ("list", "fetched again".to_owned())
        }
        ClientEvent::Wire(entry) => ("wire", entry.method.clone().unwrap_or_default()),
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
    let events = connection.events;
    view! {
        <Show when=move || events.with(|e| !e.is_empty())>
            <details id="events" class="events">
                <summary>{move || format!("Server messages ({})", events.with(Vec::len))}</summary>
                <ol>
                    {move || events.get().iter().map(|event| {
                        let (kind, text) = describe(event);
                        view! { <li><span class="event-kind">{kind}</span> " " <span class="event-text">{text}</span></li> }
                    }).collect_view()}
                </ol>
            </details>
        </Show>
    }
}
