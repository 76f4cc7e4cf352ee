//! The step log: one entry per step of a flow as the auth view shows it, its request and
//! answer redacted (no token, secret, code or verifier).

use mcp_lens_protocol::auth::AuthStep;

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

#[cfg(test)]
mod tests {
    use mcp_lens_protocol::auth::redact::redact_answer;

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
