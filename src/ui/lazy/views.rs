//! The split points of a connected server's lesser views, each drawn from its chunk when first
//! shown: the wire log, the server's requests, the Tasks and Skills tabs, the share dialog (the
//! panel chunk); the connection's settings fields (the sign-in chunk) and where the address's
//! requests go (the session chunk); the mcp.json dialogs (the import chunk); a sampling card's
//! answer by the chat's model (the chat chunk).

use super::load::{a_task_later, from_session, loaded, ChunkUnavailable, ViewLoader};
use crate::ui::browse::model::Kind;
use crate::ui::server_requests::ModelAnswerView;
use crate::ui::servers::{use_servers, Dialog, Settings};
use crate::ui::store::Connection;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_split_helpers::wasm_split;

#[wasm_split(session, fallible)]
fn session_wire_log() -> Result<AnyView, ChunkUnavailable> {
    Ok(a_task_later(wire_log_shell))
}

/// The wire log's place: its summary, and while it is open its table and controls from a
/// chunk of their own (a person who never opens it never downloads them).
pub(super) fn wire_log_shell() -> AnyView {
    let wire = use_servers().wire;
    let open = RwSignal::new(false);
    view! {
        <details id="wire-log" class="wire-log"
            on:toggle=move |ev| open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
            <summary>{move || format!("Wire log ({})", wire.with(|log| log.len()))}</summary>
            {move || open.get().then(|| loaded(|| Box::pin(wire_log_body())))}
        </details>
    }
    .into_any()
}

#[wasm_split(panel, fallible)]
fn wire_log_body() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <crate::ui::wire_log::WireLogPanel/> }.into_any())
}

#[wasm_split(panel, fallible)]
fn requests_view() -> Result<AnyView, ChunkUnavailable> {
    // A sampling card's "Let the model answer" draws the chat's answer (the chat chunk).
    provide_context(ModelAnswerView(model_answer_view));
    Ok(view! { <crate::ui::server_requests::ServerRequests/> }.into_any())
}

#[wasm_split(panel, fallible)]
fn tasks_view() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <crate::ui::tasks::TasksView/> }.into_any())
}

#[wasm_split(panel, fallible)]
fn skills_view() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <crate::ui::skills::SkillsView/> }.into_any())
}

/// The Skills tab's view, from its chunk (it lists the skills when first drawn).
#[component]
pub fn Skills() -> impl IntoView {
    loaded(|| Box::pin(skills_view()))
}

/// The server's requests waiting for the person (sampling, elicitation), from their chunk,
/// drawn once there is one.
#[component]
pub fn ServerRequests() -> impl IntoView {
    let connection = expect_context::<Connection>();
    // Drawn anew only when there come to be requests, not at each one (the cards keep what is
    // being typed into them).
    let any = ArcMemo::new(move |_| !connection.server_requests().with(Vec::is_empty));
    move || any.get().then(|| loaded(|| Box::pin(requests_view())))
}

#[wasm_split(panel, fallible)]
fn list_lifetime_view(kind: Kind) -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <crate::ui::list_lifetime::ListLifetime kind/> }.into_any())
}

/// A list's lifetime over it (SEP-2549) and Refresh, from the panel chunk (fetched while the
/// list is shown): nothing of it on the connect path.
#[component]
pub fn ListLifetime(kind: Kind) -> impl IntoView {
    match kind {
        Kind::Tools => loaded(|| Box::pin(list_lifetime_view(Kind::Tools))),
        Kind::Prompts => loaded(|| Box::pin(list_lifetime_view(Kind::Prompts))),
        Kind::Resources => loaded(|| Box::pin(list_lifetime_view(Kind::Resources))),
    }
}

/// The Tasks tab's view, from its chunk.
#[component]
pub fn Tasks() -> impl IntoView {
    loaded(|| Box::pin(tasks_view()))
}

#[wasm_split(signin, fallible)]
fn session_settings_fields() -> Result<AnyView, ChunkUnavailable> {
    Ok(a_task_later(|| {
        view! { <crate::ui::settings_fields::SettingsFields/> }.into_any()
    }))
}

#[wasm_split(session, fallible)]
fn session_url_target() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <crate::ui::settings_fields::UrlTarget/> }.into_any())
}

#[wasm_split(panel, fallible)]
fn share_dialog(
    settings: Settings,
    connection: Connection,
    kind: Option<Kind>,
    open: RwSignal<Option<Option<Kind>>>,
) -> Result<AnyView, ChunkUnavailable> {
    let subject = crate::ui::share::Subject::of(settings, connection, kind);
    Ok(view! { <crate::ui::share::ShareDialog subject open/> }.into_any())
}

/// The share and embed dialog for the tab in view (`kind`), from the panel chunk: what it
/// shares (the selected item and its form's arguments) is read there.
#[component]
pub fn Share(
    settings: Settings,
    connection: Connection,
    kind: Option<Kind>,
    open: RwSignal<Option<Option<Kind>>>,
) -> impl IntoView {
    Suspend::new(SendWrapper::new(async move {
        share_dialog(settings, connection, kind, open)
            .await
            .unwrap_or_else(|error| {
                view! { <p class="error" role="alert">{error.to_string()}</p> }.into_any()
            })
    }))
}

#[wasm_split(import, fallible)]
fn import_dialog() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <crate::ui::import::ImportExportDialog dialog=Dialog::Import/> }.into_any())
}

#[wasm_split(import, fallible)]
fn export_dialog() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <crate::ui::import::ImportExportDialog dialog=Dialog::Export/> }.into_any())
}

/// The import or export dialog, from the import chunk (fetched the first time one opens).
#[component]
pub fn ImportExport(dialog: Dialog) -> impl IntoView {
    let load: ViewLoader = match dialog {
        Dialog::Import => || Box::pin(import_dialog()),
        Dialog::Export => || Box::pin(export_dialog()),
    };
    loaded(load)
}

/// The connection's settings fields (drawn once the chunk is here).
#[component]
pub fn SettingsFields() -> impl IntoView {
    loaded(|| Box::pin(session_settings_fields()))
}

/// Where the address's requests go, under its field (drawn once the chunk is here).
#[component]
pub fn UrlTarget() -> impl IntoView {
    from_session(|| Box::pin(session_url_target()))
}

/// The wire log (drawn once the chunk is here).
#[component]
pub fn WireLog() -> impl IntoView {
    from_session(|| Box::pin(session_wire_log()))
}

#[wasm_split(chat, fallible)]
fn chat_model_answer() -> Result<AnyView, ChunkUnavailable> {
    Ok(crate::ui::chat::model_answer())
}

/// The sampling request in context (a `ServerRequest`, and its `Connection`) answered by the
/// chat's model, from the chat chunk. (Through `loaded`, like every lazy view: a future of its
/// own would add its own copy of the suspense code to the session chunk.)
#[component]
pub fn ModelAnswer() -> impl IntoView {
    loaded(|| Box::pin(chat_model_answer()))
}

/// [`ModelAnswer`] as a function, for the sampling cards that are handed it.
pub(in crate::ui) fn model_answer_view() -> AnyView {
    view! { <ModelAnswer/> }.into_any()
}
