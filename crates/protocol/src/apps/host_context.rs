//! What the host tells an app about itself: `hostInfo`, the tool the app belongs to, the
//! `hostContext` (theme, display mode, container, locale...) and the host's capabilities, in
//! the `ui/initialize` result.

use serde_json::{json, Map, Value};

use super::display::{Dimension, DisplayMode, Theme};
use super::spec::{LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS};
use crate::jsonrpc::RequestId;

/// `hostInfo` (`Implementation`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostInfo {
    pub name: String,
    pub version: String,
}

impl HostInfo {
    /// This inspector.
    pub fn mcp_lens() -> Self {
        HostInfo {
            name: "mcp-lens".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }
}

/// `toolInfo` of the host context: the call that rendered the app.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolInfo {
    /// The JSON-RPC id of the `tools/call` request, if the app renders one.
    pub id: Option<RequestId>,
    /// The tool definition as the server listed it.
    pub tool: Value,
}

/// `McpUiHostContext`: what the app is told about where it runs.
///
/// ```
/// use mcp_lens_protocol::apps::message::{Dimension, DisplayMode, HostContext, Theme};
/// let context = HostContext {
///     theme: Some(Theme::Dark),
///     display_mode: Some(DisplayMode::Inline),
///     available_display_modes: vec![DisplayMode::Inline, DisplayMode::Fullscreen],
///     container: Some((Dimension::Max(6000), Dimension::Fixed(640))),
///     locale: Some("en-GB".into()),
///     time_zone: Some("Europe/London".into()),
///     ..HostContext::default()
/// };
/// let json = context.to_json();
/// assert_eq!(json["containerDimensions"], serde_json::json!({ "maxHeight": 6000, "width": 640 }));
/// assert_eq!(json["platform"], "web");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct HostContext {
    pub theme: Option<Theme>,
    pub display_mode: Option<DisplayMode>,
    pub available_display_modes: Vec<DisplayMode>,
    /// (height, width).
    pub container: Option<(Dimension, Dimension)>,
    /// BCP 47.
    pub locale: Option<String>,
    /// IANA.
    pub time_zone: Option<String>,
    pub user_agent: Option<String>,
    /// Always `"web"` for this host.
    pub platform: Option<&'static str>,
    pub tool_info: Option<ToolInfo>,
}

impl Default for HostContext {
    fn default() -> Self {
        HostContext {
            theme: None,
            display_mode: None,
            available_display_modes: Vec::new(),
            container: None,
            locale: None,
            time_zone: None,
            user_agent: None,
            platform: Some("web"),
            tool_info: None,
        }
    }
}

impl HostContext {
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        if let Some(info) = &self.tool_info {
            let mut tool_info = Map::new();
            if let Some(id) = &info.id {
                tool_info.insert("id".into(), id.clone().into_json_value());
            }
            tool_info.insert("tool".into(), info.tool.clone());
            out.insert("toolInfo".into(), Value::Object(tool_info));
        }
        if let Some(theme) = self.theme {
            let theme = match theme {
                Theme::Light => "light",
                Theme::Dark => "dark",
            };
            out.insert("theme".into(), theme.into());
        }
        if let Some(mode) = self.display_mode {
            out.insert("displayMode".into(), mode.as_str().into());
        }
        if !self.available_display_modes.is_empty() {
            let modes: Vec<&str> = self
                .available_display_modes
                .iter()
                .map(|m| m.as_str())
                .collect();
            out.insert("availableDisplayModes".into(), json!(modes));
        }
        if let Some((height, width)) = self.container {
            let mut dims = Map::new();
            for (dim, fixed, max) in [
                (height, "height", "maxHeight"),
                (width, "width", "maxWidth"),
            ] {
                match dim {
                    Dimension::Fixed(px) => dims.insert(fixed.into(), px.into()),
                    Dimension::Max(px) => dims.insert(max.into(), px.into()),
                    Dimension::Unbounded => None,
                };
            }
            out.insert("containerDimensions".into(), Value::Object(dims));
        }
        for (key, value) in [
            ("locale", &self.locale),
            ("timeZone", &self.time_zone),
            ("userAgent", &self.user_agent),
        ] {
            if let Some(value) = value {
                out.insert(key.into(), value.clone().into());
            }
        }
        if let Some(platform) = self.platform {
            out.insert("platform".into(), platform.into());
        }
        Value::Object(out)
    }
}

/// `McpUiHostCapabilities`, limited to what mcp-lens implements:
/// - `openLinks`: `ui/open-link`, http(s) only, after the person confirms;
/// - `serverTools` / `serverResources`: `tools/call` (tools whose visibility includes
///   `"app"`) and `resources/read` proxied to the server, when the server has tools or
///   resources (no `listChanged`: list changes are not forwarded to apps);
/// - `logging`: `notifications/message` shown in the log;
/// - `message` and `updateModelContext`: shown in a panel (there is no chat to add them to);
/// - `sandbox`: the permissions the person granted and the CSP domains accepted.
///
/// Not declared: `downloadFile` (so `ui/download-file` is answered "method not found"),
/// `sampling`, `experimental`.
#[derive(Debug, Clone, PartialEq)]
pub struct HostCapabilities {
    pub open_links: bool,
    pub server_tools: bool,
    pub server_resources: bool,
    pub logging: bool,
    pub message: bool,
    pub update_model_context: bool,
    pub download_file: bool,
    /// (granted permissions, accepted CSP as `McpUiResourceCsp` JSON), as
    /// [`super::resource::UiResource::sandbox_capability`] gives them.
    pub sandbox: Option<(super::csp::Permissions, Value)>,
}

impl HostCapabilities {
    /// What mcp-lens offers for a server with (or without) tools and resources.
    pub fn mcp_lens(server_tools: bool, server_resources: bool) -> Self {
        HostCapabilities {
            open_links: true,
            server_tools,
            server_resources,
            logging: true,
            message: true,
            update_model_context: true,
            download_file: false,
            sandbox: None,
        }
    }

    pub fn to_json(&self) -> Value {
        let modalities = json!({
            "text": {}, "image": {}, "audio": {}, "resource": {}, "resourceLink": {}
        });
        let mut out = Map::new();
        let flags = [
            (self.open_links, "openLinks", json!({})),
            (self.download_file, "downloadFile", json!({})),
            (self.server_tools, "serverTools", json!({})),
            (self.server_resources, "serverResources", json!({})),
            (self.logging, "logging", json!({})),
            (self.message, "message", modalities.clone()),
        ];
        for (on, key, value) in flags {
            if on {
                out.insert(key.into(), value);
            }
        }
        if self.update_model_context {
            let mut with_structured = modalities;
            with_structured["structuredContent"] = json!({});
            out.insert("updateModelContext".into(), with_structured);
        }
        if let Some((permissions, csp)) = &self.sandbox {
            out.insert(
                "sandbox".into(),
                json!({ "permissions": permissions.to_json(), "csp": csp }),
            );
        }
        Value::Object(out)
    }
}

/// The `ui/initialize` result (`McpUiInitializeResult`): the app's protocol version if
/// supported, else the latest (as `AppBridge._oninitialize`).
///
/// ```
/// use mcp_lens_protocol::apps::message::*;
/// let result = initialize_result(
///     "2026-01-26",
///     &HostInfo::mcp_lens(),
///     &HostCapabilities::mcp_lens(true, false),
///     &HostContext::default(),
/// );
/// assert_eq!(result["protocolVersion"], "2026-01-26");
/// assert_eq!(result["hostInfo"]["name"], "mcp-lens");
/// assert!(result["hostCapabilities"]["serverTools"].is_object());
/// ```
pub fn initialize_result(
    requested_version: &str,
    host: &HostInfo,
    capabilities: &HostCapabilities,
    context: &HostContext,
) -> Value {
    let version = if SUPPORTED_PROTOCOL_VERSIONS.contains(&requested_version) {
        requested_version
    } else {
        LATEST_PROTOCOL_VERSION
    };
    json!({
        "protocolVersion": version,
        "hostInfo": { "name": host.name, "version": host.version },
        "hostCapabilities": capabilities.to_json(),
        "hostContext": context.to_json(),
    })
}
