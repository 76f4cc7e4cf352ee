//! The MCP client of mcp-lens: one session with one server over Streamable HTTP or the
//! legacy HTTP+SSE transport, through the browser's `fetch`, in either protocol era.
//!
//! Correlation and timeouts live here, above the transports (as in the TypeScript SDK's
//! `Protocol`): every request gets an id and a waiter in the pending table; whatever stream an
//! answer arrives on, it is matched by id. Server-to-client requests are answered here too.
//!
//! Modules by job, from the bottom up: [`runtime`] (what the client needs from the world:
//! HTTP, clock, spawning, randomness, signing) and [`browser`] (the page's); `events` (the
//! public data); [`config`]; [`auth`] (MCP authorization, and the layer that puts its token on
//! requests) and `wire` (the wire log, a layer too); `transport` (Streamable HTTP and legacy
//! HTTP+SSE: they own the session id, where messages go and their streams); `state` (what a
//! session remembers, one struct per job); `client` (the [`McpClient`] handle); then what it
//! does: `session` (connect, transport choice, era, renewal, disconnect), `engine` (requests:
//! deadlines, `input_required` rounds, replay after renewal, cancellation), `incoming`
//! (everything the server sends), `server_requests` (answering the server), `lists`,
//! `streams` (the long-lived streams), `api` and `tasks` (the typed calls). [`manager`] holds
//! many sessions by id.
//!
//! Architecture invariant: no UI framework here (no Leptos); the rules are data in
//! [`mcp_lens_protocol`] (re-exported as [`protocol`]). All I/O goes through a
//! [`runtime::Runtime`] (HTTP, clock, spawning); [`browser`] is the page's, so the logic runs
//! natively in tests over a scripted HTTP fake (`tests/client/`, `tests/auth/`).
//!
//! ```no_run
//! # async fn run() -> Result<(), mcp_lens_client::protocol::error::McpError> {
//! use mcp_lens_client::{ClientConfig, McpClient};
//! let config = ClientConfig::new("http://127.0.0.1:3001/mcp".to_owned());
//! let (client, state) = McpClient::connect(config, |event| { let _ = event; }).await?;
//! let tools = state.tools.and_then(Result::ok).unwrap_or_default();
//! println!("{} tools", tools.len());
//! let (_id, call) = client.call_tool("echo", serde_json::Map::from_iter([
//!     ("message".to_owned(), serde_json::json!("hi")),
//! ]));
//! let result = call.await?;
//! println!("{:?}", result.content);
//! client.disconnect().await?;
//! # Ok(()) }
//! ```

pub use mcp_lens_protocol as protocol;

mod api;
pub mod auth;
pub mod browser;
mod client;
pub mod config;
mod engine;
mod events;
mod incoming;
mod lists;
pub mod manager;
pub mod mcp_config;
pub mod runtime;
pub mod saved;
mod server_requests;
mod session;
mod skills;
mod state;
mod streams;
mod task_extension;
mod tasks;
mod transport;
pub mod warm_up;
mod wire;

pub use client::McpClient;
pub use config::ClientConfig;
pub use events::{ClientEvent, Cursors, ListKind, ListPage, ListUpdate, Progress, ServerState};
pub use skills::SkillFileRead;
pub use task_extension::ToolAnswer;
