//! The extension's names: its identifier, MIME type, versions, `_meta` key and method names,
//! and the entry a client declares. Every other file of `apps/` reads them from here.

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
