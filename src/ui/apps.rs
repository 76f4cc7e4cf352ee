//! MCP Apps in the page (SEP-1865): a tool's `ui://` resource framed beside its result, and
//! the page as the app's host. In the session wasm chunk (`lazy::mcp_app`; never in the
//! first paint).
//!
//! The decisions are `crate::protocol::apps`' (the CSP, the sandbox, which messages mean what,
//! what may be sent when): this file moves bytes between them, the browser and the server.
//!
//! Isolation: the app's document cannot be a `srcdoc` frame of this page (it would inherit the
//! page's policy, which runs no inline script), so the page frames the sandbox proxy
//! (`src/apps/sandbox.html`, copied into `dist/`) with `sandbox="allow-scripts"` and no
//! `allow-same-origin`: an opaque origin, out of reach of the page's DOM, storage and cookies.
//! The proxy adds the app's policy to itself and frames the app's HTML (with the same policy
//! as its first element) in a `srcdoc` frame of its own. Messages travel in envelopes
//! (`{ load }`, `{ post }` to the proxy; `{ proxy }`, `{ app }` from it), and only messages
//! whose `event.source` is this app's proxy frame are read; any other is ignored and logged.
//!
//! The files, each importing only those listed before it: `apps/host_js.rs` (the browser
//! calls), `apps/model.rs` (what they share), `apps/resource.rs` (the `ui://` resource read and
//! cached), `apps/bridge.rs` (the host side of one app), `apps/view.rs` (drawn).

mod bridge;
mod host_js;
mod model;
mod resource;
mod view;

pub(super) use host_js::host_loaded;
pub use model::AppCall;
pub use view::McpApp;
