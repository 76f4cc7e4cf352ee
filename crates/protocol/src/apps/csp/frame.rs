//! The iframe's other attributes: `sandbox` (fixed), and `allow` (the permissions policy)
//! from `_meta.ui.permissions` and what the person granted.

use serde_json::{json, Map, Value};

/// The iframe's `sandbox` attribute: scripts and form events (apps handle `submit`; the CSP's
/// `form-action 'none'` keeps a submission from leaving). Never `allow-same-origin` (a
/// `srcdoc` frame would then share the inspector's origin: its storage, its tokens), nor
/// `allow-popups`, `allow-top-navigation*`, `allow-modals` or `allow-downloads`: links go
/// through `ui/open-link` and downloads through `ui/download-file`, after the person agrees.
///
/// The reference host's inner frame has `allow-scripts allow-same-origin allow-forms`, which is
/// safe there only because its outer proxy frame is served from another origin (the spec's
/// "Sandbox proxy": a web host "MUST" have one). Without `allow-same-origin` the app's frame
/// gets an opaque origin wherever its document comes from. Note for the frame's document: an
/// `about:srcdoc` (or `blob:`) document also inherits the embedding page's own policy, and
/// mcp-lens's forbids inline scripts, so an app framed that way directly from the page would
/// not run; its document must come from elsewhere (a proxy on another origin, as the spec
/// has it), which is the UI's decision.
pub const SANDBOX: &str = "allow-scripts allow-forms";

/// `_meta.ui.permissions` (`McpUiResourcePermissions`): each member present and truthy (in
/// JavaScript's sense, as the reference host tests `if (permissions.camera)`) is requested.
///
/// ```
/// use mcp_lens_protocol::apps::Permissions;
/// use serde_json::json;
/// let requested = Permissions::from_value(Some(&json!({ "camera": {}, "microphone": {} })));
/// let granted = Permissions { camera: true, geolocation: true, ..Permissions::default() };
/// // Only what was both requested and granted.
/// assert_eq!(requested.allow_attribute(granted), "camera");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Permissions {
    pub camera: bool,
    pub microphone: bool,
    pub geolocation: bool,
    pub clipboard_write: bool,
}

impl Permissions {
    pub fn from_value(value: Option<&Value>) -> Self {
        let member = |key: &str| value.and_then(|v| v.get(key)).is_some_and(truthy);
        Permissions {
            camera: member("camera"),
            microphone: member("microphone"),
            geolocation: member("geolocation"),
            clipboard_write: member("clipboardWrite"),
        }
    }

    /// Whether anything is requested.
    pub fn any(self) -> bool {
        self.camera || self.microphone || self.geolocation || self.clipboard_write
    }

    /// What is in both.
    pub fn intersect(self, other: Permissions) -> Permissions {
        Permissions {
            camera: self.camera && other.camera,
            microphone: self.microphone && other.microphone,
            geolocation: self.geolocation && other.geolocation,
            clipboard_write: self.clipboard_write && other.clipboard_write,
        }
    }

    /// The permissions-policy features, in the reference host's order.
    pub fn features(self) -> Vec<&'static str> {
        [
            (self.camera, "camera"),
            (self.microphone, "microphone"),
            (self.geolocation, "geolocation"),
            (self.clipboard_write, "clipboard-write"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect()
    }

    /// Turns one permissions-policy feature (as [`Permissions::features`] names it) on or off;
    /// any other name changes nothing.
    ///
    /// ```
    /// use mcp_lens_protocol::apps::Permissions;
    /// let mut granted = Permissions::default();
    /// granted.set("clipboard-write", true);
    /// granted.set("usb", true);
    /// assert_eq!(granted.features(), ["clipboard-write"]);
    /// granted.set("clipboard-write", false);
    /// assert!(!granted.any());
    /// ```
    pub fn set(&mut self, feature: &str, on: bool) {
        match feature {
            "camera" => self.camera = on,
            "microphone" => self.microphone = on,
            "geolocation" => self.geolocation = on,
            "clipboard-write" => self.clipboard_write = on,
            _ => {}
        }
    }

    /// The iframe's `allow` attribute for what was requested (`self`) and `granted` by the
    /// person: the reference host's `buildAllowAttribute` (features joined by `"; "`), given
    /// only the intersection. Empty: set no `allow` attribute.
    pub fn allow_attribute(self, granted: Permissions) -> String {
        self.intersect(granted).features().join("; ")
    }

    /// As `McpUiResourcePermissions` JSON (`{"camera": {}, ...}`), e.g. for
    /// `hostCapabilities.sandbox.permissions`.
    pub fn to_json(self) -> Value {
        let mut out = Map::new();
        for (on, key) in [
            (self.camera, "camera"),
            (self.microphone, "microphone"),
            (self.geolocation, "geolocation"),
            (self.clipboard_write, "clipboardWrite"),
        ] {
            if on {
                out.insert(key.into(), json!({}));
            }
        }
        Value::Object(out)
    }
}

/// JavaScript truthiness, as the reference host tests optional members.
pub(crate) fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}
