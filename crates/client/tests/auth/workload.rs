//! Workload identity (SEP-1933): the pasted workload JWT for a token with the JWT bearer
//! grant, the client id as given, no registration; a refusal is said and nothing is retried.

use crate::support::{Exchange, Harness, URL};
use crate::{field, form, machine_metadata, preregistered, Counting, AS, REDIRECT};
use mcp_lens_client::auth::{OAuth, OAuthSettings, Workload};
use mcp_lens_client::protocol::auth::encode::base64url;
use mcp_lens_client::protocol::auth::AuthStep;
use serde_json::json;
use std::rc::Rc;

fn workload_oauth(h: &Harness, jwt: &str) -> OAuth {
    let mut settings = OAuthSettings::new(URL, REDIRECT, preregistered("wl-client", None));
    settings.workload = Some(Workload {
        jwt: jwt.to_owned(),
    });
    OAuth::new(&h.runtime(), Rc::new(Counting::default()), settings)
}

/// A workload JWT from a platform, for `aud`, expiring far in the future.
fn jwt(aud: &str) -> String {
    format!(
        "{}.{}.c2ln",
        base64url(br#"{"alg":"ES256","typ":"JWT"}"#),
        base64url(
            json!({ "iss": "https://idp.example", "sub": "ci-runner", "aud": aud, "exp": 4_000_000_000u64 })
                .to_string()
                .as_bytes()
        )
    )
}

/// The PRM and the authorization server metadata (only the JWT bearer grant, no registration).
fn discovery(h: &mut Harness) {
    h.script(machine_metadata(json!({
        "grant_types_supported": ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
        "token_endpoint_auth_methods_supported": ["none"],
    })));
}

#[test]
fn the_workload_jwt_is_the_assertion_of_the_jwt_bearer_grant() {
    let mut h = Harness::new();
    let token = jwt(AS);
    let auth = workload_oauth(&h, &token);
    discovery(&mut h);
    let expected = token.clone();
    h.script([Exchange::at("POST", &format!("{AS}/token"))
        .no_header("authorization")
        .check(move |body| {
            let fields = form(body);
            let f = |name| field(&fields, name);
            assert_eq!(
                f("grant_type").as_deref(),
                Some("urn:ietf:params:oauth:grant-type:jwt-bearer")
            );
            assert_eq!(f("assertion"), Some(expected.clone()));
            assert_eq!(f("client_id").as_deref(), Some("wl-client"));
            assert_eq!(f("resource").as_deref(), Some(URL));
        })
        .json_body(r#"{"access_token":"wl-token","token_type":"Bearer","expires_in":60}"#)]);
    let get = auth.clone();
    h.run(async move { get.workload_identity(None).await })
        .expect("a token");
    assert_eq!(auth.tokens().unwrap().access_token(), "wl-token");
    let log = auth.log();
    assert!(log.iter().any(|e| e.step == AuthStep::WorkloadGrant
        && e.note.contains(
            "from https://idp.example for the audience http://127.0.0.1:4000 (subject ci-runner)"
        )));
    let text = format!("{log:?}");
    for secret in [token.as_str(), "wl-token"] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
}

#[test]
fn a_refused_workload_jwt_is_not_sent_again_and_no_other_grant_is_tried() {
    let mut h = Harness::new();
    let auth = workload_oauth(&h, &jwt("https://wrong.example"));
    discovery(&mut h);
    h.script([Exchange::at("POST", &format!("{AS}/token"))
        .status(400)
        .json_body(
            r#"{"error":"invalid_grant","error_description":"JWT assertion audience is invalid"}"#,
        )]);
    let get = auth.clone();
    let error = h
        .run(async move { get.workload_identity(None).await })
        .unwrap_err();
    assert_eq!(error.step, AuthStep::WorkloadGrant);
    assert!(!auth.is_signed_in());
    // Nothing more was sent: the scripted server has no further answer and saw two GETs and
    // one POST.
    assert!(h.http.remaining().is_empty());
    assert_eq!(h.http.seen.borrow().len(), 3);
    let log = format!("{:?}", auth.log());
    assert!(log.contains("another audience"), "{log}"); // said before sending
    assert!(
        log.contains("It was not sent again and no other sign-in was tried"),
        "{log}"
    );
}
