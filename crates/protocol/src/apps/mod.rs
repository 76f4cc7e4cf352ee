//! MCP Apps (the `io.modelcontextprotocol/ui` extension, SEP-1865, stable 2026-01-26), host
//! side, as data: the page passes in what it received (a tool's `_meta`, a `resources/read`
//! result, a `postMessage` payload) and gets back typed decisions and the JSON to send.
//!
//! The sources of truth are the extension's `spec.types.ts` and its reference host
//! (`AppBridge` in `@modelcontextprotocol/ext-apps` 1.7.5, and `examples/basic-host`: its
//! `implementation.ts`, `sandbox.ts` and `csp.ts`); each part cites what it follows and says
//! where it deliberately differs.
//!
//! - [`tool`]: which tools have a UI (`_meta.ui.resourceUri`), who may see or call them
//!   (`_meta.ui.visibility`).
//! - [`resource`]: reading the `ui://` resource: the MIME type, the HTML, `_meta.ui`.
//! - [`csp`]: the declared domains validated one by one, the Content-Security-Policy, the
//!   iframe's `sandbox` and `allow` attributes.
//! - [`link`]: `ui/open-link` URLs: http(s) only, nothing that would show one address and
//!   open another.
//! - [`message`]: classifying any JSON from the app; building what the host sends; with
//!   `display.rs` (display modes, container dimensions) and `host_context.rs` (what the host
//!   tells the app about itself), re-exported there.
//! - [`session`]: [`AppSession`], the pure state machine of one rendered app.
//! - `spec.rs`: the extension's identifier, MIME type, versions and method names (re-exported
//!   here), which every other file reads; this file declares and re-exports, nothing more.
//!
//! Invariant (hostile servers and apps): text from a server or an app never reaches a CSP,
//! an attribute or a URL that is opened without being validated here; every reader is total
//! (never panics) on any JSON; everything an app can make the host keep is bounded.
//!
//! ```
//! use mcp_lens_protocol::apps;
//! // The extension entry a client declares (wired into `initialize` only with the UI).
//! assert_eq!(
//!     apps::client_extension(),
//!     serde_json::json!({ "mimeTypes": ["text/html;profile=mcp-app"] })
//! );
//! ```

pub mod csp;
mod display;
mod host_context;
pub mod link;
pub mod message;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties;
pub mod resource;
pub mod session;
mod spec;
pub mod tool;

pub use csp::{CspDecl, Permissions};
pub use link::{check_link, LinkRefusal, WebLink};
pub use message::{classify, AppMessage, HostContext, HostInfo};
pub use resource::{read_ui_resource, UiResource, UiResourceError};
pub use session::{AppEvent, AppSession, Received};
pub use spec::{
    client_extension, methods, EXTENSION_ID, LATEST_PROTOCOL_VERSION, RESOURCE_MIME_TYPE,
    RESOURCE_URI_META_KEY, SUPPORTED_PROTOCOL_VERSIONS,
};
pub use tool::{ToolUi, Visibility};
