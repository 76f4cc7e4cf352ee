//! The client's identity: client credentials, a secret pinned to its issuer, signed assertions
//! (private_key_jwt) and cross-app access.

use crate::support::{Exchange, Harness, URL};
use crate::{
    discovery, field, form, machine_metadata, oauth, preregistered, prm, Counting, AS, PRM_PATH,
    PRM_ROOT, REDIRECT,
};
use futures::future::LocalBoxFuture;
use mcp_lens_client::auth::{ClientChoice, CrossApp, OAuth, OAuthSettings, Signer};
use mcp_lens_client::protocol::auth::encode::base64;
use mcp_lens_client::protocol::auth::jwt::{unverified_claims, PrivateKey};
use mcp_lens_client::protocol::auth::{AuthErrorKind, AuthStep};
use serde_json::json;
use std::rc::Rc;

#[test]
fn client_credentials_authenticate_as_the_server_supports() {
    for (method, basic) in [("client_secret_basic", true), ("client_secret_post", false)] {
        let mut h = Harness::new();
        let auth = oauth(&h, preregistered("machine", Some("s3cret")));
        // No PKCE listed: the client_credentials grant does not need it.
        let document = json!({
            "issuer": AS, "token_endpoint": format!("{AS}/token"),
            "grant_types_supported": ["client_credentials"],
            "token_endpoint_auth_methods_supported": [method],
        });
        let mut token = Exchange::at("POST", &format!("{AS}/token"));
        token = if basic {
            token.header(
                "authorization",
                &format!("Basic {}", base64(b"machine:s3cret")),
            )
        } else {
            token.no_header("authorization")
        };
        h.script([
            Exchange::at("GET", PRM_PATH).json_body(&prm(URL, AS)),
            Exchange::at(
                "GET",
                &format!("{AS}/.well-known/oauth-authorization-server"),
            )
            .json_body(&document.to_string()),
            token
                .check(move |body| {
                    let fields = form(body);
                    assert_eq!(
                        field(&fields, "grant_type").as_deref(),
                        Some("client_credentials")
                    );
                    assert_eq!(field(&fields, "resource").as_deref(), Some(URL));
                    let posted = (field(&fields, "client_id"), field(&fields, "client_secret"));
                    if basic {
                        assert_eq!(posted, (None, None));
                    } else {
                        assert_eq!(posted, (Some("machine".into()), Some("s3cret".into())));
                    }
                })
                .json_body(r#"{"access_token":"m2m","token_type":"Bearer","expires_in":60}"#),
        ]);
        let get = auth.clone();
        h.run(async move { get.client_credentials(None).await })
            .expect(method);
        assert!(auth.is_signed_in());
        assert!(!format!("{:?}", auth.log()).contains("s3cret"));
        // The token request carries a secret: it must not follow a redirect (a 307 would
        // post the same body wherever it points); the metadata GETs carry none.
        for seen in h.http.seen.borrow().iter() {
            assert_eq!(
                seen.refuse_redirects,
                seen.method == "POST",
                "{} {}",
                seen.method,
                seen.url
            );
        }
    }
}

#[test]
fn a_secret_goes_only_to_the_issuer_it_was_entered_for_and_is_asked_for_at_first() {
    let document = json!({
        "issuer": AS, "token_endpoint": format!("{AS}/token"),
        "grant_types_supported": ["client_credentials"],
        "token_endpoint_auth_methods_supported": ["client_secret_post"],
    })
    .to_string();
    let discovery = || {
        [
            Exchange::at("GET", PRM_PATH).json_body(&prm(URL, AS)),
            Exchange::at(
                "GET",
                &format!("{AS}/.well-known/oauth-authorization-server"),
            )
            .json_body(&document),
        ]
    };
    for (for_issuer, expected) in [
        (
            None,
            AuthErrorKind::ConfirmIssuer {
                issuer: AS.to_owned(),
            },
        ),
        (
            Some("https://as.example.com".to_owned()),
            AuthErrorKind::SecretForAnotherIssuer {
                entered_for: "https://as.example.com".to_owned(),
                found: AS.to_owned(),
            },
        ),
        // Exactly the issuer: a trailing slash is another string (RFC 8414).
        (
            Some(format!("{AS}/")),
            AuthErrorKind::SecretForAnotherIssuer {
                entered_for: format!("{AS}/"),
                found: AS.to_owned(),
            },
        ),
    ] {
        let mut h = Harness::new();
        let client = ClientChoice::Preregistered {
            client_id: "machine".into(),
            client_secret: Some("s3cret".into()),
            private_key: None,
            for_issuer,
        };
        let auth = oauth(&h, client);
        h.script(discovery());
        let get = auth.clone();
        let error = h
            .run(async move { get.client_credentials(None).await })
            .unwrap_err();
        assert_eq!(error.kind, expected);
        assert!(error.to_string().contains("Nothing was sent"), "{error}");
        // Discovery only: the token endpoint never saw the secret.
        assert!(
            h.http.seen.borrow().iter().all(|s| s.method == "GET"),
            "{:?}",
            h.http.summary()
        );
        // Once the person confirms the issuer discovery found, the secret goes there.
        auth.confirm_issuer(AS);
        h.script([Exchange::at("POST", &format!("{AS}/token"))
            .check(|body| {
                assert_eq!(
                    field(&form(body), "client_secret").as_deref(),
                    Some("s3cret")
                );
            })
            .json_body(r#"{"access_token":"m2m","token_type":"Bearer"}"#)]);
        let get = auth.clone();
        h.run(async move { get.client_credentials(None).await })
            .expect("a token once confirmed");
        assert!(auth.is_signed_in());
    }
}

/// A 2025-03-26 server with no resource metadata serves its own authorization server's
/// metadata: the issuer it names there is not believed, so an assertion signed for it cannot
/// be replayed at the real authorization server it names.
#[test]
fn a_legacy_servers_metadata_cannot_choose_the_audience_of_an_assertion() {
    let mut h = Harness::new();
    let origin = "http://127.0.0.1:3001";
    let client = ClientChoice::Preregistered {
        client_id: "machine".into(),
        client_secret: None,
        private_key: Some(P256_KEY.into()),
        for_issuer: Some(origin.to_owned()),
    };
    let auth = signing_oauth(&h, OAuthSettings::new(URL, REDIRECT, client));
    let named = "https://real-as.example.com";
    h.script([
        Exchange::at("GET", PRM_PATH).status(404),
        Exchange::at("GET", PRM_ROOT).status(404),
        Exchange::at(
            "GET",
            &format!("{origin}/.well-known/oauth-authorization-server"),
        )
        .json_body(
            &json!({
                "issuer": named, "token_endpoint": format!("{origin}/token"),
                "grant_types_supported": ["client_credentials"],
                "token_endpoint_auth_methods_supported": ["private_key_jwt"],
                "token_endpoint_auth_signing_alg_values_supported": ["ES256"],
            })
            .to_string(),
        ),
        Exchange::at("POST", &format!("{origin}/token"))
            .check(move |body| {
                let assertion = field(&form(body), "client_assertion").expect("an assertion");
                let claims = unverified_claims(&assertion).expect("a JWT");
                assert_eq!(
                    claims["aud"], origin,
                    "the audience is the server's own origin"
                );
            })
            .json_body(r#"{"access_token":"legacy-m2m","token_type":"Bearer"}"#),
    ]);
    let get = auth.clone();
    h.run(async move { get.client_credentials(None).await })
        .expect("a token");
    assert_eq!(auth.discovered().unwrap().auth_server.issuer, origin);
    let log = format!("{:?}", auth.log());
    assert!(log.contains("which nothing vouches for"), "{log}");
}

/// A fixed clock and a signature that names what was signed (the browser's WebCrypto does
/// the real signing; the conformance suite's `auth/client-credentials-jwt` verifies it).
struct FakeSigner;

impl Signer for FakeSigner {
    fn unix_seconds(&self) -> u64 {
        1_700_000_000
    }

    fn sign(
        &self,
        key: &PrivateKey,
        data: &[u8],
    ) -> LocalBoxFuture<'static, Result<Vec<u8>, String>> {
        let signature = format!("{}:{}", key.alg.as_str(), data.len()).into_bytes();
        Box::pin(async move { Ok(signature) })
    }
}

/// `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256`: a test key only.
const P256_KEY: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQglgoIkjAHcgWEjlBL
a7m34R8zWjAtxJM1g+KK6wdwytqhRANCAARBkiu97wZ+pFogym+O+VpI46PQkYy+
iljzo2/hu0Ksbbvb2KBAZUhc9inEOt+f6HHuHS+HLIXFEsBBIbNdSOVw
-----END PRIVATE KEY-----";

fn signing_oauth(h: &Harness, settings: OAuthSettings) -> OAuth {
    OAuth::with_signer(
        &h.runtime(),
        Rc::new(Counting::default()),
        Rc::new(FakeSigner),
        settings,
    )
}

#[test]
fn private_key_jwt_signs_an_assertion_for_the_authorization_server() {
    let mut h = Harness::new();
    let client = ClientChoice::Preregistered {
        client_id: "machine".into(),
        client_secret: None,
        private_key: Some(P256_KEY.into()),
        for_issuer: Some(AS.to_owned()),
    };
    let auth = signing_oauth(&h, OAuthSettings::new(URL, REDIRECT, client));
    h.script(machine_metadata(
        json!({ "token_endpoint_auth_signing_alg_values_supported": ["ES256"] }),
    ));
    h.script([Exchange::at("POST", &format!("{AS}/token"))
        .no_header("authorization")
        .check(|body| {
            let fields = form(body);
            assert_eq!(
                field(&fields, "grant_type").as_deref(),
                Some("client_credentials")
            );
            assert_eq!(field(&fields, "client_id").as_deref(), Some("machine"));
            assert_eq!(
                field(&fields, "client_assertion_type").as_deref(),
                Some("urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
            );
            let assertion = field(&fields, "client_assertion").expect("an assertion");
            let claims = unverified_claims(&assertion).expect("a JWT");
            assert_eq!(claims["iss"], "machine");
            assert_eq!(claims["sub"], "machine");
            assert_eq!(claims["aud"], AS);
            assert_eq!(claims["iat"], 1_700_000_000u64);
            assert_eq!(claims["exp"], 1_700_000_300u64);
            assert!(claims["jti"].as_str().is_some_and(|j| j.len() >= 16));
            let signature = assertion.rsplit('.').next().unwrap();
            let signed = mcp_lens_client::protocol::auth::encode::base64_decode(signature).unwrap();
            assert!(String::from_utf8(signed).unwrap().starts_with("ES256:"));
        })
        .json_body(r#"{"access_token":"jwt-m2m","token_type":"Bearer","expires_in":60}"#)]);
    let get = auth.clone();
    h.run(async move { get.client_credentials(None).await })
        .expect("a token");
    assert_eq!(auth.tokens().unwrap().access_token(), "jwt-m2m");
    let log = format!("{:?}", auth.log());
    assert!(log.contains("private_key_jwt (ES256"), "{log}");
    assert!(
        !log.contains("MIGH") && !log.contains("client_assertion=ey"),
        "{log}"
    );

    // A server that accepts only RS256 is told apart before any token request.
    let mut h = Harness::new();
    let client = ClientChoice::Preregistered {
        client_id: "machine".into(),
        client_secret: None,
        private_key: Some(P256_KEY.into()),
        for_issuer: Some(AS.to_owned()),
    };
    let auth = signing_oauth(&h, OAuthSettings::new(URL, REDIRECT, client));
    h.script(machine_metadata(
        json!({ "token_endpoint_auth_signing_alg_values_supported": ["RS256"] }),
    ));
    let get = auth.clone();
    let error = h
        .run(async move { get.client_credentials(None).await })
        .unwrap_err();
    assert_eq!(error.step, AuthStep::ClientRegistration);
    assert!(error.to_string().contains("accepts only RS256"), "{error}");

    // Without a signer (a flow made with `OAuth::new`), a sentence, not a panic.
    let mut h = Harness::new();
    let client = ClientChoice::Preregistered {
        client_id: "machine".into(),
        client_secret: None,
        private_key: Some(P256_KEY.into()),
        for_issuer: Some(AS.to_owned()),
    };
    let auth = oauth(&h, client);
    h.script(machine_metadata(json!({})));
    let get = auth.clone();
    let error = h
        .run(async move { get.client_credentials(None).await })
        .unwrap_err();
    assert!(error.to_string().contains("without a signer"), "{error}");
}

#[test]
fn cross_app_access_exchanges_the_id_token_then_the_assertion() {
    const IDP: &str = "http://127.0.0.1:4100";
    let id_token = format!(
        "eyJhbGciOiJFUzI1NiJ9.{}.c2ln",
        mcp_lens_client::protocol::auth::encode::base64url(
            br#"{"iss":"http://127.0.0.1:4100","aud":"idp-client","sub":"ada@example.com"}"#
        )
    );
    let mut h = Harness::new();
    let mut settings = OAuthSettings::new(
        URL,
        REDIRECT,
        preregistered("xaa-client", Some("xaa-secret")),
    );
    settings.cross_app = Some(CrossApp {
        idp_token_endpoint: format!("{IDP}/token"),
        idp_client_id: "idp-client".into(),
        idp_client_secret: None,
        id_token: id_token.clone(),
    });
    let auth = signing_oauth(&h, settings);
    h.script([
        Exchange::at("GET", PRM_PATH).json_body(&prm(URL, AS)),
        Exchange::at(
            "GET",
            &format!("{AS}/.well-known/oauth-authorization-server"),
        )
        .json_body(
            &json!({
                "issuer": AS, "token_endpoint": format!("{AS}/token"),
                "grant_types_supported": ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic"],
            })
            .to_string(),
        ),
    ]);
    let expected_id_token = id_token.clone();
    h.script([Exchange::at("POST", &format!("{IDP}/token"))
        .no_header("authorization")
        .check(move |body| {
            let fields = form(body);
            let f = |name| field(&fields, name);
            assert_eq!(f("grant_type").as_deref(), Some("urn:ietf:params:oauth:grant-type:token-exchange"));
            assert_eq!(f("requested_token_type").as_deref(), Some("urn:ietf:params:oauth:token-type:id-jag"));
            assert_eq!(f("subject_token_type").as_deref(), Some("urn:ietf:params:oauth:token-type:id_token"));
            assert_eq!(f("subject_token"), Some(expected_id_token.clone()));
            assert_eq!(f("audience").as_deref(), Some(AS));
            assert_eq!(f("resource").as_deref(), Some(URL));
            assert_eq!(f("client_id").as_deref(), Some("idp-client"));
        })
        .json_body(
            r#"{"access_token":"the.id-jag.jwt","issued_token_type":"urn:ietf:params:oauth:token-type:id-jag","token_type":"N_A"}"#,
        )]);
    h.script([Exchange::at("POST", &format!("{AS}/token"))
        .header(
            "authorization",
            &format!("Basic {}", base64(b"xaa-client:xaa-secret")),
        )
        .check(|body| {
            let fields = form(body);
            assert_eq!(
                field(&fields, "grant_type").as_deref(),
                Some("urn:ietf:params:oauth:grant-type:jwt-bearer")
            );
            assert_eq!(
                field(&fields, "assertion").as_deref(),
                Some("the.id-jag.jwt")
            );
            assert_eq!(field(&fields, "resource").as_deref(), Some(URL));
        })
        .json_body(r#"{"access_token":"xaa-token","token_type":"Bearer","expires_in":60}"#)]);
    let get = auth.clone();
    h.run(async move { get.cross_app_access(None).await })
        .expect("a token");
    assert_eq!(auth.tokens().unwrap().access_token(), "xaa-token");
    let log = auth.log();
    let steps: Vec<AuthStep> = log.iter().map(|e| e.step).collect();
    assert!(
        steps.contains(&AuthStep::IdentityAssertion) && steps.contains(&AuthStep::AssertionGrant),
        "{steps:?}"
    );
    assert!(log.iter().any(|e| e
        .note
        .contains("the ID token is from http://127.0.0.1:4100 for the audience idp-client")));
    let text = format!("{log:?}");
    for secret in [
        id_token.as_str(),
        "the.id-jag.jwt",
        "xaa-token",
        "xaa-secret",
    ] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }

    // The identity provider's refusal names the step that failed.
    let mut h = Harness::new();
    let mut settings = OAuthSettings::new(
        URL,
        REDIRECT,
        preregistered("xaa-client", Some("xaa-secret")),
    );
    settings.cross_app = Some(CrossApp {
        idp_token_endpoint: format!("{IDP}/token"),
        idp_client_id: "idp-client".into(),
        idp_client_secret: None,
        id_token: "not-a-jwt".into(),
    });
    let auth = signing_oauth(&h, settings);
    h.script(discovery(PRM_PATH, json!({})));
    h.script([Exchange::at("POST", &format!("{IDP}/token"))
        .status(400)
        .json_body(r#"{"error":"invalid_grant","error_description":"Invalid ID token"}"#)]);
    let get = auth.clone();
    let error = h
        .run(async move { get.cross_app_access(None).await })
        .unwrap_err();
    assert_eq!(error.step, AuthStep::IdentityAssertion);
    assert!(error.to_string().contains("Invalid ID token"), "{error}");
    assert!(auth
        .log()
        .iter()
        .any(|e| e.note.contains("not a JWT this app can read")));
}
