//! The step log: one entry per step of a flow as the auth view shows it, its request and
//! answer redacted (no token, secret, code or verifier).

use mcp_lens_protocol::auth::AuthStep;
use mcp_lens_protocol::error::excerpt;

/// One step of the flow as the auth view shows it: the request (secrets redacted), the
/// answer (secrets redacted), and what was decided.
///
/// ```
/// use mcp_lens_client::auth::AuthLogEntry;
/// use mcp_lens_client::protocol::auth::AuthStep;
/// let entry = AuthLogEntry { at_ms: 0.0, step: AuthStep::ResourceMetadata, method: Some("GET"),
///     url: Some("https://mcp.example.com/.well-known/oauth-protected-resource".into()),
///     sent: None, status: Some(404), received: None, note: "not here; trying the next URL".into(), failed: false };
/// assert_eq!(entry.status, Some(404));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct AuthLogEntry {
    pub at_ms: f64,
    pub step: AuthStep,
    /// The HTTP method, when this step sent a request.
    pub method: Option<&'static str>,
    pub url: Option<String>,
    /// The request's headers and body, redacted.
    pub sent: Option<String>,
    pub status: Option<u16>,
    /// The answer's body, redacted.
    pub received: Option<String>,
    /// What was decided and why (or the failure's sentence).
    pub note: String,
    pub failed: bool,
}

/// JSON members whose values are secrets, blanked in the step log.
const SECRET_MEMBERS: [&str; 5] = [
    "access_token",
    "refresh_token",
    "id_token",
    "client_secret",
    "registration_access_token",
];

/// A JSON answer with its secret members replaced (other text is kept, cut short).
pub(super) fn redact_answer(body: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(body) {
        Ok(serde_json::Value::Object(mut object)) => {
            for key in SECRET_MEMBERS {
                if let Some(value) = object.get_mut(key) {
                    *value = serde_json::Value::String("[redacted]".to_owned());
                }
            }
            serde_json::Value::Object(object).to_string()
        }
        _ => excerpt(body, 2_000),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_logged_with_its_secret_members_blanked() {
        let logged = redact_answer(
            r#"{"access_token":"a","refresh_token":"r","token_type":"Bearer","expires_in":60}"#,
        );
        assert!(
            !logged.contains("\"a\"") && !logged.contains("\"r\""),
            "{logged}"
        );
        assert!(
            logged.contains("[redacted]") && logged.contains("Bearer"),
            "{logged}"
        );
        assert_eq!(redact_answer("not json"), "not json");
    }
}
