//! The session's use of the token: refreshed on a 401 and the request sent again once, a step-
//! up on a 403, the retry limit, the server's origin only, no secret in the steps.

use crate::support::{Exchange, Harness, URL};
use crate::{
    config, connect_with, discovery, field, form, oauth, preregistered, refused, sign_in, tokens,
    AS, PRM_PATH,
};
use mcp_lens_client::auth::{ClientChoice, OAuth, MAX_AUTHORIZATIONS};
use mcp_lens_client::protocol::auth::encode::decode_query;
use mcp_lens_client::protocol::auth::messages::Tokens;
use mcp_lens_client::protocol::auth::{AuthErrorKind, AuthStep};
use serde_json::json;

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
