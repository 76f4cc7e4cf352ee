//! A sign-in across a reload: resumed by a new page, tokens kept with their flow, refused for
//! another server, client or a secret not given again.

use crate::support::{Exchange, Harness, URL};
use crate::{
    config, connect_with, discovery, field, form, oauth, preregistered, refused, sign_in, tokens,
    Counting, AS, PRM_PATH, REDIRECT,
};
use mcp_lens_client::auth::{ClientChoice, OAuth, OAuthSettings};
use mcp_lens_client::protocol::auth::encode::{base64, decode_query};
use mcp_lens_client::protocol::auth::messages::Tokens;
use mcp_lens_client::protocol::auth::pkce::s256_challenge;
use mcp_lens_client::protocol::auth::AuthErrorKind;
use serde_json::{json, Value};
use std::rc::Rc;

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
