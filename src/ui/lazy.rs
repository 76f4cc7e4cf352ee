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

use super::servers::{Dialog, Servers, Settings};
use super::{Connection, Identity, Status};
use crate::protocol::transport_choice::TransportChoice;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_split_helpers::{wasm_split, SplitLoaderError};

/// A chunk of the app could not be fetched (offline, or the host lost the file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkUnavailable;

impl From<SplitLoaderError> for ChunkUnavailable {
    fn from(_: SplitLoaderError) -> Self {
        Self
    }
}

impl std::fmt::Display for ChunkUnavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(
            "Part of mcp-lens could not be downloaded from the page's host (the browser console \
             says why). Check the network and try again.",
        )
    }
}

/// Whether the session chunk is here, so its panels can be drawn without waiting; whether the
/// full app's chunk is instantiated, so its frame can be drawn ([`AfterStart`]); whether the
/// servers are made, so the sidebar's entries can be drawn ([`AfterServers`]); whether those are
/// drawn, so the connection form can be ([`AfterFrame`]); and whether the first paint is behind,
/// so what it left out can be drawn ([`AfterPaint`]).
#[derive(Clone, Copy)]
pub struct SessionChunk {
    pub loaded: RwSignal<bool>,
    pub started: RwSignal<bool>,
    pub listed: RwSignal<bool>,
    pub framed: RwSignal<bool>,
    pub painted: RwSignal<bool>,
}

impl SessionChunk {
    pub fn new() -> Self {
        Self {
            loaded: RwSignal::new(false),
            started: RwSignal::new(false),
            listed: RwSignal::new(false),
            framed: RwSignal::new(false),
            painted: RwSignal::new(false),
        }
    }
}

/// The full app's first screen, each step a task of its own after the one that instantiated the
/// app chunk (and calls this): the frame, the top bar and the layout's empty places
/// ([`AfterStart`]); the servers (the remembered ones and the address's, [`Servers::load`]),
/// made and provided under `owner` (the app's); the sidebar's entries ([`AfterServers`]); the
/// connection form ([`AfterFrame`]); then the rest ([`preload_after_paint`]), asked for only once a frame with
/// the form is painted: the session chunk's bytes never come before Connect is usable, and the
/// task that draws the rest never comes before the frame that shows Connect (when the frame
/// alone was painted first, that was the first contentful paint, already behind). With V8
/// compiling each function at its first call, no step pays for the others' first runs.
pub fn after_frame(chunk: SessionChunk, owner: Owner) {
    use crate::client::browser::timer;
    leptos::task::spawn_local(async move {
        timer::yield_now().await;
        chunk.started.set(true);
        timer::yield_now().await;
        let servers = owner.with(|| {
            let servers = Servers::load();
            provide_context(servers);
            servers
        });
        timer::yield_now().await;
        chunk.listed.set(true);
        timer::yield_now().await;
        chunk.framed.set(true);
        timer::after_paint().await;
        preload_after_paint(chunk, Some(servers));
    });
}

/// Fetches the session chunk once the first contentful paint is on screen, so its bytes never
/// compete with the first paint's; then, in the full app (`servers`), finishes a sign-in this
/// tab left for (`auth::resume_in_this_tab`), so that code is not in the first paint either.
/// In the same task (its first step) what the first paint left out is drawn ([`AfterPaint`]).
pub fn preload_after_paint(chunk: SessionChunk, servers: Option<Servers>) {
    if let Some(servers) = servers {
        PAGE_SERVERS.with(|page| page.set(Some(servers)));
    }
    let preload = wasm_bindgen::closure::Closure::once_into_js(move || {
        chunk.painted.set(true);
        leptos::task::spawn_local(async move {
            // A failure here is retried by the first real use, which reports it.
            if session_started(servers).await.is_ok() {
                chunk.loaded.set(true);
            }
        })
    });
    after_first_paint(&preload);
}

// The first contentful paint from the browser's paint timing (`buffered`: also if it already
// happened); a browser without paint timing waits one second.
#[wasm_bindgen::prelude::wasm_bindgen(inline_js = "export function after_first_paint(callback) {
  let done = false;
  const run = () => { if (!done) { done = true; setTimeout(callback, 0); } };
  try {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length) { observer.disconnect(); run(); }
    }).observe({ type: 'paint', buffered: true });
  } catch (_) {}
  setTimeout(run, 1000);
}")]
extern "C" {
    fn after_first_paint(callback: &wasm_bindgen::JsValue);
}

thread_local! {
    /// The full app's servers, for whichever of the session chunk's entry points runs first.
    static PAGE_SERVERS: std::cell::Cell<Option<Servers>> = const { std::cell::Cell::new(None) };
}

/// The full app's settings are stored from the session chunk's first use on, whichever use
/// that is (the preload after the first paint, or a Connect when the preload failed), so
/// their serialization is not part of the first paint and no setting goes unsaved once a
/// chunk is here. Under the app's owner: this runs in a task. Once per page (`persist`).
fn start_persisting() {
    if let Some(servers) = PAGE_SERVERS.with(std::cell::Cell::get) {
        servers.owner.get_value().with(|| servers.persist());
    }
}

#[wasm_split(session, fallible)]
fn session_started(servers: Option<Servers>) -> Result<(), ChunkUnavailable> {
    start_persisting();
    if let Some(servers) = servers {
        if let Some(entry) = servers.current_untracked() {
            super::connection::connect_if_linked(entry.settings, entry.connection);
        }
        // A sign-in this tab left for (pop-ups blocked) comes back here.
        if super::auth::left_for_sign_in() {
            signin_resume(servers);
        }
        // The full app's connect path, compiled in idle time before the first connect.
        super::warm_up(servers);
    }
    Ok(())
}

/// Reads the settings into a configuration here, in the session chunk (their checks, the URL
/// parser among them, are not part of the first paint), then connects; or says why not.
#[wasm_split(session, fallible)]
fn session_connect_settings(
    connection: Connection,
    settings: Settings,
    input_error: RwSignal<Option<String>>,
) -> Result<(), ChunkUnavailable> {
    start_persisting();
    match super::connection::config_of(settings) {
        Ok((config, identity)) => {
            input_error.try_set(None);
            connection.connect_as(config, identity, settings.known_handshake);
        }
        Err(message) => {
            input_error.try_set(Some(message));
            connection.status.set(Status::Disconnected);
        }
    }
    Ok(())
}

/// The embed view's connect: its address checked here, in the session chunk (the URL parser,
/// and whether the deployment lets widgets reach the reader's network), then the connect.
#[wasm_split(session, fallible)]
fn session_embed_connect(
    connection: Connection,
    url: String,
    transport: TransportChoice,
    input_error: RwSignal<Option<String>>,
    known_handshake: RwSignal<bool>,
) -> Result<(), ChunkUnavailable> {
    match super::embed::checked_config(&url, transport) {
        Ok(config) => {
            input_error.try_set(None);
            // No sign-in client settings in a widget: automatic (registration or CIMD).
            connection.connect_as(config, Identity::default(), known_handshake);
        }
        Err(message) => {
            input_error.try_set(Some(message));
            connection.status.set(Status::Disconnected);
        }
    }
    Ok(())
}

#[wasm_split(session, fallible)]
fn session_disconnect(connection: Connection) -> Result<(), ChunkUnavailable> {
    connection.disconnect_now();
    Ok(())
}

#[wasm_split(session, fallible)]
fn session_panels() -> Result<AnyView, ChunkUnavailable> {
    Ok(super::session_panels())
}

#[wasm_split(session, fallible)]
fn session_wire_log() -> Result<AnyView, ChunkUnavailable> {
    Ok(a_task_later(wire_log_shell))
}

/// The wire log's place: its summary, and while it is open its table and controls from a
/// chunk of their own (a person who never opens it never downloads them).
fn wire_log_shell() -> AnyView {
    let wire = super::servers::use_servers().wire;
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
    Ok(view! { <super::wire_log::WireLogPanel/> }.into_any())
}

#[wasm_split(panel, fallible)]
fn requests_view() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <super::server_requests::ServerRequests/> }.into_any())
}

#[wasm_split(panel, fallible)]
fn tasks_view() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <super::tasks::TasksView/> }.into_any())
}

#[wasm_split(panel, fallible)]
fn list_lifetime_view(kind: super::browse::Kind) -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <super::list_lifetime::ListLifetime kind/> }.into_any())
}

/// A list's lifetime over it (SEP-2549) and Refresh, from the panel chunk (fetched while the
/// list is shown): nothing of it on the connect path.
#[component]
pub fn ListLifetime(kind: super::browse::Kind) -> impl IntoView {
    use super::browse::Kind;
    match kind {
        Kind::Tools => loaded(|| Box::pin(list_lifetime_view(Kind::Tools))),
        Kind::Prompts => loaded(|| Box::pin(list_lifetime_view(Kind::Prompts))),
        Kind::Resources => loaded(|| Box::pin(list_lifetime_view(Kind::Resources))),
    }
}

#[wasm_split(panel, fallible)]
fn skills_view() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <super::skills::SkillsView/> }.into_any())
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
    let any = ArcMemo::new(move |_| !connection.server_requests.with(Vec::is_empty));
    move || any.get().then(|| loaded(|| Box::pin(requests_view())))
}

/// The Tasks tab's view, from its chunk.
#[component]
pub fn Tasks() -> impl IntoView {
    loaded(|| Box::pin(tasks_view()))
}

/// `make`'s view, drawn in a task after the one that asks for it. The closed wire log and
/// settings are drawn with the session chunk, which a click on Connect may be waiting for:
/// drawn a task later, they do not lengthen the task that sends the first request (nor, in
/// the page's first use of their code, wait for it to compile there).
/// (The flag is reference-counted, not owned: it is made where the chunk's future runs, whose
/// owner may be gone before the view that reads it.)
fn a_task_later(make: fn() -> AnyView) -> AnyView {
    let ready = ArcRwSignal::new(false);
    let set = ready.clone();
    leptos::task::spawn_local(async move {
        crate::client::browser::timer::yield_now().await;
        set.set(true);
    });
    (move || ready.get().then(make)).into_any()
}

// The MCP Apps host and the share dialog are in the panel chunk, not chunks of their own: each
// split point multiplies wasm-split's chunks (one per set of split points that reach a
// function), and their per-module cost lands on every path. Measured with `apps`, `share` and
// a `warmup` split point: 60 -> 183 modules, the first paint 186.7 -> 192.9 KB gzip, the embed
// view's 144.2 -> 150.6, the connect path unchanged, the panel 328.9 -> 266.5 once connected.
#[wasm_split(panel, fallible)]
fn apps_view(call: super::apps::AppCall) -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <super::apps::McpApp call/> }.into_any())
}

/// A tool's MCP App (from the panel chunk, fetched once a connected server's list is shown).
pub fn mcp_app(call: super::apps::AppCall) -> impl IntoView {
    Suspend::new(SendWrapper::new(async move {
        if !super::apps::host_loaded().await {
            let error = ChunkUnavailable;
            return view! { <p class="error" role="alert">{error.to_string()}</p> }.into_any();
        }
        apps_view(call).await.unwrap_or_else(|error| {
            view! { <p class="error" role="alert">{error.to_string()}</p> }.into_any()
        })
    }))
}

#[wasm_split(signin, fallible)]
fn session_settings_fields() -> Result<AnyView, ChunkUnavailable> {
    Ok(a_task_later(|| {
        view! { <super::connection::SettingsFields/> }.into_any()
    }))
}

#[wasm_split(session, fallible)]
fn session_url_target() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <super::connection::UrlTarget/> }.into_any())
}

#[wasm_split(session, fallible)]
fn session_embed_panels() -> Result<AnyView, ChunkUnavailable> {
    Ok(super::embed::embed_panels())
}

#[wasm_split(session, fallible)]
fn session_chat_tabs() -> Result<AnyView, ChunkUnavailable> {
    Ok(a_task_later(super::chat_tabs))
}

#[wasm_split(session, fallible)]
fn session_chat_area() -> Result<AnyView, ChunkUnavailable> {
    Ok(super::chat_area())
}

// The chat (issue 27) is a chunk of its own, fetched when the Chat tab is first opened or a
// sampling card's "Let the model answer" is first clicked: the connect path never carries it.
#[wasm_split(chat, fallible)]
fn chat_view() -> Result<AnyView, ChunkUnavailable> {
    reach_every_chunk();
    Ok(super::chat::chat_view())
}

#[wasm_split(chat, fallible)]
fn chat_model_answer() -> Result<AnyView, ChunkUnavailable> {
    Ok(super::chat::model_answer())
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
        super::session_panels,
        super::chat_tabs,
        super::chat_area,
        super::embed::embed_panels,
        wire_log_shell,
        || view! { <super::wire_log::WireLogPanel/> }.into_any(),
        || view! { <super::connection::SettingsFields/> }.into_any(),
        || view! { <super::connection::UrlTarget/> }.into_any(),
        || view! { <super::server_requests::ServerRequests/> }.into_any(),
        || view! { <super::tasks::TasksView/> }.into_any(),
        || {
            view! { <super::list_lifetime::ListLifetime kind=super::browse::Kind::Tools/> }
                .into_any()
        },
        || view! { <super::skills::SkillsView/> }.into_any(),
        || view! { {super::auth::sign_in_bar()} <super::auth::AuthView/> }.into_any(),
        || view! { <super::auth::SignInClient/> }.into_any(),
        || view! { <super::App/> }.into_any(),
        || view! { <super::embed::EmbedView/> }.into_any(),
        || view! { <super::import::ImportExportDialog dialog=Dialog::Import/> }.into_any(),
        || view! { <super::import::ImportExportDialog dialog=Dialog::Export/> }.into_any(),
    ];
    let started: fn(Servers) = |servers| {
        start_persisting();
        if super::auth::left_for_sign_in() {
            super::auth::resume_in_this_tab(servers);
        }
        super::warm_up(servers);
    };
    let connect: fn(Connection, Settings) = |connection, settings| {
        if let Ok((config, identity)) = super::connection::config_of(settings) {
            connection.connect_as(config, identity, settings.known_handshake);
        }
    };
    let embed_connect: fn(&str, TransportChoice) -> Result<_, String> =
        super::embed::checked_config;
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
    let panel: fn(super::browse::Kind, super::browse::Item, bool) -> AnyView =
        |kind, item, report| super::browse::panel::item_panel(kind, item, None, report);
    let warm_up_call: fn() = super::browse::panel::warm_up_call;
    let updated: fn(Connection, String) =
        |connection, uri| connection.memory.resource_updated(connection, &uri);
    let app: fn(super::apps::AppCall) -> AnyView =
        |call| view! { <super::apps::McpApp call/> }.into_any();
    type Sharing = RwSignal<Option<Option<super::browse::Kind>>>;
    let share: fn(Settings, Connection, Option<super::browse::Kind>, Sharing) -> AnyView =
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
        updated,
        app,
        share,
        a_task_later as fn(_) -> _,
    ));
}

/// The Chat tab's content, from the chat chunk.
#[component]
pub fn Chat() -> impl IntoView {
    loaded(|| Box::pin(chat_view()))
}

/// The sampling request in context (a `ServerRequest`, and its `Connection`) answered by the
/// chat's model, from the chat chunk. (Through `loaded`, like every lazy view: a future of its
/// own would add its own copy of the suspense code to the session chunk.)
#[component]
pub fn ModelAnswer() -> impl IntoView {
    loaded(|| Box::pin(chat_model_answer()))
}

/// The Server and Chat buttons (drawn once the session chunk is here).
#[component]
pub fn ChatTabs() -> impl IntoView {
    from_session(|| Box::pin(session_chat_tabs()))
}

/// The chat's place, drawn once opened.
#[component]
pub fn ChatArea() -> impl IntoView {
    from_session(|| Box::pin(session_chat_area()))
}

#[wasm_split(app, fallible)]
fn app_shell() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <super::App/> }.into_any())
}

#[wasm_split(embed, fallible)]
fn embed_shell() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <super::embed::EmbedView/> }.into_any())
}

#[wasm_split(panel, fallible)]
fn share_dialog(
    settings: Settings,
    connection: Connection,
    kind: Option<super::browse::Kind>,
    open: RwSignal<Option<Option<super::browse::Kind>>>,
) -> Result<AnyView, ChunkUnavailable> {
    let subject = super::share::Subject::of(settings, connection, kind);
    Ok(view! { <super::share::ShareDialog subject open/> }.into_any())
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

/// The share and embed dialog for the tab in view (`kind`), from the panel chunk: what it
/// shares (the selected item and its form's arguments) is read there.
#[component]
pub fn Share(
    settings: Settings,
    connection: Connection,
    kind: Option<super::browse::Kind>,
    open: RwSignal<Option<Option<super::browse::Kind>>>,
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
    Ok(view! { <super::import::ImportExportDialog dialog=Dialog::Import/> }.into_any())
}

#[wasm_split(import, fallible)]
fn export_dialog() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <super::import::ImportExportDialog dialog=Dialog::Export/> }.into_any())
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

/// Connects with a server entry's settings through the session chunk, which reads them.
pub fn connect_settings(
    connection: Connection,
    settings: Settings,
    input_error: RwSignal<Option<String>>,
) {
    connection.status.set(Status::Connecting);
    connection.error.set(None);
    leptos::task::spawn_local(async move {
        if let Err(error) = session_connect_settings(connection, settings, input_error).await {
            connection.error.set(Some(error.to_string()));
            connection.status.set(Status::Failed);
        }
    });
}

/// The embed view's connect to `url`, checked and made in the session chunk.
pub fn embed_connect(
    connection: Connection,
    url: String,
    transport: TransportChoice,
    input_error: RwSignal<Option<String>>,
    known_handshake: RwSignal<bool>,
) {
    connection.status.set(Status::Connecting);
    connection.error.set(None);
    leptos::task::spawn_local(async move {
        let connect =
            session_embed_connect(connection, url, transport, input_error, known_handshake);
        if let Err(error) = connect.await {
            connection.error.set(Some(error.to_string()));
            connection.status.set(Status::Failed);
        }
    });
}

// Signing in (the sign-in chunk): fetched when a server refuses for want of it, or when a
// connect asks for an authorization from the start (a sign-in client set up, tokens
// remembered, a sign-in kept from before); a server that never refuses never costs it.

#[wasm_split(signin, fallible)]
fn signin_connect(
    connection: Connection,
    config: crate::client::ClientConfig,
    identity: Identity,
    known_handshake: RwSignal<bool>,
) -> Result<(), ChunkUnavailable> {
    let config = super::auth::prepare(connection, config, identity, known_handshake);
    connection.connect_now(config, known_handshake);
    Ok(())
}

#[wasm_split(signin, fallible)]
fn signin_on_refusal(connection: Connection) -> Result<(), ChunkUnavailable> {
    super::auth::refused(connection);
    Ok(())
}

#[wasm_split(signin, fallible)]
fn signin_settled(connection: Connection) -> Result<(), ChunkUnavailable> {
    super::auth::after_connect(connection);
    Ok(())
}

#[wasm_split(signin, fallible)]
fn signin_drop(connection: Connection) -> Result<(), ChunkUnavailable> {
    super::auth::forget_connection(connection);
    Ok(())
}

#[wasm_split(signin, fallible)]
fn signin_come_back(servers: Servers) -> Result<(), ChunkUnavailable> {
    super::auth::resume_in_this_tab(servers);
    Ok(())
}

#[wasm_split(signin, fallible)]
fn signin_views() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { {super::auth::sign_in_bar()} <super::auth::AuthView/> }.into_any())
}

#[wasm_split(signin, fallible)]
fn signin_client_fields() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <super::auth::SignInClient/> }.into_any())
}

/// Connects through a sign-in made (or kept) for this server (see `Connection::connect_as`).
pub fn signin_prepare(
    connection: Connection,
    config: crate::client::ClientConfig,
    identity: Identity,
    known_handshake: RwSignal<bool>,
) {
    connection.status.set(Status::Connecting);
    leptos::task::spawn_local(async move {
        if let Err(error) = signin_connect(connection, config, identity, known_handshake).await {
            connection.error.set(Some(error.to_string()));
            connection.status.set(Status::Failed);
        }
    });
}

/// The server refused a session that has no authorization: one is made, and Sign in offered.
pub fn signin_refused(connection: Connection) {
    leptos::task::spawn_local(async move {
        if let Err(error) = signin_on_refusal(connection).await {
            connection.error.set(Some(error.to_string()));
        }
    });
}

/// A connect with an authorization settled: the sign-in state follows it.
pub fn signin_after_connect(connection: Connection) {
    leptos::task::spawn_local(async move {
        let _ = signin_settled(connection).await;
    });
}

/// The person gave a token of their own: the server's sign-in goes.
pub fn signin_forget(connection: Connection) {
    connection.signin.set_value(false);
    leptos::task::spawn_local(async move {
        let _ = signin_drop(connection).await;
    });
}

/// Finishes a sign-in this tab left for, in the sign-in chunk.
pub fn signin_resume(servers: Servers) {
    leptos::task::spawn_local(async move {
        let _ = signin_come_back(servers).await;
    });
}

/// The sign-in bar and the sign-in steps of the server in view: drawn (and their chunk fetched)
/// once the server has an authorization or a sign-in is offered.
#[component]
pub fn SignIn() -> impl IntoView {
    let connection = expect_context::<Connection>();
    // Drawn once it is needed, not anew at each change of the sign-in (a button under the
    // person's pointer must stay the same element).
    // (Reference-counted, not owned: this view may be drawn again after its owner went, when a
    // session chunk that could not be fetched comes on a later try.)
    let shown = ArcMemo::new(move |_| {
        connection.sign_in.with(|s| *s != super::SignIn::Idle) || connection.auth_log.get() > 0
    });
    move || shown.get().then(|| loaded(|| Box::pin(signin_views())))
}

/// The sign-in client fields of the settings (in the sign-in chunk, fetched with the settings).
#[component]
pub fn SignInClient() -> impl IntoView {
    loaded(|| Box::pin(signin_client_fields()))
}

// An item's panel (the panel chunk): its form, its action and the result. Fetched while a
// connected server's list is shown (`prefetch_panels`): the list never waits for it.

#[wasm_split(panel, fallible)]
fn panel_item(
    kind: super::browse::Kind,
    item: super::browse::Item,
    args: Option<serde_json::Map<String, serde_json::Value>>,
    report: bool,
) -> Result<AnyView, ChunkUnavailable> {
    Ok(super::browse::panel::item_panel(kind, item, args, report))
}

#[wasm_split(panel, fallible)]
fn panel_warm_up() -> Result<(), ChunkUnavailable> {
    super::browse::panel::warm_up_call();
    Ok(())
}

#[wasm_split(panel, fallible)]
fn panel_resource_updated(connection: Connection, uri: String) -> Result<(), ChunkUnavailable> {
    connection.memory.resource_updated(connection, &uri);
    Ok(())
}

/// Fetches the panels' chunk (once per page), and in idle time after it compiles a tool call
/// there (`browse::panel::warm_up_call`). Only after a frame: the list is painted before a byte
/// of the panels is asked for, so the connect path never carries them.
pub fn prefetch_panels() {
    leptos::task::spawn_local(async move {
        crate::client::browser::timer::after_paint().await;
        let _ = panel_warm_up().await;
    });
}

/// A subscribed resource changed: its panel reads it again (the panel chunk).
pub fn resource_updated(connection: Connection, uri: String) {
    leptos::task::spawn_local(async move {
        let _ = panel_resource_updated(connection, uri).await;
    });
}

/// An item's panel, from the panel chunk (`report`: the embed view tells its host page of
/// each result).
#[component]
pub fn ItemPanel(
    kind: super::browse::Kind,
    item: super::browse::Item,
    args: Option<serde_json::Map<String, serde_json::Value>>,
    embed: bool,
) -> impl IntoView {
    // `loaded` takes no arguments: they wait in a cell for the chunk.
    let given = StoredValue::new_local(Some((kind, item, args)));
    Suspend::new(SendWrapper::new(async move {
        let Some((kind, item, args)) = given.try_update_value(Option::take).flatten() else {
            return ().into_any();
        };
        panel_item(kind, item, args, embed)
            .await
            .unwrap_or_else(|error| {
                view! { <p class="error" role="alert">{error.to_string()}</p> }.into_any()
            })
    }))
}

/// Disconnects through the session chunk (there is a session only if it is here).
pub fn disconnect(connection: Connection) {
    leptos::task::spawn_local(async move {
        if let Err(error) = session_disconnect(connection).await {
            connection.error.set(Some(error.to_string()));
        }
    });
}

/// A loader for a view whose code is already here: `make`'s view at once.
pub fn now(make: fn() -> AnyView) -> ViewFuture {
    Box::pin(async move { Ok(make()) })
}

type ViewFuture =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<AnyView, ChunkUnavailable>>>>;

pub type ViewLoader = fn() -> ViewFuture;

/// When a lazy view is drawn.
#[derive(Clone, Copy)]
enum When {
    /// Once the session chunk is here (or a connect asks for it).
    Session,
    /// A task after the full app's chunk was instantiated ([`after_frame`]).
    Started,
    /// A task after the servers were made ([`after_frame`]).
    Listed,
    /// A task after the sidebar's entries ([`after_frame`]).
    Framed,
    /// Once the first paint is behind.
    Painted,
}

/// A lazy view: nothing until `when`, then the view, or the reason it could not come. (One
/// closure type for every such view: each would add its own copy of the view code.)
fn drawn(when: When, load: ViewLoader) -> impl IntoView {
    let chunk = expect_context::<SessionChunk>();
    let connection = use_context::<Connection>();
    let wanted = move || match when {
        When::Started => chunk.started.get(),
        When::Listed => chunk.listed.get(),
        When::Framed => chunk.framed.get(),
        When::Painted => chunk.painted.get(),
        When::Session => {
            chunk.loaded.get() || connection.is_some_and(|c| c.status.get() != Status::Disconnected)
        }
    };
    move || wanted().then(|| loaded(load))
}

/// A view from the session chunk: nothing until the chunk is here (or a connect asks for it),
/// then the view, or the reason it could not come.
fn from_session(load: ViewLoader) -> impl IntoView {
    drawn(When::Session, load)
}

/// The full app's frame, drawn in the task after the one that instantiated its chunk
/// ([`after_frame`]).
#[component]
pub fn AfterStart(load: ViewLoader) -> impl IntoView {
    drawn(When::Started, load)
}

/// The sidebar's entries, drawn in the task after the servers are made ([`after_frame`]) and
/// before the connection form: in the one-column layout of a narrow window the sidebar is above
/// the form, and entries drawn after it moved Connect under the person's pointer.
#[component]
pub fn AfterServers(load: ViewLoader) -> impl IntoView {
    drawn(When::Listed, load)
}

/// The part of the full app's first screen drawn in the task after the sidebar's entries
/// ([`after_frame`]): the connection form. With V8 compiling each function at its first call,
/// the frame and the form in one task were a long task (over 50 ms) on a busy machine.
#[component]
pub fn AfterFrame(load: ViewLoader) -> impl IntoView {
    drawn(When::Framed, load)
}

/// A part of the full app's first screen that Connect does not need (the connection's lesser
/// fields, below it), drawn in the task after the first contentful paint, the one that
/// starts fetching the session chunk ([`preload_after_paint`]); at once once that paint is
/// behind (another server selected). The tasks before the first paint draw only the frame, the
/// sidebar's entries and the connection form: with V8 compiling each function at its first call, the whole first
/// screen in one task was a long task (over 50 ms) on a busy machine.
#[component]
pub fn AfterPaint(load: ViewLoader) -> impl IntoView {
    drawn(When::Painted, load)
}

/// The view `load` gives, once its chunk is here, or the reason it could not come. (One
/// `Suspend` type for every lazy view: each new future type would add its own copy of the
/// suspense code to the main module.)
fn loaded(load: ViewLoader) -> Suspend<AnyView> {
    Suspend::new(SendWrapper::new(async move {
        load().await.unwrap_or_else(|error| {
            view! { <p class="error" role="alert">{error.to_string()}</p> }.into_any()
        })
    }))
}

/// The panels of a connected server (drawn once the chunk is here; a connect brings it).
#[component]
pub fn SessionPanels() -> impl IntoView {
    from_session(|| Box::pin(session_panels()))
}

/// What the embed view shows of a session (drawn once the chunk is here).
#[component]
pub fn EmbedPanels() -> impl IntoView {
    from_session(|| Box::pin(session_embed_panels()))
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
