use super::*;
use crate::auth::encode::{base64, decode_query};
use crate::auth::{AuthErrorKind, AuthStep};

fn fields(query: &str) -> Vec<(String, String)> {
    decode_query(query)
}

fn pair(name: &str, value: &str) -> (String, String) {
    (name.to_owned(), value.to_owned())
}

#[test]
fn the_authorization_url_carries_every_parameter() {
    let url = AuthorizationRequest {
        authorization_endpoint: "http://localhost:4000/authorize?tenant=t",
        client_id: "client 1",
        redirect_uri: "http://localhost:8080/callback.html",
        code_challenge: "ch",
        state: "st",
        scope: Some("mcp:basic offline_access"),
        resource: Some("http://localhost:3000/mcp"),
    }
    .url();
    assert!(url.starts_with("http://localhost:4000/authorize?tenant=t&response_type=code"));
    assert_eq!(
        fields(&url),
        [
            pair("tenant", "t"),
            pair("response_type", "code"),
            pair("client_id", "client 1"),
            pair("redirect_uri", "http://localhost:8080/callback.html"),
            pair("code_challenge", "ch"),
            pair("code_challenge_method", "S256"),
            pair("state", "st"),
            pair("scope", "mcp:basic offline_access"),
            pair("prompt", "consent"),
            pair("resource", "http://localhost:3000/mcp"),
        ]
    );
    let without = AuthorizationRequest {
        authorization_endpoint: "https://as/authorize",
        client_id: "c",
        redirect_uri: "r",
        code_challenge: "ch",
        state: "st",
        scope: None,
        resource: None,
    }
    .url();
    assert!(!without.contains("scope=") && !without.contains("resource="));
}

#[test]
fn cross_app_access_and_private_key_jwt_requests() {
    // At the identity provider: the ID token for an ID-JAG naming the AS and the server.
    let idp_client = ClientId::new("idp-client", None, ClientAuthMethod::None);
    let exchange = token_request(
        &Grant::TokenExchange {
            id_token: "id.tok.en".into(),
            audience: "https://as.example".into(),
            scope: Some("mcp:read".into()),
        },
        &idp_client,
        Some("https://mcp.example/mcp"),
    );
    assert_eq!(
        fields(&exchange.body),
        [
            pair("grant_type", GRANT_TOKEN_EXCHANGE),
            pair("requested_token_type", TOKEN_TYPE_ID_JAG),
            pair("audience", "https://as.example"),
            pair("subject_token", "id.tok.en"),
            pair("subject_token_type", TOKEN_TYPE_ID_TOKEN),
            pair("scope", "mcp:read"),
            pair("resource", "https://mcp.example/mcp"),
            pair("client_id", "idp-client"),
        ]
    );
    assert!(!exchange.redacted_body().contains("id.tok.en"));
    // At the authorization server: the ID-JAG, with client_secret_basic.
    let confidential = ClientId::new(
        "xaa",
        Some("s3cret".into()),
        ClientAuthMethod::ClientSecretBasic,
    );
    let bearer = token_request(
        &Grant::JwtBearer {
            assertion: "jag.jw.t".into(),
            scope: None,
        },
        &confidential,
        Some("https://mcp.example/mcp"),
    );
    assert_eq!(
        fields(&bearer.body),
        [
            pair("grant_type", GRANT_JWT_BEARER),
            pair("assertion", "jag.jw.t"),
            pair("resource", "https://mcp.example/mcp"),
        ]
    );
    assert!(!bearer.redacted_body().contains("jag.jw.t"));
    assert!(bearer
        .headers
        .iter()
        .any(|(n, v)| n == "authorization" && v.starts_with("Basic ")));
    // private_key_jwt: the client id and the signed assertion in the body, no secret.
    let keyed = ClientId::new("m2m", None, ClientAuthMethod::PrivateKeyJwt);
    let request = token_request(&Grant::ClientCredentials { scope: None }, &keyed, None)
        .with_client_assertion("a.b.c");
    assert_eq!(
        fields(&request.body),
        [
            pair("grant_type", "client_credentials"),
            pair("client_id", "m2m"),
            pair(
                "client_assertion_type",
                crate::auth::jwt::ASSERTION_TYPE_JWT_BEARER
            ),
            pair("client_assertion", "a.b.c"),
        ]
    );
    assert!(!request.redacted_body().contains("a.b.c"));
    assert!(!request.headers.iter().any(|(n, _)| n == "authorization"));
    // A server that registered us for private_key_jwt cannot be answered by `select`.
    assert_eq!(
        ClientAuthMethod::select(Some("private_key_jwt"), false, None),
        ClientAuthMethod::None
    );
}

#[test]
fn token_requests_per_grant_and_client_auth() {
    let public = ClientId::new("pub", None, ClientAuthMethod::None);
    let code = Grant::AuthorizationCode {
        code: "the-code".into(),
        verifier: "the-verifier".into(),
        redirect_uri: "https://app/cb".into(),
    };
    let request = token_request(&code, &public, Some("https://mcp/mcp"));
    assert_eq!(
        fields(&request.body),
        [
            pair("grant_type", "authorization_code"),
            pair("code", "the-code"),
            pair("code_verifier", "the-verifier"),
            pair("redirect_uri", "https://app/cb"),
            pair("resource", "https://mcp/mcp"),
            pair("client_id", "pub"),
        ]
    );
    assert!(!request.headers.iter().any(|(n, _)| n == "authorization"));
    let redacted = request.redacted_body();
    assert!(
        !redacted.contains("the-code") && !redacted.contains("the-verifier"),
        "{redacted}"
    );
    assert!(!format!("{request:?}").contains("the-code"));

    let post = ClientId::new(
        "id",
        Some("s:e cret".into()),
        ClientAuthMethod::ClientSecretPost,
    );
    let request = token_request(
        &Grant::RefreshToken {
            refresh_token: "rt".into(),
        },
        &post,
        None,
    );
    assert_eq!(
        fields(&request.body),
        [
            pair("grant_type", "refresh_token"),
            pair("refresh_token", "rt"),
            pair("client_id", "id"),
            pair("client_secret", "s:e cret"),
        ]
    );
    assert!(!request.redacted_body().contains("e+cret"));

    let basic = ClientId::new(
        "id",
        Some("s:e cret".into()),
        ClientAuthMethod::ClientSecretBasic,
    );
    let request = token_request(
        &Grant::ClientCredentials {
            scope: Some("a b".into()),
        },
        &basic,
        None,
    );
    assert_eq!(request.body, "grant_type=client_credentials&scope=a+b");
    let header = &request
        .headers
        .iter()
        .find(|(n, _)| n == "authorization")
        .unwrap()
        .1;
    assert_eq!(header, &format!("Basic {}", base64(b"id:s%3Ae+cret")));
    assert!(!format!("{basic:?}").contains("e cret"));
}

#[test]
fn client_auth_method_selection() {
    let list = |items: &[&str]| items.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let none_only = list(&["none"]);
    // The conformance default: a secret is registered, the server takes only `none`.
    assert_eq!(
        ClientAuthMethod::select(None, true, Some(&none_only)),
        ClientAuthMethod::None
    );
    assert_eq!(
        ClientAuthMethod::select(
            Some("client_secret_post"),
            true,
            Some(&list(&["client_secret_post"]))
        ),
        ClientAuthMethod::ClientSecretPost
    );
    assert_eq!(
        ClientAuthMethod::select(Some("client_secret_basic"), true, None),
        ClientAuthMethod::ClientSecretBasic
    );
    // Registered with a secret method but no secret known (remembered id only).
    assert_eq!(
        ClientAuthMethod::select(Some("client_secret_basic"), false, None),
        ClientAuthMethod::None
    );
    assert_eq!(
        ClientAuthMethod::select(
            Some("private_key_jwt"),
            true,
            Some(&list(&["client_secret_basic", "client_secret_post"]))
        ),
        ClientAuthMethod::ClientSecretBasic
    );
    assert_eq!(
        ClientAuthMethod::select(None, true, Some(&list(&["private_key_jwt"]))),
        ClientAuthMethod::ClientSecretPost
    );
}

#[test]
fn token_answers() {
    let tokens = parse_token_answer(
        "u",
        200,
        r#"{"access_token":"at","token_type":"Bearer","expires_in":"60","refresh_token":"rt","scope":"a b"}"#,
    )
    .unwrap();
    assert_eq!(tokens.refresh_token(), Some("rt"));
    assert_eq!(tokens.expires_in, Some(60));
    assert_eq!(tokens.scope.as_deref(), Some("a b"));
    let debug = format!("{tokens:?}");
    assert!(
        !debug.contains("\"at\"") && !debug.contains("rt\""),
        "{debug}"
    );
    // GitHub answers errors with 200.
    assert_eq!(
        parse_token_answer(
            "u",
            200,
            r#"{"error":"bad_verification_code","error_description":"gone"}"#
        ),
        Err(AuthErrorKind::OAuth {
            error: "bad_verification_code".into(),
            description: Some("gone".into())
        })
    );
    assert!(matches!(
        parse_token_answer("u", 500, "<html>"),
        Err(AuthErrorKind::HttpStatus { status: 500, .. })
    ));
    for bad in [
        "{}",
        "[]",
        r#"{"access_token":"x","token_type":"DPoP"}"#,
        r#"{"access_token":""}"#,
    ] {
        assert!(parse_token_answer("u", 200, bad).is_err(), "{bad}");
    }
    let kept = Tokens::new("new", None).keeping_refresh_token(Some("old"));
    assert_eq!(kept.refresh_token(), Some("old"));
}

#[test]
fn registration_and_metadata_documents() {
    let body = client_metadata(
        "mcp-lens",
        &["http://localhost:8080/callback.html"],
        None,
        None,
    );
    assert_eq!(body["application_type"], "native");
    assert_eq!(
        body["redirect_uris"][0],
        "http://localhost:8080/callback.html"
    );
    assert!(body.get("scope").is_none());
    let web = client_metadata(
        "mcp-lens",
        &["https://app.example/cb"],
        None,
        Some("https://app.example/"),
    );
    assert_eq!(web["application_type"], "web");
    let registered = RegisteredClient::parse(
        "https://as",
        "https://as/register",
        201,
        r#"{"client_id":"abc","client_secret":"sec","token_endpoint_auth_method":"client_secret_post"}"#,
    )
    .unwrap();
    assert_eq!(registered.client_id, "abc");
    assert_eq!(registered.secret(), Some("sec"));
    assert!(!format!("{registered:?}").contains("sec\""));
    assert!(matches!(
        RegisteredClient::parse("i", "u", 400, r#"{"error":"invalid_redirect_uri"}"#),
        Err(AuthErrorKind::OAuth { .. })
    ));
    assert!(RegisteredClient::parse("i", "u", 201, r#"{"client_secret":"x"}"#).is_err());
    assert!(check_metadata_document_url("https://app.example/").is_err());
}

#[test]
fn callbacks_are_checked_before_they_are_believed() {
    let forged = Callback::parse("?error=access_denied&error_description=Click%20here&state=wrong");
    assert_eq!(
        forged.check("st", "https://as", false),
        Err((AuthStep::Callback, AuthErrorKind::StateMismatch))
    );
    let denied = Callback::parse("error=access_denied&state=st");
    assert!(matches!(
        denied.check("st", "https://as", false),
        Err((_, AuthErrorKind::Denied { .. }))
    ));
    let mixed_up = Callback::parse("code=c&state=st&iss=https%3A%2F%2Fevil");
    assert!(matches!(
        mixed_up.check("st", "https://as", false),
        Err((_, AuthErrorKind::IssuerMismatch { .. }))
    ));
    // Exactly the issuer: a mix-up is not excused by a trailing slash.
    let slashed = Callback::parse("code=c&state=st&iss=https%3A%2F%2Fas%2F");
    assert!(matches!(
        slashed.check("st", "https://as", false),
        Err((_, AuthErrorKind::IssuerMismatch { .. }))
    ));
    assert_eq!(slashed.check("st", "https://as/", true), Ok("c".to_owned()));
    let no_iss = Callback::parse("code=c&state=st");
    assert!(no_iss.check("st", "https://as", true).is_err());
    assert_eq!(no_iss.check("st", "https://as/", false), Ok("c".to_owned()));
    assert!(Callback::parse("state=st").check("st", "x", false).is_err());
    assert!(!format!("{no_iss:?}").contains("\"c\""));
}
