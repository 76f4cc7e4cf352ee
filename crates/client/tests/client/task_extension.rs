//! Tasks as an extension (SEP-2663) over the 2026-07-28 era: declared in each request's
//! envelope, a `tools/call` answered with a task, followed with `tasks/get`, the person's
//! answers sent with `tasks/update`, cancelled with `tasks/cancel`, `notifications/tasks` read
//! from the listen stream.

use crate::support::{Exchange, Harness, LiveStream, URL};
use mcp_lens_client::protocol::task_extension::{TaskShape, EXTENSION_ID};
use mcp_lens_client::protocol::tasks::TaskStatus;
use mcp_lens_client::{ClientConfig, ClientEvent, ToolAnswer};
use serde_json::{json, Map, Value};
use std::cell::RefCell;
use std::rc::Rc;

const DISCOVER: &str = r#"{"capabilities":{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}},"resultType":"complete","supportedVersions":["2026-07-28"],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"x","version":"1"}}}"#;

fn declares_the_extension(body: &Value) {
    assert_eq!(
        body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"]
            [EXTENSION_ID],
        json!({}),
        "{body}"
    );
}

/// A stateless connect with the extension declared; `listen`: the subscriptions/listen stream.
fn connect(h: &mut Harness, listen: Option<&LiveStream>) {
    h.script([
        Exchange::post("server/discover")
            .check(declares_the_extension)
            .result(serde_json::from_str(DISCOVER).unwrap()),
        Exchange::post("tools/list").result(json!({ "tools": [
            { "name": "render", "inputSchema": { "type": "object" } } ], "resultType": "complete" })),
        match listen {
            Some(stream) => Exchange::post("subscriptions/listen").sse(&[]).live(stream),
            None => Exchange::post("subscriptions/listen").status(404),
        },
    ]);
    let mut config = ClientConfig::new(URL);
    config.tasks_extension = true;
    h.connect(config).expect("connects");
}

/// A task as the specification's examples show it, in the state `status`.
fn task(status: &str, updated: &str, extra: Value) -> Value {
    let mut task = json!({ "taskId": "786512e2", "status": status,
        "createdAt": "2026-07-28T10:30:00Z", "lastUpdatedAt": updated,
        "ttlMs": 60000, "pollIntervalMs": 2000, "resultType": "complete" });
    for (key, value) in extra.as_object().unwrap() {
        task[key] = value.clone();
    }
    task
}

#[test]
fn a_task_is_followed_its_input_answered_with_tasks_update_and_its_result_inlined() {
    let mut h = Harness::new();
    h.person(|method, params| {
        assert_eq!(method, "elicitation/create");
        assert_eq!(params.as_ref().unwrap()["message"], "Which format?");
        Ok(json!({ "action": "accept", "content": { "format": "png" } }))
    });
    connect(&mut h, None);
    let client = h.client();
    let mut created = task("working", "2026-07-28T10:30:00Z", json!({}));
    created["resultType"] = json!("task");
    let asking = json!({ "inputRequests": { "elicit-1": { "method": "elicitation/create",
        "params": { "message": "Which format?", "requestedSchema": { "type": "object",
            "properties": { "format": { "type": "string" } } } } } } });
    h.script([
        Exchange::post("tools/call")
            .check(declares_the_extension)
            .result(created),
        Exchange::post("tasks/get")
            .check(|body| {
                assert_eq!(body["params"]["taskId"], "786512e2");
                declares_the_extension(body);
            })
            .header("mcp-method", "tasks/get")
            .result(task("input_required", "2026-07-28T10:30:01Z", asking.clone())),
        Exchange::post("tasks/update")
            .check(|body| {
                assert_eq!(body["params"]["taskId"], "786512e2");
                assert_eq!(
                    body["params"]["inputResponses"],
                    json!({ "elicit-1": { "action": "accept", "content": { "format": "png" } } })
                );
            })
            .result(json!({ "resultType": "complete" })),
        // The server has not taken the answer in yet: the same request again, not asked twice.
        Exchange::post("tasks/get").result(task("input_required", "2026-07-28T10:30:01Z", asking)),
        Exchange::post("tasks/get").result(task(
            "completed",
            "2026-07-28T10:30:05Z",
            json!({ "result": { "content": [{ "type": "text", "text": "rendered as png" }], "isError": false } }),
        )),
    ]);
    let (_, call) = client.call_tool_or_task("render", Map::new());
    let ToolAnswer::Task(created) = h.run(call).expect("answered") else {
        panic!("a task")
    };
    assert_eq!(
        (created.shape, created.status, created.ttl_ms),
        (TaskShape::Extension, TaskStatus::Working, Some(60_000))
    );
    let seen = Rc::new(RefCell::new(Vec::new()));
    let record = seen.clone();
    let started = h.clock.now();
    let follow = client.follow_extension_task(
        created,
        Rc::new(move |task| record.borrow_mut().push(task.status)),
    );
    let result = h.run(follow).expect("followed").expect("a result");
    assert_eq!(result.content[0].as_text().unwrap().text, "rendered as png");
    assert_eq!(
        *seen.borrow(),
        [TaskStatus::InputRequired, TaskStatus::Completed]
    );
    // Polled at the server's pollIntervalMs.
    assert!(
        h.clock.now() - started >= 4_000.0,
        "{}",
        h.clock.now() - started
    );
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn a_caller_that_wants_only_the_result_gets_the_tasks_error_and_the_page_its_states() {
    let mut h = Harness::new();
    connect(&mut h, None);
    let client = h.client();
    let mut created = task("working", "2026-07-28T10:30:00Z", json!({}));
    created["resultType"] = json!("task");
    h.script([
        Exchange::post("tools/call").result(created),
        Exchange::post("tasks/get").result(task(
            "failed",
            "2026-07-28T10:30:02Z",
            json!({ "statusMessage": "The renderer crashed.",
                    "error": { "code": -32603, "message": "renderer crashed" } }),
        )),
    ]);
    let (_, call) = client.call_tool("render", Map::new());
    let error = h.run(call).expect_err("the task failed");
    assert!(error.to_string().contains("renderer crashed"), "{error}");
    let states: Vec<_> = h
        .events()
        .into_iter()
        .filter_map(|e| match e {
            ClientEvent::ExtensionTaskStatus(task) => Some(task.status),
            _ => None,
        })
        .collect();
    assert_eq!(states, [TaskStatus::Working, TaskStatus::Failed]);
    // A synchronous answer stays one.
    h.script([Exchange::post("tools/call").result(
        json!({ "content": [{ "type": "text", "text": "now" }], "resultType": "complete" }),
    )]);
    let (_, call) = client.call_tool_or_task("render", Map::new());
    assert!(matches!(h.run(call), Ok(ToolAnswer::Result(result)) if result.content.len() == 1));
}

#[test]
fn notifications_on_the_listen_stream_and_a_cancel_that_is_acknowledged() {
    let mut h = Harness::new();
    let listen = LiveStream::default();
    connect(&mut h, Some(&listen));
    h.settle();
    let client = h.client();
    let notification = json!({ "jsonrpc": "2.0", "method": "notifications/tasks",
        "params": task("working", "2026-07-28T10:30:03Z", json!({ "statusMessage": "Rendering page 2 of 9" })) });
    listen.push(&format!("data: {notification}\n\n"));
    h.settle();
    let notified: Vec<_> = h
        .events()
        .into_iter()
        .filter_map(|e| match e {
            ClientEvent::ExtensionTaskStatus(task) => Some(task),
            _ => None,
        })
        .collect();
    assert_eq!(notified.len(), 1);
    assert_eq!(
        notified[0].status_message.as_deref(),
        Some("Rendering page 2 of 9")
    );
    // Not a task: said so, never a panic.
    let broken = json!({ "jsonrpc": "2.0", "method": "notifications/tasks", "params": { "status": "working" } });
    listen.push(&format!("data: {broken}\n\n"));
    h.settle();
    assert!(h.events().iter().any(|e| matches!(e,
        ClientEvent::Ignored { reason } if reason.contains("task notification"))));

    h.script([
        Exchange::post("tasks/cancel")
            .check(|body| assert_eq!(body["params"]["taskId"], "786512e2"))
            .result(json!({ "resultType": "complete" })),
        Exchange::post("tasks/get").result(task(
            "cancelled",
            "2026-07-28T10:30:04Z",
            json!({ "statusMessage": "Cancelled by the client." }),
        )),
        // A server answering the cancel with the task (the 2025-11-25 shape) is told apart.
        Exchange::post("tasks/cancel").result(task("cancelled", "2026-07-28T10:30:04Z", json!({}))),
    ]);
    let cancelling = client.clone();
    let cancelled = h
        .run(async move { cancelling.cancel_extension_task("786512e2").await })
        .expect("cancelled");
    assert_eq!(cancelled.status, TaskStatus::Cancelled);
    assert!(cancelled.supersedes(&notified[0]));
    let ended = h
        .run(client.follow_extension_task(cancelled, Rc::new(|_| {})))
        .expect("ended");
    assert!(ended.is_none());
    let cancelling = client.clone();
    let error = h
        .run(async move { cancelling.cancel_extension_task("786512e2").await })
        .expect_err("not an acknowledgement");
    assert!(error.to_string().contains("acknowledgement"), "{error}");
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn the_extension_is_declared_only_when_configured() {
    let mut h = Harness::new();
    h.script([
        Exchange::post("server/discover")
            .check(|body| {
                let capabilities =
                    &body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"];
                assert!(capabilities.get("extensions").is_none(), "{capabilities}");
            })
            .result(serde_json::from_str(DISCOVER).unwrap()),
        Exchange::post("tools/list").result(json!({ "tools": [], "resultType": "complete" })),
        Exchange::post("subscriptions/listen").status(404),
    ]);
    h.connect(ClientConfig::new(URL)).expect("connects");
}
