//! Requests: cancelled, timed out, logged on the wire, refused when too large; the server's own
//! requests answered.

use crate::support::{tool, Exchange, Harness, LiveStream, URL};
use crate::{connect_with_get_stream, handshake_config, stateful_connect};
use mcp_lens_client::protocol::error::ErrorKind;
use mcp_lens_client::protocol::transport_choice::TransportChoice;
use mcp_lens_client::protocol::wire_log::Via;
use mcp_lens_client::ClientEvent;
use serde_json::{json, Map, Value};
use std::cell::RefCell;
use std::rc::Rc;

#[test]
fn cancel_tells_the_server_and_the_caller_gets_cancelled() {
    let mut h = Harness::new();
    h.script(stateful_connect("sess-1", json!([])));
    h.connect(handshake_config()).expect("connects");
    h.script([Exchange::post("tools/call").sse(&[]).hang()]);
    let client = h.client();
    let (id, call) = client.call_tool("slow", Map::new());
    let call = h.spawn(call);
    h.settle();
    let expected_id = id.clone().into_json_value();
    h.script([Exchange::post("notifications/cancelled")
        .header("mcp-session-id", "sess-1")
        .check(move |body| {
            assert_eq!(body["params"]["requestId"], expected_id);
            assert_eq!(body["params"]["reason"], "Cancelled by the user.");
        })
        .status(202)]);
    client.cancel(&id);
    let error = h.finish(call).expect_err("cancelled");
    assert_eq!(error.kind, ErrorKind::Cancelled);
    h.settle();
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn an_idle_request_times_out_and_is_cancelled() {
    let mut h = Harness::new();
    h.script(stateful_connect("sess-1", json!([])));
    let mut config = handshake_config();
    config.request_timeout_ms = 1_000;
    h.connect(config).expect("connects");
    h.script([
        Exchange::post("ping").sse(&[]).hang(),
        Exchange::post("notifications/cancelled")
            .check(|body| assert_eq!(body["params"]["reason"], "The request timed out."))
            .status(202),
    ]);
    let client = h.client();
    let started = h.clock.now();
    let error = h
        .run(async move { client.ping().await })
        .expect_err("times out");
    assert_eq!(error.kind, ErrorKind::Timeout { after_ms: 1_000 });
    assert!(h.clock.now() - started >= 1_000.0);
    h.settle();
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn the_wire_log_shows_a_request_at_once_then_its_answer_and_error_body() {
    let mut h = Harness::new();
    h.script([Exchange::post("initialize")
        .delay(100)
        .status(500)
        .answer_header("content-type", "text/plain")
        .json_body("boom")]);
    let mut config = handshake_config();
    config.transport = TransportChoice::StreamableHttp;
    config.bearer_token = Some("secret".to_owned());
    let events = h.events.clone();
    let connecting = h.spawn(mcp_lens_client::McpClient::connect_with(
        h.runtime(),
        config,
        move |event| events.borrow_mut().push(event),
    ));
    h.settle();
    // Sent, not answered yet: already in the log, pending, the token redacted.
    let [ClientEvent::Wire(sent)] = &h.events()[..] else {
        panic!("{:?}", h.events());
    };
    assert!(sent.pending);
    assert_eq!(sent.via, Via::Post);
    assert_eq!(sent.method.as_deref(), Some("initialize"));
    let authorization = sent.headers.iter().find(|(n, _)| n == "authorization");
    assert!(authorization.is_some_and(|(_, v)| !v.contains("secret")));
    let error = match h.finish(connecting) {
        Ok(_) => panic!("connected to a failing server"),
        Err(error) => error,
    };
    assert!(
        matches!(&error.kind, ErrorKind::HttpStatus { status: 500, body_start } if body_start == "boom"),
        "{error:?}"
    );
    let answers: Vec<_> = h
        .events()
        .into_iter()
        .filter_map(|e| match e {
            ClientEvent::WireAnswer(answer) => Some(answer),
            _ => None,
        })
        .collect();
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert!(answers.iter().all(|a| a.exchange == sent.exchange.unwrap()));
    assert_eq!(answers[0].http_status, Some(500));
    assert_eq!(answers[0].at_ms, 100.0);
    assert_eq!(answers[0].response_body, None);
    assert_eq!(answers[1].response_body.as_deref(), Some("boom"));
}

/// Answers a server could use to freeze or crash the page: each fails its own request with a
/// sentence, and the client keeps working.
#[test]
fn oversized_and_overdeep_answers_fail_their_request_with_a_clear_error() {
    let mut h = Harness::new();
    h.script(stateful_connect("sess-1", json!([tool("echo")])));
    let mut config = handshake_config();
    config.max_message_bytes = 4096;
    h.connect(config).expect("connects");
    let call = |h: &mut Harness| {
        let client = h.client();
        h.run(async move {
            let (_, call) = client.call_tool("echo", Map::new());
            call.await
        })
    };
    // 1. A JSON body past the limit.
    let huge = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"pad":"{}"}}}}"#,
        "x".repeat(10_000)
    );
    h.script([Exchange::post("tools/call").json_body(&huge)]);
    let error = call(&mut h).expect_err("too large");
    assert_eq!(
        error.kind,
        ErrorKind::TooLarge {
            what: "a JSON answer",
            limit: 4096
        }
    );
    assert_eq!(
        error.to_string(),
        "Calling the tool failed: the server sent a JSON answer larger than 4 KB, the most one message may be \
         (set in the settings); reading stopped there so the page stays usable."
    );
    // 2. One endless event-stream line past the limit.
    let line = format!("data: {}", "y".repeat(10_000));
    h.script([Exchange::post("tools/call").sse(&[&line[..5000], &line[5000..]])]);
    let error = call(&mut h).expect_err("too large");
    assert_eq!(
        error.kind,
        ErrorKind::TooLarge {
            what: "an event-stream event",
            limit: 4096
        }
    );
    // 3. JSON nested deeper than the parser reads: said as such, not as a closed stream.
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":3,"result":{}1{}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    h.script([Exchange::post("tools/call").json_body(&deep)]);
    let error = call(&mut h).expect_err("too deep");
    match &error.kind {
        ErrorKind::InvalidAnswer { detail } => {
            assert!(detail.contains("nested deeper"), "{detail}")
        }
        other => panic!("{other:?}"),
    }
    // The session still works.
    h.script([Exchange::post("tools/call").result(json!({ "content": [] }))]);
    call(&mut h).expect("a normal answer afterwards");
}

#[test]
fn server_pings_on_the_get_stream_are_answered_and_disconnect_deletes_the_session() {
    let mut h = Harness::new();
    let get_stream = LiveStream::default();
    connect_with_get_stream(&mut h, &get_stream);
    h.script([Exchange::post_response()
        .header("mcp-session-id", "sess-1")
        .check(|body| {
            assert_eq!(body["id"], "srv-1");
            assert_eq!(body["result"], json!({}));
        })
        .status(202)]);
    get_stream.push("data: {\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"ping\"}\n\n");
    h.settle();
    assert!(h
        .events()
        .iter()
        .any(|e| matches!(e, ClientEvent::Answered { method, .. } if method == "ping")));
    h.script([Exchange::delete()
        .url(URL)
        .header("mcp-session-id", "sess-1")
        .status(200)]);
    let client = h.client();
    h.run(async move {
        client.disconnect().await.expect("ended");
        let error = client.ping().await.expect_err("no session any more");
        assert_eq!(error.kind, ErrorKind::NotConnected);
    });
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn a_storm_of_server_pings_is_answered_in_order_a_batch_per_turn() {
    let mut h = Harness::new();
    let get_stream = LiveStream::default();
    connect_with_get_stream(&mut h, &get_stream);
    let pings = 30;
    let answered = Rc::new(RefCell::new(Vec::new()));
    h.script((0..pings).map(|_| {
        let answered = answered.clone();
        Exchange::post_response()
            .check(move |body| answered.borrow_mut().push(body["id"].clone()))
            .status(202)
    }));
    let storm: String = (0..pings)
        .map(|n| format!("data: {{\"jsonrpc\":\"2.0\",\"id\":{n},\"method\":\"ping\"}}\n\n"))
        .collect();
    get_stream.push(&storm);
    h.settle();
    // One batch per turn of the event loop, not all 30 fetches in one task.
    assert_eq!(answered.borrow().len(), 12);
    while h.clock.advance_to_next() {
        h.settle();
        if answered.borrow().len() == pings {
            break;
        }
    }
    let expected: Vec<Value> = (0..pings).map(|n| json!(n)).collect();
    assert_eq!(*answered.borrow(), expected);
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn huge_server_requests_waiting_for_the_person_are_bounded_by_bytes_and_the_rest_declined() {
    let mut h = Harness::new();
    let get_stream = LiveStream::default();
    connect_with_get_stream(&mut h, &get_stream);
    let declined = Rc::new(RefCell::new(Vec::new()));
    let seen = declined.clone();
    h.script([Exchange::post_response()
        .check(move |body| seen.borrow_mut().push(body.clone()))
        .status(202)]);
    // Three sampling requests of 10 MB each: two may wait for the person (20 MB), the third
    // would make 30 MB and is declined at once, with the reason.
    let text = "x".repeat(10 * 1024 * 1024);
    let requests: String = (1..=3)
        .map(|n| {
            format!(
                "data: {{\"jsonrpc\":\"2.0\",\"id\":{n},\"method\":\"sampling/createMessage\",\"params\":{{\"messages\":[{{\"role\":\"user\",\"content\":{{\"type\":\"text\",\"text\":\"{text}\"}}}}],\"maxTokens\":5}}}}\n\n"
            )
        })
        .collect();
    get_stream.push(&requests);
    h.settle();
    let shown: Vec<Value> = h
        .events()
        .iter()
        .filter_map(|e| match e {
            ClientEvent::ServerRequest { id, .. } => Some(json!(id.to_string())),
            _ => None,
        })
        .collect();
    assert_eq!(shown, vec![json!("1"), json!("2")]);
    assert!(h.events().iter().any(|e| matches!(
        e,
        ClientEvent::Answered { how, .. }
            if how == "declined: the requests waiting for the person would hold 30.0 MB (at most 24 MB)"
    )));
    let declined = declined.borrow();
    assert_eq!(declined.len(), 1);
    assert_eq!(declined[0]["id"], 3);
    assert_eq!(declined[0]["error"]["code"], -1);
}
