//! MCP authorization over the scripted HTTP fake: discovery in the spec's orders, client
//! identity (registration, pre-registered, client credentials), the code flow, and the
//! session's use of the token (refresh on 401 and one retry, step-up on 403, retry limit).
//! One file a feature; the helpers and constants they share are here.

#[path = "../support/mod.rs"]
mod support;

mod bearer;
mod discovery;
mod dpop;
mod identity;
mod migration;
mod persist;
mod stepping;
mod workload;

use mcp_lens_client::auth::{ClientChoice, OAuth, OAuthSettings, Random};
use mcp_lens_client::protocol::auth::encode::decode_query;
use mcp_lens_client::protocol::auth::pkce::s256_challenge;
use mcp_lens_client::protocol::error::ErrorKind;
use mcp_lens_client::ClientConfig;
use serde_json::{json, Value};
use std::cell::Cell;
use std::rc::Rc;
use support::{initialize_result, Exchange, Harness, URL};

pub(crate) const AS: &str = "http://127.0.0.1:4000";
pub(crate) const REDIRECT: &str = "http://127.0.0.1:8080/callback.html";
pub(crate) const PRM_PATH: &str = "http://127.0.0.1:3001/.well-known/oauth-protected-resource/mcp";
pub(crate) const PRM_ROOT: &str = "http://127.0.0.1:3001/.well-known/oauth-protected-resource";

/// Different bytes on every call, the same run to run.
#[derive(Default)]
pub(crate) struct Counting(Cell<u8>);

impl Random for Counting {
    fn fill(&self, bytes: &mut [u8]) -> Result<(), String> {
        for byte in bytes {
            self.0.set(self.0.get().wrapping_add(1));
            *byte = self.0.get();
        }
        Ok(())
    }
}

pub(crate) fn oauth(h: &Harness, client: ClientChoice) -> OAuth {
    OAuth::new(
        &h.runtime(),
        Rc::new(Counting::default()),
        OAuthSettings::new(URL, REDIRECT, client),
    )
}

pub(crate) fn preregistered(client_id: &str, client_secret: Option<&str>) -> ClientChoice {
    ClientChoice::Preregistered {
        client_id: client_id.to_owned(),
        client_secret: client_secret.map(str::to_owned),
        private_key: None,
        for_issuer: Some(AS.to_owned()),
    }
}

pub(crate) fn config(auth: &OAuth) -> ClientConfig {
    let mut config = ClientConfig::new(URL);
    config.known_handshake = true;
    config.auth = Some(auth.clone());
    config
}

pub(crate) fn prm(resource: &str, issuer: &str) -> String {
    json!({ "resource": resource, "authorization_servers": [issuer] }).to_string()
}

/// RFC 8414 metadata for an issuer (`base` + `prefix`), endpoints under it.
pub(crate) fn metadata(issuer: &str, extra: Value) -> String {
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
pub(crate) fn discovery(prm_url: &str, extra: Value) -> Vec<Exchange> {
    vec![
        Exchange::at("GET", prm_url).json_body(&prm(URL, AS)),
        Exchange::at(
            "GET",
            &format!("{AS}/.well-known/oauth-authorization-server"),
        )
        .json_body(&metadata(AS, extra)),
    ]
}

pub(crate) fn field(fields: &[(String, String)], name: &str) -> Option<String> {
    fields
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.clone())
}

pub(crate) fn form(body: &Value) -> Vec<(String, String)> {
    decode_query(body.as_str().expect("a form body"))
}

/// The handshake connect of a server with one tool, every request carrying `bearer`.
pub(crate) fn connect_with(bearer: &str) -> Vec<Exchange> {
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

pub(crate) fn refused(rpc: &str, status: u16, challenge: &str) -> Exchange {
    Exchange::post(rpc)
        .status(status)
        .answer_header("www-authenticate", challenge)
        .json_body(r#"{"error":"invalid_token"}"#)
}

/// The whole code flow with registration, from the server's first 401 to tokens: the
/// challenge names a PRM at a custom location and a scope. Returns the authorization URL's
/// parameters.
pub(crate) fn sign_in(h: &mut Harness, auth: &OAuth, token_answer: Value) -> Vec<(String, String)> {
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

pub(crate) fn tokens(access: &str, refresh: &str) -> Value {
    json!({ "access_token": access, "token_type": "Bearer", "expires_in": 3600, "refresh_token": refresh })
}

/// The PRM naming [`AS`], then its metadata for the grants with no window, with `extra`.
pub(crate) fn machine_metadata(extra: Value) -> Vec<Exchange> {
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
