//! The client's hard logic, natively: a scripted HTTP fake replays recorded exchanges, a
//! manual clock moves only when nothing else can run, one thread runs everything.

mod support;

use mcp_lens_client::protocol::error::ErrorKind;
use mcp_lens_client::protocol::transport_choice::TransportChoice;
use mcp_lens_client::protocol::wire_log::Via;
use mcp_lens_client::{ClientConfig, ClientEvent, ListKind, ListUpdate};
use serde_json::{json, Map, Value};
use std::cell::RefCell;
use std::rc::Rc;
use support::{initialize_result, tool, Exchange, Harness, LiveStream, URL};

fn handshake_config() -> ClientConfig {
    let mut config = ClientConfig::new(URL);
    config.known_handshake = true; // straight to initialize
    config
}

/// The handshake-era connect of a server offering tools, ending with a session `session`,
/// the tools `tools` and no standalone GET stream.
fn stateful_connect(session: &str, tools: Value) -> Vec<Exchange> {
    vec![
        Exchange::post("initialize")
            .no_header("mcp-session-id")
            .answer_header("mcp-session-id", session)
            .result(initialize_result("2025-06-18", json!({ "tools": {} }))),
        Exchange::post("notifications/initialized")
            .header("mcp-session-id", session)
            .status(202),
        Exchange::post("tools/list")
            .header("mcp-session-id", session)
            .result(json!({ "tools": tools })),
        Exchange::get().status(405),
    ]
}

fn tool_names(
    state_tools: &Option<
        Result<Vec<rmcp::model::Tool>, mcp_lens_client::protocol::error::McpError>,
    >,
) -> Vec<String> {
    state_tools
        .as_ref()
        .expect("tools offered")
        .as_ref()
        .expect("tools listed")
        .iter()
        .map(|t| t.name.to_string())
        .collect()
}

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

/// A handshake connect of a server whose tools come in pages: the first page says `c1`.
fn paginated_connect() -> Vec<Exchange> {
    vec![
        Exchange::post("initialize")
            .answer_header("mcp-session-id", "s")
            .result(initialize_result("2025-06-18", json!({ "tools": {} }))),
        Exchange::post("notifications/initialized").status(202),
        Exchange::post("tools/list")
            .check(|body| assert!(body.get("params").is_none_or(|p| p.get("cursor").is_none())))
            .result(json!({ "tools": [tool("a")], "nextCursor": "c1" })),
        Exchange::get().status(405),
    ]
}

#[test]
fn connect_lists_the_first_page_and_keeps_the_cursor() {
    let mut h = Harness::new();
    h.script(paginated_connect());
    let state = h.connect(handshake_config()).expect("connects");
    assert_eq!(tool_names(&state.tools), ["a"]);
    assert_eq!(state.more.get(ListKind::Tools), Some("c1"));
    assert_eq!(state.more.get(ListKind::Prompts), None);
    assert_eq!(h.http.seen_rpc("tools/list").len(), 1);
}

#[test]
fn pages_load_one_at_a_time_then_the_rest() {
    let mut h = Harness::new();
    h.script(paginated_connect());
    h.connect(handshake_config()).expect("connects");
    let client = h.client();
    // One page.
    h.script([Exchange::post("tools/list")
        .check(|body| assert_eq!(body["params"]["cursor"], "c1"))
        .result(json!({ "tools": [tool("b")], "nextCursor": "c2" }))]);
    let c = client.clone();
    let page = h
        .run(async move { c.list_tools_page(Some("c1")).await })
        .expect("a page");
    let names: Vec<String> = page.items.iter().map(|t| t.name.to_string()).collect();
    assert_eq!(names, ["b"]);
    assert_eq!(page.next_cursor.as_deref(), Some("c2"));
    // The same through the generic call.
    h.script([Exchange::post("tools/list")
        .check(|body| assert_eq!(body["params"]["cursor"], "c2"))
        .result(json!({ "tools": [tool("c")], "nextCursor": "c3" }))]);
    let c = client.clone();
    let (more, next) = h.run(async move { c.list_more(ListKind::Tools, "c2", false).await });
    assert!(
        matches!(&more, ListUpdate::Tools(Ok(tools)) if tools.len() == 1 && tools[0].name == "c")
    );
    assert_eq!(next.as_deref(), Some("c3"));
    // All the rest: follows the cursors, and a repeated one ends the list.
    h.script([
        Exchange::post("tools/list")
            .check(|body| assert_eq!(body["params"]["cursor"], "c3"))
            .result(json!({ "tools": [tool("d")], "nextCursor": "c4" })),
        Exchange::post("tools/list")
            .check(|body| assert_eq!(body["params"]["cursor"], "c4"))
            .result(json!({ "tools": [tool("e")], "nextCursor": "c4" })),
    ]);
    let c = client.clone();
    let (rest, next) = h.run(async move { c.list_more(ListKind::Tools, "c3", true).await });
    let ListUpdate::Tools(Ok(rest)) = rest else {
        panic!("tools: {rest:?}");
    };
    let names: Vec<String> = rest.iter().map(|t| t.name.to_string()).collect();
    assert_eq!(names, ["d", "e"]);
    assert_eq!(next, None);
    // Every page at once (what the Manager's tool list uses): from the start.
    h.script([
        Exchange::post("tools/list").result(json!({ "tools": [tool("a")], "nextCursor": "x" })),
        Exchange::post("tools/list")
            .check(|body| assert_eq!(body["params"]["cursor"], "x"))
            .result(json!({ "tools": [tool("b")] })),
    ]);
    let c = client.clone();
    let all = h.run(async move { c.list_tools().await }).expect("all");
    assert_eq!(all.len(), 2);
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn a_relisted_paginated_list_starts_over_and_says_where_it_continues() {
    let mut h = Harness::new();
    let get_stream = LiveStream::default();
    let mut connect = paginated_connect();
    connect.pop();
    h.script(connect);
    h.script([Exchange::get().sse(&[]).live(&get_stream)]);
    h.connect(handshake_config()).expect("connects");
    h.settle();
    h.script([Exchange::post("tools/list")
        .check(|body| assert!(body.get("params").is_none_or(|p| p.get("cursor").is_none())))
        .result(json!({ "tools": [tool("a2")], "nextCursor": "n1" }))]);
    get_stream.push("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n");
    h.settle();
    let events: Vec<ClientEvent> = h
        .events()
        .into_iter()
        .filter(|e| {
            matches!(
                e,
                ClientEvent::ListChanged(_) | ClientEvent::NextCursor { .. }
            )
        })
        .collect();
    assert_eq!(events.len(), 2, "{events:#?}");
    assert!(
        matches!(&events[0], ClientEvent::ListChanged(ListUpdate::Tools(Ok(tools))) if tools[0].name == "a2")
    );
    assert_eq!(
        events[1],
        ClientEvent::NextCursor {
            kind: ListKind::Tools,
            cursor: "n1".to_owned()
        }
    );
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

/// A handshake connect of a server whose resources can be subscribed to; the GET stream
/// stays open (`stream`).
fn subscribable_connect(h: &mut Harness, stream: &LiveStream) {
    h.script([
        Exchange::post("initialize")
            .answer_header("mcp-session-id", "s")
            .result(initialize_result(
                "2025-11-25",
                json!({ "resources": { "subscribe": true } }),
            )),
        Exchange::post("notifications/initialized").status(202),
        Exchange::post("resources/list").result(json!({
            "resources": [{ "uri": "demo://a", "name": "a" }]
        })),
        Exchange::get().sse(&[]).live(stream),
        Exchange::post("resources/templates/list").result(json!({ "resourceTemplates": [] })),
    ]);
    let state = h.connect(handshake_config()).expect("connects");
    let subscribe = state
        .info
        .capabilities
        .resources
        .as_ref()
        .and_then(|r| r.subscribe);
    assert_eq!(subscribe, Some(true));
    h.settle();
}

#[test]
fn subscribe_and_unsubscribe_send_the_uri_and_are_remembered_per_session() {
    let mut h = Harness::new();
    let stream = LiveStream::default();
    subscribable_connect(&mut h, &stream);
    let client = h.client();
    h.script([Exchange::post("resources/subscribe")
        .header("mcp-session-id", "s")
        .check(|body| {
            assert_eq!(body["params"], json!({ "uri": "demo://a" }));
            assert!(body["id"].is_number());
        })
        .result(json!({}))]);
    let c = client.clone();
    h.run(async move { c.subscribe_resource("demo://a").await })
        .expect("subscribed");
    assert!(client.is_subscribed("demo://a"));
    assert_eq!(client.subscriptions(), ["demo://a"]);

    // An update for it is a notification with its URI (the page reads it again).
    stream.push("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"demo://a\"}}\n\n");
    h.settle();
    let updated: Vec<ClientEvent> = h
        .events()
        .into_iter()
        .filter(|e| matches!(e, ClientEvent::Notification { .. }))
        .collect();
    assert_eq!(
        updated,
        [ClientEvent::Notification {
            method: "notifications/resources/updated".to_owned(),
            params: Some(json!({ "uri": "demo://a" })),
        }]
    );

    h.script([Exchange::post("resources/unsubscribe")
        .header("mcp-session-id", "s")
        .check(|body| assert_eq!(body["params"], json!({ "uri": "demo://a" })))
        .result(json!({}))]);
    let c = client.clone();
    h.run(async move { c.unsubscribe_resource("demo://a").await })
        .expect("unsubscribed");
    assert!(!client.is_subscribed("demo://a"));
    assert!(client.subscriptions().is_empty());
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn subscriptions_are_sent_again_when_the_session_is_renewed() {
    let mut h = Harness::new();
    let stream = LiveStream::default();
    subscribable_connect(&mut h, &stream);
    let client = h.client();
    h.script([Exchange::post("resources/subscribe")
        .header("mcp-session-id", "s")
        .result(json!({}))]);
    let c = client.clone();
    h.run(async move { c.subscribe_resource("demo://a").await })
        .expect("subscribed");
    h.script([
        Exchange::post("ping")
            .header("mcp-session-id", "s")
            .status(404)
            .json_body("Session not found"),
        Exchange::post("initialize")
            .no_header("mcp-session-id")
            .answer_header("mcp-session-id", "s2")
            .result(initialize_result(
                "2025-11-25",
                json!({ "resources": { "subscribe": true } }),
            )),
        Exchange::post("notifications/initialized").status(202),
        Exchange::post("ping")
            .header("mcp-session-id", "s2")
            .result(json!({})),
        Exchange::post("resources/subscribe")
            .header("mcp-session-id", "s2")
            .check(|body| assert_eq!(body["params"], json!({ "uri": "demo://a" })))
            .result(json!({})),
    ]);
    let c = client.clone();
    h.run(async move { c.ping().await }).expect("replayed");
    h.settle();
    assert_eq!(h.http.seen_rpc("resources/subscribe").len(), 2);
    assert!(client.is_subscribed("demo://a"));
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn a_refused_subscription_is_an_error_naming_the_step_and_not_remembered() {
    let mut h = Harness::new();
    let stream = LiveStream::default();
    subscribable_connect(&mut h, &stream);
    let client = h.client();
    h.script([Exchange::post("resources/subscribe").json_body(
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32602,"message":"Unknown resource"}}"#,
    )]);
    let c = client.clone();
    let error = h
        .run(async move { c.subscribe_resource("demo://nope").await })
        .expect_err("refused");
    assert!(
        error
            .to_string()
            .starts_with("Subscribing to the resource failed"),
        "{error}"
    );
    assert!(!client.is_subscribed("demo://nope"));
}

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
fn list_changed_bursts_relist_once_more_and_in_order() {
    let mut h = Harness::new();
    let get_stream = LiveStream::default();
    let mut connect = stateful_connect("sess-1", json!([tool("v0")]));
    connect.pop(); // the GET stream stays open instead
    h.script(connect);
    h.script([Exchange::get().sse(&[]).live(&get_stream)]);
    h.connect(handshake_config()).expect("connects");
    h.settle();
    let changed = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n";
    h.script([
        Exchange::post("tools/list")
            .delay(50)
            .result(json!({ "tools": [tool("v1")] })),
        Exchange::post("tools/list")
            .delay(10)
            .result(json!({ "tools": [tool("v2")] })),
    ]);
    get_stream.push(changed);
    h.settle(); // the first re-list is in flight
    get_stream.push(changed);
    get_stream.push(&changed.repeat(3));
    // Run until both answers are in (no third list is scripted: one would fail the test).
    let list_updates = |h: &Harness| {
        h.events()
            .iter()
            .filter(|e| matches!(e, ClientEvent::ListChanged(_)))
            .count()
    };
    loop {
        h.settle();
        if list_updates(&h) >= 2 {
            break;
        }
        assert!(
            h.clock.advance_to_next(),
            "stalled: {:#?}",
            h.http.summary()
        );
    }
    // Nothing more comes, however long one waits.
    while h.clock.advance_to_next() {
        h.settle();
    }
    let lists: Vec<Vec<String>> = h
        .events()
        .iter()
        .filter_map(|e| match e {
            ClientEvent::ListChanged(ListUpdate::Tools(Ok(tools))) => {
                Some(tools.iter().map(|t| t.name.to_string()).collect())
            }
            _ => None,
        })
        .collect();
    assert_eq!(lists, [vec!["v1".to_owned()], vec!["v2".to_owned()]]);
    assert_eq!(h.http.seen_rpc("tools/list").len(), 3); // connect + 2
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

/// A stateful session ("sess-1") whose standalone GET stream is `stream`.
fn connect_with_get_stream(h: &mut Harness, stream: &LiveStream) {
    let mut connect = stateful_connect("sess-1", json!([]));
    connect.pop();
    h.script(connect);
    h.script([Exchange::get().sse(&[]).live(stream)]);
    h.connect(handshake_config()).expect("connects");
    h.settle();
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

/// server-everything's `capabilities.tasks` (TypeScript SDK 1.32.2).
fn tasks_capability() -> Value {
    json!({ "list": {}, "cancel": {}, "requests": { "tools": { "call": {} } } })
}

/// A task as server-everything sends it (`InMemoryTaskStore`).
fn task(status: &str, message: &str, updated: &str, poll: u64) -> Value {
    json!({ "taskId": "a1b2", "status": status, "ttl": 300000,
            "createdAt": "2026-01-01T10:00:00.000Z", "lastUpdatedAt": updated,
            "pollInterval": poll, "statusMessage": message })
}

fn connect_with_tasks(h: &mut Harness, capabilities: Value, get_stream: Option<&LiveStream>) {
    h.script([
        Exchange::post("initialize")
            .check(|body| assert_eq!(body["params"]["capabilities"]["tasks"], json!({})))
            .answer_header("mcp-session-id", "sess-1")
            .result(initialize_result("2025-11-25", capabilities)),
        Exchange::post("notifications/initialized").status(202),
        Exchange::post("tools/list").result(json!({ "tools": [
            { "name": "research", "inputSchema": { "type": "object" }, "execution": { "taskSupport": "required" } },
            { "name": "maybe", "inputSchema": { "type": "object" }, "execution": { "taskSupport": "optional" } },
            { "name": "echo", "inputSchema": { "type": "object" }, "execution": { "taskSupport": "forbidden" } },
        ] })),
    ]);
    h.script([match get_stream {
        Some(stream) => Exchange::get().sse(&[]).live(stream),
        None => Exchange::get().status(405),
    }]);
    h.connect(handshake_config()).expect("connects");
}

#[test]
fn a_task_tool_runs_as_a_task_polled_at_the_servers_interval_until_its_result() {
    use mcp_lens_client::protocol::tasks::{TaskStatus, TaskSupport};
    let mut h = Harness::new();
    let capabilities = json!({ "tools": {}, "tasks": tasks_capability() });
    connect_with_tasks(&mut h, capabilities, None);
    let client = h.client();
    let declared = client.server_tasks();
    assert!(declared.declared && declared.list && declared.cancel && declared.tool_call);
    assert_eq!(client.task_support("research"), TaskSupport::Required);
    assert!(client.runs_as_task("research") && client.runs_as_task("maybe"));
    assert!(!client.runs_as_task("echo") && !client.runs_as_task("unknown"));

    h.script([
        Exchange::post("tools/call")
            .check(|body| {
                let params = &body["params"];
                assert_eq!(params["name"], "research");
                assert_eq!(params["task"], json!({ "ttl": 60000 }));
                assert_eq!(params["_meta"]["progressToken"], body["id"]);
            })
            .result(json!({ "task": task("working", "Gathering sources...", "2026-01-01T10:00:00.000Z", 2500) })),
        Exchange::post("tasks/get")
            .check(|body| assert_eq!(body["params"], json!({ "taskId": "a1b2" })))
            .result(task("working", "Analyzing content...", "2026-01-01T10:00:01.000Z", 2500)),
        Exchange::post("tasks/get")
            .result(task("completed", "Generating report...", "2026-01-01T10:00:04.000Z", 2500)),
        Exchange::post("tasks/result")
            .check(|body| assert_eq!(body["params"], json!({ "taskId": "a1b2" })))
            .result(json!({ "content": [{ "type": "text", "text": "# Research Report" }],
                            "_meta": { "io.modelcontextprotocol/related-task": { "taskId": "a1b2" } } })),
    ]);
    let (_, call) = client.call_tool_as_task(
        "research",
        Map::from_iter([("topic".to_owned(), json!("tides"))]),
        Some(60_000),
    );
    let created = h.run(call).expect("a task");
    assert_eq!(created.status, TaskStatus::Working);
    assert_eq!(
        created.status_message.as_deref(),
        Some("Gathering sources...")
    );
    let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let record = seen.clone();
    let started = h.clock.now();
    let follow = client.follow_task(
        created,
        std::rc::Rc::new(move |task| {
            record
                .borrow_mut()
                .push((task.status, task.status_message.clone().unwrap_or_default()))
        }),
    );
    let result = h.run(follow).expect("followed").expect("a result");
    assert_eq!(
        result.content[0].as_text().unwrap().text,
        "# Research Report"
    );
    assert_eq!(
        *seen.borrow(),
        [
            (TaskStatus::Working, "Analyzing content...".to_owned()),
            (TaskStatus::Completed, "Generating report...".to_owned()),
        ]
    );
    // Two polls, each after the server's pollInterval.
    assert!(
        h.clock.now() - started >= 5_000.0,
        "{}",
        h.clock.now() - started
    );
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn optional_task_support_needs_the_servers_tool_call_capability() {
    let mut h = Harness::new();
    connect_with_tasks(
        &mut h,
        json!({ "tools": {}, "tasks": { "list": {} } }),
        None,
    );
    let client = h.client();
    assert!(client.server_tasks().list && !client.server_tasks().cancel);
    assert!(client.runs_as_task("research"));
    assert!(!client.runs_as_task("maybe"));
    // A server without tasks: a tool that requires one still asks for one (it cannot run
    // otherwise).
    let mut h = Harness::new();
    connect_with_tasks(&mut h, json!({ "tools": {} }), None);
    assert!(!h.client().server_tasks().declared);
    assert!(h.client().runs_as_task("research") && !h.client().runs_as_task("maybe"));
}

#[test]
fn status_notifications_listing_cancelling_and_input_on_the_result_stream() {
    use mcp_lens_client::protocol::tasks::TaskStatus;
    let mut h = Harness::new();
    h.person(|method, params| {
        assert_eq!(method, "elicitation/create");
        assert!(params.as_ref().unwrap()["message"]
            .as_str()
            .unwrap()
            .contains("interpretations"));
        Ok(json!({ "action": "accept", "content": { "interpretation": "technical" } }))
    });
    let get_stream = LiveStream::default();
    let capabilities = json!({ "tools": {}, "tasks": tasks_capability() });
    connect_with_tasks(&mut h, capabilities, Some(&get_stream));
    h.settle();
    let client = h.client();

    // A status notification on the GET stream becomes a typed event (and a notification).
    let status = json!({ "jsonrpc": "2.0", "method": "notifications/tasks/status",
        "params": task("input_required", "Requesting clarification...", "2026-01-01T10:00:02.000Z", 1000) });
    get_stream.push(&format!("data: {status}\n\n"));
    h.settle();
    let statuses: Vec<_> = h
        .events()
        .into_iter()
        .filter_map(|e| match e {
            ClientEvent::TaskStatus(task) => Some(task),
            _ => None,
        })
        .collect();
    assert_eq!(statuses.len(), 1);
    assert_eq!(statuses[0].status, TaskStatus::InputRequired);
    assert!(h.events().iter().any(|e| matches!(e,
        ClientEvent::Notification { method, .. } if method == "notifications/tasks/status")));

    // Needing input: tasks/result carries the elicitation, answered by the person, then
    // the result.
    let result_stream = LiveStream::default();
    let elicit = json!({ "jsonrpc": "2.0", "id": 7, "method": "elicitation/create", "params": {
        "message": "The research query \"tides\" could have multiple interpretations. Please clarify what you're looking for:",
        "requestedSchema": { "type": "object", "properties": { "interpretation": { "type": "string" } } },
        "_meta": { "io.modelcontextprotocol/related-task": { "taskId": "a1b2" } } } });
    h.script([
        Exchange::post("tasks/result")
            .sse(&[&format!("data: {elicit}\n\n")])
            .live(&result_stream),
        Exchange::post_response()
            .check(|body| {
                assert_eq!(body["id"], 7);
                assert_eq!(body["result"]["content"]["interpretation"], "technical");
            })
            .status(202),
        Exchange::post("tasks/get").result(task(
            "completed",
            "Continuing with interpretation...",
            "2026-01-01T10:00:07.000Z",
            1000,
        )),
    ]);
    let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let record = seen.clone();
    let follow = h.spawn(client.follow_task(
        statuses[0].clone(),
        std::rc::Rc::new(move |task| record.borrow_mut().push(task.status)),
    ));
    h.settle();
    let result_id = h.http.seen_rpc("tasks/result")[0].body.as_ref().unwrap()["id"].clone();
    let answer = json!({ "jsonrpc": "2.0", "id": result_id,
        "result": { "content": [{ "type": "text", "text": "# Research Report: tides (technical)" }] } });
    result_stream.push(&format!("data: {answer}\n\n"));
    let result = h.finish(follow).expect("followed").expect("a result");
    assert_eq!(
        result.content[0].as_text().unwrap().text,
        "# Research Report: tides (technical)"
    );
    assert_eq!(*seen.borrow(), [TaskStatus::Completed]);

    // Listing follows cursors; cancelling answers with the task as it is now.
    h.script([
        Exchange::post("tasks/list").result(json!({ "tasks": [task("completed", "done", "b", 1000)], "nextCursor": "a1b2", "_meta": {} })),
        Exchange::post("tasks/list")
            .check(|body| assert_eq!(body["params"]["cursor"], "a1b2"))
            .result(json!({ "tasks": [{ "taskId": "c3", "status": "working", "ttl": null,
                "createdAt": "c", "lastUpdatedAt": "c" }], "_meta": {} })),
        Exchange::post("tasks/cancel")
            .check(|body| assert_eq!(body["params"], json!({ "taskId": "c3" })))
            .result(json!({ "taskId": "c3", "status": "cancelled", "ttl": null, "createdAt": "c",
                "lastUpdatedAt": "d", "statusMessage": "Client cancelled task execution.", "_meta": {} })),
    ]);
    let listing = client.clone();
    let tasks = h
        .run(async move { listing.list_tasks().await })
        .expect("listed");
    assert_eq!(
        tasks.iter().map(|t| t.task_id.as_str()).collect::<Vec<_>>(),
        ["a1b2", "c3"]
    );
    assert_eq!(tasks[1].ttl, None);
    let cancelling = client.clone();
    let cancelled = h
        .run(async move { cancelling.cancel_task("c3").await })
        .expect("cancelled");
    assert_eq!(cancelled.status, TaskStatus::Cancelled);
    assert!(cancelled.supersedes(&tasks[1]));
    // Following a cancelled task asks nothing more.
    let ended = h
        .run(client.follow_task(cancelled, std::rc::Rc::new(|_| {})))
        .expect("ended");
    assert!(ended.is_none());
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn a_manager_runs_on_the_given_runtime_and_removing_a_server_ends_its_session() {
    use mcp_lens_client::manager::{Manager, Status};
    let mut h = Harness::new();
    h.script(stateful_connect("sess-m", json!([tool("lookup")])));
    let manager = Manager::with_runtime(h.runtime());
    let connecting = manager.clone();
    h.run(async move {
        connecting
            .connect("docs", handshake_config())
            .await
            .expect("connects");
    });
    assert_eq!(manager.status("docs"), Some(Status::Connected));
    let tools: Vec<String> = manager
        .all_tools(false)
        .iter()
        .map(|t| format!("{}:{}", t.server, t.tool.name))
        .collect();
    assert_eq!(tools, ["docs:lookup"]);
    h.script([Exchange::delete()
        .url(URL)
        .header("mcp-session-id", "sess-m")
        .status(200)]);
    let removing = manager.clone();
    h.run(async move { removing.remove("docs").await.expect("removed") });
    assert_eq!(manager.status("docs"), None);
    h.settle();
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn a_manager_with_tool_pages_keeps_pages_taps_events_and_logs_wire_lines() {
    use mcp_lens_client::manager::{Manager, WireLine};
    let mut h = Harness::new();
    let get_stream = LiveStream::default();
    let mut connect = stateful_connect("sess-p", json!([tool("a")]));
    connect[2] = Exchange::post("tools/list")
        .header("mcp-session-id", "sess-p")
        .result(json!({ "tools": [tool("a")], "nextCursor": "page-2" }));
    connect.pop();
    h.script(connect);
    h.script([Exchange::get().sse(&[]).live(&get_stream)]);
    let manager = Manager::with_runtime(h.runtime()).with_tool_pages();
    let tapped: Rc<RefCell<Vec<ClientEvent>>> = Rc::default();
    let logged: Rc<RefCell<Vec<String>>> = Rc::default();
    let (tap, log) = (tapped.clone(), logged.clone());
    manager.on_event(Some("docs"), move |server, event| {
        assert_eq!(server, "docs");
        tap.borrow_mut().push(event);
    });
    manager.on_wire(Some("docs"), move |_, line| {
        if let WireLine::Entry(entry) = line {
            log.borrow_mut().push(entry.method.unwrap_or_default());
        }
    });
    let connecting = manager.clone();
    let state = h.run(async move { connecting.connect("docs", handshake_config()).await });
    let state = state.expect("connects");
    // The first page only: no second tools/list was scripted, so one would fail the test.
    assert_eq!(state.more.get(ListKind::Tools), Some("page-2"));
    let names = |manager: &Manager| -> Vec<String> {
        let tools = manager.tools("docs", true).expect("known");
        tools.iter().map(|t| t.name.to_string()).collect()
    };
    assert_eq!(names(&manager), ["a"]);
    assert!(logged.borrow().iter().any(|m| m == "initialize"));
    // "Load more" continues the list and the cache.
    h.script([Exchange::post("tools/list")
        .check(|body| assert_eq!(body["params"]["cursor"], "page-2"))
        .result(json!({ "tools": [tool("b")] }))]);
    let more = manager.clone();
    let (page, next) = h
        .run(async move {
            more.list_more("docs", ListKind::Tools, "page-2", false)
                .await
        })
        .expect("second page");
    assert!(matches!(page, ListUpdate::Tools(Ok(tools)) if tools.len() == 1));
    assert_eq!(next, None);
    assert_eq!(names(&manager), ["a", "b"]);
    // Events reach the tap; wire lines do not (they went to the logger).
    h.script([Exchange::post_response().status(202)]);
    get_stream.push("data: {\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"ping\"}\n\n");
    h.settle();
    let tapped = tapped.borrow();
    assert!(tapped
        .iter()
        .any(|e| matches!(e, ClientEvent::Answered { method, .. } if method == "ping")));
    assert!(!tapped
        .iter()
        .any(|e| matches!(e, ClientEvent::Wire(_) | ClientEvent::WireAnswer(_))));
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn a_slow_connect_removed_meanwhile_never_settles_into_the_newer_one() {
    use mcp_lens_client::manager::{Manager, Status};
    let mut h = Harness::new();
    let mut slow = stateful_connect("sess-old", json!([tool("old")]));
    slow[0] = Exchange::post("initialize")
        .delay(100)
        .answer_header("mcp-session-id", "sess-old")
        .result(initialize_result("2025-06-18", json!({ "tools": {} })));
    h.script(slow.drain(..1));
    let manager = Manager::with_runtime(h.runtime());
    let first = manager.clone();
    let old = h.spawn(async move { first.connect("docs", handshake_config()).await });
    h.settle(); // the first initialize is in flight
    let again = manager.clone();
    h.run(async move { again.remove("docs").await.expect("removed") });
    h.script(stateful_connect("sess-new", json!([tool("new")])));
    // The old session, when its answer comes, finishes connecting, then ends: it is
    // dropped, with DELETE.
    h.script(slow);
    h.script([Exchange::delete()
        .header("mcp-session-id", "sess-old")
        .status(200)]);
    let second = manager.clone();
    let new = h.spawn(async move { second.connect("docs", handshake_config()).await });
    let new = h.finish(new).expect("the newer connect");
    assert!(h.finish(old).is_err(), "the older connect was removed");
    h.settle();
    assert_eq!(manager.status("docs"), Some(Status::Connected));
    assert_eq!(tool_names(&new.tools), ["new"]);
    assert_eq!(
        manager.server_state("docs").map(|s| tool_names(&s.tools)),
        Some(vec!["new".to_owned()])
    );
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

/// What the app does not call on a manager: a tools list refreshed into its cache, a tool's
/// `_meta`, a name resolved, notifications routed by kind (the server's own handler first,
/// else every server's), a server disconnected that stays known and connects again with its
/// settings.
#[test]
fn a_manager_refreshes_tools_routes_notifications_and_reconnects_a_known_server() {
    use mcp_lens_client::manager::{Manager, ManagerError, NotificationKind, Status};
    let mut h = Harness::new();
    let get_stream = LiveStream::default();
    let mut connect = stateful_connect("sess-1", json!([tool("a")]));
    connect.pop();
    h.script(connect);
    h.script([Exchange::get()
        .header("mcp-session-id", "sess-1")
        .sse(&[])
        .live(&get_stream)]);
    let manager = Manager::with_runtime(h.runtime());
    let heard: Rc<RefCell<Vec<String>>> = Rc::default();
    let hear = |who: &'static str| {
        let heard = heard.clone();
        move |server: &str, method: &str, _: Option<&Value>| {
            heard.borrow_mut().push(format!("{who}: {server} {method}"))
        }
    };
    manager.on_notification(None, NotificationKind::Logging, hear("every server's"));
    manager.on_notification(
        None,
        NotificationKind::ResourceUpdated,
        hear("every server's"),
    );
    manager.on_notification(
        Some("docs"),
        NotificationKind::ResourceUpdated,
        hear("its own"),
    );
    let connecting = manager.clone();
    h.run(async move { connecting.connect("docs", handshake_config()).await })
        .expect("connects");
    h.settle();
    get_stream.push(concat!(
        "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"hi\"}}\n\n",
        "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"file:///a\"}}\n\n",
    ));
    h.settle();
    assert_eq!(
        *heard.borrow(),
        [
            "every server's: docs notifications/message",
            "its own: docs notifications/resources/updated"
        ]
    );
    // A tools list fetched again replaces the cache.
    let mut b = tool("b");
    b["_meta"] = json!({ "ui": { "resourceUri": "ui://b" } });
    h.script([Exchange::post("tools/list")
        .header("mcp-session-id", "sess-1")
        .result(json!({ "tools": [tool("a"), b] }))]);
    let listing = manager.clone();
    let listed = h
        .run(async move { listing.list_tools("docs").await })
        .expect("listed");
    assert_eq!(listed.len(), 2);
    let meta = manager.tool_meta("docs", "b").expect("b has _meta");
    assert_eq!(meta["ui"]["resourceUri"], "ui://b");
    assert_eq!(manager.tool_meta("docs", "a"), None);
    assert_eq!(
        manager.resolve_tool("b"),
        Ok(("docs".to_owned(), "b".to_owned()))
    );
    // Disconnected, the server stays known; reconnected, with its settings.
    h.script([Exchange::delete()
        .header("mcp-session-id", "sess-1")
        .status(200)]);
    let ending = manager.clone();
    h.run(async move { ending.disconnect("docs").await })
        .expect("disconnected");
    assert_eq!(manager.status("docs"), Some(Status::Disconnected));
    assert!(matches!(
        manager.client("docs"),
        Err(ManagerError::NotConnected(_))
    ));
    h.script(stateful_connect("sess-2", json!([tool("c")])));
    let again = manager.clone();
    let state = h
        .run(async move { again.reconnect("docs").await })
        .expect("reconnects");
    assert_eq!(tool_names(&state.tools), ["c"]);
    assert_eq!(manager.status("docs"), Some(Status::Connected));
    h.settle();
    h.script([Exchange::delete()
        .header("mcp-session-id", "sess-2")
        .status(200)]);
    let removing = manager.clone();
    h.run(async move { removing.remove("docs").await })
        .expect("removed");
    let unknown = manager.clone();
    assert!(matches!(
        h.run(async move { unknown.reconnect("docs").await }),
        Err(ManagerError::UnknownServer(_))
    ));
    h.settle();
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

/// The page's warm-up connects to the in-memory server through the real client: it must get
/// as far as a real connect does (discover refused, initialize, every list), or the warm-up
/// would leave that code cold.
#[test]
fn the_warm_up_server_answers_a_whole_connect() {
    use mcp_lens_client::manager::Manager;
    use mcp_lens_client::runtime::Runtime;
    use mcp_lens_client::warm_up::{InMemoryServer, URL as WARM_URL};
    let mut h = Harness::new();
    let runtime = h.runtime();
    let manager = Manager::with_runtime(Runtime {
        http: Rc::new(InMemoryServer {
            clock: runtime.clock.clone(),
        }),
        ..runtime
    })
    .with_tool_pages();
    let connecting = manager.clone();
    let state = h
        .run(async move {
            connecting
                .connect("warm-up", ClientConfig::new(WARM_URL))
                .await
        })
        .expect("connects");
    assert!(!state.transport.legacy);
    assert_eq!(state.info.server_info.name, "warm-up");
    let names = |list: &Option<Result<Vec<String>, String>>| list.clone();
    let tools = state.tools.as_ref().map(|t| {
        t.as_ref()
            .map(|t| t.iter().map(|t| t.name.to_string()).collect())
            .map_err(|e| e.to_string())
    });
    assert_eq!(names(&tools), Some(Ok(vec!["echo".to_owned()])));
    assert_eq!(
        state
            .prompts
            .as_ref()
            .and_then(|p| p.as_ref().ok())
            .map(Vec::len),
        Some(1)
    );
    assert_eq!(
        state
            .resources
            .as_ref()
            .and_then(|r| r.as_ref().ok())
            .map(Vec::len),
        Some(1)
    );
    h.settle();
    let closing = manager.clone();
    h.run(async move { closing.remove("warm-up").await })
        .expect("the session ends");
}
