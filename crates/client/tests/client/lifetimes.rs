//! List lifetimes (SEP-2549): a list whose result says `ttlMs` is not fetched again before
//! it runs out, unless the person asks or the server says the list changed.

use crate::support::{Exchange, Harness, LiveStream, URL};
use mcp_lens_client::protocol::caching::RelistReason;
use mcp_lens_client::{ClientConfig, ClientEvent, ListKind};
use serde_json::json;

const DISCOVER: &str = r#"{"capabilities":{"tools":{"listChanged":true}},"resultType":"complete","supportedVersions":["2026-07-28"],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"x","version":"1"}}}"#;

fn tools_page(name: &str) -> serde_json::Value {
    json!({ "tools": [{ "name": name, "inputSchema": { "type": "object" } }],
            "ttlMs": 300000, "cacheScope": "public", "resultType": "complete" })
}

fn relisted(h: &Harness) -> usize {
    h.events()
        .iter()
        .filter(|e| matches!(e, ClientEvent::ListChanged(_)))
        .count()
}

#[test]
fn a_fresh_list_is_listed_again_only_when_asked_changed_or_stale() {
    let mut h = Harness::new();
    let listen = LiveStream::default();
    h.script([
        Exchange::post("server/discover").result(serde_json::from_str(DISCOVER).unwrap()),
        Exchange::post("tools/list").result(tools_page("first")),
        Exchange::post("subscriptions/listen")
            .sse(&[])
            .live(&listen),
    ]);
    h.connect(ClientConfig::new(URL)).expect("connects");
    h.settle();
    let client = h.client();
    assert_eq!(
        client.describe_list_lifetime(ListKind::Tools).as_deref(),
        Some("fresh for 5 min, shared (public)")
    );
    assert_eq!(client.list_lifetime(ListKind::Prompts), None);

    // Needed while fresh: no request at all.
    assert!(!client.refresh_list(ListKind::Tools, RelistReason::Needed));
    h.settle();
    assert_eq!(h.http.seen_rpc("tools/list").len(), 1);

    // The person asks: listed again although fresh.
    h.script([Exchange::post("tools/list").result(tools_page("second"))]);
    assert!(client.refresh_list(ListKind::Tools, RelistReason::PersonAsked));
    h.settle();
    assert_eq!(h.http.seen_rpc("tools/list").len(), 2);
    assert_eq!(relisted(&h), 1);

    // The server says it changed: stale at once, listed again.
    h.script([Exchange::post("tools/list").result(tools_page("third"))]);
    let changed = json!({ "jsonrpc": "2.0", "method": "notifications/tools/list_changed" });
    listen.push(&format!("data: {changed}\n\n"));
    h.settle();
    assert_eq!(h.http.seen_rpc("tools/list").len(), 3);
    assert_eq!(relisted(&h), 2);

    // Four minutes on: still fresh. Past five: stale, and needed means listed again.
    let clock = h.runtime().clock;
    h.run(clock.sleep(240_000));
    assert_eq!(
        client.describe_list_lifetime(ListKind::Tools).as_deref(),
        Some("fresh for 1 min, shared (public)")
    );
    assert!(!client.refresh_list(ListKind::Tools, RelistReason::Needed));
    h.run(clock.sleep(60_000));
    assert_eq!(
        client.describe_list_lifetime(ListKind::Tools).as_deref(),
        Some("stale: listed again when needed, shared (public)")
    );
    h.script([Exchange::post("tools/list").result(tools_page("fourth"))]);
    assert!(client.refresh_list(ListKind::Tools, RelistReason::Needed));
    h.settle();
    assert_eq!(h.http.seen_rpc("tools/list").len(), 4);
    assert_eq!(
        client.describe_list_lifetime(ListKind::Tools).as_deref(),
        Some("fresh for 5 min, shared (public)")
    );
    // A list never fetched (prompts not offered) is left alone unless the person asks.
    assert!(!client.refresh_list(ListKind::Prompts, RelistReason::Needed));
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn a_list_without_a_lifetime_is_kept_until_the_server_says_it_changed() {
    let mut h = Harness::new();
    h.script(crate::stateful_connect("sess-1", json!([])));
    h.connect(crate::handshake_config()).expect("connects");
    let client = h.client();
    let clock = h.runtime().clock;
    h.run(clock.sleep(3_600_000));
    assert!(!client.refresh_list(ListKind::Tools, RelistReason::Needed));
    assert_eq!(
        client.describe_list_lifetime(ListKind::Tools).as_deref(),
        Some("no lifetime given: kept until the server says it changed")
    );
    h.settle();
    assert_eq!(h.http.seen_rpc("tools/list").len(), 1);
}
