//! The MCP Apps host's split point (panel chunk): a tool's app, drawn beside its result by the
//! item panel and by the chat's tool calls.

use super::load::ChunkUnavailable;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_split_helpers::wasm_split;

// The MCP Apps host and the share dialog are in the panel chunk, not chunks of their own: each
// split point multiplies wasm-split's chunks (one per set of split points that reach a
// function), and their per-module cost lands on every path. Measured with `apps`, `share` and
// a `warmup` split point: 60 -> 183 modules, the first paint 186.7 -> 192.9 KB gzip, the embed
// view's 144.2 -> 150.6, the connect path unchanged, the panel 328.9 -> 266.5 once connected.
#[wasm_split(panel, fallible)]
fn apps_view(call: crate::ui::apps::AppCall) -> Result<AnyView, ChunkUnavailable> {
    Ok(view! { <crate::ui::apps::McpApp call/> }.into_any())
}

/// A tool's MCP App (from the panel chunk, fetched once a connected server's list is shown).
pub fn mcp_app(call: crate::ui::apps::AppCall) -> impl IntoView {
    Suspend::new(SendWrapper::new(async move {
        if !crate::ui::apps::host_loaded().await {
            let error = ChunkUnavailable;
            return view! { <p class="error" role="alert">{error.to_string()}</p> }.into_any();
        }
        apps_view(call).await.unwrap_or_else(|error| {
            view! { <p class="error" role="alert">{error.to_string()}</p> }.into_any()
        })
    }))
}
