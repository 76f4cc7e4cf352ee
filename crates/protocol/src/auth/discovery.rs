//! Discovery: from the MCP server's URL (and the `resource_metadata` of its challenge) to the
//! authorization server's endpoints.
//!
//! 1. Protected Resource Metadata (RFC 9728): the challenge's URL, else [`prm_urls`]
//!    (path-suffixed, then root). Its `resource` must be the server's (RFC 8707 canonical
//!    form; [`check_resource`]).
//! 2. Authorization server metadata: [`auth_server_metadata_urls`] for the PRM's first
//!    authorization server, in the spec's order: RFC 8414 with the issuer's path inserted,
//!    then OpenID discovery with the path inserted, then appended; for an issuer without a
//!    path, RFC 8414 then OpenID at the root. [`AuthServerMetadata::validate`]: issuer,
//!    endpoints, PKCE S256.
//! 3. 2025-03-26 servers without PRM: the same URLs for the server's origin, and when there
//!    is no metadata either, [`AuthServerMetadata::fallback`] (`/authorize`, `/token`,
//!    `/register` at the origin).
//!
//! ```
//! use mcp_lens_protocol::auth::discovery::{auth_server_metadata_urls, check_resource, ProtectedResourceMetadata};
//! let urls: Vec<String> = auth_server_metadata_urls("https://auth.example.com/tenant1")
//!     .into_iter().map(|(url, _)| url).collect();
//! assert_eq!(urls, [
//!     "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
//!     "https://auth.example.com/.well-known/openid-configuration/tenant1",
//!     "https://auth.example.com/tenant1/.well-known/openid-configuration",
//! ]);
//! let prm = ProtectedResourceMetadata::parse(
//!     r#"{"resource":"https://evil.example.com/mcp","authorization_servers":["https://auth.example.com"]}"#,
//! ).unwrap();
//! assert!(check_resource("https://mcp.example.com/mcp", &prm).is_err());
//! ```

use super::pkce::S256;
use super::{AuthErrorKind, AuthStep};
use crate::url::WebUrl;
use serde_json::{json, Value};

/// An http(s) URL cut into what discovery needs. The origin is canonical (scheme and host
/// lowercased, default port dropped, no userinfo); the fragment is dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpUrl {
    pub origin: String,
    /// Starts with `/`; `/` when the URL has none.
    pub path: String,
    pub query: Option<String>,
}

impl HttpUrl {
    /// `None` for anything but an absolute http(s) URL with a host.
    ///
    /// ```
    /// use mcp_lens_protocol::auth::discovery::HttpUrl;
    /// let url = HttpUrl::parse("HTTPS://Example.COM:443/mcp?x=1#top").unwrap();
    /// assert_eq!((url.origin.as_str(), url.path.as_str(), url.query.as_deref()), ("https://example.com", "/mcp", Some("x=1")));
    /// assert_eq!(HttpUrl::parse("ftp://x/"), None);
    /// ```
    pub fn parse(url: &str) -> Option<Self> {
        let url = WebUrl::parse(url).ok()?;
        Some(Self {
            origin: url.origin(),
            path: url.path().to_owned(),
            query: url.query().map(str::to_owned),
        })
    }

    /// The path without its trailing slash (`""` for the root).
    fn trimmed_path(&self) -> &str {
        self.path.trim_end_matches('/')
    }
}

/// The canonical URI of a resource (RFC 8707, MCP "Canonical Server URI"): lowercase scheme
/// and host, no default port, no fragment, no trailing slash on the root.
///
/// ```
/// use mcp_lens_protocol::auth::discovery::canonical_resource;
/// assert_eq!(canonical_resource("HTTPS://MCP.example.com:443/#x").as_deref(), Some("https://mcp.example.com"));
/// assert_eq!(canonical_resource("http://localhost:3000/mcp").as_deref(), Some("http://localhost:3000/mcp"));
/// ```
pub fn canonical_resource(url: &str) -> Option<String> {
    let url = HttpUrl::parse(url)?;
    let path = if url.path == "/" { "" } else { &url.path };
    Some(match &url.query {
        Some(query) => format!("{}{path}?{query}", url.origin),
        None => format!("{}{path}", url.origin),
    })
}

fn invalid_server_url(server_url: &str) -> AuthErrorKind {
    AuthErrorKind::Invalid {
        what: "the server URL".to_owned(),
        detail: format!("\"{server_url}\" is not an http(s) URL"),
    }
}

/// Where to look for the server's Protected Resource Metadata when its challenge does not
/// say: the path-suffixed well-known URI, then the root one (RFC 9728 §3.1, MCP 2025-11-25).
pub fn prm_urls(server_url: &str) -> Result<Vec<String>, AuthErrorKind> {
    let url = HttpUrl::parse(server_url).ok_or_else(|| invalid_server_url(server_url))?;
    let root = format!("{}/.well-known/oauth-protected-resource", url.origin);
    let path = url.trimmed_path();
    let mut urls = Vec::new();
    if !path.is_empty() {
        let query = url
            .query
            .as_ref()
            .map(|q| format!("?{q}"))
            .unwrap_or_default();
        urls.push(format!("{root}{path}{query}"));
    }
    urls.push(root);
    Ok(urls)
}

/// Which well-known document a metadata URL serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetadataFlavor {
    /// RFC 8414 `oauth-authorization-server`.
    OAuth,
    /// OpenID Connect Discovery `openid-configuration`.
    OpenId,
}

/// The authorization server metadata URLs for an issuer, in the order the MCP specification
/// gives (2025-11-25, "Authorization Server Metadata Discovery"). Empty for an issuer that is
/// not an http(s) URL.
pub fn auth_server_metadata_urls(issuer: &str) -> Vec<(String, MetadataFlavor)> {
    let Some(url) = HttpUrl::parse(issuer) else {
        return Vec::new();
    };
    let origin = &url.origin;
    let path = url.trimmed_path();
    if path.is_empty() {
        return vec![
            (
                format!("{origin}/.well-known/oauth-authorization-server"),
                MetadataFlavor::OAuth,
            ),
            (
                format!("{origin}/.well-known/openid-configuration"),
                MetadataFlavor::OpenId,
            ),
        ];
    }
    vec![
        (
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            MetadataFlavor::OAuth,
        ),
        (
            format!("{origin}/.well-known/openid-configuration{path}"),
            MetadataFlavor::OpenId,
        ),
        (
            format!("{origin}{path}/.well-known/openid-configuration"),
            MetadataFlavor::OpenId,
        ),
    ]
}

/// Whether a discovery answer with this status means "try the next URL" (not found there)
/// rather than a failure to report: any 4xx, and 502 (the TypeScript SDK's rule).
pub fn try_next_after(status: u16) -> bool {
    (400..500).contains(&status) || status == 502
}

fn strings(value: Option<&Value>) -> Option<Vec<String>> {
    let items = value?.as_array()?;
    Some(
        items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
    )
}

fn string(value: &Value, key: &str) -> Option<String> {
    value
        .get(key)?
        .as_str()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

fn object(text: &str, what: &str) -> Result<Value, AuthErrorKind> {
    let invalid = |detail: String| AuthErrorKind::Invalid {
        what: what.to_owned(),
        detail,
    };
    match serde_json::from_str::<Value>(text) {
        Ok(value @ Value::Object(_)) => Ok(value),
        Ok(_) => Err(invalid("it is JSON but not an object".to_owned())),
        Err(error) => Err(invalid(format!("it is not JSON ({error})"))),
    }
}

/// RFC 9728 Protected Resource Metadata: what MCP reads of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtectedResourceMetadata {
    pub resource: String,
    pub authorization_servers: Vec<String>,
    pub scopes_supported: Option<Vec<String>>,
    /// RFC 9728 §2: the server accepts only DPoP-bound access tokens.
    pub dpop_bound_access_tokens_required: bool,
}

impl ProtectedResourceMetadata {
    /// Reads the document; `resource` is required, non-string list items are ignored.
    pub fn parse(text: &str) -> Result<Self, AuthErrorKind> {
        const WHAT: &str = "the protected resource metadata";
        let value = object(text, WHAT)?;
        let resource = string(&value, "resource").ok_or_else(|| AuthErrorKind::Invalid {
            what: WHAT.to_owned(),
            detail: "it has no \"resource\"".to_owned(),
        })?;
        Ok(Self {
            resource,
            authorization_servers: strings(value.get("authorization_servers")).unwrap_or_default(),
            scopes_supported: strings(value.get("scopes_supported")),
            dpop_bound_access_tokens_required: value.get("dpop_bound_access_tokens_required")
                == Some(&Value::Bool(true)),
        })
    }

    /// The document again, as [`ProtectedResourceMetadata::parse`] reads it (a page keeps
    /// what discovery found across a reload).
    ///
    /// ```
    /// use mcp_lens_protocol::auth::discovery::ProtectedResourceMetadata;
    /// let prm = ProtectedResourceMetadata::parse(r#"{"resource":"https://mcp.example.com/mcp","scopes_supported":["a"]}"#).unwrap();
    /// assert_eq!(ProtectedResourceMetadata::parse(&prm.to_json().to_string()), Ok(prm));
    /// ```
    pub fn to_json(&self) -> Value {
        json!({
            "resource": self.resource,
            "authorization_servers": self.authorization_servers,
            "scopes_supported": self.scopes_supported,
            "dpop_bound_access_tokens_required": self.dpop_bound_access_tokens_required,
        })
    }

    /// The authorization server to use: the first listed (RFC 9728 §7.6 leaves the choice
    /// to the client). `None` when the list is empty (2025-03-26 behaviour then applies).
    pub fn authorization_server(&self) -> Option<&str> {
        self.authorization_servers
            .iter()
            .map(String::as_str)
            .find(|url| HttpUrl::parse(url).is_some())
    }
}

/// Whether a PRM `resource` covers the server's URL: the same origin, and its path is the
/// server's path or a parent of it, segment by segment (`/mcp` covers `/mcp` and `/mcp/x`,
/// not `/mcpx`). A PRM at the root may name the origin as the resource.
pub fn resource_matches(server_url: &str, resource: &str) -> bool {
    let (Some(server), Some(resource)) = (HttpUrl::parse(server_url), HttpUrl::parse(resource))
    else {
        return false;
    };
    if server.origin != resource.origin {
        return false;
    }
    let with_slash = |path: &str| format!("{}/", path.trim_end_matches('/'));
    with_slash(&server.path).starts_with(&with_slash(&resource.path))
}

/// Refuses metadata for another resource; gives the resource to ask tokens for (the PRM's,
/// as the TypeScript SDK does, canonicalized).
pub fn check_resource(
    server_url: &str,
    prm: &ProtectedResourceMetadata,
) -> Result<String, (AuthStep, AuthErrorKind)> {
    if resource_matches(server_url, &prm.resource) {
        let resource = canonical_resource(&prm.resource).unwrap_or_else(|| prm.resource.clone());
        Ok(resource)
    } else {
        Err((
            AuthStep::ResourceMetadata,
            AuthErrorKind::ResourceMismatch {
                resource: prm.resource.clone(),
                server: server_url.to_owned(),
            },
        ))
    }
}

/// Whether credentials may be sent to this URL: HTTPS, or plain HTTP to this machine
/// (RFC 8252 §7.3 loopback: the literal loopback addresses and `localhost`, never a name that
/// merely starts with `127.`, which any DNS server may point anywhere).
///
/// ```
/// use mcp_lens_protocol::auth::discovery::is_secure_endpoint;
/// assert!(is_secure_endpoint("https://as.example.com/token"));
/// assert!(is_secure_endpoint("http://127.0.0.1:9000/token"));
/// assert!(!is_secure_endpoint("http://as.example.com/token"));
/// assert!(!is_secure_endpoint("http://127.evil.example/token"));
/// ```
pub fn is_secure_endpoint(url: &str) -> bool {
    WebUrl::parse(url).is_ok_and(|url| url.is_https() || url.is_loopback())
}

/// An authorization server as the flow uses it: from its metadata document, or the
/// 2025-03-26 defaults when it has none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthServerMetadata {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub registration_endpoint: Option<String>,
    pub scopes_supported: Option<Vec<String>>,
    pub response_types_supported: Option<Vec<String>>,
    pub grant_types_supported: Option<Vec<String>>,
    pub code_challenge_methods_supported: Option<Vec<String>>,
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    /// The JWS algorithms the token endpoint accepts for `private_key_jwt` (RFC 8414 §2).
    pub token_endpoint_auth_signing_alg_values_supported: Option<Vec<String>>,
    /// RFC 9449 §5.1: the algorithms the server accepts in DPoP proofs (absent: no DPoP).
    pub dpop_signing_alg_values_supported: Option<Vec<String>>,
    /// SEP-991: the server accepts an HTTPS URL as `client_id`.
    pub client_id_metadata_document_supported: bool,
    /// RFC 9207: the redirect always carries `iss`.
    pub authorization_response_iss_parameter_supported: bool,
    /// False for [`AuthServerMetadata::fallback`].
    pub from_document: bool,
}

impl AuthServerMetadata {
    /// Reads an RFC 8414 or OpenID discovery document (the fields MCP uses).
    pub fn parse(text: &str) -> Result<Self, AuthErrorKind> {
        const WHAT: &str = "the authorization server metadata";
        let value = object(text, WHAT)?;
        let required = |key: &str| {
            string(&value, key).ok_or_else(|| AuthErrorKind::Invalid {
                what: WHAT.to_owned(),
                detail: format!("it has no \"{key}\""),
            })
        };
        Ok(Self {
            issuer: required("issuer")?,
            authorization_endpoint: string(&value, "authorization_endpoint").unwrap_or_default(),
            token_endpoint: required("token_endpoint")?,
            registration_endpoint: string(&value, "registration_endpoint"),
            scopes_supported: strings(value.get("scopes_supported")),
            response_types_supported: strings(value.get("response_types_supported")),
            grant_types_supported: strings(value.get("grant_types_supported")),
            code_challenge_methods_supported: strings(
                value.get("code_challenge_methods_supported"),
            ),
            token_endpoint_auth_methods_supported: strings(
                value.get("token_endpoint_auth_methods_supported"),
            ),
            token_endpoint_auth_signing_alg_values_supported: strings(
                value.get("token_endpoint_auth_signing_alg_values_supported"),
            ),
            dpop_signing_alg_values_supported: strings(
                value.get("dpop_signing_alg_values_supported"),
            ),
            client_id_metadata_document_supported: value
                .get("client_id_metadata_document_supported")
                == Some(&Value::Bool(true)),
            authorization_response_iss_parameter_supported: value
                .get("authorization_response_iss_parameter_supported")
                == Some(&Value::Bool(true)),
            from_document: true,
        })
    }

    /// The document again, as [`AuthServerMetadata::parse`] reads it (which makes it
    /// `from_document`; a page keeps what discovery found across a reload).
    ///
    /// ```
    /// use mcp_lens_protocol::auth::discovery::AuthServerMetadata;
    /// let metadata = AuthServerMetadata::fallback("http://localhost:3000/mcp").unwrap();
    /// let again = AuthServerMetadata::parse(&metadata.to_json().to_string()).unwrap();
    /// assert_eq!(again, AuthServerMetadata { from_document: true, ..metadata });
    /// ```
    pub fn to_json(&self) -> Value {
        json!({
            "issuer": self.issuer,
            "authorization_endpoint": self.authorization_endpoint,
            "token_endpoint": self.token_endpoint,
            "registration_endpoint": self.registration_endpoint,
            "scopes_supported": self.scopes_supported,
            "response_types_supported": self.response_types_supported,
            "grant_types_supported": self.grant_types_supported,
            "code_challenge_methods_supported": self.code_challenge_methods_supported,
            "token_endpoint_auth_methods_supported": self.token_endpoint_auth_methods_supported,
            "token_endpoint_auth_signing_alg_values_supported":
                self.token_endpoint_auth_signing_alg_values_supported,
            "dpop_signing_alg_values_supported": self.dpop_signing_alg_values_supported,
            "client_id_metadata_document_supported": self.client_id_metadata_document_supported,
            "authorization_response_iss_parameter_supported":
                self.authorization_response_iss_parameter_supported,
        })
    }

    /// The 2025-03-26 defaults for a server with neither PRM nor metadata: its origin is the
    /// authorization server, with `/authorize`, `/token` and `/register`.
    ///
    /// ```
    /// use mcp_lens_protocol::auth::discovery::AuthServerMetadata;
    /// let fallback = AuthServerMetadata::fallback("http://localhost:3000/mcp").unwrap();
    /// assert_eq!(fallback.token_endpoint, "http://localhost:3000/token");
    /// ```
    pub fn fallback(server_url: &str) -> Option<Self> {
        let origin = HttpUrl::parse(server_url)?.origin;
        Some(Self {
            authorization_endpoint: format!("{origin}/authorize"),
            token_endpoint: format!("{origin}/token"),
            registration_endpoint: Some(format!("{origin}/register")),
            issuer: origin,
            scopes_supported: None,
            response_types_supported: None,
            grant_types_supported: None,
            code_challenge_methods_supported: None,
            token_endpoint_auth_methods_supported: None,
            token_endpoint_auth_signing_alg_values_supported: None,
            dpop_signing_alg_values_supported: None,
            client_id_metadata_document_supported: false,
            authorization_response_iss_parameter_supported: false,
            from_document: false,
        })
    }

    /// For a 2025-03-26 server with no Protected Resource Metadata: the issuer is the MCP
    /// server's origin, whatever the document (served by that server) names, since nothing
    /// vouches for another. Otherwise a hostile server could name a real authorization
    /// server's issuer and collect an assertion or ID-JAG whose audience is that server, valid
    /// there. Returns the issuer the document named when it was another.
    ///
    /// ```
    /// use mcp_lens_protocol::auth::discovery::AuthServerMetadata;
    /// let mut metadata = AuthServerMetadata::fallback("https://mcp.example.com/mcp").unwrap();
    /// metadata.issuer = "https://real-as.example.com".into();
    /// assert_eq!(metadata.bind_to_origin("https://mcp.example.com").as_deref(), Some("https://real-as.example.com"));
    /// assert_eq!(metadata.issuer, "https://mcp.example.com");
    /// assert_eq!(metadata.bind_to_origin("https://mcp.example.com"), None);
    /// ```
    pub fn bind_to_origin(&mut self, origin: &str) -> Option<String> {
        if self.issuer.trim_end_matches('/') == origin.trim_end_matches('/') {
            return None;
        }
        Some(std::mem::replace(&mut self.issuer, origin.to_owned()))
    }

    /// Checks the document fetched for `issuer`: the same issuer (RFC 8414 §3.3; a trailing
    /// slash aside) unless `legacy` (2025-03-26: metadata at the MCP server's origin, whose
    /// issuer the client cannot know), http(s) endpoints, and, when the flow needs it
    /// (`code_flow`), the code response type and PKCE with S256. The MCP specification makes
    /// an absent `code_challenge_methods_supported` a refusal.
    pub fn validate(
        &self,
        issuer: &str,
        legacy: bool,
        code_flow: bool,
    ) -> Result<(), AuthErrorKind> {
        let same_issuer = self.issuer == issuer
            || self.issuer.trim_end_matches('/') == issuer.trim_end_matches('/');
        if !legacy && !same_issuer {
            return Err(AuthErrorKind::IssuerMismatch {
                expected: issuer.to_owned(),
                found: self.issuer.clone(),
            });
        }
        let invalid = |detail: String| AuthErrorKind::Invalid {
            what: "the authorization server metadata".to_owned(),
            detail,
        };
        let mut endpoints = vec![("token_endpoint", Some(&self.token_endpoint))];
        endpoints.push(("registration_endpoint", self.registration_endpoint.as_ref()));
        if code_flow {
            endpoints.push(("authorization_endpoint", Some(&self.authorization_endpoint)));
        }
        for (name, url) in endpoints {
            if let Some(url) = url {
                if HttpUrl::parse(url).is_none() {
                    return Err(invalid(format!(
                        "its {name} \"{url}\" is not an http(s) URL"
                    )));
                }
            }
        }
        if !code_flow || !self.from_document {
            return Ok(());
        }
        if let Some(types) = &self.response_types_supported {
            if !types.iter().any(|t| t == "code") {
                return Err(invalid(
                    "its response_types_supported lacks \"code\"".to_owned(),
                ));
            }
        }
        match &self.code_challenge_methods_supported {
            Some(methods) if methods.iter().any(|m| m == S256) => Ok(()),
            methods => Err(AuthErrorKind::NoPkceS256 {
                methods: methods.clone(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prm_urls_in_the_spec_order() {
        assert_eq!(
            prm_urls("http://localhost:3000/mcp").unwrap(),
            [
                "http://localhost:3000/.well-known/oauth-protected-resource/mcp",
                "http://localhost:3000/.well-known/oauth-protected-resource"
            ]
        );
        assert_eq!(
            prm_urls("https://EXAMPLE.com:443/").unwrap(),
            ["https://example.com/.well-known/oauth-protected-resource"]
        );
        assert_eq!(
            prm_urls("https://example.com/a/mcp/?t=1#f").unwrap()[0],
            "https://example.com/.well-known/oauth-protected-resource/a/mcp?t=1"
        );
        assert!(prm_urls("/mcp").is_err());
    }

    #[test]
    fn metadata_urls_for_root_and_path_issuers() {
        let root = auth_server_metadata_urls("https://auth.example.com/");
        assert_eq!(
            root,
            [
                (
                    "https://auth.example.com/.well-known/oauth-authorization-server".to_owned(),
                    MetadataFlavor::OAuth
                ),
                (
                    "https://auth.example.com/.well-known/openid-configuration".to_owned(),
                    MetadataFlavor::OpenId
                )
            ]
        );
        // Never the root RFC 8414 URL for an issuer with a path (conformance metadata-var2/3).
        let tenant = auth_server_metadata_urls("http://localhost:4000/tenant1/");
        assert_eq!(tenant.len(), 3);
        assert!(tenant
            .iter()
            .all(|(url, _)| url != "http://localhost:4000/.well-known/oauth-authorization-server"));
        assert!(auth_server_metadata_urls("not a url").is_empty());
    }

    #[test]
    fn resources_match_by_origin_and_path_segments() {
        let server = "http://localhost:3000/mcp";
        for ok in [
            "http://localhost:3000/mcp",
            "http://LOCALHOST:3000/mcp/",
            "http://localhost:3000",
            "http://localhost:3000/",
        ] {
            assert!(resource_matches(server, ok), "{ok}");
        }
        for bad in [
            "https://evil.example.com/mcp",
            "http://localhost:3001/mcp",
            "https://localhost:3000/mcp",
            "http://localhost:3000/mc",
            "http://localhost:3000/mcp/deeper",
            "",
        ] {
            assert!(!resource_matches(server, bad), "{bad}");
        }
        let prm = ProtectedResourceMetadata::parse(
            r#"{"resource":"https://evil.example.com/mcp","authorization_servers":["http://localhost:4000"]}"#,
        )
        .unwrap();
        let (step, kind) = check_resource(server, &prm).unwrap_err();
        let error = super::super::AuthError::new(step, kind);
        assert!(
            error.to_string().contains("https://evil.example.com/mcp"),
            "{error}"
        );
        let prm = ProtectedResourceMetadata::parse(
            r#"{"resource":"HTTP://localhost:3000/mcp","authorization_servers":[7,"x","http://localhost:4000"],"scopes_supported":["a"]}"#,
        )
        .unwrap();
        assert_eq!(
            check_resource(server, &prm).unwrap(),
            "http://localhost:3000/mcp"
        );
        assert_eq!(prm.authorization_server(), Some("http://localhost:4000"));
        assert!(!prm.dpop_bound_access_tokens_required);
        let dpop = ProtectedResourceMetadata::parse(
            r#"{"resource":"http://localhost:3000/mcp","dpop_bound_access_tokens_required":true}"#,
        )
        .unwrap();
        assert!(dpop.dpop_bound_access_tokens_required);
        assert_eq!(
            ProtectedResourceMetadata::parse(&dpop.to_json().to_string()),
            Ok(dpop)
        );
    }

    #[test]
    fn metadata_is_validated() {
        let text = r#"{"issuer":"http://localhost:4000/tenant1","authorization_endpoint":"http://localhost:4000/tenant1/authorize",
            "token_endpoint":"http://localhost:4000/tenant1/token","registration_endpoint":"http://localhost:4000/tenant1/register",
            "response_types_supported":["code"],"code_challenge_methods_supported":["S256"],
            "client_id_metadata_document_supported":true}"#;
        let metadata = AuthServerMetadata::parse(text).unwrap();
        assert!(metadata.client_id_metadata_document_supported);
        assert_eq!(metadata.dpop_signing_alg_values_supported, None);
        let dpop = AuthServerMetadata::parse(
            r#"{"issuer":"http://localhost:4000","token_endpoint":"http://localhost:4000/token","dpop_signing_alg_values_supported":["ES256"]}"#,
        )
        .unwrap();
        assert_eq!(
            dpop.dpop_signing_alg_values_supported,
            Some(vec!["ES256".to_owned()])
        );
        assert_eq!(
            AuthServerMetadata::parse(&dpop.to_json().to_string()),
            Ok(dpop)
        );
        assert!(metadata
            .validate("http://localhost:4000/tenant1/", false, true)
            .is_ok());
        assert!(matches!(
            metadata.validate("http://localhost:4000", false, true),
            Err(AuthErrorKind::IssuerMismatch { .. })
        ));
        // 2025-03-26: metadata at the MCP server's origin names its own issuer.
        assert!(metadata
            .validate("http://localhost:4000", true, true)
            .is_ok());
        let no_pkce = AuthServerMetadata {
            code_challenge_methods_supported: None,
            ..metadata.clone()
        };
        assert_eq!(
            no_pkce.validate("http://localhost:4000/tenant1", false, true),
            Err(AuthErrorKind::NoPkceS256 { methods: None })
        );
        // client_credentials needs no PKCE.
        assert!(no_pkce
            .validate("http://localhost:4000/tenant1", false, false)
            .is_ok());
        let plain = AuthServerMetadata {
            code_challenge_methods_supported: Some(vec!["plain".into()]),
            ..metadata.clone()
        };
        assert!(plain
            .validate("http://localhost:4000/tenant1", false, true)
            .is_err());
        let bad_endpoint = AuthServerMetadata {
            token_endpoint: "javascript:alert(1)".into(),
            ..metadata
        };
        assert!(bad_endpoint
            .validate("http://localhost:4000/tenant1", false, true)
            .is_err());
        for bad in ["[]", "{", r#"{"issuer":"x"}"#, r#"{"token_endpoint":"x"}"#] {
            assert!(AuthServerMetadata::parse(bad).is_err(), "{bad}");
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// Objects with the keys the readers look for, holding anything.
    fn metadata_shaped() -> impl Strategy<Value = Value> {
        let key = prop_oneof![
            Just("issuer"),
            Just("resource"),
            Just("authorization_servers"),
            Just("scopes_supported"),
            Just("authorization_endpoint"),
            Just("token_endpoint"),
            Just("registration_endpoint"),
            Just("code_challenge_methods_supported"),
            Just("response_types_supported"),
            Just("client_id_metadata_document_supported"),
        ]
        .prop_map(str::to_owned);
        let value = prop_oneof![
            crate::arbitrary::json(),
            "(https?://)?[a-z:/.]{0,12}".prop_map(Value::String),
            Just(json!(["S256"])),
            Just(json!(["code"])),
            Just(json!(true)),
        ];
        proptest::collection::vec((key, value), 0..12)
            .prop_map(|entries| Value::Object(entries.into_iter().collect()))
    }

    proptest! {
        #[test]
        fn any_url_text_is_handled(url in "(https?://|[a-z]{0,5}:?/{0,3})[^ ]{0,30}", other in ".{0,30}") {
            let _ = prm_urls(&url);
            let _ = auth_server_metadata_urls(&url);
            let _ = canonical_resource(&url);
            let _ = resource_matches(&url, &other);
            let _ = is_secure_endpoint(&url);
            let _ = AuthServerMetadata::fallback(&url);
        }

        #[test]
        fn any_metadata_text_is_handled(text in ".{0,200}") {
            let _ = ProtectedResourceMetadata::parse(&text);
            let _ = AuthServerMetadata::parse(&text);
        }

        #[test]
        fn any_metadata_json_is_handled(value in prop_oneof![crate::arbitrary::json(), metadata_shaped()]) {
            let text = value.to_string();
            if let Ok(prm) = ProtectedResourceMetadata::parse(&text) {
                let _ = check_resource("http://localhost:3000/mcp", &prm);
                let _ = prm.authorization_server();
            }
            if let Ok(metadata) = AuthServerMetadata::parse(&text) {
                let _ = metadata.validate("http://localhost:4000", false, true);
            }
        }
    }
}
