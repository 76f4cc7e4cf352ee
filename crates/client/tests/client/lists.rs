//! Lists: pages loaded one at a time, lists fetched again when they change, resource
//! subscriptions.

use crate::support::{initialize_result, tool, Exchange, Harness, LiveStream};
use crate::{handshake_config, stateful_connect, tool_names};
use mcp_lens_client::{ClientEvent, ListKind, ListUpdate};
use serde_json::{json, Value};

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

/// The typed calls for prompts, resources and templates: one page by its cursor, or every
/// page following `nextCursor`, as the tools' calls do.
#[test]
fn prompts_resources_and_templates_list_a_page_or_every_page() {
    let mut h = Harness::new();
    h.script(stateful_connect("s", json!([tool("a")])));
    h.connect(handshake_config()).expect("connects");
    let client = h.client();
    // Pages of `method`'s list under `key`: `first` alone, or then `second` after `next`.
    let pages = |method: &'static str, key: &str, first: Value, second: Option<Value>| {
        let mut answers = vec![(None, first, second.as_ref().map(|_| "next"))];
        answers.extend(second.map(|item| (Some("next"), item, None)));
        answers
            .into_iter()
            .map(
                |(cursor, item, next): (Option<&'static str>, Value, Option<&str>)| {
                    let mut answer = json!({ key: [item] });
                    if let Some(next) = next {
                        answer["nextCursor"] = json!(next);
                    }
                    Exchange::post(method)
                        .check(move |body| assert_eq!(body["params"]["cursor"].as_str(), cursor))
                        .result(answer)
                },
            )
            .collect::<Vec<_>>()
    };
    let (prompt, resource, template) = (
        |name: &str| json!({ "name": name }),
        |name: &str| json!({ "uri": format!("demo://{name}"), "name": name }),
        |name: &str| json!({ "uriTemplate": format!("demo://{name}/{{x}}"), "name": name }),
    );
    let c = client.clone();
    h.script(pages(
        "prompts/list",
        "prompts",
        prompt("a"),
        Some(prompt("b")),
    ));
    let first = h.run(async move { c.list_prompts_page(None).await });
    assert_eq!(first.expect("a page").next_cursor.as_deref(), Some("next"));
    let c = client.clone();
    let second = h.run(async move { c.list_prompts_page(Some("next")).await });
    assert_eq!(second.expect("a page").next_cursor, None);
    h.script(pages(
        "prompts/list",
        "prompts",
        prompt("a"),
        Some(prompt("b")),
    ));
    let c = client.clone();
    let all = h.run(async move { c.list_prompts().await }).expect("all");
    assert_eq!(
        all.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
        ["a", "b"]
    );

    h.script(pages("resources/list", "resources", resource("a"), None));
    let c = client.clone();
    let one = h.run(async move { c.list_resources_page(None).await });
    assert_eq!(one.expect("a page").items[0].uri, "demo://a");
    h.script(pages(
        "resources/list",
        "resources",
        resource("a"),
        Some(resource("b")),
    ));
    let c = client.clone();
    let all = h.run(async move { c.list_resources().await }).expect("all");
    assert_eq!(
        all.iter().map(|r| r.uri.as_str()).collect::<Vec<_>>(),
        ["demo://a", "demo://b"]
    );

    let key = "resourceTemplates";
    h.script(pages("resources/templates/list", key, template("a"), None));
    let c = client.clone();
    let one = h.run(async move { c.list_resource_templates_page(None).await });
    assert_eq!(one.expect("a page").items[0].name, "a");
    h.script(pages(
        "resources/templates/list",
        key,
        template("a"),
        Some(template("b")),
    ));
    let c = client.clone();
    let all = h
        .run(async move { c.list_resource_templates().await })
        .expect("all");
    assert_eq!(
        all.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        ["a", "b"]
    );
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}
