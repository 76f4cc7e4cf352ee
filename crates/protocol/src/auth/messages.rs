//! The messages of the flow: the authorization URL, token requests (authorization code,
//! refresh token, client credentials) with client authentication as registered, token and
//! error answers, Dynamic Client Registration (RFC 7591), the Client ID Metadata Document
//! (SEP-991), and the redirect back.
//!
//! ```
//! use mcp_lens_protocol::auth::messages::{AuthorizationRequest, ClientAuthMethod, ClientId, Grant, token_request};
//! let url = AuthorizationRequest {
//!     authorization_endpoint: "https://as.example.com/authorize",
//!     client_id: "abc",
//!     redirect_uri: "https://app.example/callback",
//!     code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
//!     state: "xyz",
//!     scope: Some("mcp:read"),
//!     resource: Some("https://mcp.example.com/mcp"),
//! }.url();
//! assert!(url.starts_with("https://as.example.com/authorize?response_type=code&client_id=abc&"));
//! let client = ClientId::new("abc", Some("s3cret".into()), ClientAuthMethod::ClientSecretBasic);
//! let request = token_request(&Grant::ClientCredentials { scope: None }, &client, Some("https://mcp.example.com/mcp"));
//! assert_eq!(request.body, "grant_type=client_credentials&resource=https%3A%2F%2Fmcp.example.com%2Fmcp");
//! assert!(request.headers.iter().any(|(name, value)| name == "authorization" && value.starts_with("Basic ")));
//! ```

use super::encode::{base64, decode_query, form_component, form_encode, with_query};
use super::pkce::S256;
use super::scope::OFFLINE_ACCESS;
use super::{AuthErrorKind, AuthStep};
use crate::error::excerpt;
use serde_json::{json, Value};
use std::fmt;

/// The authorization request (OAuth 2.1 §4.1.1 with PKCE, RFC 8707 `resource`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AuthorizationRequest<'a> {
    pub authorization_endpoint: &'a str,
    pub client_id: &'a str,
    pub redirect_uri: &'a str,
    pub code_challenge: &'a str,
    pub state: &'a str,
    pub scope: Option<&'a str>,
    pub resource: Option<&'a str>,
}

impl AuthorizationRequest<'_> {
    /// The URL to open. Asking for `offline_access` adds `prompt=consent` (OpenID Connect
    /// Core §11 grants it only then).
    pub fn url(&self) -> String {
        let mut pairs = vec![
            ("response_type", "code"),
            ("client_id", self.client_id),
            ("redirect_uri", self.redirect_uri),
            ("code_challenge", self.code_challenge),
            ("code_challenge_method", S256),
            ("state", self.state),
        ];
        if let Some(scope) = self.scope {
            pairs.push(("scope", scope));
            if scope.split_ascii_whitespace().any(|s| s == OFFLINE_ACCESS) {
                pairs.push(("prompt", "consent"));
            }
        }
        if let Some(resource) = self.resource {
            pairs.push(("resource", resource));
        }
        with_query(self.authorization_endpoint, &form_encode(&pairs))
    }
}

/// How the client proves itself at the token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientAuthMethod {
    /// A public client: `client_id` in the body.
    None,
    /// `Authorization: Basic` with the id and secret (RFC 6749 §2.3.1).
    ClientSecretBasic,
    /// `client_id` and `client_secret` in the body.
    ClientSecretPost,
    /// A JWT signed with the client's private key (RFC 7523 §2.2): `client_assertion` in
    /// the body, added by [`TokenRequest::with_client_assertion`].
    PrivateKeyJwt,
}

impl ClientAuthMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            ClientAuthMethod::None => "none",
            ClientAuthMethod::ClientSecretBasic => "client_secret_basic",
            ClientAuthMethod::ClientSecretPost => "client_secret_post",
            ClientAuthMethod::PrivateKeyJwt => "private_key_jwt",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "none" => Some(ClientAuthMethod::None),
            "client_secret_basic" => Some(ClientAuthMethod::ClientSecretBasic),
            "client_secret_post" => Some(ClientAuthMethod::ClientSecretPost),
            "private_key_jwt" => Some(ClientAuthMethod::PrivateKeyJwt),
            _ => None,
        }
    }

    /// The method to use (the TypeScript SDK's rule): the one registered, if the server
    /// supports it; else, with a secret, Basic then post; else `none`. A server that lists
    /// no methods supports `client_secret_basic` (RFC 8414 §2).
    ///
    /// ```
    /// use mcp_lens_protocol::auth::messages::ClientAuthMethod;
    /// let only_post = vec!["client_secret_post".to_owned()];
    /// assert_eq!(ClientAuthMethod::select(None, true, Some(&only_post)), ClientAuthMethod::ClientSecretPost);
    /// assert_eq!(ClientAuthMethod::select(None, true, None), ClientAuthMethod::ClientSecretBasic);
    /// assert_eq!(ClientAuthMethod::select(None, false, None), ClientAuthMethod::None);
    /// ```
    pub fn select(
        registered: Option<&str>,
        has_secret: bool,
        supported: Option<&[String]>,
    ) -> Self {
        let supported = supported.unwrap_or_default();
        let listed = |method: ClientAuthMethod| supported.iter().any(|s| s == method.as_str());
        if let Some(method) = registered.and_then(Self::parse) {
            let usable = match method {
                ClientAuthMethod::None => true,
                ClientAuthMethod::PrivateKeyJwt => false, // chosen with a key, not here
                _ => has_secret,
            };
            if usable && (supported.is_empty() || listed(method)) {
                return method;
            }
        }
        if !has_secret {
            return ClientAuthMethod::None;
        }
        if supported.is_empty() || listed(ClientAuthMethod::ClientSecretBasic) {
            ClientAuthMethod::ClientSecretBasic
        } else if listed(ClientAuthMethod::ClientSecretPost) {
            ClientAuthMethod::ClientSecretPost
        } else if listed(ClientAuthMethod::None) {
            ClientAuthMethod::None
        } else {
            ClientAuthMethod::ClientSecretPost
        }
    }
}

/// The client's identity at one authorization server. `Debug` hides the secret.
#[derive(Clone, PartialEq, Eq)]
pub struct ClientId {
    pub client_id: String,
    client_secret: Option<String>,
    pub method: ClientAuthMethod,
}

impl ClientId {
    pub fn new(
        client_id: impl Into<String>,
        client_secret: Option<String>,
        method: ClientAuthMethod,
    ) -> Self {
        Self {
            client_id: client_id.into(),
            client_secret: client_secret.filter(|s| !s.is_empty()),
            method,
        }
    }

    pub fn has_secret(&self) -> bool {
        self.client_secret.is_some()
    }

    /// The secret, for the token request only.
    pub fn secret(&self) -> Option<&str> {
        self.client_secret.as_deref()
    }
}

impl fmt::Debug for ClientId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientId")
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "[redacted]"),
            )
            .field("method", &self.method)
            .finish()
    }
}

/// What a token request asks for.
#[derive(Clone, PartialEq, Eq)]
pub enum Grant {
    AuthorizationCode {
        code: String,
        verifier: String,
        redirect_uri: String,
    },
    RefreshToken {
        refresh_token: String,
    },
    ClientCredentials {
        scope: Option<String>,
    },
    /// Cross-app access, at the identity provider (RFC 8693 token exchange, SEP-990): the
    /// person's ID token for an Identity Assertion JWT Authorization Grant (ID-JAG) that
    /// names the MCP server's authorization server (`audience`) and the server (`resource`).
    TokenExchange {
        id_token: String,
        audience: String,
        scope: Option<String>,
    },
    /// Cross-app access, at the MCP server's authorization server (RFC 7523 §2.1): the
    /// ID-JAG for an access token.
    JwtBearer {
        assertion: String,
        scope: Option<String>,
    },
}

/// RFC 8693's grant type, and the token types cross-app access exchanges.
pub const GRANT_TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
pub const GRANT_JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
pub const TOKEN_TYPE_ID_TOKEN: &str = "urn:ietf:params:oauth:token-type:id_token";
pub const TOKEN_TYPE_ID_JAG: &str = "urn:ietf:params:oauth:token-type:id-jag";

impl Grant {
    pub fn name(&self) -> &'static str {
        match self {
            Grant::AuthorizationCode { .. } => "authorization_code",
            Grant::RefreshToken { .. } => "refresh_token",
            Grant::ClientCredentials { .. } => "client_credentials",
            Grant::TokenExchange { .. } => GRANT_TOKEN_EXCHANGE,
            Grant::JwtBearer { .. } => GRANT_JWT_BEARER,
        }
    }
}

/// A form POST to the token endpoint: headers and body. Both hold secrets: log them only
/// through [`TokenRequest::redacted_body`].
#[derive(Clone, PartialEq, Eq)]
pub struct TokenRequest {
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl TokenRequest {
    /// The body with every secret value replaced by `[redacted]` ([`super::redact`]'s rule).
    pub fn redacted_body(&self) -> String {
        super::redact::redact_form(&self.body)
    }
}

impl fmt::Debug for TokenRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenRequest")
            .field("body", &self.redacted_body())
            .finish_non_exhaustive()
    }
}

impl TokenRequest {
    /// Adds a signed `private_key_jwt` client assertion (see [`super::jwt`]).
    pub fn with_client_assertion(mut self, assertion: &str) -> Self {
        let pairs = [
            (
                "client_assertion_type",
                super::jwt::ASSERTION_TYPE_JWT_BEARER,
            ),
            ("client_assertion", assertion),
        ];
        self.body.push('&');
        self.body.push_str(&form_encode(&pairs));
        self
    }
}

/// The token request for `grant` by `client`, for `resource` (RFC 8707; sent on every
/// grant, so refreshed tokens stay bound to it).
pub fn token_request(grant: &Grant, client: &ClientId, resource: Option<&str>) -> TokenRequest {
    grant_request(grant, Some(client), resource)
}

/// A token request that names no client: workload identity federation's JWT bearer grant
/// needs none (the workload JWT is the credential), and an authorization server may refuse
/// a `client_id` it never registered.
///
/// ```
/// use mcp_lens_protocol::auth::messages::{clientless_token_request, Grant};
/// let request = clientless_token_request(&Grant::JwtBearer { assertion: "a.b.c".into(), scope: None }, None);
/// assert_eq!(request.body, "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=a.b.c");
/// ```
pub fn clientless_token_request(grant: &Grant, resource: Option<&str>) -> TokenRequest {
    grant_request(grant, None, resource)
}

fn grant_request(grant: &Grant, client: Option<&ClientId>, resource: Option<&str>) -> TokenRequest {
    let mut pairs: Vec<(&str, &str)> = vec![("grant_type", grant.name())];
    match grant {
        Grant::AuthorizationCode {
            code,
            verifier,
            redirect_uri,
        } => {
            pairs.push(("code", code));
            pairs.push(("code_verifier", verifier));
            pairs.push(("redirect_uri", redirect_uri));
        }
        Grant::RefreshToken { refresh_token } => pairs.push(("refresh_token", refresh_token)),
        Grant::ClientCredentials { scope } => {
            if let Some(scope) = scope {
                pairs.push(("scope", scope));
            }
        }
        Grant::TokenExchange {
            id_token,
            audience,
            scope,
        } => {
            pairs.push(("requested_token_type", TOKEN_TYPE_ID_JAG));
            pairs.push(("audience", audience));
            pairs.push(("subject_token", id_token));
            pairs.push(("subject_token_type", TOKEN_TYPE_ID_TOKEN));
            if let Some(scope) = scope {
                pairs.push(("scope", scope));
            }
        }
        Grant::JwtBearer { assertion, scope } => {
            pairs.push(("assertion", assertion));
            if let Some(scope) = scope {
                pairs.push(("scope", scope));
            }
        }
    }
    if let Some(resource) = resource {
        pairs.push(("resource", resource));
    }
    let mut headers = vec![
        (
            "content-type".to_owned(),
            "application/x-www-form-urlencoded".to_owned(),
        ),
        ("accept".to_owned(), "application/json".to_owned()),
    ];
    let Some(client) = client else {
        return TokenRequest {
            headers,
            body: form_encode(&pairs),
        };
    };
    let secret = client.secret().unwrap_or("");
    match client.method {
        ClientAuthMethod::ClientSecretBasic => {
            // RFC 6749 §2.3.1: each part form-encoded, then joined and base64-encoded.
            let credentials = format!(
                "{}:{}",
                form_component(&client.client_id),
                form_component(secret)
            );
            headers.push((
                "authorization".to_owned(),
                format!("Basic {}", base64(credentials.as_bytes())),
            ));
        }
        ClientAuthMethod::ClientSecretPost => {
            pairs.push(("client_id", &client.client_id));
            pairs.push(("client_secret", secret));
        }
        ClientAuthMethod::None | ClientAuthMethod::PrivateKeyJwt => {
            pairs.push(("client_id", &client.client_id))
        }
    }
    TokenRequest {
        headers,
        body: form_encode(&pairs),
    }
}

/// Tokens from the token endpoint. `Debug` hides both tokens.
#[derive(Clone, PartialEq, Eq)]
pub struct Tokens {
    access_token: String,
    refresh_token: Option<String>,
    pub token_type: String,
    /// Seconds the access token lives, as the server said.
    pub expires_in: Option<u64>,
    /// The granted scope, when the server says (else what was asked).
    pub scope: Option<String>,
}

impl Tokens {
    /// Tokens from elsewhere (a person's paste, storage).
    pub fn new(access_token: impl Into<String>, refresh_token: Option<String>) -> Self {
        Self {
            access_token: access_token.into(),
            refresh_token: refresh_token.filter(|t| !t.is_empty()),
            token_type: "Bearer".to_owned(),
            expires_in: None,
            scope: None,
        }
    }

    /// Sent only as `Authorization: Bearer` to the server's own origin.
    pub fn access_token(&self) -> &str {
        &self.access_token
    }

    pub fn refresh_token(&self) -> Option<&str> {
        self.refresh_token.as_deref()
    }

    /// Bound to a DPoP key: presented as `Authorization: DPoP …` with a proof on every
    /// request ([`super::dpop`]), never as Bearer.
    pub fn is_dpop(&self) -> bool {
        self.token_type.eq_ignore_ascii_case(super::dpop::SCHEME)
    }

    /// A refresh answer without a new refresh token keeps the old one (RFC 6749 §6).
    pub fn keeping_refresh_token(mut self, previous: Option<&str>) -> Self {
        if self.refresh_token.is_none() {
            self.refresh_token = previous.map(str::to_owned);
        }
        self
    }
}

impl fmt::Debug for Tokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tokens")
            .field("access_token", &"[redacted]")
            .field(
                "refresh_token",
                &self.refresh_token.as_ref().map(|_| "[redacted]"),
            )
            .field("token_type", &self.token_type)
            .field("expires_in", &self.expires_in)
            .field("scope", &self.scope)
            .finish()
    }
}

fn oauth_error(value: &Value) -> Option<AuthErrorKind> {
    let error = value.get("error")?.as_str()?;
    Some(AuthErrorKind::OAuth {
        error: excerpt(error, 100),
        description: value
            .get("error_description")
            .and_then(Value::as_str)
            .map(|d| excerpt(d, 500)),
    })
}

/// The start of an answer's body for an error: secrets quoted in it replaced first, since the
/// error is shown, logged and exported.
fn body_start(body: &str) -> String {
    excerpt(&super::redact::redact_text(body), 500)
}

/// Reads a token endpoint's answer: tokens on 2xx (an OAuth error object even with 200, as
/// some servers send, is an error), the OAuth error otherwise.
///
/// ```
/// use mcp_lens_protocol::auth::messages::parse_token_answer;
/// let tokens = parse_token_answer("https://as/token", 200, r#"{"access_token":"at","token_type":"bearer","expires_in":3600}"#).unwrap();
/// assert_eq!((tokens.access_token(), tokens.expires_in), ("at", Some(3600)));
/// assert!(parse_token_answer("https://as/token", 400, r#"{"error":"invalid_grant"}"#).is_err());
/// ```
pub fn parse_token_answer(url: &str, status: u16, body: &str) -> Result<Tokens, AuthErrorKind> {
    parse_bound_token_answer(url, status, body, false)
}

/// [`parse_token_answer`] for a request that carried a DPoP proof: a `DPoP` token (bound to
/// the proof's key) is usable then, and so is a Bearer one from a server that ignored the
/// proof (RFC 9449 §5). See [`Tokens::is_dpop`].
///
/// ```
/// use mcp_lens_protocol::auth::messages::parse_bound_token_answer;
/// let tokens = parse_bound_token_answer("https://as/token", 200, r#"{"access_token":"at","token_type":"DPoP"}"#, true).unwrap();
/// assert!(tokens.is_dpop());
/// assert!(parse_bound_token_answer("https://as/token", 200, r#"{"access_token":"at","token_type":"DPoP"}"#, false).is_err());
/// ```
pub fn parse_bound_token_answer(
    url: &str,
    status: u16,
    body: &str,
    proof_sent: bool,
) -> Result<Tokens, AuthErrorKind> {
    let value: Option<Value> = serde_json::from_str(body).ok();
    if let Some(error) = value.as_ref().and_then(oauth_error) {
        return Err(error);
    }
    if !(200..300).contains(&status) {
        return Err(AuthErrorKind::HttpStatus {
            url: url.to_owned(),
            status,
            body_start: body_start(body),
        });
    }
    let invalid = |detail: &str| AuthErrorKind::Invalid {
        what: "the token answer".to_owned(),
        detail: detail.to_owned(),
    };
    let value = value
        .filter(Value::is_object)
        .ok_or_else(|| invalid("it is not a JSON object"))?;
    let access_token = value
        .get("access_token")
        .and_then(Value::as_str)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| invalid("it has no access_token"))?;
    let token_type = value
        .get("token_type")
        .and_then(Value::as_str)
        .unwrap_or("Bearer");
    let usable = token_type.eq_ignore_ascii_case("bearer")
        || (proof_sent && token_type.eq_ignore_ascii_case(super::dpop::SCHEME));
    if !usable {
        let supported = if proof_sent {
            "Bearer and DPoP tokens are"
        } else {
            "Bearer tokens are"
        };
        return Err(invalid(&format!(
            "its token_type is {}, and only {supported} supported",
            excerpt(token_type, 40)
        )));
    }
    let expires_in = match value.get("expires_in") {
        Some(Value::Number(n)) => n
            .as_u64()
            .or_else(|| n.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64)),
        Some(Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    };
    Ok(Tokens {
        access_token: access_token.to_owned(),
        refresh_token: value
            .get("refresh_token")
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
            .map(str::to_owned),
        token_type: token_type.to_owned(),
        expires_in,
        scope: value
            .get("scope")
            .and_then(Value::as_str)
            .map(str::to_owned),
    })
}

/// Reads the identity provider's answer to a cross-app access token exchange: the ID-JAG
/// (in `access_token`, RFC 8693 §2.2.1), refused unless `issued_token_type` says it is one.
///
/// ```
/// use mcp_lens_protocol::auth::messages::parse_id_jag_answer;
/// let answer = r#"{"access_token":"eyJ.x.y","issued_token_type":"urn:ietf:params:oauth:token-type:id-jag","token_type":"N_A"}"#;
/// assert_eq!(parse_id_jag_answer("https://idp/token", 200, answer).unwrap(), "eyJ.x.y");
/// let wrong = r#"{"access_token":"a","issued_token_type":"urn:ietf:params:oauth:token-type:access_token"}"#;
/// assert!(parse_id_jag_answer("https://idp/token", 200, wrong).is_err());
/// ```
pub fn parse_id_jag_answer(url: &str, status: u16, body: &str) -> Result<String, AuthErrorKind> {
    let value: Option<Value> = serde_json::from_str(body).ok();
    if let Some(error) = value.as_ref().and_then(oauth_error) {
        return Err(error);
    }
    if !(200..300).contains(&status) {
        return Err(AuthErrorKind::HttpStatus {
            url: url.to_owned(),
            status,
            body_start: body_start(body),
        });
    }
    let invalid = |detail: String| AuthErrorKind::Invalid {
        what: "the identity provider's token exchange answer".to_owned(),
        detail,
    };
    let value = value
        .filter(Value::is_object)
        .ok_or_else(|| invalid("it is not a JSON object".to_owned()))?;
    match value.get("issued_token_type").and_then(Value::as_str) {
        Some(TOKEN_TYPE_ID_JAG) => {}
        Some(other) => {
            return Err(invalid(format!(
                "it issued a {}, not an ID-JAG ({TOKEN_TYPE_ID_JAG})",
                excerpt(other, 80)
            )))
        }
        None => {
            return Err(invalid(
                "it has no issued_token_type (RFC 8693 requires it)".to_owned(),
            ))
        }
    }
    value
        .get("access_token")
        .and_then(Value::as_str)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .ok_or_else(|| invalid("it has no access_token (the ID-JAG)".to_owned()))
}

/// The grant types a browser client registers: codes, and refresh tokens (SEP-2207).
pub const GRANT_TYPES: [&str; 2] = ["authorization_code", "refresh_token"];

/// `native` for loopback or custom-scheme redirects (RFC 8252), else `web` (SEP-837).
fn application_type(redirect_uris: &[&str]) -> &'static str {
    let native = redirect_uris.iter().any(|uri| {
        let lower = uri.to_ascii_lowercase();
        !(lower.starts_with("http://") || lower.starts_with("https://"))
            || super::discovery::HttpUrl::parse(uri).is_some_and(|url| {
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
    let parsed = super::discovery::HttpUrl::parse(url);
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

/// What the redirect brought back (its query), read leniently.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Callback {
    pub code: Option<String>,
    pub state: Option<String>,
    pub iss: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
}

impl fmt::Debug for Callback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Callback")
            .field("code", &self.code.as_ref().map(|_| "[redacted]"))
            .field("state", &self.state)
            .field("iss", &self.iss)
            .field("error", &self.error)
            .field("error_description", &self.error_description)
            .finish()
    }
}

impl Callback {
    /// From the redirect URL or its query string.
    ///
    /// ```
    /// use mcp_lens_protocol::auth::messages::Callback;
    /// let callback = Callback::parse("https://app.example/callback?code=c%2B1&state=s");
    /// assert_eq!(callback.check("s", "https://as", false), Ok("c+1".to_owned()));
    /// assert!(callback.check("other", "https://as", false).is_err());
    /// ```
    pub fn parse(url_or_query: &str) -> Self {
        let mut callback = Callback::default();
        for (name, value) in decode_query(url_or_query) {
            let slot = match name.as_str() {
                "code" => &mut callback.code,
                "state" => &mut callback.state,
                "iss" => &mut callback.iss,
                "error" => &mut callback.error,
                "error_description" => &mut callback.error_description,
                _ => continue,
            };
            if slot.is_none() {
                *slot = Some(value);
            }
        }
        callback
    }

    /// The code, once the answer is proved to be this flow's: the same `state`, then the
    /// same issuer, character for character, whenever it says one (RFC 9207; required when
    /// the server promised it). An
    /// error is reported only after those checks, so a forged redirect cannot put words in
    /// the auth view.
    pub fn check(
        &self,
        state: &str,
        issuer: &str,
        iss_required: bool,
    ) -> Result<String, (AuthStep, AuthErrorKind)> {
        let fail = |kind| Err((AuthStep::Callback, kind));
        if self.state.as_deref() != Some(state) {
            return fail(AuthErrorKind::StateMismatch);
        }
        match &self.iss {
            // RFC 9207 §2.4: a simple string comparison, no normalization.
            Some(iss) if iss != issuer => {
                return fail(AuthErrorKind::IssuerMismatch {
                    expected: issuer.to_owned(),
                    found: iss.clone(),
                })
            }
            None if iss_required => {
                return fail(AuthErrorKind::IssuerMismatch {
                    expected: issuer.to_owned(),
                    found: "nothing".to_owned(),
                })
            }
            _ => {}
        }
        if let Some(error) = &self.error {
            return fail(AuthErrorKind::Denied {
                error: excerpt(error, 100),
                description: self.error_description.as_deref().map(|d| excerpt(d, 500)),
            });
        }
        match &self.code {
            Some(code) if !code.is_empty() => Ok(code.clone()),
            _ => fail(AuthErrorKind::Invalid {
                what: "the redirect".to_owned(),
                detail: "it carries neither a code nor an error".to_owned(),
            }),
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_answer_is_handled(status in any::<u16>(), body in prop_oneof![".{0,100}".boxed(), crate::arbitrary::json().prop_map(|v| v.to_string()).boxed()]) {
            let _ = parse_token_answer("u", status, &body);
            let _ = RegisteredClient::parse("i", "u", status, &body);
        }

        #[test]
        fn any_redirect_is_handled(query in ".{0,100}", state in "[a-z]{0,4}") {
            let _ = Callback::parse(&query).check(&state, "https://as", false);
        }

        #[test]
        fn form_bodies_decode_to_what_was_encoded(code in ".{0,20}", verifier in ".{0,20}") {
            let client = ClientId::new("c", None, ClientAuthMethod::None);
            let grant = Grant::AuthorizationCode { code: code.clone(), verifier: verifier.clone(), redirect_uri: "r".into() };
            let fields = decode_query(&token_request(&grant, &client, None).body);
            prop_assert_eq!(&fields[1].1, &code);
            prop_assert_eq!(&fields[2].1, &verifier);
        }
    }
}
