//! What the embed view shows of a session (session chunk, `lazy::session::EmbedPanels`): the
//! linked tool, prompt or resource alone, or the full app's tabs; and the widget's question
//! before its first call.

use super::browse::model::{EmbedAsk, EmbedCall};
use super::browse::Focused;
use super::lazy::views::ServerRequests;
use super::panels::session_panels;
use super::store::use_connection;
use crate::client::config::check_server_url;
use leptos::prelude::*;

/// What the embed view shows of a session (session chunk): the linked tool, prompt or
/// resource alone, or, with none linked, the full app's tabs.
pub fn embed_panels() -> AnyView {
    let connection = use_connection();
    let question = use_context::<EmbedAsk>().map(embed_question);
    match connection.linked() {
        None => view! { {question} {session_panels()} }.into_any(),
        Some((target, args)) => view! {
            {question}
            <Show when=move || connection.server().with(Option::is_some)>
                <Focused target=target.clone() args=args.clone()/>
            </Show>
            <ServerRequests/>
        }
        .into_any(),
    }
}

/// The widget's question before its first call: the server's origin, what would run and its
/// arguments, above the panel (its "Run it" is not where Run is).
fn embed_question(ask: EmbedAsk) -> impl IntoView {
    let origin = check_server_url(&ask.url.get_value())
        .map(|address| address.origin())
        .unwrap_or_default();
    move || {
        ask.asking.get().map(|EmbedCall { what, arguments, button }| {
            let origin = origin.clone();
            let run = move |_| {
                ask.confirmed.set(true);
                ask.asking.set(None);
                click(button);
            };
            // The question takes the focus (read out, and a keyboard is one Tab from its
            // buttons); "Run it" is not where Run was, so one caught click cannot say yes.
            let dialog = NodeRef::<leptos::html::Div>::new();
            Effect::new(move |_| {
                if let Some(dialog) = dialog.get() {
                    let _ = dialog.focus();
                }
            });
            view! {
                <div id="embed-ask" class="embed-ask" role="alertdialog" aria-labelledby="embed-ask-what"
                    tabindex="-1" node_ref=dialog>
                    <p id="embed-ask-what">
                        {format!("This page asks to run {what} on {origin} with these arguments:")}
                    </p>
                    <pre class="embed-ask-arguments">{arguments}</pre>
                    <div class="embed-ask-buttons">
                        <button id="embed-ask-cancel" type="button" class="secondary" on:click=move |_| ask.asking.set(None)>"Cancel"</button>
                        <button id="embed-ask-run" type="button" on:click=run>"Run it"</button>
                    </div>
                </div>
            }
        })
    }
}

/// Clicks the element with this id (the panel's own button, once the person said yes).
fn click(id: &str) {
    use wasm_bindgen::JsCast;
    if let Some(button) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        button.click();
    }
}
