//! Discovery in the spec's orders: the protected resource's metadata, the authorization
//! server's, the default endpoints of a 2025-03-26 server, and a client id metadata document
//! when the server supports them.

use crate::support::{Exchange, Harness, URL};
use crate::{
    config, connect_with, discovery, field, metadata, oauth, preregistered, prm, sign_in, tokens,
    AS, PRM_PATH, PRM_ROOT, REDIRECT,
};
use mcp_lens_client::auth::ClientChoice;
use mcp_lens_client::protocol::auth::encode::decode_query;
use mcp_lens_client::protocol::auth::{AuthErrorKind, AuthStep};
use serde_json::json;

#[test]
fn the_code_flow_with_registration_then_the_session_sends_the_token() {
    let mut h = Harness::new();
    let auth = oauth(&h, ClientChoice::automatic(None));
    let fields = sign_in(&mut h, &auth, tokens("tok-1", "ref-1"));
    for (name, value) in [
        ("response_type", "code"),
        ("client_id", "dcr-client"),
        ("redirect_uri", REDIRECT),
        ("code_challenge_method", "S256"),
        ("scope", "mcp:basic"),
        ("resource", URL),
    ] {
        assert_eq!(field(&fields, name).as_deref(), Some(value), "{name}");
    }
    // The challenge's PRM URL was used; the well-known ones were not needed.
    let urls: Vec<String> = h.http.seen.borrow().iter().map(|s| s.url.clone()).collect();
    assert!(
        !urls.iter().any(|u| u.contains("oauth-protected-resource")),
        "{urls:?}"
    );
    assert!(auth.is_signed_in() && !auth.needs_authorization());
    let registered = auth.registered_client().expect("registered");
    assert_eq!(
        (registered.issuer.as_str(), registered.client_id.as_str()),
        (AS, "dcr-client")
    );

    h.script(connect_with("tok-1"));
    h.connect(config(&auth)).expect("connects with the token");

    // The step log tells each step and never a secret.
    let log = auth.log();
    let steps: Vec<AuthStep> = log.iter().map(|e| e.step).collect();
    for step in [
        AuthStep::Challenge,
        AuthStep::ResourceMetadata,
        AuthStep::AuthServerMetadata,
        AuthStep::ClientRegistration,
        AuthStep::Authorization,
        AuthStep::TokenExchange,
    ] {
        assert!(steps.contains(&step), "{step:?} missing from {steps:?}");
    }
    let text = format!("{log:?}");
    for secret in ["tok-1", "ref-1", "the-code", "dcr-secret"] {
        assert!(!text.contains(secret), "{secret} in the log: {text}");
    }
    assert!(!format!("{auth:?}{:?}", config(&auth)).contains("tok-1"));
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn without_a_challenge_the_well_known_prm_and_a_path_issuer_are_found_in_order() {
    // metadata-var2 and var3: PRM at the root (its resource the origin), an issuer with a
    // path whose metadata is only at the OpenID "appended" URL.
    let mut h = Harness::new();
    let auth = oauth(&h, preregistered("pre", None));
    auth.note_refusal(401, None);
    let issuer = format!("{AS}/tenant1");
    h.script([
        Exchange::at("GET", PRM_PATH).status(404),
        Exchange::at("GET", PRM_ROOT).json_body(&prm("http://127.0.0.1:3001", &issuer)),
        Exchange::at(
            "GET",
            &format!("{AS}/.well-known/oauth-authorization-server/tenant1"),
        )
        .status(404),
        Exchange::at(
            "GET",
            &format!("{AS}/.well-known/openid-configuration/tenant1"),
        )
        .status(404),
        Exchange::at(
            "GET",
            &format!("{AS}/tenant1/.well-known/openid-configuration"),
        )
        .json_body(&metadata(
            &issuer,
            json!({ "scopes_supported": ["openid"] }),
        )),
    ]);
    let start = auth.clone();
    let authorize = h
        .run(async move { start.start().await })
        .expect("authorization URL");
    assert!(authorize.url.starts_with(&format!("{issuer}/authorize?")));
    let fields = decode_query(&authorize.url);
    assert_eq!(field(&fields, "client_id").as_deref(), Some("pre"));
    assert_eq!(
        field(&fields, "resource").as_deref(),
        Some("http://127.0.0.1:3001")
    );
    assert_eq!(field(&fields, "scope"), None); // neither challenge nor PRM names one
    let order: Vec<String> = h.http.seen.borrow().iter().map(|s| s.url.clone()).collect();
    assert_eq!(order.len(), 5, "{order:?}");
    assert!(!order.contains(&format!("{AS}/.well-known/oauth-authorization-server")));
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn metadata_for_another_resource_is_refused_before_any_authorization() {
    let mut h = Harness::new();
    let auth = oauth(&h, ClientChoice::automatic(None));
    auth.note_refusal(
        401,
        Some(&format!(r#"Bearer resource_metadata="{PRM_PATH}""#)),
    );
    // Nothing is scripted after the PRM: a request to the authorization server would fail.
    h.script([Exchange::at("GET", PRM_PATH).json_body(&prm("https://evil.example.com/mcp", AS))]);
    let start = auth.clone();
    let error = h.run(async move { start.start().await }).unwrap_err();
    assert_eq!(error.step, AuthStep::ResourceMetadata);
    assert!(matches!(error.kind, AuthErrorKind::ResourceMismatch { .. }));
    assert!(
        error.to_string().starts_with(
            "Reading the protected resource metadata failed: it is for https://evil.example.com/mcp, not for the server at http://127.0.0.1:3001/mcp"
        ),
        "{error}"
    );
    assert!(auth.log().last().is_some_and(|entry| entry.failed));
    assert_eq!(h.http.seen.borrow().len(), 1);
}

#[test]
fn a_2025_03_26_server_without_metadata_gets_the_default_endpoints() {
    let mut h = Harness::new();
    let auth = oauth(&h, ClientChoice::automatic(None));
    auth.note_refusal(401, Some("Bearer"));
    let origin = "http://127.0.0.1:3001";
    h.script([
        Exchange::at("GET", PRM_PATH).status(404),
        Exchange::at("GET", PRM_ROOT).status(404),
        Exchange::at(
            "GET",
            &format!("{origin}/.well-known/oauth-authorization-server"),
        )
        .status(404),
        Exchange::at("GET", &format!("{origin}/.well-known/openid-configuration")).status(404),
        Exchange::at("POST", &format!("{origin}/register"))
            .status(201)
            .json_body(r#"{"client_id":"legacy-client"}"#),
    ]);
    let start = auth.clone();
    let authorize = h
        .run(async move { start.start().await })
        .expect("authorization URL");
    assert!(
        authorize.url.starts_with(&format!("{origin}/authorize?")),
        "{}",
        authorize.url
    );
    let fields = decode_query(&authorize.url);
    assert_eq!(
        field(&fields, "client_id").as_deref(),
        Some("legacy-client")
    );
    assert_eq!(field(&fields, "resource").as_deref(), Some(URL));
    h.script([Exchange::at("POST", &format!("{origin}/token"))
        .json_body(r#"{"access_token":"legacy-token","token_type":"bearer"}"#)]);
    let finish = auth.clone();
    let redirect = format!("?state={}&code=c", authorize.state);
    h.run(async move { finish.finish(&redirect).await })
        .expect("tokens");
    assert!(auth.is_signed_in());
}

#[test]
fn metadata_the_server_names_but_the_page_cannot_read_is_named_not_guessed_around() {
    let custom_prm = "http://127.0.0.1:3001/custom/prm.json";
    let mut h = Harness::new();
    let auth = oauth(&h, ClientChoice::automatic(None));
    auth.note_refusal(
        401,
        Some(&format!(r#"Bearer resource_metadata="{custom_prm}""#)),
    );
    // Every PRM URL fails as a missing CORS header does; nothing after it may be asked (the
    // 2025-03-26 guess would go on to the origin's metadata and `/register`).
    h.script([
        Exchange::at("GET", custom_prm).unreachable(),
        Exchange::at("GET", PRM_PATH).unreachable(),
        Exchange::at("GET", PRM_ROOT).unreachable(),
    ]);
    let start = auth.clone();
    let error = h.run(async move { start.start().await }).unwrap_err();
    assert_eq!(error.step, AuthStep::ResourceMetadata);
    let text = error.to_string();
    assert!(
        text.contains(custom_prm) && text.contains("Access-Control-Allow-Origin"),
        "{text}"
    );
}

#[test]
fn a_metadata_document_url_is_the_client_id_when_the_server_supports_them() {
    let cimd = "https://app.example/mcp-lens/client.json";
    let mut h = Harness::new();
    let auth = oauth(&h, ClientChoice::automatic(Some(cimd.to_owned())));
    auth.note_refusal(
        401,
        Some(&format!(r#"Bearer resource_metadata="{PRM_PATH}""#)),
    );
    // No registration is scripted: registering would fail the test.
    h.script(discovery(
        PRM_PATH,
        json!({ "client_id_metadata_document_supported": true, "scopes_supported": ["offline_access"] }),
    ));
    let start = auth.clone();
    let authorize = h
        .run(async move { start.start().await })
        .expect("authorization URL");
    let fields = decode_query(&authorize.url);
    assert_eq!(field(&fields, "client_id").as_deref(), Some(cimd));
    assert_eq!(auth.registered_client(), None);

    // Without that support, a registration remembered for this issuer is used again.
    let mut h = Harness::new();
    let known = mcp_lens_client::protocol::auth::messages::RegisteredClient::new(
        AS,
        "remembered",
        None,
        None,
    );
    let auth = oauth(
        &h,
        ClientChoice::Automatic {
            metadata_document_url: Some(cimd.to_owned()),
            known: vec![known],
        },
    );
    auth.note_refusal(
        401,
        Some(&format!(r#"Bearer resource_metadata="{PRM_PATH}""#)),
    );
    h.script(discovery(PRM_PATH, json!({})));
    let start = auth.clone();
    let authorize = h
        .run(async move { start.start().await })
        .expect("authorization URL");
    assert_eq!(
        field(&decode_query(&authorize.url), "client_id").as_deref(),
        Some("remembered")
    );
}
