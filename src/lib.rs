//! mcp-lens: an MCP inspector whose whole client runs in the browser page.
//!
//! Layers, lowest first; a layer never imports one above it (see ARCHITECTURE.md), and the
//! lower layers are crates of their own so the compiler keeps it that way:
//! `mcp-lens-protocol` (pure) -> `mcp-lens-client` (browser I/O and sessions; no UI
//! framework) ; `mcp-lens-schema` (pure, independent) ; this crate: `ui` (Leptos components).

pub use mcp_lens_client as client;
pub use mcp_lens_protocol as protocol;
pub use mcp_lens_schema as schema;
pub mod ui;

/// Installs the panic banner and mounts the app on `<body>`.
pub fn mount() {
    install_panic_banner();
    leptos::mount::mount_to_body(ui::Root);
}

/// A panic in wasm ends the app; rather than leave a frozen page, say so visibly.
/// Any panic is a bug: server input must never cause one.
fn install_panic_banner() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        web_sys::console::error_1(&message.as_str().into());
        let banner = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("panic-banner"));
        if let Some(banner) = banner {
            banner.set_text_content(Some(&format!(
                "mcp-lens stopped because of a bug ({message}). Reload the page to continue, and please report this."
            )));
            let _ = banner.remove_attribute("hidden");
        }
    }));
}
