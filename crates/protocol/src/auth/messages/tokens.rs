//! Token endpoint answers: the tokens (their `Debug` hides them), the OAuth error, or what
//! is wrong with the answer, with secrets redacted from anything shown.

use super::token_request::TOKEN_TYPE_ID_JAG;
use crate::auth::AuthErrorKind;
use crate::error::excerpt;
use serde_json::Value;
use std::fmt;

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
    /// request ([`crate::auth::dpop`]), never as Bearer.
    pub fn is_dpop(&self) -> bool {
        self.token_type
            .eq_ignore_ascii_case(crate::auth::dpop::SCHEME)
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

pub(super) fn oauth_error(value: &Value) -> Option<AuthErrorKind> {
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
pub(super) fn body_start(body: &str) -> String {
    excerpt(&crate::auth::redact::redact_text(body), 500)
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
        || (proof_sent && token_type.eq_ignore_ascii_case(crate::auth::dpop::SCHEME));
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
