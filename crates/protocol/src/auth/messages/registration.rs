//! How a browser client registers: Dynamic Client Registration (RFC 7591) metadata and its
//! answer, and the Client ID Metadata Document (SEP-991).

use super::tokens::{body_start, oauth_error};
use crate::auth::AuthErrorKind;
use serde_json::{json, Value};
use std::fmt;

/// The grant types a browser client registers: codes, and refresh tokens (SEP-2207).
pub const GRANT_TYPES: [&str; 2] = ["authorization_code", "refresh_token"];

/// `native` for loopback or custom-scheme redirects (RFC 8252), else `web` (SEP-837).
pub(super) fn application_type(redirect_uris: &[&str]) -> &'static str {
    let native = redirect_uris.iter().any(|uri| {
        let lower = uri.to_ascii_lowercase();
        !(lower.starts_with("http://") || lower.starts_with("https://"))
            || crate::auth::discovery::HttpUrl::parse(uri).is_some_and(|url| {
                let host = url.origin.split("://").nth(1).unwrap_or("");
                let host = host.rsplit_once(':').map_or(host, |(h, _)| h);
                host == "localhost" || host.starts_with("127.") || host == "[::1]"
            })
    });
    if native {
        "native"
    } else {
        "web"
    }
}

/// The client metadata a browser client describes itself with: the body of a Dynamic
/// Client Registration (RFC 7591 §2) and, with `client_id`, a Client ID Metadata Document.
///
/// ```
/// use mcp_lens_protocol::auth::messages::client_metadata;
/// let body = client_metadata("mcp-lens", &["https://app.example/callback"], Some("mcp:read"), None);
/// assert_eq!(body["token_endpoint_auth_method"], "none");
/// assert_eq!(body["grant_types"][1], "refresh_token");
/// assert_eq!(body["scope"], "mcp:read");
/// ```
pub fn client_metadata(
    client_name: &str,
    redirect_uris: &[&str],
    scope: Option<&str>,
    client_uri: Option<&str>,
) -> Value {
    let mut metadata = json!({
        "client_name": client_name,
        "redirect_uris": redirect_uris,
        "grant_types": GRANT_TYPES,
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
        "application_type": application_type(redirect_uris),
    });
    if let Some(scope) = scope {
        metadata["scope"] = json!(scope);
    }
    if let Some(uri) = client_uri {
        metadata["client_uri"] = json!(uri);
    }
    metadata
}

/// The Client ID Metadata Document served at `client_id_url` (which is the `client_id`).
///
/// ```
/// use mcp_lens_protocol::auth::messages::client_id_metadata_document;
/// let document = client_id_metadata_document("https://app.example/mcp-lens/client.json", "mcp-lens",
///     &["https://app.example/mcp-lens/callback.html"], Some("https://app.example/mcp-lens/")).unwrap();
/// assert_eq!(document["client_id"], "https://app.example/mcp-lens/client.json");
/// assert!(client_id_metadata_document("http://app.example/c.json", "x", &[], None).is_err());
/// ```
pub fn client_id_metadata_document(
    client_id_url: &str,
    client_name: &str,
    redirect_uris: &[&str],
    client_uri: Option<&str>,
) -> Result<Value, AuthErrorKind> {
    check_metadata_document_url(client_id_url)?;
    let mut document = client_metadata(client_name, redirect_uris, None, client_uri);
    document["client_id"] = json!(client_id_url);
    Ok(document)
}

/// A Client ID Metadata Document URL must be HTTPS with a path (SEP-991).
pub fn check_metadata_document_url(url: &str) -> Result<(), AuthErrorKind> {
    let parsed = crate::auth::discovery::HttpUrl::parse(url);
    match parsed {
        Some(parsed) if parsed.origin.starts_with("https://") && parsed.path != "/" => Ok(()),
        _ => Err(AuthErrorKind::Invalid {
            what: "the client ID metadata document URL".to_owned(),
            detail: format!("\"{url}\" is not an https URL with a path"),
        }),
    }
}

/// A client registered dynamically at one authorization server, for the caller to remember
/// per server (`issuer`). `Debug` hides the secret.
#[derive(Clone, PartialEq, Eq)]
pub struct RegisteredClient {
    pub issuer: String,
    pub client_id: String,
    client_secret: Option<String>,
    /// As the server registered it (`token_endpoint_auth_method`).
    pub auth_method: Option<String>,
}

impl RegisteredClient {
    /// A registration remembered from before (ids only, typically: secrets are not kept).
    pub fn new(
        issuer: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: Option<String>,
        auth_method: Option<String>,
    ) -> Self {
        Self {
            issuer: issuer.into(),
            client_id: client_id.into(),
            client_secret: client_secret.filter(|s| !s.is_empty()),
            auth_method,
        }
    }

    pub fn secret(&self) -> Option<&str> {
        self.client_secret.as_deref()
    }

    /// Reads a registration answer (RFC 7591 §3.2.1): `client_id` is required.
    pub fn parse(issuer: &str, url: &str, status: u16, body: &str) -> Result<Self, AuthErrorKind> {
        let value: Option<Value> = serde_json::from_str(body).ok();
        if !(200..300).contains(&status) {
            return Err(value.as_ref().and_then(oauth_error).unwrap_or_else(|| {
                AuthErrorKind::HttpStatus {
                    url: url.to_owned(),
                    status,
                    body_start: body_start(body),
                }
            }));
        }
        let client_id = value
            .as_ref()
            .and_then(|v| v.get("client_id"))
            .and_then(Value::as_str)
            .filter(|id| !id.is_empty())
            .ok_or_else(|| AuthErrorKind::Invalid {
                what: "the registration answer".to_owned(),
                detail: "it has no client_id".to_owned(),
            })?;
        let text = |key: &str| {
            value
                .as_ref()
                .and_then(|v| v.get(key))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        Ok(Self::new(
            issuer,
            client_id,
            text("client_secret"),
            text("token_endpoint_auth_method"),
        ))
    }
}

impl fmt::Debug for RegisteredClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RegisteredClient")
            .field("issuer", &self.issuer)
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "[redacted]"),
            )
            .field("auth_method", &self.auth_method)
            .finish()
    }
}
