//! MCP authorization (OAuth 2.1, spec 2025-11-25 with the 2025-03-26 fallbacks) as data:
//! what a browser client reads and writes at each step, with no I/O. The client crate's
//! `auth` module sends these requests over its `Http` trait.
//!
//! - [`challenge`]: `WWW-Authenticate` parsing (Bearer or DPoP `resource_metadata`, `scope`, `error`).
//! - [`discovery`]: Protected Resource Metadata and authorization-server metadata: the URLs
//!   to try in the spec's order, the documents, and their validation (resource, issuer, PKCE).
//! - [`scope`]: which scope to ask for, `offline_access`, step-up unions.
//! - [`migration`]: after a 401 on a connected session, whether the authorization server
//!   changed (SEP-2352) and how to sign in again without reusing another server's credentials.
//! - [`pkce`]: SHA-256, the S256 challenge, verifier and `state` from given random bytes.
//! - [`messages`]: the authorization URL, token requests and answers, client authentication,
//!   Dynamic Client Registration, the Client ID Metadata Document, the redirect's answer.
//! - [`jwt`]: the `private_key_jwt` client assertion and its PKCS #8 key, and reading the
//!   claims of a token (the cross-app access ID token) without trusting them.
//! - [`encode`]: form encoding, query decoding, base64.
//! - [`workload`]: workload identity federation: a pasted workload JWT read and checked, its
//!   JWT bearer token request, what a refusal means (the flow stops there).
//! - [`dpop`]: DPoP (RFC 9449): the proof key's JWK and thumbprint, proof claims and signing
//!   input, nonces kept per server and the one retry, whether a sign-in uses DPoP.
//!
//! Invariants: every function is total on any input (servers and redirects are hostile);
//! secrets (tokens, client secrets, verifiers) never appear in `Debug` output or errors.
//!
//! ```
//! use mcp_lens_protocol::auth::{challenge::bearer_challenge, discovery::prm_urls};
//! let challenge = bearer_challenge(r#"Bearer scope="files:read", error="invalid_token""#).unwrap();
//! assert_eq!(challenge.scope.as_deref(), Some("files:read"));
//! assert_eq!(
//!     prm_urls("https://example.com/public/mcp").unwrap(),
//!     [
//!         "https://example.com/.well-known/oauth-protected-resource/public/mcp",
//!         "https://example.com/.well-known/oauth-protected-resource",
//!     ]
//! );
//! ```

pub mod challenge;
pub mod discovery;
pub mod dpop;
pub mod encode;
pub mod jwt;
pub mod messages;
pub mod migration;
pub mod pkce;
pub mod redact;
pub mod scope;
pub mod workload;

use crate::error::excerpt;
use crate::wire_log::redact_urls_in;
use std::fmt;

/// The step of the authorization flow that failed.
///
/// ```
/// use mcp_lens_protocol::auth::AuthStep;
/// assert_eq!(AuthStep::TokenExchange.describe(), "Exchanging the authorization code for a token");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthStep {
    /// Reading the server's `WWW-Authenticate` challenge.
    Challenge,
    ResourceMetadata,
    AuthServerMetadata,
    ClientRegistration,
    Authorization,
    Callback,
    TokenExchange,
    Refresh,
    ClientCredentials,
    /// Cross-app access: the ID token for an ID-JAG at the identity provider.
    IdentityAssertion,
    /// Cross-app access: the ID-JAG for an access token at the authorization server.
    AssertionGrant,
    /// Workload identity (SEP-1933): the workload's JWT for an access token (RFC 7523).
    WorkloadGrant,
}

impl AuthStep {
    /// A short name, as the wire log's method column shows an authorization request.
    pub fn label(self) -> &'static str {
        match self {
            AuthStep::Challenge => "challenge",
            AuthStep::ResourceMetadata => "resource metadata",
            AuthStep::AuthServerMetadata => "server metadata",
            AuthStep::ClientRegistration => "registration",
            AuthStep::Authorization => "authorization",
            AuthStep::Callback => "callback",
            AuthStep::TokenExchange => "token",
            AuthStep::Refresh => "refresh",
            AuthStep::ClientCredentials => "client credentials",
            AuthStep::IdentityAssertion => "identity assertion",
            AuthStep::AssertionGrant => "assertion grant",
            AuthStep::WorkloadGrant => "workload JWT",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            AuthStep::Challenge => "Reading the server's authorization challenge",
            AuthStep::ResourceMetadata => "Reading the protected resource metadata",
            AuthStep::AuthServerMetadata => "Reading the authorization server metadata",
            AuthStep::ClientRegistration => "Registering the client",
            AuthStep::Authorization => "Starting the authorization",
            AuthStep::Callback => "Reading the authorization server's answer",
            AuthStep::TokenExchange => "Exchanging the authorization code for a token",
            AuthStep::Refresh => "Refreshing the token",
            AuthStep::ClientCredentials => "Getting a token with the client credentials",
            AuthStep::IdentityAssertion => {
                "Exchanging the ID token for an identity assertion at the identity provider"
            }
            AuthStep::AssertionGrant => "Exchanging the identity assertion for a token",
            AuthStep::WorkloadGrant => "Exchanging the workload JWT for a token",
        }
    }
}

/// The headers an authorization server's metadata, registration and token endpoints must
/// send for a page on another origin to read their answers.
pub const AUTH_CORS_REQUIREMENTS: &str = "Access-Control-Allow-Origin (this page's origin or *) \
on its metadata, registration and token endpoints, and Access-Control-Allow-Headers: content-type, authorization \
(the token endpoint also answers the preflight of a POST)";

/// What went wrong in an authorization step, with the facts needed to explain it. Never
/// holds a secret.
#[derive(Debug, Clone, PartialEq)]
pub enum AuthErrorKind {
    /// The browser could not fetch `url` (down, wrong address, or no CORS headers; the
    /// browser does not say which).
    Network { url: String, detail: String },
    /// `url` answered with an error status.
    HttpStatus {
        url: String,
        status: u16,
        body_start: String,
    },
    /// A document or answer is not what the specification requires.
    Invalid { what: String, detail: String },
    /// No metadata document at any of these URLs.
    NotFound {
        what: &'static str,
        tried: Vec<String>,
    },
    /// The Protected Resource Metadata names another resource than the server's URL.
    ResourceMismatch { resource: String, server: String },
    /// The authorization server's metadata names another issuer than the one it was
    /// fetched for (RFC 8414 §3.3), or the redirect came from another issuer (RFC 9207).
    IssuerMismatch { expected: String, found: String },
    /// The authorization server does not list PKCE with S256.
    NoPkceS256 { methods: Option<Vec<String>> },
    /// No way to identify this client: no pre-registered id, no metadata document support,
    /// no registration endpoint.
    NoClientIdentity { issuer: String },
    /// A secret would go over plain HTTP to a host that is not this machine.
    InsecureEndpoint { url: String },
    /// The authorization server answered with an OAuth error.
    OAuth {
        error: String,
        description: Option<String>,
    },
    /// The redirect's `state` is not the one this flow sent.
    StateMismatch,
    /// The person (or the server) refused the authorization on the authorization page.
    Denied {
        error: String,
        description: Option<String>,
    },
    /// The server kept refusing tokens; the flow stopped instead of looping.
    TooManyAttempts { attempts: u32 },
    /// A step was asked for before the one it needs (say, a code exchange with no
    /// authorization started).
    NotReady { what: &'static str },
    /// The person stepping through the flow stopped it before this step sent anything (not a
    /// failure of any server).
    Stopped,
    /// A client secret or private key was entered with no authorization server named for it,
    /// and discovery found `issuer`: nothing is sent until the person confirms that this is
    /// where it belongs (the server's metadata chooses the authorization server).
    ConfirmIssuer { issuer: String },
    /// A client secret or private key entered for `entered_for` would go to another
    /// authorization server, `found`, which the server's metadata names: refused.
    SecretForAnotherIssuer { entered_for: String, found: String },
}

/// An authorization failure: which step, what went wrong. Its `Display` is the sentence the
/// auth view shows.
///
/// ```
/// use mcp_lens_protocol::auth::{AuthError, AuthErrorKind, AuthStep};
/// let error = AuthError::new(AuthStep::ResourceMetadata, AuthErrorKind::ResourceMismatch {
///     resource: "https://evil.example.com/mcp".into(),
///     server: "http://localhost:3000/mcp".into(),
/// });
/// assert!(error.to_string().starts_with("Reading the protected resource metadata failed: it is for https://evil.example.com/mcp"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct AuthError {
    pub step: AuthStep,
    pub kind: AuthErrorKind,
}

impl AuthError {
    pub fn new(step: AuthStep, kind: AuthErrorKind) -> Self {
        Self { step, kind }
    }

    /// Whether the browser's opaque "could not fetch" is what failed (show the CORS needs).
    pub fn is_network(&self) -> bool {
        matches!(self.kind, AuthErrorKind::Network { .. })
    }

    /// Whether the person stopped the flow (step by step), rather than something failing.
    pub fn is_stopped(&self) -> bool {
        self.kind == AuthErrorKind::Stopped
    }
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_stopped() {
            return write!(
                f,
                "Stopped by you at \"{}\": {}",
                self.step.describe(),
                self.kind
            );
        }
        write!(f, "{} failed: {}", self.step.describe(), self.kind)
    }
}

impl std::error::Error for AuthError {}

fn option_text(description: &Option<String>) -> String {
    description
        .as_deref()
        .map(|d| format!(" ({})", excerpt(d, 300)))
        .unwrap_or_default()
}

impl fmt::Display for AuthErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuthErrorKind::Network { url, detail } => write!(
                f,
                "{} could not be reached ({detail}). It may be down or at another address, or it may not allow \
                 cross-origin requests from this page; the browser does not say which. A browser client needs the \
                 authorization server to send {AUTH_CORS_REQUIREMENTS}.",
                redact_urls_in(url)
            ),
            AuthErrorKind::HttpStatus {
                url,
                status,
                body_start,
            } => {
                write!(f, "{} answered HTTP {status}", redact_urls_in(url))?;
                if body_start.is_empty() {
                    write!(f, " with an empty body.")
                } else {
                    write!(f, ": {}", excerpt(body_start, 300))
                }
            }
            AuthErrorKind::Invalid { what, detail } => {
                write!(f, "{what} is not valid: {}.", excerpt(detail, 300))
            }
            AuthErrorKind::NotFound { what, tried } => {
                write!(f, "no {what} was found; tried {}.", tried.join(", "))
            }
            AuthErrorKind::ResourceMismatch { resource, server } => write!(
                f,
                "it is for {}, not for the server at {server}, so it was refused (RFC 8707/RFC 9728: a client must not \
                 ask for a token for another resource). The server's metadata must name its own URL as `resource`.",
                excerpt(resource, 200)
            ),
            AuthErrorKind::IssuerMismatch { expected, found } => write!(
                f,
                "the issuer is {}, not {expected} as expected, so it was refused (it could be another server's).",
                excerpt(found, 200)
            ),
            AuthErrorKind::NoPkceS256 { methods } => match methods {
                Some(methods) => write!(
                    f,
                    "the authorization server supports PKCE only with {}, not S256, which MCP requires.",
                    excerpt(&methods.join(", "), 200)
                ),
                None => write!(
                    f,
                    "the authorization server's metadata has no code_challenge_methods_supported, so it does not \
                     support PKCE, which MCP requires; it must list S256."
                ),
            },
            AuthErrorKind::NoClientIdentity { issuer } => write!(
                f,
                "{issuer} offers no dynamic client registration and no client ID metadata documents; enter a client ID \
                 registered with it."
            ),
            AuthErrorKind::InsecureEndpoint { url } => write!(
                f,
                "{url} is plain HTTP on another machine; credentials are sent only over HTTPS (or to this machine)."
            ),
            AuthErrorKind::OAuth { error, description } => write!(
                f,
                "the authorization server answered {}{}.",
                excerpt(error, 100),
                option_text(description)
            ),
            AuthErrorKind::StateMismatch => write!(
                f,
                "the answer's state is not the one this sign-in sent (an old or forged redirect); start again."
            ),
            AuthErrorKind::Denied { error, description } => write!(
                f,
                "the authorization was refused: {}{}.",
                excerpt(error, 100),
                option_text(description)
            ),
            AuthErrorKind::TooManyAttempts { attempts } => write!(
                f,
                "the server refused the token {attempts} times in a row after signing in; stopped rather than loop. \
                 The server may require permissions the authorization server never grants."
            ),
            AuthErrorKind::NotReady { what } => write!(f, "{what} first."),
            AuthErrorKind::ConfirmIssuer { issuer } => write!(
                f,
                "the client secret or private key you entered is for no authorization server yet, and this server's \
                 metadata names {}. Nothing was sent: confirm that the secret belongs there to use it.",
                excerpt(issuer, 200)
            ),
            AuthErrorKind::SecretForAnotherIssuer { entered_for, found } => write!(
                f,
                "the client secret or private key you entered is for {}, but this server's metadata names {}. \
                 Nothing was sent there; enter the secret for that authorization server if you trust it.",
                excerpt(entered_for, 200),
                excerpt(found, 200)
            ),
            AuthErrorKind::Stopped => write!(f, "its request was not sent, and nothing after it."),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_read_as_sentences_naming_the_step() {
        let cases = [
            (
                AuthError::new(
                    AuthStep::AuthServerMetadata,
                    AuthErrorKind::Network {
                        url: "https://as.example.com/.well-known/oauth-authorization-server".into(),
                        detail: "TypeError: Failed to fetch".into(),
                    },
                ),
                "Reading the authorization server metadata failed: https://as.example.com/.well-known/oauth-authorization-server could not be reached",
            ),
            (
                AuthError::new(
                    AuthStep::TokenExchange,
                    AuthErrorKind::OAuth {
                        error: "invalid_grant".into(),
                        description: Some("code expired".into()),
                    },
                ),
                "Exchanging the authorization code for a token failed: the authorization server answered invalid_grant (code expired).",
            ),
            (
                AuthError::new(AuthStep::AuthServerMetadata, AuthErrorKind::NoPkceS256 { methods: None }),
                "Reading the authorization server metadata failed: the authorization server's metadata has no code_challenge_methods_supported",
            ),
        ];
        for (error, start) in cases {
            assert!(error.to_string().starts_with(start), "{error}");
        }
        let network = AuthError::new(
            AuthStep::Refresh,
            AuthErrorKind::Network {
                url: "u".into(),
                detail: "d".into(),
            },
        );
        assert!(network.is_network());
        assert!(network.to_string().contains("Access-Control-Allow-Origin"));
        let stopped = AuthError::new(AuthStep::ClientRegistration, AuthErrorKind::Stopped);
        assert!(stopped.is_stopped() && !network.is_stopped());
        assert_eq!(
            stopped.to_string(),
            "Stopped by you at \"Registering the client\": its request was not sent, and nothing after it."
        );
    }
}
