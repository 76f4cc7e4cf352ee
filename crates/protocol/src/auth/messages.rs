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

mod authorize;
mod client_auth;
mod registration;
mod token_request;
mod tokens;

pub use authorize::{AuthorizationRequest, Callback};
pub use client_auth::{ClientAuthMethod, ClientId};
pub use registration::{
    check_metadata_document_url, client_id_metadata_document, client_metadata, RegisteredClient,
    GRANT_TYPES,
};
pub use token_request::{
    clientless_token_request, token_request, Grant, TokenRequest, GRANT_JWT_BEARER,
    GRANT_TOKEN_EXCHANGE, TOKEN_TYPE_ID_JAG, TOKEN_TYPE_ID_TOKEN,
};
pub use tokens::{parse_bound_token_answer, parse_id_jag_answer, parse_token_answer, Tokens};

#[cfg(test)]
mod tests;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use crate::auth::encode::decode_query;
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
