//! The chat of mcp-lens below the UI: a language model using MCP servers' tools, run in the
//! browser page with no backend (the seed's `MCPClientManager.getToolsForAiSdk` and its chat
//! loop, in Rust).
//!
//! - [`tools`]: the tools a model sees for a set of servers ([`tools::ToolSet`]): app-only
//!   tools hidden, names prefixed where they collide and made valid per provider
//!   ([`names`]), schemas converted per dialect ([`schema_convert`]), every loss noted.
//! - [`dialect`]: OpenAI-compatible chat completions, Anthropic Messages and Gemini: request
//!   bodies and headers, answers whole and streamed, error answers as typed errors, tool
//!   results converted back ([`tool_result`]); [`stream`] is what answers are made of.
//! - [`conversation`]: the provider-neutral conversation; [`chat_loop`]: model turn, approved
//!   tool calls, results back, until the model stops, a limit, or a stop; [`model_call`]: one
//!   turn over HTTP.
//! - [`sampling`]: a server's `sampling/createMessage` answered by a model.
//! - [`export`]: JSON (versioned) and Markdown; [`provider`]: the provider, its key, its
//!   quirks; [`cors`]: what to do when a provider refuses the page; [`in_page`]: a model run
//!   inside the page (llama.cpp in wasm), answering as an OpenAI-compatible provider.
//!
//! Architecture invariant: this crate knows no UI (no Leptos) and no browser API (no `web_sys`,
//! `js_sys`): all I/O goes through the client crate's [`mcp_lens_client::runtime::Http`] and
//! [`mcp_lens_client::runtime::Clock`], and tools run through [`chat_loop::ToolRunner`], so it
//! is tested natively. It does not know how the page calls MCP tools, stores keys or draws
//! anything.
//!
//! Invariant (keys): a key is put only in the headers of a request to its provider's origin,
//! never redirected; it has no `Debug` output and never enters an error, an event, a
//! conversation or an export.
//!
//! Invariant (input): every reader is total on what a provider or a server sends (any bytes,
//! any JSON): a value or an error, never a panic; every buffer is bounded by bytes.

pub mod chat_loop;
pub mod conversation;
pub mod cors;
pub mod dialect;
pub mod error;
pub mod export;
pub mod in_page;
pub mod model_call;
pub mod names;
pub mod provider;
pub mod sampling;
pub mod schema_convert;
pub mod stream;
pub mod tool_result;
pub mod tools;

pub use chat_loop::{ChatEvent, ChatLoop, ChatSetup};
pub use conversation::Conversation;
pub use error::{ChatError, ChatErrorKind, ChatStep};
pub use provider::{ApiKey, Dialect, ProviderConfig};
pub use tools::{ServerTools, ToolSet};
