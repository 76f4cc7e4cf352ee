//! MCP authorization over the scripted HTTP fake: discovery in the spec's orders, client
//! identity (registration, pre-registered, client credentials), the code flow, and the
//! session's use of the token (refresh on 401 and one retry, step-up on 403, retry limit).

mod support;

use futures::future::LocalBoxFuture;
use mcp_lens_client::auth::{
    Authorize, ClientChoice, CrossApp, NextStep, OAuth, OAuthSettings, Random, Signer, StepGate,
    MAX_AUTHORIZATIONS,
};
use mcp_lens_client::protocol::auth::encode::{base64, decode_query};
use mcp_lens_client::protocol::auth::jwt::{unverified_claims, PrivateKey};
use mcp_lens_client::protocol::auth::messages::Tokens;
use mcp_lens_client::protocol::auth::pkce::s256_challenge;
use mcp_lens_client::protocol::auth::{AuthError, AuthErrorKind, AuthStep};
use mcp_lens_client::protocol::error::ErrorKind;
use mcp_lens_client::ClientConfig;
use serde_json::{json, Value};
use std::cell::Cell;
use std::rc::Rc;
use support::{initialize_result, Done, Exchange, Harness, URL};

const AS: &str = "http://127.0.0.1:4000";
const REDIRECT: &str = "http://127.0.0.1:8080/callback.html";
const PRM_PATH: &str = "http://127.0.0.1:3001/.well-known/oauth-protected-resource/mcp";
const PRM_ROOT: &str = "http://127.0.0.1:3001/.well-known/oauth-protected-resource";

/// Different bytes on every call, the same run to run.
#[derive(Default)]
struct Counting(Cell<u8>);

impl Random for Counting {
    fn fill(&self, bytes: &mut [u8]) -> Result<(), String> {
        for byte in bytes {
            self.0.set(self.0.get().wrapping_add(1));
            *byte = self.0.get();
        }
        Ok(())
    }
}

fn oauth(h: &Harness, client: ClientChoice) -> OAuth {
    OAuth::new(
        &h.runtime(),
        Rc::new(Counting::default()),
        OAuthSettings::new(URL, REDIRECT, client),
    )
}

fn preregistered(client_id: &str, client_secret: Option<&str>) -> ClientChoice {
    ClientChoice::Preregistered {
        client_id: client_id.to_owned(),
        client_secret: client_secret.map(str::to_owned),
        private_key: None,
        for_issuer: Some(AS.to_owned()),
    }
}

fn config(auth: &OAuth) -> ClientConfig {
    let mut config = ClientConfig::new(URL);
    config.known_handshake = true;
    config.auth = Some(auth.clone());
    config
}

fn prm(resource: &str, issuer: &str) -> String {
    json!({ "resource": resource, "authorization_servers": [issuer] }).to_string()
}

/// RFC 8414 metadata for an issuer (`base` + `prefix`), endpoints under it.
fn metadata(issuer: &str, extra: Value) -> String {
    let mut document = json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "registration_endpoint": format!("{issuer}/register"),
        "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
    });
    if let (Value::Object(document), Value::Object(extra)) = (&mut document, extra) {
        document.extend(extra);
    }
    document.to_string()
}

/// The PRM at `prm_url` naming [`AS`], then its RFC 8414 metadata with `extra`.
fn discovery(prm_url: &str, extra: Value) -> Vec<Exchange> {
    vec![
        Exchange::at("GET", prm_url).json_body(&prm(URL, AS)),
        Exchange::at(
            "GET",
            &format!("{AS}/.well-known/oauth-authorization-server"),
        )
        .json_body(&metadata(AS, extra)),
    ]
}

fn field(fields: &[(String, String)], name: &str) -> Option<String> {
    fields
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.clone())
}

fn form(body: &Value) -> Vec<(String, String)> {
    decode_query(body.as_str().expect("a form body"))
}

/// The handshake connect of a server with one tool, every request carrying `bearer`.
fn connect_with(bearer: &str) -> Vec<Exchange> {
    let authorization = format!("Bearer {bearer}");
    vec![
        Exchange::post("initialize")
            .header("authorization", &authorization)
            .result(initialize_result("2025-06-18", json!({ "tools": {} }))),
        Exchange::post("notifications/initialized")
            .header("authorization", &authorization)
            .status(202),
        Exchange::post("tools/list")
            .header("authorization", &authorization)
            .result(json!({ "tools": [] })),
        Exchange::get()
            .header("authorization", &authorization)
            .status(405),
    ]
}

fn refused(rpc: &str, status: u16, challenge: &str) -> Exchange {
    Exchange::post(rpc)
        .status(status)
        .answer_header("www-authenticate", challenge)
        .json_body(r#"{"error":"invalid_token"}"#)
}

/// The whole code flow with registration, from the server's first 401 to tokens: the
/// challenge names a PRM at a custom location and a scope. Returns the authorization URL's
/// parameters.
fn sign_in(h: &mut Harness, auth: &OAuth, token_answer: Value) -> Vec<(String, String)> {
    let custom_prm = "http://127.0.0.1:3001/custom/metadata/location.json";
    h.script([refused(
        "initialize",
        401,
        &format!(r#"Bearer resource_metadata="{custom_prm}", scope="mcp:basic""#),
    )
    .no_header("authorization")]);
    let refused = h.connect(config(auth)).unwrap_err();
    assert!(
        matches!(refused, ErrorKind::HttpStatus { status: 401, .. }),
        "{refused:?}"
    );
    assert!(auth.needs_authorization());

    h.script(discovery(custom_prm, json!({})));
    h.script([Exchange::at("POST", &format!("{AS}/register"))
        .check(|body| {
            assert_eq!(body["redirect_uris"], json!([REDIRECT]));
            assert_eq!(
                body["grant_types"],
                json!(["authorization_code", "refresh_token"])
            );
            assert_eq!(body["token_endpoint_auth_method"], "none");
            assert_eq!(body["client_name"], "mcp-lens");
            assert_eq!(body["scope"], "mcp:basic");
        })
        .status(201)
        .json_body(r#"{"client_id":"dcr-client","client_secret":"dcr-secret"}"#)]);
    let start = auth.clone();
    let authorize = h
        .run(async move { start.start().await })
        .expect("authorization URL");
    assert!(
        authorize.url.starts_with(&format!("{AS}/authorize?")),
        "{}",
        authorize.url
    );
    let fields = decode_query(&authorize.url);
    assert_eq!(
        field(&fields, "state").as_deref(),
        Some(authorize.state.as_str())
    );
    let challenge = field(&fields, "code_challenge").expect("a challenge");

    h.script([Exchange::at("POST", &format!("{AS}/token"))
        .no_header("authorization") // the server takes only `none`
        .check(move |body| {
            let fields = form(body);
            assert_eq!(
                field(&fields, "grant_type").as_deref(),
                Some("authorization_code")
            );
            assert_eq!(field(&fields, "code").as_deref(), Some("the-code"));
            assert_eq!(field(&fields, "redirect_uri").as_deref(), Some(REDIRECT));
            assert_eq!(field(&fields, "resource").as_deref(), Some(URL));
            assert_eq!(field(&fields, "client_id").as_deref(), Some("dcr-client"));
            assert_eq!(field(&fields, "client_secret"), None);
            let verifier = field(&fields, "code_verifier").expect("a verifier");
            assert_eq!(s256_challenge(&verifier), challenge);
        })
        .json_body(&token_answer.to_string())]);
    let finish = auth.clone();
    let redirect = format!("{REDIRECT}?code=the-code&state={}", authorize.state);
    h.run(async move { finish.finish(&redirect).await })
        .expect("tokens");
    fields
}

fn tokens(access: &str, refresh: &str) -> Value {
    json!({ "access_token": access, "token_type": "Bearer", "expires_in": 3600, "refresh_token": refresh })
}

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
fn a_refused_token_is_refreshed_once_and_the_request_sent_again_once() {
    let mut h = Harness::new();
    let auth = oauth(&h, ClientChoice::automatic(None));
    sign_in(&mut h, &auth, tokens("tok-1", "ref-1"));
    h.script(connect_with("tok-1"));
    h.connect(config(&auth)).expect("connects");

    let token_endpoint = format!("{AS}/token");
    h.script([
        refused("ping", 401, r#"Bearer error="invalid_token""#)
            .header("authorization", "Bearer tok-1"),
        Exchange::at("POST", &token_endpoint)
            .check(|body| {
                let fields = form(body);
                assert_eq!(
                    field(&fields, "grant_type").as_deref(),
                    Some("refresh_token")
                );
                assert_eq!(field(&fields, "refresh_token").as_deref(), Some("ref-1"));
                assert_eq!(field(&fields, "resource").as_deref(), Some(URL));
            })
            // No new refresh token: the old one is kept.
            .json_body(r#"{"access_token":"tok-2","token_type":"Bearer"}"#),
        Exchange::post("ping")
            .header("authorization", "Bearer tok-2")
            .result(json!({})),
    ]);
    let client = h.client();
    h.run(async move { client.ping().await })
        .expect("answered after the refresh");
    assert_eq!(auth.tokens().unwrap().refresh_token(), Some("ref-1"));

    // Refused again after the refresh: the caller gets the 401, nothing loops.
    h.script([
        refused("ping", 401, "Bearer").header("authorization", "Bearer tok-2"),
        Exchange::at("POST", &token_endpoint)
            .json_body(r#"{"access_token":"tok-3","token_type":"Bearer"}"#),
        refused("ping", 401, "Bearer").header("authorization", "Bearer tok-3"),
    ]);
    let client = h.client();
    let error = h.run(async move { client.ping().await }).unwrap_err();
    assert_eq!(error.http_status(), Some(401));
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
    let refreshes = h
        .http
        .seen
        .borrow()
        .iter()
        .filter(|s| s.url == token_endpoint)
        .count();
    assert_eq!(refreshes, 3); // the code exchange and one refresh per refused request
}

#[test]
fn nested_and_form_encoded_token_answers_show_no_secret_in_the_steps() {
    // Signed in with a token answer that nests tokens (as Slack's `authed_user` does) and
    // lists more in an array; then a refresh answered by `refresh` (content type, status,
    // body). Returns the steps as text.
    let steps_after = |refresh: Exchange| {
        let mut h = Harness::new();
        let auth = oauth(&h, ClientChoice::automatic(None));
        let mut answer = tokens("tok-top", "ref-top");
        answer["authed_user"] =
            json!({ "access_token": "tok-nested", "refresh_token": "ref-nested" });
        answer["issued"] = json!([{ "id_token": "idt-in-array", "kind": "openid" }]);
        sign_in(&mut h, &auth, answer);
        h.script(connect_with("tok-top"));
        h.connect(config(&auth)).expect("connects");
        h.script([
            refused("ping", 401, "Bearer").header("authorization", "Bearer tok-top"),
            refresh,
        ]);
        let client = h.client();
        let _ = h.run(async move { client.ping().await });
        let log = auth.log();
        assert!(log.iter().any(|e| e.step == AuthStep::Refresh), "{log:?}");
        format!("{log:?}")
    };
    let token_endpoint = format!("{AS}/token");
    // Form-encoded, as GitHub answers without `Accept: application/json`.
    let form = steps_after(
        Exchange::at("POST", &token_endpoint)
            .answer_header("content-type", "application/x-www-form-urlencoded")
            .body("access_token=tok-form&token_type=bearer&refresh_token=ref-form&scope=mcp"),
    );
    // An error page quoting a token in a link and in its text.
    let html = steps_after(
        Exchange::at("POST", &token_endpoint)
            .status(500)
            .answer_header("content-type", "text/html")
            .body(r#"<p>failed: <a href="/retry?refresh_token=ref-html&x=1">refresh_token=ref-html2</a></p>"#),
    );
    for text in [&form, &html] {
        for secret in [
            "tok-top",
            "ref-top",
            "tok-nested",
            "ref-nested",
            "idt-in-array",
            "tok-form",
            "ref-form",
            "ref-html",
        ] {
            assert!(!text.contains(secret), "{secret} in the steps: {text}");
        }
        // What is not secret stays readable.
        assert!(text.contains("openid"), "{text}");
    }
    assert!(form.contains("scope=mcp"), "{form}");
}

#[test]
fn a_refresh_the_server_refuses_leaves_the_person_to_sign_in_again() {
    let mut h = Harness::new();
    let auth = oauth(&h, ClientChoice::automatic(None));
    sign_in(&mut h, &auth, tokens("tok-1", "ref-1"));
    h.script(connect_with("tok-1"));
    h.connect(config(&auth)).expect("connects");
    h.script([
        refused("ping", 401, "Bearer").header("authorization", "Bearer tok-1"),
        Exchange::at("POST", &format!("{AS}/token"))
            .status(400)
            .json_body(r#"{"error":"invalid_grant","error_description":"refresh token revoked"}"#),
    ]);
    let client = h.client();
    let error = h.run(async move { client.ping().await }).unwrap_err();
    assert_eq!(error.http_status(), Some(401));
    assert!(!auth.is_signed_in() && auth.needs_authorization());
    assert!(auth
        .log()
        .iter()
        .any(|e| e.failed && e.step == AuthStep::Refresh && e.note.contains("invalid_grant")));
}

#[test]
fn a_403_insufficient_scope_asks_for_a_step_up_with_the_scopes_named() {
    let mut h = Harness::new();
    let auth = oauth(&h, ClientChoice::automatic(None));
    sign_in(&mut h, &auth, tokens("tok-1", "ref-1"));
    h.script(connect_with("tok-1"));
    h.connect(config(&auth)).expect("connects");
    h.script([refused(
        "tools/call",
        403,
        r#"Bearer error="insufficient_scope", scope="mcp:basic mcp:write", resource_metadata="http://127.0.0.1:3001/custom/metadata/location.json""#,
    )]);
    let (_, call) = h.client().call_tool("write", serde_json::Map::new());
    let error = h.run(call).unwrap_err();
    assert_eq!(error.http_status(), Some(403));
    // No refresh (it cannot widen the grant): a new authorization, asking for the union.
    assert!(auth.needs_authorization());
    let start = auth.clone();
    let authorize = h
        .run(async move { start.start().await })
        .expect("step-up URL");
    let fields = decode_query(&authorize.url);
    assert_eq!(
        field(&fields, "scope").as_deref(),
        Some("mcp:basic mcp:write")
    );
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn authorizations_stop_after_the_retry_limit() {
    let mut h = Harness::new();
    let auth = oauth(&h, preregistered("pre", None));
    auth.note_refusal(
        403,
        Some(&format!(r#"Bearer error="insufficient_scope", scope="mcp:admin", resource_metadata="{PRM_PATH}""#)),
    );
    h.script(discovery(PRM_PATH, json!({})));
    for _ in 0..MAX_AUTHORIZATIONS {
        let start = auth.clone();
        h.run(async move { start.start().await })
            .expect("an authorization URL");
    }
    let start = auth.clone();
    let error = h.run(async move { start.start().await }).unwrap_err();
    assert_eq!(
        error.kind,
        AuthErrorKind::TooManyAttempts {
            attempts: MAX_AUTHORIZATIONS
        }
    );
    assert!(
        error.to_string().contains("stopped rather than loop"),
        "{error}"
    );
}

/// conformance auth/scope-retry-limit: the server accepts `initialize` from anyone and refuses
/// every other request, whatever the token. Each new token is accepted once (initialize) and
/// then refused; that acceptance must not reset the limit, or the page signs in forever.
#[test]
fn a_token_accepted_then_refused_does_not_reset_the_retry_limit() {
    let mut h = Harness::new();
    let auth = oauth(&h, preregistered("pre", None));
    let refuse = |auth: &OAuth| {
        auth.note_refusal(
            403,
            Some(&format!(r#"Bearer error="insufficient_scope", scope="mcp:admin", resource_metadata="{PRM_PATH}""#)),
        )
    };
    refuse(&auth);
    h.script(discovery(PRM_PATH, json!({})));
    for round in 0..MAX_AUTHORIZATIONS {
        let start = auth.clone();
        h.run(async move { start.start().await })
            .expect("an authorization URL");
        auth.set_tokens(Tokens::new(format!("token-{round}"), None));
        assert!(
            !auth.needs_authorization(),
            "a new token answers the old refusal"
        );
        auth.note_accepted(); // initialize
        refuse(&auth); // tools/list
        assert!(auth.needs_authorization());
    }
    let start = auth.clone();
    let error = h.run(async move { start.start().await }).unwrap_err();
    assert_eq!(
        error.kind,
        AuthErrorKind::TooManyAttempts {
            attempts: MAX_AUTHORIZATIONS
        }
    );
    // A token the server accepted and never refused makes the next authorization a new need.
    auth.set_tokens(Tokens::new("good", None));
    auth.note_accepted();
    let start = auth.clone();
    h.run(async move { start.start().await })
        .expect("the limit starts again after a token that worked");
}

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

#[test]
fn the_token_goes_to_the_server_origin_only() {
    let h = Harness::new();
    let auth = oauth(&h, ClientChoice::automatic(None));
    assert!(auth.sends_token_to("http://127.0.0.1:3001/messages?session=1"));
    for other in [
        "http://127.0.0.1:3002/mcp",
        "https://127.0.0.1:3001/mcp",
        "http://localhost:3001/mcp",
        "/mcp",
    ] {
        assert!(!auth.sends_token_to(other), "{other}");
    }
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

fn machine_metadata(extra: Value) -> Vec<Exchange> {
    let mut document = json!({
        "issuer": AS, "token_endpoint": format!("{AS}/token"),
        "grant_types_supported": ["client_credentials"],
        "token_endpoint_auth_methods_supported": ["private_key_jwt"],
    });
    if let (Value::Object(document), Value::Object(extra)) = (&mut document, extra) {
        document.extend(extra);
    }
    vec![
        Exchange::at("GET", PRM_PATH).json_body(&prm(URL, AS)),
        Exchange::at(
            "GET",
            &format!("{AS}/.well-known/oauth-authorization-server"),
        )
        .json_body(&document.to_string()),
    ]
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

/// Discovery (the well-known PRM) and, for an automatic client, a registration; then
/// `start`. What a page does before it sends its own tab to the authorization URL.
fn started(h: &mut Harness, auth: &OAuth, extra: Value) -> mcp_lens_client::auth::Authorize {
    h.script(discovery(PRM_PATH, extra));
    if matches!(auth.settings().client, ClientChoice::Automatic { .. }) {
        h.script([Exchange::at("POST", &format!("{AS}/register"))
            .status(201)
            .json_body(r#"{"client_id":"dcr-client","token_endpoint_auth_method":"none"}"#)]);
    }
    let start = auth.clone();
    h.run(async move { start.start().await })
        .expect("authorization URL")
}

#[test]
fn a_sign_in_resumed_by_a_new_page_checks_state_then_exchanges_the_code() {
    let mut h = Harness::new();
    let before = oauth(&h, ClientChoice::automatic(None));
    let authorize = started(&mut h, &before, json!({}));
    let pending = before
        .pending_sign_in()
        .expect("an authorization in progress");
    assert_eq!(pending.state(), authorize.state);
    assert_eq!(pending.server_url(), URL);
    // What the page keeps while away: the verifier is in it (that is its purpose), never in
    // its Debug output.
    let kept = serde_json::to_string(&pending).unwrap();
    let verifier = serde_json::from_str::<Value>(&kept).unwrap()["verifier"]
        .as_str()
        .expect("the verifier")
        .to_owned();
    assert!(verifier.len() >= 43);
    assert!(!format!("{pending:?}").contains(&verifier));
    let challenge = field(&decode_query(&authorize.url), "code_challenge").unwrap();
    assert_eq!(s256_challenge(&verifier), challenge);

    // The page that comes back: a new flow, nothing discovered, and no request before the
    // token exchange.
    let after = oauth(&h, ClientChoice::automatic(None));
    let finish = after.clone();
    let error = h
        .run(async move { finish.finish("?code=the-code&state=x").await })
        .unwrap_err();
    assert!(
        matches!(error.kind, AuthErrorKind::NotReady { .. }),
        "{error:?}"
    );
    after
        .resume(serde_json::from_str(&kept).unwrap())
        .expect("resumed");
    // A redirect that is not this sign-in's is refused, and sends nothing.
    let finish = after.clone();
    let forged = format!("{REDIRECT}?code=forged-code&state=not-{}", authorize.state);
    let error = h
        .run(async move { finish.finish(&forged).await })
        .unwrap_err();
    assert_eq!(error.kind, AuthErrorKind::StateMismatch);
    assert!(!after.is_signed_in());
    let seen_before = h.http.seen.borrow().len();

    let expected_verifier = verifier.clone();
    h.script([Exchange::at("POST", &format!("{AS}/token"))
        .no_header("authorization")
        .check(move |body| {
            let fields = form(body);
            assert_eq!(
                field(&fields, "grant_type").as_deref(),
                Some("authorization_code")
            );
            assert_eq!(field(&fields, "code").as_deref(), Some("the-code"));
            assert_eq!(
                field(&fields, "code_verifier").as_deref(),
                Some(expected_verifier.as_str())
            );
            assert_eq!(field(&fields, "client_id").as_deref(), Some("dcr-client"));
            assert_eq!(field(&fields, "redirect_uri").as_deref(), Some(REDIRECT));
            assert_eq!(field(&fields, "resource").as_deref(), Some(URL));
        })
        .json_body(&tokens("tok-1", "ref-1").to_string())]);
    let finish = after.clone();
    let redirect = format!("{REDIRECT}?code=the-code&state={}", authorize.state);
    h.run(async move { finish.finish(&redirect).await })
        .expect("tokens");
    assert_eq!(h.http.seen.borrow().len(), seen_before + 1); // the token request only
    assert!(after.is_signed_in());
    // Finished: the same redirect again is refused (the authorization is used up).
    let finish = after.clone();
    let redirect = format!("{REDIRECT}?code=the-code&state={}", authorize.state);
    assert!(h
        .run(async move { finish.finish(&redirect).await })
        .is_err());
    assert!(after.pending_sign_in().is_none());
    // The registration is the next sign-in's (no second registration).
    assert_eq!(
        after.registered_client().map(|r| r.client_id),
        Some("dcr-client".to_owned())
    );
    let log = format!("{:?}", after.log());
    for secret in [verifier.as_str(), "the-code", "tok-1", "ref-1"] {
        assert!(!log.contains(secret), "{secret} in the log: {log}");
    }
    h.script(connect_with("tok-1"));
    h.connect(config(&after)).expect("connects with the token");
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn tokens_kept_with_their_flow_are_refreshed_after_a_reload_with_no_discovery() {
    let mut h = Harness::new();
    let before = oauth(&h, ClientChoice::automatic(None));
    sign_in(&mut h, &before, tokens("tok-1", "ref-1"));
    let saved = before.saved_flow().expect("discovered and registered");
    let text = serde_json::to_string(&saved).unwrap();
    // DCR answered a secret in `sign_in`: it is not kept.
    assert!(!text.contains("dcr-secret"), "{text}");

    // The reloaded page: the kept tokens and flow. The server refuses the old token; one
    // refresh (as the registered client) and the connect goes on.
    let after = oauth(&h, ClientChoice::automatic(None));
    after.set_tokens(Tokens::new("tok-1", Some("ref-1".to_owned())));
    after
        .restore(serde_json::from_str(&text).unwrap())
        .expect("restored");
    h.script([
        refused("initialize", 401, r#"Bearer error="invalid_token""#)
            .header("authorization", "Bearer tok-1"),
        Exchange::at("POST", &format!("{AS}/token"))
            .check(|body| {
                let fields = form(body);
                assert_eq!(
                    field(&fields, "grant_type").as_deref(),
                    Some("refresh_token")
                );
                assert_eq!(field(&fields, "refresh_token").as_deref(), Some("ref-1"));
                assert_eq!(field(&fields, "client_id").as_deref(), Some("dcr-client"));
                assert_eq!(field(&fields, "resource").as_deref(), Some(URL));
            })
            .json_body(&tokens("tok-2", "ref-2").to_string()),
    ]);
    h.script(connect_with("tok-2"));
    h.connect(config(&after))
        .expect("connects after the refresh");
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
    assert!(!after.needs_authorization());

    // Without the flow (today's tokens alone) the same refusal leaves a sign-in to do.
    let bare = oauth(&h, ClientChoice::automatic(None));
    bare.set_tokens(Tokens::new("tok-2", Some("ref-2".to_owned())));
    h.script([
        refused("initialize", 401, r#"Bearer error="invalid_token""#)
            .header("authorization", "Bearer tok-2"),
    ]);
    assert!(h.connect(config(&bare)).is_err());
    assert!(bare.needs_authorization());
}

#[test]
fn a_kept_sign_in_is_refused_for_another_server_client_or_a_secret_not_given_again() {
    let mut h = Harness::new();
    let basic = json!({ "token_endpoint_auth_methods_supported": ["client_secret_basic"] });
    let before = oauth(&h, preregistered("pre-client", Some("s3cret")));
    let authorize = started(&mut h, &before, basic);
    let pending = before.pending_sign_in().unwrap();
    let kept = serde_json::to_string(&pending).unwrap();
    assert!(!kept.contains("s3cret"), "the secret is not kept: {kept}");

    let refused_with = |client: ClientChoice, url: &str| {
        let auth = OAuth::new(
            &h.runtime(),
            Rc::new(Counting::default()),
            OAuthSettings::new(url, REDIRECT, client),
        );
        let error = auth
            .resume(serde_json::from_str(&kept).unwrap())
            .unwrap_err();
        assert!(auth.log().last().is_some_and(|e| e.failed));
        error
    };
    // The secret was not given again (the tab did not remember it).
    let error = refused_with(preregistered("pre-client", None), URL);
    assert!(
        matches!(error.kind, AuthErrorKind::NotReady { .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains("client secret"), "{error}");
    // Another client, another server.
    for (client, url, says) in [
        (preregistered("other", Some("s3cret")), URL, "pre-client"),
        (
            preregistered("pre-client", Some("s3cret")),
            "http://127.0.0.1:3001/other",
            "http://127.0.0.1:3001/other",
        ),
    ] {
        let error = refused_with(client, url);
        assert!(
            matches!(error.kind, AuthErrorKind::Invalid { .. }),
            "{error:?}"
        );
        assert!(error.to_string().contains(says), "{error}");
    }

    // With the secret given again: the exchange authenticates with it.
    let after = oauth(&h, preregistered("pre-client", Some("s3cret")));
    after
        .resume(serde_json::from_str(&kept).unwrap())
        .expect("resumed");
    h.script([Exchange::at("POST", &format!("{AS}/token"))
        .header(
            "authorization",
            &format!("Basic {}", base64(b"pre-client:s3cret")),
        )
        .json_body(&tokens("tok-1", "ref-1").to_string())]);
    let redirect = format!("{REDIRECT}?code=c&state={}", authorize.state);
    h.run(async move { after.finish(&redirect).await })
        .expect("tokens");
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

// ---------------------------------------------------------------- step by step

/// A flow that waits at `gate` (stepping) before each request, after the server's 401 named
/// its PRM at [`PRM_PATH`] and the scope `mcp:basic`.
fn stepped(h: &Harness) -> (OAuth, StepGate) {
    let auth = oauth(h, ClientChoice::automatic(None));
    let gate = StepGate::new();
    gate.set_stepping(true);
    auth.set_stepper(Some(Rc::new(gate.clone())));
    auth.note_refusal(
        401,
        Some(&format!(
            r#"Bearer resource_metadata="{PRM_PATH}", scope="mcp:basic""#
        )),
    );
    (auth, gate)
}

/// Discovery, a registration and a token answer, as [`stepped`]'s flow asks for them.
fn script_sign_in(h: &Harness, token_answer: Value) {
    h.script(discovery(PRM_PATH, json!({})));
    h.script([
        Exchange::at("POST", &format!("{AS}/register"))
            .status(201)
            .json_body(r#"{"client_id":"dcr-client"}"#),
        Exchange::at("POST", &format!("{AS}/token")).json_body(&token_answer.to_string()),
    ]);
}

/// [`stepped`]'s sign-in started, with its first request (the PRM) let go.
fn started_past_prm(h: &mut Harness) -> (OAuth, StepGate, Done<Result<Authorize, AuthError>>) {
    let (auth, gate) = stepped(h);
    script_sign_in(h, tokens("tok-1", "ref-1"));
    let start = auth.clone();
    let started = h.spawn(async move { start.start().await });
    h.settle();
    assert!(gate.next()); // the PRM
    h.settle();
    (auth, gate, started)
}

fn requests_seen(h: &Harness) -> Vec<String> {
    h.http
        .seen
        .borrow()
        .iter()
        .map(|s| format!("{} {}", s.method, s.url))
        .collect()
}

/// The step waiting at `gate`, checked: its step, method and URL, and that its reason says `why`.
fn waiting_at(gate: &StepGate, step: AuthStep, request: &str, why: &str) -> NextStep {
    let next = gate.waiting().expect("a step waits");
    assert_eq!(
        (next.step, format!("{} {}", next.method, next.url)),
        (step, request.to_owned())
    );
    assert!(next.why.contains(why), "{why:?} not in {:?}", next.why);
    next
}

#[test]
fn step_by_step_sends_each_request_only_when_released_in_the_flows_order() {
    let mut h = Harness::new();
    let (auth, gate) = stepped(&h);
    let changes = Rc::new(Cell::new(0));
    let counted = changes.clone();
    gate.on_change(move || counted.set(counted.get() + 1));
    script_sign_in(&h, tokens("tok-1", "ref-1"));

    let start = auth.clone();
    let started = h.spawn(async move { start.start().await });
    h.settle();
    // Waiting before the first request: nothing went out.
    assert_eq!(requests_seen(&h), Vec::<String>::new());
    waiting_at(
        &gate,
        AuthStep::ResourceMetadata,
        &format!("GET {PRM_PATH}"),
        "the server's 401 names it",
    );
    assert!(changes.get() > 0, "the page was told a step waits");
    // Still waiting however long it runs, until released.
    h.settle();
    assert!(requests_seen(&h).is_empty());

    let order = [
        (
            AuthStep::AuthServerMetadata,
            format!("GET {AS}/.well-known/oauth-authorization-server"),
            "named by the resource metadata; its RFC 8414 metadata URL",
        ),
        (
            AuthStep::ClientRegistration,
            format!("POST {AS}/register"),
            "registering this app (RFC 7591 Dynamic Client Registration), scope mcp:basic",
        ),
        (
            AuthStep::Authorization,
            format!("GET {AS}/authorize?"),
            "the client is dcr-client",
        ),
    ];
    for (sent, (step, request, why)) in order.into_iter().enumerate() {
        assert!(gate.next());
        h.settle();
        // The step released went out, and only it.
        assert_eq!(requests_seen(&h).len(), sent + 1, "{:?}", requests_seen(&h));
        let next = gate.waiting().expect("the next step waits");
        assert_eq!(next.step, step);
        assert!(
            format!("{} {}", next.method, next.url).starts_with(&request),
            "{next:?}"
        );
        assert!(next.why.contains(why), "{why:?} not in {:?}", next.why);
        if step == AuthStep::ClientRegistration {
            let body: Value = serde_json::from_str(next.sent.as_deref().unwrap()).unwrap();
            assert_eq!(body["redirect_uris"], json!([REDIRECT]));
        }
        assert!(started.borrow().is_none(), "the flow ended early");
    }
    // The authorization URL is not handed out (nor logged) before it is released.
    let redirect_step = gate.waiting().unwrap();
    assert_ne!(auth.log().last().unwrap().step, AuthStep::Authorization);
    assert!(gate.next());
    let authorize = h.finish(started).expect("the authorization URL");
    assert_eq!(authorize.url, redirect_step.url);
    assert_eq!(gate.waiting(), None);
    assert_eq!(requests_seen(&h).len(), 3);

    // The code exchange waits too, showing what it will send without the code or verifier.
    let finish = auth.clone();
    let redirect = format!("{REDIRECT}?code=the-code&state={}", authorize.state);
    let finished = h.spawn(async move { finish.finish(&redirect).await });
    h.settle();
    let exchange = waiting_at(
        &gate,
        AuthStep::TokenExchange,
        &format!("POST {AS}/token"),
        "exchanging its code",
    );
    let sent = exchange.sent.expect("the form shown");
    assert!(sent.contains("grant_type=authorization_code"), "{sent}");
    assert!(!sent.contains("the-code"), "{sent}");
    assert_eq!(requests_seen(&h).len(), 3);
    assert!(!auth.is_signed_in());
    assert!(gate.next());
    h.finish(finished).expect("tokens");
    assert!(auth.is_signed_in());
    assert_eq!(
        requests_seen(&h),
        [
            format!("GET {PRM_PATH}"),
            format!("GET {AS}/.well-known/oauth-authorization-server"),
            format!("POST {AS}/register"),
            format!("POST {AS}/token"),
        ]
    );
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn run_the_rest_finishes_the_sign_in_without_waiting_and_the_next_flow_waits_again() {
    let mut h = Harness::new();
    let (auth, gate, started) = started_past_prm(&mut h);
    waiting_at(
        &gate,
        AuthStep::AuthServerMetadata,
        &format!("GET {AS}/.well-known/oauth-authorization-server"),
        "RFC 8414",
    );
    gate.run_rest();
    // The rest of the sign-in, the code exchange after the window included, waits no more.
    let authorize = h.finish(started).expect("the authorization URL");
    assert_eq!(gate.waiting(), None);
    let finish = auth.clone();
    let redirect = format!("{REDIRECT}?code=the-code&state={}", authorize.state);
    h.run(async move { finish.finish(&redirect).await })
        .expect("tokens");
    assert!(auth.is_signed_in());
    assert_eq!(requests_seen(&h).len(), 4);

    // A new flow (a refresh) waits again.
    h.script([Exchange::at("POST", &format!("{AS}/token"))
        .json_body(r#"{"access_token":"tok-2","token_type":"Bearer"}"#)]);
    let refresh = auth.clone();
    let refreshed = h.spawn(async move { refresh.refresh().await });
    h.settle();
    let next = waiting_at(
        &gate,
        AuthStep::Refresh,
        &format!("POST {AS}/token"),
        "refresh token",
    );
    assert!(next.sent.unwrap().contains("refresh_token=%5Bredacted%5D"));
    assert_eq!(requests_seen(&h).len(), 4);
    assert!(gate.next());
    h.finish(refreshed).expect("refreshed");
    assert_eq!(auth.tokens().unwrap().access_token(), "tok-2");

    // Not stepping any more: nothing waits.
    gate.set_stepping(false);
    h.script([Exchange::at("POST", &format!("{AS}/token"))
        .json_body(r#"{"access_token":"tok-3","token_type":"Bearer"}"#)]);
    let refresh = auth.clone();
    h.run(async move { refresh.refresh().await })
        .expect("refreshed at once");
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn stop_ends_the_flow_as_stopped_by_the_person_and_sends_nothing_more() {
    let mut h = Harness::new();
    let (auth, gate, started) = started_past_prm(&mut h);
    assert!(gate.next()); // the authorization server's metadata
    h.settle();
    let at_registration = || {
        waiting_at(
            &gate,
            AuthStep::ClientRegistration,
            &format!("POST {AS}/register"),
            "registering",
        )
    };
    at_registration();
    gate.stop();
    let error = h.finish(started).unwrap_err();
    assert_eq!(
        (error.step, &error.kind),
        (AuthStep::ClientRegistration, &AuthErrorKind::Stopped)
    );
    assert!(error.is_stopped());
    assert_eq!(
        error.to_string(),
        "Stopped by you at \"Registering the client\": its request was not sent, and nothing after it."
    );
    // The registration never went out, nor anything after it.
    h.settle();
    assert_eq!(requests_seen(&h).len(), 2, "{:?}", requests_seen(&h));
    assert_eq!(gate.waiting(), None);
    assert_eq!(auth.registered_client(), None);
    // The step log says so, and not as a failure of the server.
    let last = auth.log().pop().unwrap();
    assert!(!last.failed, "{last:?}");
    assert_eq!(last.note, error.to_string());
    assert!(auth.needs_authorization());

    // Signing in again starts where it stopped (discovery is kept) and waits there again.
    let start = auth.clone();
    let started = h.spawn(async move { start.start().await });
    h.settle();
    at_registration();
    assert_eq!(requests_seen(&h).len(), 2);
    gate.run_rest();
    h.finish(started).expect("the authorization URL");
    assert_eq!(requests_seen(&h).len(), 3);
}

#[test]
fn a_stopped_refresh_forgets_the_token_and_leaves_the_person_to_sign_in() {
    let mut h = Harness::new();
    let (auth, gate) = stepped(&h);
    gate.set_stepping(false);
    sign_in(&mut h, &auth, tokens("tok-1", "ref-1"));
    h.script(connect_with("tok-1"));
    h.connect(config(&auth)).expect("connects");
    gate.set_stepping(true);

    // The server refuses the token; the refresh waits, the person stops it.
    h.script([refused("ping", 401, r#"Bearer error="invalid_token""#)
        .header("authorization", "Bearer tok-1")]);
    let client = h.client();
    let ping = h.spawn(async move { client.ping().await });
    h.settle();
    waiting_at(
        &gate,
        AuthStep::Refresh,
        &format!("POST {AS}/token"),
        "refresh token",
    );
    let sent = requests_seen(&h).len();
    gate.stop();
    let error = h.finish(ping).unwrap_err();
    assert_eq!(error.http_status(), Some(401));
    // No refresh went out, and no retry.
    assert_eq!(requests_seen(&h).len(), sent);
    assert!(!auth.is_signed_in() && auth.needs_authorization());
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn a_gate_that_is_not_stepping_changes_nothing() {
    let mut h = Harness::new();
    let auth = oauth(&h, ClientChoice::automatic(None));
    let gate = StepGate::new();
    auth.set_stepper(Some(Rc::new(gate.clone())));
    sign_in(&mut h, &auth, tokens("tok-1", "ref-1"));
    assert!(auth.is_signed_in());
    assert_eq!(gate.waiting(), None);
}
