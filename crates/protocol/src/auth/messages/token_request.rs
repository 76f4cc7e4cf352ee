//! Token requests: the grant asked for (authorization code, refresh token, client
//! credentials, token exchange, JWT bearer) and the form body and headers that carry it.

use super::client_auth::{ClientAuthMethod, ClientId};
use crate::auth::encode::{base64, form_component, form_encode};
use std::fmt;

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
    /// The body with every secret value replaced by `[redacted]` ([`crate::auth::redact`]'s rule).
    pub fn redacted_body(&self) -> String {
        crate::auth::redact::redact_form(&self.body)
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
    /// Adds a signed `private_key_jwt` client assertion (see [`crate::auth::jwt`]).
    pub fn with_client_assertion(mut self, assertion: &str) -> Self {
        let pairs = [
            (
                "client_assertion_type",
                crate::auth::jwt::ASSERTION_TYPE_JWT_BEARER,
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
