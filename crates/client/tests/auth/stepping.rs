//! Step by step: each request of a flow sent only when released, the rest run at once, or the
//! flow stopped.

use crate::support::{Done, Exchange, Harness};
use crate::{
    config, connect_with, discovery, oauth, refused, sign_in, tokens, AS, PRM_PATH, REDIRECT,
};
use mcp_lens_client::auth::{Authorize, ClientChoice, NextStep, OAuth, StepGate};
use mcp_lens_client::protocol::auth::{AuthError, AuthErrorKind, AuthStep};
use serde_json::{json, Value};
use std::cell::Cell;
use std::rc::Rc;

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
