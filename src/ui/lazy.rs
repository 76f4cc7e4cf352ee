//! Split points, by the path a person takes. Each `#[wasm_split(name)]` function below is cut
//! out of the main module after cargo by wasm-split (`scripts/wasm-split.mjs`), with everything
//! only it reaches: the full app's and the embed view's shells (`app`, `embed`); the connect
//! path (`session`: the MCP client, the connected page, the tool list), fetched in the
//! background right after the first paint ([`preload_after_paint`]), with it for a `&connect`
//! link, or at once when something needs it sooner (a click on Connect); an item's panel
//! (`panel`: forms, results, the MCP Apps host, the share dialog), prefetched once the list is
//! painted; and, each on first use, sign-in (`signin`), the mcp.json dialogs (`import`) and the
//! chat (`chat`). The modules are shipped in packs grouped by path (`pack` in wasm-split.mjs).
//!
//! Invariants, or the chunk silently grows back into the main module:
//! - code reached from the main module stays in it: the main module calls into the chunk only
//!   through the `#[wasm_split]` functions here, never through the functions they wrap;
//! - that includes drop glue: a value dropped in the main module pulls its `Drop` in (the
//!   client's "end the session when the last handle goes" is a function pointer for this
//!   reason, see `mcp_lens_client::McpClient`);
//! - split functions take concrete types (no generics, no `impl Trait`) and are awaited;
//! - a chunk that cannot be fetched is an error shown to the person ([`ChunkUnavailable`]),
//!   never a panic; the next use tries again.

pub(super) mod apps;
pub(super) mod connect;
pub(super) mod load;
pub(super) mod panel;
pub(super) mod session;
pub(super) mod signin;
pub(super) mod views;

use super::browse::model::Kind;
use super::servers::{Dialog, Servers, Settings};
use super::store::{Connection, Identity};
use crate::protocol::transport_choice::TransportChoice;
use leptos::prelude::*;
use load::{from_session, loaded, ChunkUnavailable, ViewLoader};
use wasm_split_helpers::wasm_split;

#[wasm_split(session, fallible)]
fn session_chat_area() -> Result<AnyView, ChunkUnavailable> {
    Ok(super::chat_toggle::chat_area(|| Box::pin(chat_view())))
}

// The chat (issue 27) is a chunk of its own, fetched when the Chat tab is first opened or a
// sampling card's "Let the model answer" is first clicked: the connect path never carries it.
#[wasm_split(chat, fallible)]
fn chat_view() -> Result<AnyView, ChunkUnavailable> {
    reach_every_chunk();
    // A sampling card in the chat draws the model's answer too (`views::ModelAnswer`).
    provide_context(super::server_requests::ModelAnswerView(
        views::model_answer_view,
    ));
    Ok(super::chat::chat_view())
}

/// Makes everything the other split points reach reachable from the chat's too; runs nothing.
///
/// wasm-split puts each function in a chunk by the set of split points that reach it. The chat
/// shares most of its code (Leptos, the client, serde) with the others: without this, every
/// chunk they share split in two by whether the chat also reached it, and the first paint and
/// the connect path fetched more and smaller chunks (measured: +8.6 KB gzip at first paint,
/// +22.6 KB on the connect path, all of it per-chunk overhead). With it the chat reaches a
/// superset of every other split point's code: their chunks stay as they were, and the chat's
/// own chunk holds only the chat's code. The price: the first opening of the chat also fetches
/// the chunks of what it does not use (the embed view's, the import dialog's).
///
/// Invariant: every split point's body is referenced here (a new split point adds its own).
#[inline(never)]
fn reach_every_chunk() {
    use std::hint::black_box;
    let views: [fn() -> AnyView; 18] = [
        super::panels::session_panels,
        super::chat_toggle::chat_tabs,
        || super::chat_toggle::chat_area(|| Box::pin(chat_view())),
        super::embed_panels::embed_panels,
        views::wire_log_shell,
        || view! { <super::wire_log::WireLogPanel/> }.into_any(),
        || view! { <super::settings_fields::SettingsFields/> }.into_any(),
        || view! { <super::settings_fields::UrlTarget/> }.into_any(),
        || view! { <super::server_requests::ServerRequests/> }.into_any(),
        || view! { <super::tasks::TasksView/> }.into_any(),
        || view! { <super::list_lifetime::ListLifetime kind=Kind::Tools/> }.into_any(),
        || view! { <super::skills::SkillsView/> }.into_any(),
        || view! { {super::auth::sign_in_bar()} <super::auth::AuthView/> }.into_any(),
        || view! { <super::auth::SignInClient/> }.into_any(),
        || view! { <super::app::App chat_area/> }.into_any(),
        || view! { <super::embed::EmbedView/> }.into_any(),
        || view! { <super::import::ImportExportDialog dialog=Dialog::Import/> }.into_any(),
        || view! { <super::import::ImportExportDialog dialog=Dialog::Export/> }.into_any(),
    ];
    let started: fn(Servers) = |servers| {
        connect::start_persisting();
        if super::auth::left_for_sign_in() {
            super::auth::resume_in_this_tab(servers);
        }
        super::warm_up_page::warm_up(servers);
    };
    let connect: fn(Connection, Settings) = |connection, settings| {
        if let Ok((config, identity)) = super::config::config_of(settings) {
            connection.connect_as(config, identity, settings.known_handshake, signin::SIGN_IN);
        }
    };
    let embed_connect: fn(&str, TransportChoice) -> Result<_, String> =
        super::config::checked_config;
    let signin: fn(Connection, crate::client::ClientConfig, Identity, RwSignal<bool>) =
        |connection, config, identity, known_handshake| {
            let config = super::auth::prepare(connection, config, identity, known_handshake);
            connection.connect_now(config, known_handshake);
        };
    let on_connection: [fn(Connection); 4] = [
        Connection::disconnect_now,
        super::auth::refused,
        super::auth::after_connect,
        super::auth::forget_connection,
    ];
    let panel: fn(Kind, super::browse::model::Item, bool) -> AnyView =
        |kind, item, report| super::browse::panel::item_panel(kind, item, None, report);
    let warm_up_call: fn(super::browse::panel::ToolsTab) = super::browse::panel::warm_up_call;
    let app: fn(super::apps::AppCall) -> AnyView =
        |call| view! { <super::apps::McpApp call/> }.into_any();
    type Sharing = RwSignal<Option<Option<Kind>>>;
    let share: fn(Settings, Connection, Option<Kind>, Sharing) -> AnyView =
        |settings, connection, kind, open| {
            let subject = super::share::Subject::of(settings, connection, kind);
            view! { <super::share::ShareDialog subject open/> }.into_any()
        };
    black_box((
        views,
        started,
        connect,
        embed_connect,
        signin,
        on_connection,
        panel,
        warm_up_call,
        app,
        share,
        load::a_task_later as fn(_) -> _,
    ));
}

/// The chat's place, drawn once opened (handed to the full app's frame, `app::App`).
#[component]
pub fn ChatArea() -> impl IntoView {
    from_session(|| Box::pin(session_chat_area()))
}

/// [`ChatArea`] as a function, for the app's frame.
fn chat_area() -> AnyView {
    view! { <ChatArea/> }.into_any()
}

#[wasm_split(app, fallible)]
fn app_shell() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <super::app::App chat_area/> }.into_any())
}

#[wasm_split(embed, fallible)]
fn embed_shell() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <super::embed::EmbedView/> }.into_any())
}

/// The full app or the embed view, each from its own chunk: the main module holds only what
/// both need to start (the first paint of either waits for its chunk).
#[component]
pub fn Shell(embed: bool) -> impl IntoView {
    let load: ViewLoader = if embed {
        || Box::pin(embed_shell())
    } else {
        || Box::pin(app_shell())
    };
    loaded(load)
}

// Signing in (the sign-in chunk): fetched when a server refuses for want of it, or when a
// connect asks for an authorization from the start (a sign-in client set up, tokens
// remembered, a sign-in kept from before); a server that never refuses never costs it.

// An item's panel (the panel chunk): its form, its action and the result. Fetched while a
// connected server's list is shown (`prefetch_panels`): the list never waits for it.
