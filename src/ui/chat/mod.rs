//! The chat (issue 27): a language model using the connected servers' tools, in the page, with
//! no backend. Everything below the view is the `mcp-lens-chat` crate (tool sets per dialect,
//! the conversation loop, streamed answers, sampling); this module wires it to the page:
//!
//! - [`runner`]: tool calls through the app's one MCP manager (progress, cancel on stop,
//!   tasks), [`approver`]: the person's yes or no per call, [`model_http`]: the page's `fetch`
//!   for model requests, each logged in the wire log (`via` "model", keys redacted);
//!   [`in_page`]: the provider "In this page" (llama.cpp in wasm, fetched only when picked);
//! - [`state`]: the page's chat (lanes of one provider each, the servers chosen, settings),
//!   [`lane`]: one lane's runs and what their events change;
//! - the views, one component per file.
//!
//! All of it is in the wasm chunk `chat` (`lazy.rs`), fetched when the chat is first opened or
//! a sampling card's "Let the model answer" is first clicked: the connect path never carries it.
//!
//! Invariants: model and server text is rendered as text, never as HTML (a model's Markdown is
//! shown as written); a provider key lives in a signal of this page and, when the person asks,
//! in this tab's sessionStorage; it goes only into the headers of a request to its provider's
//! origin (the chat crate's rule) and never into the wire log, an export, a link, localStorage
//! or the console.

mod approver;
mod composer;
mod context;
mod in_page;
mod lane;
mod lane_view;
mod message;
mod model_http;
mod provider_form;
mod runner;
mod sampling;
mod servers_pick;
mod settings;
mod state;
mod tool_call;
mod transcript;
mod view;

use super::store::{Connection, ServerRequest};
use leptos::prelude::*;

/// The chat, for the Chat tab (in the chat chunk).
pub fn chat_view() -> AnyView {
    view! { <view::ChatView/> }.into_any()
}

/// The sampling request in context answered by the chat's model, for the server's sampling
/// card (in the chat chunk).
pub fn model_answer() -> AnyView {
    match (use_context::<ServerRequest>(), use_context::<Connection>()) {
        (Some(request), Some(connection)) => {
            view! { <sampling::ModelAnswer request connection/> }.into_any()
        }
        _ => ().into_any(),
    }
}
