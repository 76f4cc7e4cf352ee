//! A tool's UI: `_meta.ui.resourceUri` (or the deprecated flat `_meta["ui/resourceUri"]`)
//! and `_meta.ui.visibility` (`McpUiToolMeta` in the spec types).
//!
//! The reference host's `getToolUiResourceUri` reads `_meta.ui.resourceUri`, falls back to
//! `_meta["ui/resourceUri"]`, and refuses (throws on) any value that is not a string starting
//! with `ui://`; here that is [`UiResourceRef::Invalid`], a value to show, not an exception.
//! Visibility follows the spec text ("defaults to `["model", "app"]`"; a host "MUST reject
//! `tools/call` requests from apps for tools that don't include `"app"`"; "MUST NOT include
//! tools in the agent's tool list when their visibility does not include `"model"`"), which is
//! stricter than the reference helpers `isToolVisibilityAppOnly`/`ModelOnly` (those only
//! look for exactly `["app"]`/`["model"]`, so `[]` counts as both there and as neither here).

use serde_json::Value;

use super::spec::RESOURCE_URI_META_KEY;
use crate::error::excerpt;

/// Longest `ui://` URI accepted (it is sent back to the server and shown).
pub const MAX_URI_CHARS: usize = 2_048;

/// Which UI resource a tool names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UiResourceRef {
    /// No UI: a plain tool.
    None,
    /// A `ui://` resource to read with `resources/read`.
    Uri(String),
    /// A value the reference host would refuse, with why (and an excerpt of it, for display).
    Invalid { reason: String },
}

/// Who a tool is for (`_meta.ui.visibility`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    /// Not declared: `["model", "app"]`.
    Default,
    /// Declared as an array of strings; unknown strings grant nothing.
    Declared { model: bool, app: bool },
    /// Declared, but not an array of strings: the app may not call it (fail closed); a
    /// model-facing list still shows it (showing a tool to a person harms no one).
    Malformed,
}

impl Visibility {
    /// Reads `_meta.ui.visibility` (absent or `null` = [`Visibility::Default`]).
    pub fn from_value(value: Option<&Value>) -> Self {
        match value {
            None | Some(Value::Null) => Visibility::Default,
            Some(Value::Array(items)) => {
                let mut model = false;
                let mut app = false;
                for item in items {
                    match item.as_str() {
                        Some("model") => model = true,
                        Some("app") => app = true,
                        Some(_) => {}
                        None => return Visibility::Malformed,
                    }
                }
                Visibility::Declared { model, app }
            }
            Some(_) => Visibility::Malformed,
        }
    }

    /// Whether the app may call the tool through the host (`"app"` in the visibility).
    pub fn app_may_call(self) -> bool {
        match self {
            Visibility::Default => true,
            Visibility::Declared { app, .. } => app,
            Visibility::Malformed => false,
        }
    }

    /// Whether a model-facing tool list shows the tool (`"model"` in the visibility).
    pub fn model_may_see(self) -> bool {
        match self {
            Visibility::Default | Visibility::Malformed => true,
            Visibility::Declared { model, .. } => model,
        }
    }

    /// Only for the app: shown apart in the inspector (callable there for testing).
    pub fn app_only(self) -> bool {
        self.app_may_call() && !self.model_may_see()
    }
}

/// What a tool's `_meta` says about its UI.
///
/// ```
/// use mcp_lens_protocol::apps::tool::{ToolUi, UiResourceRef};
/// use serde_json::json;
/// // From the spec's "app-only tool, hidden from model" example.
/// let ui = ToolUi::from_meta(&json!({
///     "ui": { "resourceUri": "ui://weather-server/dashboard-template", "visibility": ["app"] }
/// }));
/// assert_eq!(ui.resource, UiResourceRef::Uri("ui://weather-server/dashboard-template".into()));
/// assert!(ui.visibility.app_may_call());
/// assert!(!ui.visibility.model_may_see());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolUi {
    pub resource: UiResourceRef,
    pub visibility: Visibility,
    /// The URI came from the deprecated flat `_meta["ui/resourceUri"]` ("will be removed
    /// before GA"): worth telling the server's author.
    pub deprecated_key: bool,
}

impl ToolUi {
    /// Reads a tool's `_meta` object (rmcp's `Tool::meta` as JSON; anything else, `null`
    /// included, is a tool without UI metadata).
    pub fn from_meta(meta: &Value) -> Self {
        let ui = meta.get("ui");
        let nested = ui.and_then(|ui| ui.get("resourceUri"));
        // As `getToolUiResourceUri`: the flat key only when the nested one is undefined.
        let raw = match nested {
            Some(value) => Some(value),
            None => meta.get(RESOURCE_URI_META_KEY),
        };
        ToolUi {
            resource: resource_ref(raw),
            visibility: Visibility::from_value(ui.and_then(|ui| ui.get("visibility"))),
            deprecated_key: nested.is_none() && raw.is_some(),
        }
    }

    /// Reads a whole tool as JSON (its `_meta` member).
    pub fn from_tool(tool: &Value) -> Self {
        Self::from_meta(tool.get("_meta").unwrap_or(&Value::Null))
    }

    /// Whether the tool renders a UI.
    pub fn has_ui(&self) -> bool {
        matches!(self.resource, UiResourceRef::Uri(_))
    }

    /// The `ui://` URI to read, if valid.
    pub fn resource_uri(&self) -> Option<&str> {
        match &self.resource {
            UiResourceRef::Uri(uri) => Some(uri),
            _ => None,
        }
    }
}

fn resource_ref(raw: Option<&Value>) -> UiResourceRef {
    match raw {
        None => UiResourceRef::None,
        Some(Value::String(uri)) => check_ui_uri(uri),
        Some(other) => UiResourceRef::Invalid {
            reason: format!(
                "the UI resource URI is not a string: {}",
                excerpt(&other.to_string(), 80)
            ),
        },
    }
}

/// A `ui://` URI as the reference host accepts it (a string starting with `ui://`), and
/// short and free of control characters, since it is shown and sent back.
pub fn check_ui_uri(uri: &str) -> UiResourceRef {
    let invalid = |why: &str| UiResourceRef::Invalid {
        reason: format!("{why}: \"{}\"", excerpt(uri, 80)),
    };
    if !uri.starts_with("ui://") {
        invalid("the UI resource URI does not start with ui://")
    } else if uri.chars().count() > MAX_URI_CHARS {
        invalid("the UI resource URI is longer than 2,048 characters")
    } else if uri.chars().any(crate::error::is_invisible_control) {
        invalid("the UI resource URI contains control or invisible characters")
    } else {
        UiResourceRef::Uri(uri.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn spec_examples_read_as_the_spec_says() {
        // specification/2026-01-26/apps.mdx, "Resource Discovery": visible to both.
        let both = ToolUi::from_tool(&json!({
            "name": "get_weather",
            "_meta": { "ui": {
                "resourceUri": "ui://weather-server/dashboard-template",
                "visibility": ["model", "app"]
            } }
        }));
        assert!(both.has_ui());
        assert_eq!(
            both.resource_uri(),
            Some("ui://weather-server/dashboard-template")
        );
        assert!(both.visibility.app_may_call() && both.visibility.model_may_see());
        assert!(!both.visibility.app_only());
        // "app-only tool, hidden from model".
        let app = ToolUi::from_meta(&json!({ "ui": { "visibility": ["app"] } }));
        assert!(!app.has_ui());
        assert!(app.visibility.app_only());
        // Model only: the app may not call it.
        let model = ToolUi::from_meta(&json!({ "ui": { "visibility": ["model"] } }));
        assert!(!model.visibility.app_may_call());
        assert!(model.visibility.model_may_see());
    }

    #[test]
    fn visibility_defaults_to_both_and_fails_closed_for_the_app() {
        assert_eq!(
            ToolUi::from_meta(&Value::Null).visibility,
            Visibility::Default
        );
        assert!(Visibility::Default.app_may_call());
        // Empty: neither (the spec's "does not include").
        let none = Visibility::from_value(Some(&json!([])));
        assert!(!none.app_may_call() && !none.model_may_see());
        // Unknown audiences grant nothing, and do not spoil the known ones.
        let odd = Visibility::from_value(Some(&json!(["app", "everyone"])));
        assert!(odd.app_may_call() && !odd.model_may_see());
        // Not an array of strings: the app may not call it.
        for bad in [
            json!("app"),
            json!({"app": true}),
            json!(["app", 1]),
            json!(true),
        ] {
            let v = Visibility::from_value(Some(&bad));
            assert_eq!(v, Visibility::Malformed, "{bad}");
            assert!(!v.app_may_call() && v.model_may_see());
        }
    }

    #[test]
    fn the_deprecated_flat_key_is_read_only_when_the_nested_one_is_absent() {
        // getToolUiResourceUri: `_meta?.ui?.resourceUri`, then `_meta?.["ui/resourceUri"]`.
        let flat = ToolUi::from_meta(&json!({ "ui/resourceUri": "ui://old/view.html" }));
        assert_eq!(flat.resource_uri(), Some("ui://old/view.html"));
        assert!(flat.deprecated_key);
        let both = ToolUi::from_meta(&json!({
            "ui": { "resourceUri": "ui://new/view.html" },
            "ui/resourceUri": "ui://old/view.html"
        }));
        assert_eq!(both.resource_uri(), Some("ui://new/view.html"));
        assert!(!both.deprecated_key);
    }

    #[test]
    fn uris_the_reference_host_refuses_are_invalid_values() {
        for bad in [
            json!({ "ui": { "resourceUri": "https://example.com/app.html" } }),
            json!({ "ui": { "resourceUri": 42 } }),
            json!({ "ui": { "resourceUri": null } }),
            json!({ "ui/resourceUri": "UI://caps" }),
            json!({ "ui": { "resourceUri": "ui://a\u{202E}lmth.exe" } }),
        ] {
            let ui = ToolUi::from_meta(&bad);
            assert!(
                matches!(ui.resource, UiResourceRef::Invalid { .. }),
                "{bad}"
            );
            assert!(!ui.has_ui());
        }
        let long = format!("ui://{}", "a".repeat(MAX_URI_CHARS));
        assert!(matches!(check_ui_uri(&long), UiResourceRef::Invalid { .. }));
        // Garbage `_meta` is simply no UI.
        assert_eq!(
            ToolUi::from_meta(&json!([1, 2])).resource,
            UiResourceRef::None
        );
        assert_eq!(
            ToolUi::from_meta(&json!({ "ui": 7 })).resource,
            UiResourceRef::None
        );
    }
}
