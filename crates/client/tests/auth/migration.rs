//! Authorization-server migration (SEP-2352): a token refused on a session that worked, with
//! nothing to renew it, runs discovery again; a changed authorization server gets a
//! registration of its own (the old one's client id never goes there), the same one keeps its.

use crate::support::{Exchange, Harness};
use crate::{config, connect_with, field, metadata, oauth, prm, refused, sign_in, AS};
use mcp_lens_client::auth::{ClientChoice, OAuth};
use mcp_lens_client::protocol::auth::encode::decode_query;
use mcp_lens_client::protocol::auth::AuthStep;
use serde_json::json;

const CUSTOM_PRM: &str = "http://127.0.0.1:3001/custom/metadata/location.json";
const AS2: &str = "http://127.0.0.1:4001";

/// Signed in at [`AS`] (registered as `dcr-client`, no refresh token) and connected; then a
/// ping refused with a challenge naming the PRM, which now names `issuer`.
fn refused_after_connect(h: &mut Harness, issuer: &str) -> OAuth {
    let auth = oauth(h, ClientChoice::automatic(None));
    sign_in(
        h,
        &auth,
        json!({ "access_token": "tok-1", "token_type": "Bearer" }),
    );
    h.script(connect_with("tok-1"));
    h.connect(config(&auth)).expect("connects");
    h.script([
        refused(
            "ping",
            401,
            &format!(r#"Bearer error="invalid_token", resource_metadata="{CUSTOM_PRM}""#),
        )
        .header("authorization", "Bearer tok-1"),
        Exchange::at("GET", CUSTOM_PRM).json_body(&prm(crate::support::URL, issuer)),
        Exchange::at(
            "GET",
            &format!("{issuer}/.well-known/oauth-authorization-server"),
        )
        .json_body(&metadata(issuer, json!({}))),
    ]);
    let client = h.client();
    let error = h.run(async move { client.ping().await }).unwrap_err();
    assert_eq!(error.http_status(), Some(401));
    assert!(!auth.is_signed_in() && auth.needs_authorization());
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
    auth
}

#[test]
fn a_moved_server_gets_a_new_registration_and_never_the_old_client_id() {
    let mut h = Harness::new();
    let auth = refused_after_connect(&mut h, AS2);
    let said = auth
        .log()
        .into_iter()
        .rev()
        .find(|e| e.step == AuthStep::Challenge)
        .expect("a decision step")
        .note;
    assert!(
        said.contains(&format!(
            "now uses the authorization server {AS2} instead of {AS}"
        )) && said.contains("Registering this app there"),
        "{said}"
    );

    h.script([Exchange::at("POST", &format!("{AS2}/register"))
        .status(201)
        .json_body(r#"{"client_id":"as2-client"}"#)]);
    let fields = start_at(&mut h, &auth, AS2);
    assert_eq!(field(&fields, "client_id").as_deref(), Some("as2-client"));
    assert!(!fields.iter().any(|(_, value)| value.contains("dcr-client")));
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn the_same_server_keeps_its_registration_and_asks_to_sign_in_again() {
    let mut h = Harness::new();
    let auth = refused_after_connect(&mut h, AS);
    let log = auth.log();
    assert!(
        log.iter()
            .any(|e| e.step == AuthStep::Challenge && e.note.contains("unchanged: sign in again")),
        "{log:?}"
    );
    // No registration: the one made at this issuer is used again.
    let fields = start_at(&mut h, &auth, AS);
    assert_eq!(field(&fields, "client_id").as_deref(), Some("dcr-client"));
}

/// Starts the sign-in again; its authorization URL is at `issuer`. Returns its parameters.
fn start_at(h: &mut Harness, auth: &OAuth, issuer: &str) -> Vec<(String, String)> {
    let start = auth.clone();
    let authorize = h
        .run(async move { start.start().await })
        .expect("authorization URL");
    assert!(
        authorize.url.starts_with(&format!("{issuer}/authorize?")),
        "{}",
        authorize.url
    );
    decode_query(&authorize.url)
}
