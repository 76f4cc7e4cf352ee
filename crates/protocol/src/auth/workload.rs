//! Workload identity federation (the MCP extension `io.modelcontextprotocol/auth/wif`,
//! SEP-1933): a client that already holds a JWT from its workload platform (Kubernetes,
//! SPIFFE, a cloud) presents it with the RFC 7523 JWT bearer grant and gets an access token,
//! with no registration and no sign-in window. In this app a person pastes or loads the JWT.
//!
//! - [`check_workload_jwt`]: what a pasted JWT claims, read without trusting it, and what
//!   will likely make the authorization server refuse it (expired, another audience).
//! - [`workload_token_request`]: the token request (`grant_type` jwt-bearer, `assertion`,
//!   `resource`, and a `client_id` only when the person gave one).
//! - [`refusal_sentence`]: what a refusal means. After any refusal the flow stops: the
//!   request is not sent again and no other grant is tried (the conformance suite's
//!   `auth/wif-jwt-bearer` warns on either; a rejected assertion will not become valid by
//!   repetition, and switching grants would ask a person to sign in where a workload's own
//!   identity was meant).
//!
//! ```
//! use mcp_lens_protocol::auth::workload::workload_token_request;
//! let request = workload_token_request("h.p.s", None, Some("https://mcp.example.com/mcp"), None);
//! assert!(request.body.starts_with("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=h.p.s"));
//! ```

use super::discovery::AuthServerMetadata;
use super::jwt::unverified_claims;
use super::messages::{
    clientless_token_request, token_request, ClientAuthMethod, ClientId, Grant, TokenRequest,
    GRANT_JWT_BEARER,
};
use super::AuthErrorKind;
use crate::error::excerpt;
use serde_json::{Map, Value};

/// What a workload JWT claims, for the steps view (never a reason to trust it: the
/// authorization server checks the signature).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkloadClaims {
    pub iss: Option<String>,
    pub sub: Option<String>,
    pub aud: Vec<String>,
    pub exp: Option<u64>,
    pub iat: Option<u64>,
    pub jti: Option<String>,
}

/// Something about a pasted JWT that will likely make the authorization server refuse it.
/// The person may still send it (an inspector also tests how servers refuse).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkloadWarning {
    Expired {
        exp: u64,
        now: u64,
    },
    NoExpiry,
    /// Its `aud` names neither the authorization server's issuer nor its token endpoint.
    OtherAudience {
        aud: Vec<String>,
        expected: String,
    },
    /// The authorization server lists its grant types and the JWT bearer grant is not one.
    GrantNotOffered {
        offered: Vec<String>,
    },
}

impl std::fmt::Display for WorkloadWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WorkloadWarning::Expired { exp, now } => write!(
                f,
                "it expired {} seconds ago (exp {exp}); the authorization server will refuse it",
                now.saturating_sub(*exp)
            ),
            WorkloadWarning::NoExpiry => write!(
                f,
                "it has no exp claim, which RFC 7523 requires; the authorization server will likely refuse it"
            ),
            WorkloadWarning::OtherAudience { aud, expected } => write!(
                f,
                "its audience is {}, not this authorization server ({expected}); it was issued for another server",
                if aud.is_empty() { "missing".to_owned() } else { excerpt(&aud.join(", "), 200) }
            ),
            WorkloadWarning::GrantNotOffered { offered } => write!(
                f,
                "the authorization server offers only {} and not the JWT bearer grant",
                excerpt(&offered.join(", "), 200)
            ),
        }
    }
}

/// A pasted workload JWT, read. `Debug` hides the JWT: it is a credential.
#[derive(Clone, PartialEq, Eq)]
pub struct WorkloadJwt {
    /// The compact JWT, trimmed (sent as `assertion`).
    pub jwt: String,
    pub claims: WorkloadClaims,
    pub warnings: Vec<WorkloadWarning>,
}

impl std::fmt::Debug for WorkloadJwt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorkloadJwt")
            .field("jwt", &"[redacted]")
            .field("claims", &self.claims)
            .field("warnings", &self.warnings)
            .finish()
    }
}

/// Reads a pasted JWT against the authorization server it will go to. `Err` only when it is
/// not a JWT at all (nothing would be gained by sending it).
pub fn check_workload_jwt(
    pasted: &str,
    server: &AuthServerMetadata,
    now_s: u64,
) -> Result<WorkloadJwt, AuthErrorKind> {
    let jwt = pasted.trim();
    let claims = unverified_claims(jwt).ok_or_else(|| AuthErrorKind::Invalid {
        what: "the workload JWT".to_owned(),
        detail:
            "it is not a JWT (three base64url parts separated by dots, a JSON object in the middle)"
                .to_owned(),
    })?;
    let claims = read_claims(&claims);
    let mut warnings = Vec::new();
    match claims.exp {
        Some(exp) if exp <= now_s => warnings.push(WorkloadWarning::Expired { exp, now: now_s }),
        Some(_) => {}
        None => warnings.push(WorkloadWarning::NoExpiry),
    }
    // The extension names the token endpoint as the audience; servers (the conformance
    // suite's among them) also take their issuer, with or without a trailing slash.
    let issuer = server.issuer.trim_end_matches('/');
    let ours = |aud: &str| aud.trim_end_matches('/') == issuer || aud == server.token_endpoint;
    if !claims.aud.iter().any(|aud| ours(aud)) {
        warnings.push(WorkloadWarning::OtherAudience {
            aud: claims.aud.clone(),
            expected: format!("{} or {}", server.issuer, server.token_endpoint),
        });
    }
    if let Some(offered) = &server.grant_types_supported {
        if !offered.iter().any(|grant| grant == GRANT_JWT_BEARER) {
            warnings.push(WorkloadWarning::GrantNotOffered {
                offered: offered.clone(),
            });
        }
    }
    Ok(WorkloadJwt {
        jwt: jwt.to_owned(),
        claims,
        warnings,
    })
}

fn read_claims(claims: &Map<String, Value>) -> WorkloadClaims {
    let text = |key: &str| claims.get(key).and_then(Value::as_str).map(str::to_owned);
    let seconds = |key: &str| {
        claims
            .get(key)
            .and_then(Value::as_f64)
            .filter(|s| *s >= 0.0)
            .map(|s| s as u64)
    };
    let aud = match claims.get("aud") {
        Some(Value::String(aud)) => vec![aud.clone()],
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    WorkloadClaims {
        iss: text("iss"),
        sub: text("sub"),
        aud,
        exp: seconds("exp"),
        iat: seconds("iat"),
        jti: text("jti"),
    }
}

/// The token request: the JWT as the `assertion` of the JWT bearer grant (RFC 7523 §2.1),
/// the scope chosen as for any grant, the server as `resource`. `client_id`: only when the
/// person gave one (sent with the `none` method; the JWT is the credential).
pub fn workload_token_request(
    jwt: &str,
    scope: Option<&str>,
    resource: Option<&str>,
    client_id: Option<&str>,
) -> TokenRequest {
    let grant = Grant::JwtBearer {
        assertion: jwt.trim().to_owned(),
        scope: scope.map(str::to_owned),
    };
    match client_id.map(str::trim).filter(|id| !id.is_empty()) {
        Some(id) => token_request(
            &grant,
            &ClientId::new(id, None, ClientAuthMethod::None),
            resource,
        ),
        None => clientless_token_request(&grant, resource),
    }
}

/// What a refusal from the token endpoint means for a workload JWT, as the steps view says
/// it (the flow has stopped; see the module's documentation).
pub fn refusal_sentence(error: &AuthErrorKind) -> String {
    let advice = match error {
        AuthErrorKind::OAuth { error, .. } => match error.as_str() {
            "invalid_grant" => {
                "the authorization server did not accept the workload JWT (expired, issued for another \
                 audience, or signed by an issuer it does not trust); get a fresh JWT for this server"
            }
            "invalid_scope" => "the workload may not have the scope asked for; ask for less, or none",
            "unauthorized_client" => {
                "this workload is not allowed to use the JWT bearer grant at this authorization server"
            }
            "unsupported_grant_type" => "this authorization server does not take workload JWTs",
            "invalid_request" => "the authorization server found the request malformed",
            _ => "the authorization server refused the workload JWT",
        },
        _ => "the token request failed",
    };
    format!("{advice}. It was not sent again and no other sign-in was tried: {error}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::encode::{base64url, decode_query};
    use serde_json::json;

    fn jwt(claims: Value) -> String {
        format!(
            "{}.{}.c2ln",
            base64url(br#"{"alg":"ES256","typ":"JWT"}"#),
            base64url(claims.to_string().as_bytes())
        )
    }

    /// The conformance suite's authorization server for auth/wif-jwt-bearer.
    fn server() -> AuthServerMetadata {
        AuthServerMetadata::parse(
            r#"{"issuer":"http://localhost:4100","token_endpoint":"http://localhost:4100/token",
                "grant_types_supported":["urn:ietf:params:oauth:grant-type:jwt-bearer"],
                "token_endpoint_auth_methods_supported":["none"]}"#,
        )
        .unwrap()
    }

    #[test]
    fn the_suite_s_three_jwts_are_told_apart_before_sending() {
        let now = 1_800_000_000;
        let claims = |aud: &str, exp: u64| json!({"iss": "https://idp.conformance-test.local", "sub": "conformance-workload", "aud": aud, "iat": now - 10, "exp": exp});
        let valid = check_workload_jwt(
            &jwt(claims("http://localhost:4100", now + 300)),
            &server(),
            now,
        )
        .unwrap();
        assert_eq!(valid.warnings, []);
        assert!(!format!("{valid:?}").contains(&valid.jwt));
        assert_eq!(valid.claims.sub.as_deref(), Some("conformance-workload"));
        let wrong = check_workload_jwt(
            &jwt(claims("https://wrong.example", now + 300)),
            &server(),
            now,
        )
        .unwrap();
        assert!(matches!(
            wrong.warnings[..],
            [WorkloadWarning::OtherAudience { .. }]
        ));
        let expired = check_workload_jwt(
            &jwt(claims("http://localhost:4100", now - 60)),
            &server(),
            now,
        )
        .unwrap();
        assert_eq!(
            expired.warnings,
            [WorkloadWarning::Expired { exp: now - 60, now }]
        );
        assert_eq!(
            expired.warnings[0].to_string(),
            "it expired 60 seconds ago (exp 1799999940); the authorization server will refuse it"
        );
        // The extension's own audience, the token endpoint, in a list.
        let listed = json!({"aud": ["x", "http://localhost:4100/token"], "exp": now + 1});
        assert_eq!(
            check_workload_jwt(&jwt(listed), &server(), now)
                .unwrap()
                .warnings,
            []
        );
        assert!(check_workload_jwt("not a jwt", &server(), now).is_err());
        let no_grant = AuthServerMetadata {
            grant_types_supported: Some(vec!["authorization_code".into()]),
            ..server()
        };
        let warned = check_workload_jwt(
            &jwt(json!({"aud": "http://localhost:4100/"})),
            &no_grant,
            now,
        )
        .unwrap();
        assert!(matches!(
            warned.warnings[..],
            [
                WorkloadWarning::NoExpiry,
                WorkloadWarning::GrantNotOffered { .. }
            ]
        ));
    }

    #[test]
    fn the_request_carries_the_grant_the_assertion_and_the_resource() {
        let fields = |request: TokenRequest| decode_query(&request.body);
        let pair = |a: &str, b: &str| (a.to_owned(), b.to_owned());
        let with_id = workload_token_request(
            " a.b.c\n",
            Some("mcp:read"),
            Some("http://localhost:3000/mcp"),
            Some("conformance-wif-workload"),
        );
        assert!(!with_id.redacted_body().contains("a.b.c"));
        assert_eq!(
            fields(with_id),
            [
                pair("grant_type", GRANT_JWT_BEARER),
                pair("assertion", "a.b.c"),
                pair("scope", "mcp:read"),
                pair("resource", "http://localhost:3000/mcp"),
                pair("client_id", "conformance-wif-workload"),
            ]
        );
        let without = workload_token_request("a.b.c", None, None, Some("  "));
        assert_eq!(
            fields(without),
            [
                pair("grant_type", GRANT_JWT_BEARER),
                pair("assertion", "a.b.c")
            ]
        );
    }

    #[test]
    fn refusals_are_explained_and_end_the_flow() {
        let refused = |error: &str| {
            refusal_sentence(&AuthErrorKind::OAuth {
                error: error.into(),
                description: Some("JWT assertion is expired".into()),
            })
        };
        let sentence = refused("invalid_grant");
        assert!(
            sentence.starts_with("the authorization server did not accept the workload JWT"),
            "{sentence}"
        );
        assert!(sentence.contains("not sent again and no other sign-in was tried"));
        assert!(
            sentence.ends_with(
                "the authorization server answered invalid_grant (JWT assertion is expired)."
            ),
            "{sentence}"
        );
        assert!(refused("invalid_scope").contains("scope"));
        assert!(refused("unauthorized_client").contains("not allowed"));
        assert!(
            refusal_sentence(&AuthErrorKind::StateMismatch).starts_with("the token request failed")
        );
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_pasted_text_is_an_answer_not_a_panic(text in ".{0,200}", claims in crate::arbitrary::json(), now in any::<u64>()) {
            let server = AuthServerMetadata::fallback("http://localhost:3000/mcp").unwrap();
            let _ = check_workload_jwt(&text, &server, now);
            let jwt = format!("e30.{}.x", crate::auth::encode::base64url(claims.to_string().as_bytes()));
            if let Ok(read) = check_workload_jwt(&jwt, &server, now) {
                prop_assert!(read.warnings.iter().all(|w| !w.to_string().is_empty()));
            }
        }
    }
}
