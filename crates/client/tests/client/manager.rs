//! Many sessions by id (`Manager`), and the warm-up's in-memory server through the real client.

use crate::support::{initialize_result, tool, Exchange, Harness, LiveStream, URL};
use crate::{handshake_config, stateful_connect, tool_names};
use mcp_lens_client::{ClientConfig, ClientEvent, ListKind, ListUpdate};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;

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
