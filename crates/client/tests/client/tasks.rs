//! Tasks (2025-11-25): a tool call run as a task, polled, followed by its notifications,
//! cancelled.

use crate::handshake_config;
use crate::support::{initialize_result, Exchange, Harness, LiveStream};
use mcp_lens_client::ClientEvent;
use serde_json::{json, Map, Value};

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
