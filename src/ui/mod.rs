//! Leptos components. No protocol logic here: every session is one server of the client
//! library's `Manager` (connect, disconnect, its events and wire lines through the manager's
//! handlers, its calls through the client the manager holds), and components render what
//! it returns. Server-supplied text is only ever rendered as text (never `inner_html`).
//!
//! The files import downward only: this file declares them and draws the root; `lazy.rs` and
//! `lazy/` hold the split points; views import the store (`store.rs`, one per connection) and
//! the split points of what they draw; nothing imports its parent. A view that draws what is
//! above it (the chat's place in the frame, a sampling card's model answer) is handed it.

mod address;
mod app;
mod apps;
mod auth;
mod browse;
mod chat;
mod chat_toggle;
mod config;
mod connection;
mod content;
mod embed;
mod embed_host;
mod embed_panels;
mod events;
mod form;
mod import;
mod lazy;
mod list_lifetime;
mod live_apps;
mod panels;
mod server_info;
mod server_requests;
mod servers;
mod settings_fields;
mod share;
mod sidebar;
mod skills;
mod storage;
mod store;
mod task_rows;
mod tasks;
mod theme;
mod warm_up;
mod warm_up_page;
mod wire_log;

use leptos::prelude::*;

/// The page: the embed view when its address asks for it (`?embed`), else the full app. Each
/// is a chunk of its own ([`lazy::Shell`]), so neither pays for the other's code at first paint.
#[component]
pub fn Root() -> impl IntoView {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let embed = address::is_embed(&search);
    // A static host sends no `frame-ancestors` for us: the full app refuses to run in a frame
    // itself, since a page could hide it and catch the clicks that connect and run a tool.
    // Only the embed view (which asks before it runs anything) may be framed.
    if !embed && framed() {
        let here = web_sys::window()
            .and_then(|w| w.location().href().ok())
            .unwrap_or_default();
        return view! {
            <p id="framed-refusal" class="error" role="alert">
                "mcp-lens does not run inside another page's frame, where that page could hide it and catch your clicks. "
                <a href=here target="_blank" rel="noopener noreferrer">"Open mcp-lens in its own tab"</a>
                ", or embed the widget view (?embed) instead."
            </p>
        }
        .into_any();
    }
    view! { <lazy::Shell embed/> }.into_any()
}

/// Whether this page is inside a frame (of any origin).
fn framed() -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    match window.top() {
        Ok(Some(top)) => !js_sys::Object::is(&top, &window),
        // A top the page may not even name is another one.
        _ => true,
    }
}
