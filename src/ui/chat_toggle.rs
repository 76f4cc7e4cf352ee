//! The Server and Chat buttons in the top bar and the chat's place under them (session chunk):
//! which of the two is shown, and the chat drawn once first opened.

use super::lazy::load::{loaded, ViewLoader};
use super::servers::Servers;
use leptos::prelude::*;

thread_local! {
    /// Whether the chat is shown instead of the selected server's view, and whether it was
    /// ever opened (then it stays drawn, so a run goes on behind the server's view).
    static CHAT_SHOWN: std::cell::Cell<Option<(RwSignal<bool>, RwSignal<bool>)>> =
        const { std::cell::Cell::new(None) };
}

/// [`CHAT_SHOWN`], made at its first use under the app's owner.
fn chat_shown() -> (RwSignal<bool>, RwSignal<bool>) {
    if let Some(shown) = CHAT_SHOWN.with(std::cell::Cell::get) {
        return shown;
    }
    let owner = use_context::<Servers>()
        .map(|servers| servers.owner.get_value())
        .unwrap_or_default();
    let shown = owner.with(|| (RwSignal::new(false), RwSignal::new(false)));
    CHAT_SHOWN.with(|cell| cell.set(Some(shown)));
    shown
}

/// The Server and Chat buttons in the top bar, from the session chunk (the first paint does not
/// carry them; as links they fit the bar's height, so nothing moves when they appear). While
/// the chat is shown, `<body data-view="chat">` and the chat's stylesheet hide `#server-view`.
pub(super) fn chat_tabs() -> AnyView {
    let (shown, opened) = chat_shown();
    Effect::new(move |_| {
        let chat = shown.get();
        if let Some(body) = document().body() {
            let _ = match chat {
                true => body.set_attribute("data-view", "chat"),
                false => body.remove_attribute("data-view"),
            };
        }
    });
    view! {
        <nav class="views" aria-label="View">
            <button id="tab-server" class="link" aria-pressed=move || (!shown.get()).to_string()
                on:click=move |_| shown.set(false)>"Server"</button>
            <button id="tab-chat" class="link" aria-pressed=move || shown.get().to_string()
                on:click=move |_| { opened.set(true); shown.set(true); }>"Chat"</button>
        </nav>
    }
    .into_any()
}

/// The chat, once opened (from its own chunk, through `chat`), in `<main>` above the server's
/// view.
pub(super) fn chat_area(chat: ViewLoader) -> AnyView {
    let (shown, opened) = chat_shown();
    (move || {
        opened.get().then(|| {
            view! { <div id="chat" hidden=move || !shown.get()>{loaded(chat)}</div> }
        })
    })
    .into_any()
}
