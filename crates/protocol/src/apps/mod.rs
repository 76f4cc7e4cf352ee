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
//! - [`message`]: classifying any JSON from the app; building what the host sends.
//! - [`session`]: [`AppSession`], the pure state machine of one rendered app.
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
pub mod link;
pub mod message;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties;
pub mod resource;
pub mod session;
pub mod tool;

pub use csp::{CspDecl, Permissions};
pub use link::{check_link, LinkRefusal, WebLink};
pub use message::{classify, AppMessage, HostContext, HostInfo};
pub use resource::{read_ui_resource, UiResource, UiResourceError};
pub use session::{AppEvent, AppSession, Received};
pub use tool::{ToolUi, Visibility};

use serde_json::{json, Value};

/// The extension's identifier, the key under `capabilities.extensions`.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/ui";

/// The MIME type of an MCP App's HTML (`RESOURCE_MIME_TYPE` in the reference host).
pub const RESOURCE_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The protocol version of the spec types this follows (`LATEST_PROTOCOL_VERSION`).
pub const LATEST_PROTOCOL_VERSION: &str = "2026-01-26";

/// The versions the host speaks (`SUPPORTED_PROTOCOL_VERSIONS` of the reference host).
pub const SUPPORTED_PROTOCOL_VERSIONS: [&str; 1] = [LATEST_PROTOCOL_VERSION];

/// The deprecated flat tool `_meta` key, still read by the reference host's
/// `getToolUiResourceUri` when `_meta.ui.resourceUri` is absent.
pub const RESOURCE_URI_META_KEY: &str = "ui/resourceUri";

/// The settings of the `io.modelcontextprotocol/ui` client extension: the MIME types this
/// host renders (`McpUiClientCapabilities`). It goes under
/// `capabilities.extensions["io.modelcontextprotocol/ui"]` of `initialize`, once the UI that
/// renders apps exists.
///
/// ```
/// let entry = mcp_lens_protocol::apps::client_extension();
/// assert_eq!(entry["mimeTypes"][0], "text/html;profile=mcp-app");
/// ```
pub fn client_extension() -> Value {
    json!({ "mimeTypes": [RESOURCE_MIME_TYPE] })
}

/// Method names of the extension (the `*_METHOD` constants of the spec types), and the MCP
/// methods an app may use.
pub mod methods {
    pub const INITIALIZE: &str = "ui/initialize";
    pub const INITIALIZED: &str = "ui/notifications/initialized";
    pub const SIZE_CHANGED: &str = "ui/notifications/size-changed";
    pub const OPEN_LINK: &str = "ui/open-link";
    pub const DOWNLOAD_FILE: &str = "ui/download-file";
    pub const MESSAGE: &str = "ui/message";
    pub const UPDATE_MODEL_CONTEXT: &str = "ui/update-model-context";
    pub const REQUEST_DISPLAY_MODE: &str = "ui/request-display-mode";
    pub const REQUEST_TEARDOWN: &str = "ui/notifications/request-teardown";
    pub const RESOURCE_TEARDOWN: &str = "ui/resource-teardown";
    pub const TOOL_INPUT: &str = "ui/notifications/tool-input";
    pub const TOOL_INPUT_PARTIAL: &str = "ui/notifications/tool-input-partial";
    pub const TOOL_RESULT: &str = "ui/notifications/tool-result";
    pub const TOOL_CANCELLED: &str = "ui/notifications/tool-cancelled";
    pub const HOST_CONTEXT_CHANGED: &str = "ui/notifications/host-context-changed";
    pub const SANDBOX_PROXY_READY: &str = "ui/notifications/sandbox-proxy-ready";
    pub const SANDBOX_RESOURCE_READY: &str = "ui/notifications/sandbox-resource-ready";
    pub const TOOLS_CALL: &str = "tools/call";
    pub const RESOURCES_READ: &str = "resources/read";
    pub const LOG: &str = "notifications/message";
    pub const CANCELLED: &str = "notifications/cancelled";
    pub const PING: &str = "ping";
}
