//! The session chunk's views and its first use: fetched right after the first paint (or at
//! once by Connect), then a `&connect` link connected, a sign-in this tab left for finished and
//! the connect path warmed up; the connected server's panels, the embed view's, the Server and
//! Chat buttons.

use super::connect::{keep_page_servers, start_persisting};
use super::load::{a_task_later, from_session, ChunkUnavailable, SessionChunk};
use super::signin::signin_resume;
use crate::ui::servers::Servers;
use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

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
        keep_page_servers(servers);
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

#[wasm_split(session, fallible)]
fn session_started(servers: Option<Servers>) -> Result<(), ChunkUnavailable> {
    start_persisting();
    if let Some(servers) = servers {
        if let Some(entry) = servers.current_untracked() {
            crate::ui::connection::connect_if_linked(entry.settings, entry.connection);
        }
        // A sign-in this tab left for (pop-ups blocked) comes back here.
        if crate::ui::auth::left_for_sign_in() {
            signin_resume(servers);
        }
        // The full app's connect path, compiled in idle time before the first connect.
        crate::ui::warm_up_page::warm_up(servers);
    }
    Ok(())
}

#[wasm_split(session, fallible)]
fn session_panels() -> Result<AnyView, ChunkUnavailable> {
    Ok(crate::ui::panels::session_panels())
}

#[wasm_split(session, fallible)]
fn session_embed_panels() -> Result<AnyView, ChunkUnavailable> {
    Ok(crate::ui::embed_panels::embed_panels())
}

#[wasm_split(session, fallible)]
fn session_chat_tabs() -> Result<AnyView, ChunkUnavailable> {
    Ok(a_task_later(crate::ui::chat_toggle::chat_tabs))
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

/// The Server and Chat buttons (drawn once the session chunk is here).
#[component]
pub fn ChatTabs() -> impl IntoView {
    from_session(|| Box::pin(session_chat_tabs()))
}
