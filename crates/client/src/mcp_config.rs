//! `mcp.json` import and export: the server lists people already have, read into sidebar
//! entries and written back. Pure (no browser API), so the formats are tested natively.
//!
//! Read: Claude Desktop / Cursor / Claude Code (`mcpServers`), VS Code (`servers`, also inside a
//! settings file's `mcp` object) and the official MCP Inspector's `--config` file (`mcpServers`
//! with `type: "stdio" | "sse" | "streamable-http"`). Remote servers become [`RemoteServer`]s;
//! their header values and bearer token are for memory only (the caller must never store them).
//! `command` servers cannot run in a browser page: they become [`StdioServer`]s with a ready
//! command that serves them over Streamable HTTP with CORS through supergateway.
//!
//! ```
//! use mcp_lens_client::mcp_config::{export, parse, ExportServer, Format};
//! let text = r#"{"mcpServers": {"docs": {"url": "https://docs.example/mcp"}}}"#;
//! let imported = parse(text).unwrap();
//! assert_eq!(imported.remote[0].name, "docs");
//! let back = export(Format::Vscode, &[ExportServer {
//!     name: "docs".into(), url: "https://docs.example/mcp".into(),
//!     transport: "auto".into(), header_names: vec![] }]);
//! assert!(back.contains(r#""type": "http""#));
//! ```

mod bridge;
mod export;
mod import;
mod text;

pub use bridge::{bridge_command, BRIDGE_PORT};
pub use export::{export, ExportServer, Format};
pub use import::{
    parse, ConfigError, Imported, RemoteServer, Skipped, StdioServer, MAX_ENTRIES, MAX_FILE_BYTES,
};

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
