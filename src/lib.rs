//! mcp-lens: an MCP inspector whose whole client runs in the browser page.
//!
//! Layers, lowest first; a layer never imports one above it (see ARCHITECTURE.md):
//! `protocol` (pure) -> `transport` (browser I/O) -> `client` (sessions) -> `schema` (pure,
//! independent) -> `ui` (Leptos components).

pub mod protocol;

pub fn mount() {}
