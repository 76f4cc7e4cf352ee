//! What every split point's caller shares: a chunk that could not come ([`ChunkUnavailable`]),
//! when a lazy view is drawn (after which step of the first screen, or once the session chunk
//! is here: [`SessionChunk`]), and drawing one ([`loaded`]). Names no chunk.

use crate::ui::store::{Connection, Status};
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_split_helpers::SplitLoaderError;

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

/// `make`'s view, drawn in a task after the one that asks for it. The closed wire log and
/// settings are drawn with the session chunk, which a click on Connect may be waiting for:
/// drawn a task later, they do not lengthen the task that sends the first request (nor, in
/// the page's first use of their code, wait for it to compile there).
/// (The flag is reference-counted, not owned: it is made where the chunk's future runs, whose
/// owner may be gone before the view that reads it.)
pub(in crate::ui) fn a_task_later(make: fn() -> AnyView) -> AnyView {
    let ready = ArcRwSignal::new(false);
    let set = ready.clone();
    leptos::task::spawn_local(async move {
        crate::client::browser::timer::yield_now().await;
        set.set(true);
    });
    (move || ready.get().then(make)).into_any()
}

/// A loader for a view whose code is already here: `make`'s view at once.
pub fn now(make: fn() -> AnyView) -> ViewFuture {
    Box::pin(async move { Ok(make()) })
}

pub type ViewFuture =
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
            chunk.loaded.get()
                || connection.is_some_and(|c| c.status().get() != Status::Disconnected)
        }
    };
    move || wanted().then(|| loaded(load))
}

/// A view from the session chunk: nothing until the chunk is here (or a connect asks for it),
/// then the view, or the reason it could not come.
pub(in crate::ui) fn from_session(load: ViewLoader) -> impl IntoView {
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
pub(in crate::ui) fn loaded(load: ViewLoader) -> Suspend<AnyView> {
    Suspend::new(SendWrapper::new(async move {
        load().await.unwrap_or_else(|error| {
            view! { <p class="error" role="alert">{error.to_string()}</p> }.into_any()
        })
    }))
}
