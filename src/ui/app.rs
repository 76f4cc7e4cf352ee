//! The full app's frame (in the app chunk): the top bar, the sidebar's place, the chat's and the
//! selected server's, each drawn in a task of its own (`lazy::load`'s steps), and the wire log.

use super::connection::ConnectionBar;
use super::lazy::load::{now, AfterFrame, AfterServers, AfterStart, SessionChunk};
use super::lazy::session::{after_frame, ChatTabs, SessionPanels};
use super::lazy::views::WireLog;
use super::servers::{ServerEntry, Servers};
use super::sidebar::Sidebar;
use super::theme::ThemeChoice;
use leptos::prelude::*;

/// The chat's place in the frame (`lazy::ChatArea`), handed to [`App`]: the chat's chunk
/// reaches the whole app, so its split point is above the app.
#[derive(Clone, Copy)]
struct ChatPlace(fn() -> AnyView);

/// The full app (in the app chunk, `lazy::Shell`), handed the chat's place (`lazy::ChatArea`,
/// whose chunk reaches the whole app and so is above it).
#[component]
pub fn App(chat_area: fn() -> AnyView) -> impl IntoView {
    provide_context(ChatPlace(chat_area));
    let chunk = SessionChunk::new();
    provide_context(chunk);
    // This task instantiated the app chunk; the next one draws the frame (the theme applied
    // before anything is painted); the next the servers are made (and provided); the next
    // draws the sidebar's entries; the next the connection form; the task after the first
    // paint the connection's lesser fields, and it fetches the session chunk.
    after_frame(chunk, Owner::current().unwrap_or_default());
    view! { <AfterStart load=|| now(frame)/> }
}

/// The full app's frame: the top bar, the sidebar's place and the selected server's (or the
/// chat's, `chat_toggle.rs`).
fn frame() -> AnyView {
    let chat_area = expect_context::<ChatPlace>().0();
    view! {
        <header class="topbar"><h1>"mcp-lens"</h1><ChatTabs/><ThemeChoice/></header>
        <div class="layout">
            // The sidebar's entries come before the connection form: in the one-column layout
            // (narrow windows) the sidebar is above the form, and entries drawn after it moved
            // Connect down under the person's pointer.
            <aside id="servers" class="sidebar">
                <AfterServers load=|| now(|| view! { <Sidebar/> }.into_any())/>
            </aside>
            <main>
                {chat_area}
                <div id="server-view">
                    <AfterFrame load=|| now(selected_server)/>
                </div>
                <WireLog/>
            </main>
        </div>
    }
    .into_any()
}

/// The selected server's view, redrawn when another is selected.
fn selected_server() -> AnyView {
    let servers = expect_context::<Servers>();
    (move || servers.current().map(|entry| view! { <ServerView entry/> })).into_any()
}

/// Everything about the selected server. Re-created when another server is selected; the
/// connection itself lives on in the server's entry.
#[component]
fn ServerView(entry: ServerEntry) -> impl IntoView {
    let connection = entry.connection;
    provide_context(connection);
    provide_context(entry.settings);
    view! {
        <ConnectionBar/>
        <SessionPanels/>
    }
}
