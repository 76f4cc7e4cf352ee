//! Split points. What the first paint does not need (the MCP client with its protocol types,
//! every panel of a connected server, the schema forms, the wire log) lives in a wasm chunk of
//! its own (and the mcp.json import and export dialogs in another, `import`, fetched when one
//! is opened; the MCP Apps host is in the session chunk, see `apps_view`), cut out of the main module after cargo by wasm-split (`scripts/wasm-split.sh`). The
//! chunk is fetched in the background right after the first paint ([`preload_after_paint`]),
//! or at once when something needs it sooner (a click on Connect).
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

use super::servers::{Dialog, Servers};
use super::{Connection, Identity, Status};
use crate::client::ClientConfig;
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
        super::auth::resume_in_this_tab(servers);
        // The full app's connect path, compiled in idle time before the first connect.
        super::warm_up(servers);
    }
    Ok(())
}

#[wasm_split(session, fallible)]
fn session_connect(
    connection: Connection,
    config: ClientConfig,
    known_handshake: RwSignal<bool>,
    identity: Identity,
) -> Result<(), ChunkUnavailable> {
    start_persisting();
    let config = super::auth::prepare(connection, config, identity, known_handshake);
    connection.connect_now(config, known_handshake);
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
    Ok(a_task_later(|| {
        view! { <super::wire_log::WireLogPanel/> }.into_any()
    }))
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

// The MCP Apps host is in the session chunk, not a chunk of its own: with the app and embed
// shells split, one more split point broke the code they share into more chunks and cost
// the first paint about 8 KB gzip (measured: 207.6 KB against 199.3 KB); in the session chunk
// it is still never part of the first paint.
#[wasm_split(session, fallible)]
fn apps_view(call: super::apps::AppCall) -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <super::apps::McpApp call/> }.into_any())
}

/// A tool's MCP App (from the session chunk, which a connected server's panels come from).
pub fn mcp_app(call: super::apps::AppCall) -> impl IntoView {
    Suspend::new(SendWrapper::new(async move {
        apps_view(call).await.unwrap_or_else(|error| {
            view! { <p class="error" role="alert">{error.to_string()}</p> }.into_any()
        })
    }))
}

#[wasm_split(session, fallible)]
fn session_chat_tabs() -> Result<AnyView, ChunkUnavailable> {
    Ok(a_task_later(super::chat_tabs))
}

#[wasm_split(session, fallible)]
fn session_chat_area() -> Result<AnyView, ChunkUnavailable> {
    Ok(super::chat_area())
}

#[wasm_split(session, fallible)]
fn session_settings_fields() -> Result<AnyView, ChunkUnavailable> {
    Ok(a_task_later(|| {
        view! { <super::connection::SettingsFields/> }.into_any()
    }))
}

#[wasm_split(session, fallible)]
fn session_embed_panels() -> Result<AnyView, ChunkUnavailable> {
    Ok(super::embed::embed_panels())
}

#[wasm_split(app, fallible)]
fn app_shell() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <super::App/> }.into_any())
}

#[wasm_split(embed, fallible)]
fn embed_shell() -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <super::embed::EmbedView/> }.into_any())
}

#[wasm_split(session, fallible)]
fn share_dialog(
    subject: super::share::Subject,
    open: RwSignal<Option<super::share::Subject>>,
) -> Result<AnyView, ChunkUnavailable> {
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

/// The share and embed dialog, from the session chunk (a chunk of its own made the full app's
/// first paint larger: every extra split point adds chunks of code shared with the others).
#[component]
pub fn Share(
    subject: super::share::Subject,
    open: RwSignal<Option<super::share::Subject>>,
) -> impl IntoView {
    // `loaded` takes no arguments: the subject waits in a cell for the chunk.
    let subject = StoredValue::new(Some(subject));
    Suspend::new(SendWrapper::new(async move {
        let Some(subject) = subject.try_update_value(Option::take).flatten() else {
            return ().into_any();
        };
        share_dialog(subject, open).await.unwrap_or_else(|error| {
            view! { <p class="error" role="alert">{error.to_string()}</p> }.into_any()
        })
    }))
}

// The chat (issue 27) is a chunk of its own, fetched when the Chat tab is first opened or a
// sampling card's "Let the model answer" is first clicked: the connect path never carries it.
#[wasm_split(chat, fallible)]
fn chat_view() -> Result<AnyView, ChunkUnavailable> {
    reach_every_chunk();
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
    let views: [fn() -> AnyView; 10] = [
        super::session_panels,
        super::chat_tabs,
        super::chat_area,
        super::embed::embed_panels,
        || view! { <super::wire_log::WireLogPanel/> }.into_any(),
        || view! { <super::connection::SettingsFields/> }.into_any(),
        || view! { <super::App/> }.into_any(),
        || view! { <super::embed::EmbedView/> }.into_any(),
        || view! { <super::import::ImportExportDialog dialog=Dialog::Import/> }.into_any(),
        || view! { <super::import::ImportExportDialog dialog=Dialog::Export/> }.into_any(),
    ];
    let started: fn(Servers) = |servers| {
        start_persisting();
        super::auth::resume_in_this_tab(servers);
        super::warm_up(servers);
    };
    let connect: fn(Connection, ClientConfig, RwSignal<bool>, Identity) =
        |connection, config, known_handshake, identity| {
            let config = super::auth::prepare(connection, config, identity, known_handshake);
            connection.connect_now(config, known_handshake);
        };
    let disconnect: fn(Connection) = Connection::disconnect_now;
    let app: fn(super::apps::AppCall) -> AnyView =
        |call| view! { <super::apps::McpApp call/> }.into_any();
    let share: fn(super::share::Subject, RwSignal<Option<super::share::Subject>>) -> AnyView =
        |subject, open| view! { <super::share::ShareDialog subject open/> }.into_any();
    black_box((
        views,
        started,
        connect,
        disconnect,
        app,
        share,
        a_task_later as fn(_) -> _,
    ));
}

#[wasm_split(chat, fallible)]
fn chat_model_answer() -> Result<AnyView, ChunkUnavailable> {
    Ok(super::chat::model_answer())
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

/// Connects through the session chunk, fetching it first if it is not here yet.
pub fn connect(
    connection: Connection,
    config: ClientConfig,
    known_handshake: RwSignal<bool>,
    identity: Identity,
) {
    connection.status.set(Status::Connecting);
    connection.error.set(None);
    leptos::task::spawn_local(async move {
        if let Err(error) = session_connect(connection, config, known_handshake, identity).await {
            connection.error.set(Some(error.to_string()));
            connection.status.set(Status::Failed);
        }
    });
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
    from_session(|| Box::pin(session_settings_fields()))
}

/// The wire log (drawn once the chunk is here).
#[component]
pub fn WireLog() -> impl IntoView {
    from_session(|| Box::pin(session_wire_log()))
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
