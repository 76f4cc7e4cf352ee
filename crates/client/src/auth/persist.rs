//! What a page may keep across a reload, as serde values: a flow's discovery and client
//! ([`SavedFlow`]), and a sign-in that left for the authorization server in the page's own
//! tab ([`PendingSignIn`]). No secret in either but the PKCE verifier of a sign-in in progress,
//! which `Debug` hides.

use super::found::Discovered;
use mcp_lens_protocol::auth::discovery::{AuthServerMetadata, ProtectedResourceMetadata};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{json, Value};
use std::fmt;

/// What a flow found and chose that a page may keep across a reload ([`OAuth::saved_flow`](crate::auth::OAuth::saved_flow),
/// [`OAuth::restore`](crate::auth::OAuth::restore)): the server it is for, discovery's result, and the client's id and how
/// it authenticates, so a token kept from before can be refreshed. No secret: a client
/// secret or private key comes again from the new flow's [`OAuthSettings`](crate::auth::OAuthSettings), so it is only
/// where the page already keeps those. Serialized as JSON through `serde_json::Value`, the
/// metadata as their documents (no derived code for the metadata types: the wasm is smaller).
#[derive(Debug, Clone, PartialEq)]
pub struct SavedFlow {
    pub(super) server_url: String,
    pub(super) discovered: Discovered,
    pub(super) client_id: String,
    /// [`ClientAuthMethod::as_str`].
    pub(super) client_auth: String,
    /// The client came from Dynamic Client Registration (the next sign-in reuses it).
    pub(super) registered: bool,
}

impl SavedFlow {
    /// The MCP server the flow was for.
    pub fn server_url(&self) -> &str {
        &self.server_url
    }

    pub(super) fn to_json(&self) -> Value {
        let discovered = &self.discovered;
        json!({
            "server_url": self.server_url,
            "resource": discovered.resource,
            "resource_metadata": discovered.resource_metadata.as_ref().map(ProtectedResourceMetadata::to_json),
            "auth_server": discovered.auth_server.to_json(),
            "from_document": discovered.auth_server.from_document,
            "client_id": self.client_id,
            "client_auth": self.client_auth,
            "registered": self.registered,
        })
    }

    pub(super) fn from_json(value: &Value) -> Option<Self> {
        let text = |key: &str| value.get(key)?.as_str().map(str::to_owned);
        let resource_metadata = match value.get("resource_metadata") {
            Some(Value::Null) | None => None,
            Some(prm) => Some(ProtectedResourceMetadata::parse(&prm.to_string()).ok()?),
        };
        let mut auth_server =
            AuthServerMetadata::parse(&value.get("auth_server")?.to_string()).ok()?;
        auth_server.from_document = value.get("from_document")?.as_bool()?;
        Some(Self {
            server_url: text("server_url")?,
            discovered: Discovered {
                resource_metadata,
                resource: text("resource")?,
                auth_server,
            },
            client_id: text("client_id")?,
            client_auth: text("client_auth")?,
            registered: value.get("registered")?.as_bool()?,
        })
    }
}

/// Through `serde_json::Value` (see [`SavedFlow`]).
fn from_value<'de, D: Deserializer<'de>, T>(
    deserializer: D,
    read: impl FnOnce(&Value) -> Option<T>,
    what: &str,
) -> Result<T, D::Error> {
    let value = Value::deserialize(deserializer)?;
    read(&value).ok_or_else(|| serde::de::Error::custom(format!("not {what}")))
}

impl Serialize for SavedFlow {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for SavedFlow {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        from_value(deserializer, SavedFlow::from_json, "a kept sign-in flow")
    }
}

/// An authorization started and not finished, for a page that sends its own tab to the
/// authorization URL (when pop-ups are blocked) and so loses its memory:
/// [`OAuth::pending_sign_in`](crate::auth::OAuth::pending_sign_in) gives it after [`OAuth::start`](crate::auth::OAuth::start), the page keeps it while away
/// (the tab's sessionStorage), and [`OAuth::resume`](crate::auth::OAuth::resume) takes it back in the page that comes
/// back, before [`OAuth::finish`](crate::auth::OAuth::finish). It holds the PKCE verifier: `Debug` hides it, and a page
/// keeps it no longer than the trip.
#[derive(Clone, PartialEq)]
pub struct PendingSignIn {
    pub(super) flow: SavedFlow,
    pub(super) redirect_uri: String,
    pub(super) state: String,
    pub(super) verifier: String,
    pub(super) scope: Option<String>,
    pub(super) authorizations: u32,
}

impl PendingSignIn {
    /// The `state` the redirect must carry (not a secret: it is in the authorization URL).
    pub fn state(&self) -> &str {
        &self.state
    }

    /// The MCP server the sign-in is for.
    pub fn server_url(&self) -> &str {
        &self.flow.server_url
    }

    pub(super) fn to_json(&self) -> Value {
        json!({
            "flow": self.flow.to_json(),
            "redirect_uri": self.redirect_uri,
            "state": self.state,
            "verifier": self.verifier,
            "scope": self.scope,
            "authorizations": self.authorizations,
        })
    }

    pub(super) fn from_json(value: &Value) -> Option<Self> {
        let text = |key: &str| value.get(key)?.as_str().map(str::to_owned);
        Some(Self {
            flow: SavedFlow::from_json(value.get("flow")?)?,
            redirect_uri: text("redirect_uri")?,
            state: text("state")?,
            verifier: text("verifier")?,
            scope: text("scope"),
            authorizations: u32::try_from(value.get("authorizations")?.as_u64()?).ok()?,
        })
    }
}

impl Serialize for PendingSignIn {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for PendingSignIn {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        from_value(
            deserializer,
            PendingSignIn::from_json,
            "a sign-in in progress",
        )
    }
}

impl fmt::Debug for PendingSignIn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PendingSignIn")
            .field("flow", &self.flow)
            .field("redirect_uri", &self.redirect_uri)
            .field("state", &self.state)
            .field("verifier", &"[redacted]")
            .field("scope", &self.scope)
            .field("authorizations", &self.authorizations)
            .finish()
    }
}
