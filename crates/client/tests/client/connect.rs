//! Connecting: the era and transport chosen, the session kept, renewed when lost, and resumed
//! or ended with its streams.

use crate::support::{initialize_result, tool, Exchange, Harness, LiveStream, URL};
use crate::{connect_with_get_stream, handshake_config, stateful_connect, tool_names};
use mcp_lens_client::protocol::error::ErrorKind;
use mcp_lens_client::protocol::transport_choice::TransportChoice;
use mcp_lens_client::{ClientConfig, ClientEvent};
use serde_json::{json, Map, Value};

#[test]
fn python_sdk_refused_discover_session_id_is_not_kept() {
    let mut h = Harness::new();
    h.script([
        // Python SDK 1.x, stateful: refuses the probe and attaches a fresh session id.
        Exchange::post("server/discover")
            .no_header("mcp-session-id")
            .header("mcp-method", "server/discover")
            .status(400)
            .answer_header("mcp-session-id", "refused-probe-id")
            .json_body(r#"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Bad Request: Missing session ID"}}"#),
    ]);
    h.script(stateful_connect("sess-1", json!([tool("echo")])));
    let state = h.connect(ClientConfig::new(URL)).expect("connects");
    assert_eq!(tool_names(&state.tools), ["echo"]);
    assert!(
        state.era_reason.contains("HTTP 400"),
        "{}",
        state.era_reason
    );
    let client = h.client();
    assert!(!client.is_stateless());
    assert_eq!(client.protocol_version().as_deref(), Some("2025-06-18"));
    h.script([Exchange::post("ping")
        .header("mcp-session-id", "sess-1")
        .header("mcp-protocol-version", "2025-06-18")
        .result(json!({}))]);
    h.run(async move { client.ping().await }).expect("pong");
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

const DISCOVER: &str = r#"{"cacheScope":"private","capabilities":{"tools":{"listChanged":true}},"resultType":"complete","supportedVersions":["2026-07-28"],"ttlMs":0,"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"x","version":"1"}}}"#;

#[test]
fn stateless_era_and_an_input_required_round() {
    let mut h = Harness::new();
    h.person(|method, params| {
        assert_eq!(method, "elicitation/create");
        assert_eq!(params.as_ref().unwrap()["message"], "Your name?");
        Ok(json!({ "action": "accept", "content": { "name": "Ada" } }))
    });
    let discover: Value = serde_json::from_str(DISCOVER).unwrap();
    h.script([
        Exchange::post("server/discover").result(discover),
        Exchange::post("tools/list")
            .no_header("mcp-session-id")
            .header("mcp-method", "tools/list")
            .check(|body| {
                let meta = &body["params"]["_meta"];
                assert_eq!(
                    meta["io.modelcontextprotocol/protocolVersion"],
                    "2026-07-28"
                );
            })
            .result(json!({ "tools": [tool("greet")], "resultType": "complete" })),
        // No subscriptions/listen on this server.
        Exchange::post("subscriptions/listen").status(404),
    ]);
    let state = h.connect(ClientConfig::new(URL)).expect("connects");
    assert_eq!(state.era_reason, "the server answered server/discover");
    assert_eq!(state.info.server_info.name, "x");
    assert_eq!(tool_names(&state.tools), ["greet"]);
    let client = h.client();
    assert!(client.is_stateless());
    assert_eq!(client.protocol_version().as_deref(), Some("2026-07-28"));
    assert!(h.http.seen_rpc("initialize").is_empty());
    assert!(h.http.seen_rpc("notifications/initialized").is_empty());

    h.script([
        Exchange::post("tools/call")
            .header("mcp-name", "greet")
            .check(|body| assert!(body["params"].get("inputResponses").is_none()))
            .result(json!({
                "resultType": "input_required",
                "inputRequests": { "q1": { "method": "elicitation/create",
                    "params": { "message": "Your name?", "requestedSchema": { "type": "object" } } } },
                "requestState": "state-1"
            })),
        Exchange::post("tools/call")
            .check(|body| {
                let params = &body["params"];
                assert_eq!(params["inputResponses"]["q1"]["content"]["name"], "Ada");
                assert_eq!(params["requestState"], "state-1");
                assert_eq!(params["arguments"]["who"], "me");
            })
            .result(json!({ "content": [{ "type": "text", "text": "Hello Ada" }], "resultType": "complete" })),
    ]);
    let (_, call) = client.call_tool("greet", Map::from_iter([("who".to_owned(), json!("me"))]));
    let result = h.run(call).expect("answered after the round");
    assert_eq!(result.content[0].as_text().unwrap().text, "Hello Ada");
    let calls = h.http.seen_rpc("tools/call");
    assert_ne!(
        calls[0].body.as_ref().unwrap()["id"],
        calls[1].body.as_ref().unwrap()["id"]
    );
    assert!(h
        .events()
        .iter()
        .any(|e| matches!(e, ClientEvent::NoServerStream { .. })));
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn a_lost_session_is_renewed_once_for_concurrent_requests() {
    let mut h = Harness::new();
    h.script(stateful_connect("sess-1", json!([])));
    h.connect(handshake_config()).expect("connects");
    h.script([
        Exchange::post("ping")
            .header("mcp-session-id", "sess-1")
            .delay(10)
            .status(404)
            .json_body(r#"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32001,"message":"Session not found"}}"#),
        Exchange::post("ping")
            .header("mcp-session-id", "sess-1")
            .delay(10)
            .status(400)
            .json_body("Bad Request: No valid session ID provided"),
        Exchange::post("initialize")
            .no_header("mcp-session-id")
            .delay(5)
            .answer_header("mcp-session-id", "sess-2")
            .result(initialize_result("2025-06-18", json!({ "tools": {} }))),
        Exchange::post("notifications/initialized")
            .header("mcp-session-id", "sess-2")
            .status(202),
        Exchange::post("ping").header("mcp-session-id", "sess-2").result(json!({})),
        Exchange::post("ping").header("mcp-session-id", "sess-2").result(json!({})),
    ]);
    let (a, b) = (h.client(), h.client());
    let (first, second) = h.run(async move { futures::join!(a.ping(), b.ping()) });
    first.expect("replayed");
    second.expect("replayed");
    let renewed = h
        .events()
        .iter()
        .filter(|e| matches!(e, ClientEvent::SessionRenewed { .. }))
        .count();
    assert_eq!(renewed, 1);
    assert_eq!(h.http.seen_rpc("initialize").len(), 2); // connect + one renewal
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn an_answer_stream_that_ends_early_is_resumed_after_retry() {
    let mut h = Harness::new();
    h.script(stateful_connect("sess-1", json!([])));
    h.connect(handshake_config()).expect("connects");
    let progress = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":$ID,"progress":1}}"#;
    h.script([Exchange::post("tools/call")
        .sse(&["id: ev-1\nretry: 2500\nda", &format!("ta: {progress}\n\n")])]);
    let started = h.clock.now();
    let (id, call) = h.client().call_tool("slow", Map::new());
    // The answer comes on the resumed stream, so it names the POSTed request's id.
    let answer = format!(
        "id: ev-2\ndata: {{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{{\"content\":[{{\"type\":\"text\",\"text\":\"late\"}}]}}}}\n\n",
        id.into_json_value()
    );
    h.script([Exchange::get()
        .header("last-event-id", "ev-1")
        .header("mcp-session-id", "sess-1")
        .header("accept", "text/event-stream")
        .sse(&[&answer])]);
    let result = h.run(call).expect("answer after resuming");
    assert_eq!(result.content[0].as_text().unwrap().text, "late");
    assert!(
        h.clock.now() - started >= 2500.0,
        "waited the server's retry"
    );
    assert!(h
        .events()
        .iter()
        .any(|e| matches!(e, ClientEvent::Progress(p) if p.progress == 1.0)));
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn a_refused_resumption_is_an_error_that_quotes_the_answer() {
    let mut h = Harness::new();
    h.script(stateful_connect("sess-1", json!([])));
    h.connect(handshake_config()).expect("connects");
    h.script([
        Exchange::post("ping").sse(&["id: ev-1\ndata: \n\n"]),
        Exchange::get()
            .header("last-event-id", "ev-1")
            .status(500)
            .answer_header("content-type", "text/plain")
            .json_body("overloaded"),
    ]);
    let client = h.client();
    let error = h
        .run(async move { client.ping().await })
        .expect_err("refused");
    assert!(
        matches!(&error.kind, ErrorKind::HttpStatus { status: 500, body_start } if body_start == "overloaded"),
        "{error:?}"
    );
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn auto_falls_back_to_legacy_sse_with_the_endpoint_resolved() {
    let mut h = Harness::new();
    let stream = LiveStream::default();
    let post_url = "http://127.0.0.1:3001/messages?sessionId=abc";
    let answer = |result: &str| {
        format!("event: message\ndata: {{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{result}}}\n\n")
    };
    h.script([
        Exchange::post("server/discover").status(404),
        Exchange::post("initialize").url(URL).status(405),
        Exchange::get()
            .url(URL)
            .sse(&["event: endpoint\ndata: /messages?sessionId=abc\n\n"])
            .live(&stream),
        Exchange::post("initialize")
            .url(post_url)
            .no_header("mcp-session-id")
            .status(202)
            .push_to(
                &stream,
                &answer(&initialize_result("2024-11-05", json!({ "tools": {} })).to_string()),
            ),
        Exchange::post("notifications/initialized")
            .url(post_url)
            .status(202),
        Exchange::post("tools/list")
            .url(post_url)
            .status(202)
            .push_to(
                &stream,
                &answer(r#"{"tools":[{"name":"old","inputSchema":{"type":"object"}}]}"#),
            ),
    ]);
    let state = h
        .connect(ClientConfig::new(URL))
        .expect("connects over legacy SSE");
    assert!(state.transport.legacy);
    assert!(
        state.transport.reason.contains("405"),
        "{}",
        state.transport.reason
    );
    assert_eq!(tool_names(&state.tools), ["old"]);
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn a_failed_legacy_fallback_names_both_failures() {
    let mut h = Harness::new();
    h.script([
        Exchange::post("initialize").status(404),
        Exchange::get().status(404),
    ]);
    let error = h.connect(handshake_config()).expect_err("nothing there");
    let ErrorKind::FallbackFailed { streamable, legacy } = error else {
        panic!("not FallbackFailed: {error:?}");
    };
    assert!(matches!(
        *streamable,
        ErrorKind::HttpStatus { status: 404, .. }
    ));
    assert!(matches!(
        legacy.kind,
        ErrorKind::HttpStatus { status: 404, .. }
    ));
}

#[test]
fn a_url_ending_in_sse_goes_straight_to_legacy() {
    let mut h = Harness::new();
    let url = "http://127.0.0.1:3001/sse";
    h.script([Exchange::get().url(url).status(500)]);
    let mut config = ClientConfig::new(url);
    config.transport = TransportChoice::Auto;
    let error = h.connect(config).expect_err("refused");
    assert!(
        matches!(error, ErrorKind::HttpStatus { status: 500, .. }),
        "{error:?}"
    );
    assert!(h.http.seen_rpc("server/discover").is_empty());
}

#[test]
fn the_end_of_the_legacy_stream_fails_waiting_requests_and_says_so() {
    let mut h = Harness::new();
    let url = "http://127.0.0.1:3001/sse";
    let stream = LiveStream::default();
    let answer = |result: &str| {
        format!("event: message\ndata: {{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{result}}}\n\n")
    };
    h.script([
        Exchange::get()
            .url(url)
            .sse(&["event: endpoint\ndata: http://127.0.0.1:3001/messages?sessionId=x\n\n"])
            .live(&stream),
        Exchange::post("initialize")
            .push_to(
                &stream,
                &answer(&initialize_result("2024-11-05", json!({})).to_string()),
            )
            .status(202),
        Exchange::post("notifications/initialized").status(202),
        Exchange::post("ping").status(202), // no answer comes
    ]);
    let state = h.connect(ClientConfig::new(url)).expect("connects");
    assert!(state.transport.legacy);
    assert!(state.tools.is_none());
    let client = h.client();
    let ping = h.spawn(async move { client.ping().await });
    h.settle();
    stream.end();
    let error = h.finish(ping).expect_err("the stream ended");
    assert_eq!(error.kind, ErrorKind::StreamEnded);
    assert!(h
        .events()
        .iter()
        .any(|e| matches!(e, ClientEvent::ConnectionLost { .. })));
}

#[test]
fn dropping_the_last_handle_ends_the_session_and_its_background_work() {
    let mut h = Harness::new();
    let get_stream = LiveStream::default();
    connect_with_get_stream(&mut h, &get_stream);
    // A clone dropped while another handle lives changes nothing.
    drop(h.client());
    h.settle();
    assert!(h.http.remaining().is_empty());
    h.script([Exchange::delete()
        .url(URL)
        .header("mcp-session-id", "sess-1")
        .status(200)]);
    drop(h.client.borrow_mut().take());
    h.settle();
    assert!(
        h.http.remaining().is_empty(),
        "no DELETE: {:?}",
        h.http.remaining()
    );
    // The GET stream was aborted, and it is not opened again however long we wait (an
    // unscripted request would fail the fake).
    for _ in 0..5 {
        h.clock.advance_to_next();
        h.settle();
    }
    let gets = h
        .http
        .seen
        .borrow()
        .iter()
        .filter(|s| s.method == "GET")
        .count();
    assert_eq!(gets, 1, "{:?}", h.http.summary());
}
