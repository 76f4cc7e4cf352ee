//! The front channel: the authorization URL the person is sent to, and the redirect that
//! comes back (checked to be this flow's before anything in it is believed).

use crate::auth::encode::{decode_query, form_encode, with_query};
use crate::auth::pkce::S256;
use crate::auth::scope::OFFLINE_ACCESS;
use crate::auth::{AuthErrorKind, AuthStep};
use crate::error::excerpt;
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
