//! The client layer (no UI) in a real browser against a real server: what the page-level
//! end-to-end tests cannot easily drive, such as hundreds of calls in flight at once.
//!
//! Run by `scripts/test.sh`, which starts server-everything on loopback and passes its URL
//! at compile time in `MCP_LENS_TEST_SERVER`; `wasm-bindgen-test-runner` drives headless
//! Chromium through chromedriver.
#![cfg(target_arch = "wasm32")]

use futures::future::join_all;
use mcp_lens::client::{ClientConfig, McpClient};
use rmcp::model::ContentBlock;
use serde_json::{json, Map, Value};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn server_url() -> &'static str {
    option_env!("MCP_LENS_TEST_SERVER").unwrap_or("http://127.0.0.1:3001/mcp")
}

fn text_of(content: &[ContentBlock]) -> String {
    content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Text(text) => Some(text.text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn arguments(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

#[wasm_bindgen_test]
async fn two_hundred_concurrent_calls_each_reach_their_caller() {
    let (client, state) = McpClient::connect(ClientConfig::new(server_url()), |_| {})
        .await
        .expect("connects to server-everything");
    assert_eq!(state.info.server_info.name, "mcp-servers/everything");
    let calls: Vec<_> = (0..200)
        .map(|n| {
            let (_, call) =
                client.call_tool("echo", arguments(json!({ "message": format!("call {n}") })));
            call
        })
        .collect();
    let results = join_all(calls).await;
    for (n, result) in results.into_iter().enumerate() {
        let result = result.unwrap_or_else(|e| panic!("call {n} failed: {e}"));
        assert_eq!(text_of(&result.content), format!("Echo: call {n}"));
    }
    client.disconnect().await.expect("ends the session");
}

#[wasm_bindgen_test]
async fn answers_of_different_shapes_interleave_correctly() {
    let (client, _) = McpClient::connect(ClientConfig::new(server_url()), |_| {})
        .await
        .expect("connects");
    // Slow and fast requests of different kinds at once: each gets its own answer.
    let (_, slow) = client.call_tool(
        "trigger-long-running-operation",
        arguments(json!({ "duration": 1, "steps": 2 })),
    );
    let (_, sum) = client.call_tool("get-sum", arguments(json!({ "a": 2, "b": 3 })));
    let prompt = client.get_prompt("args-prompt", arguments(json!({ "city": "Paris" })));
    let resource = client.read_resource("demo://resource/static/document/extension.md");
    let (slow, sum, prompt, resource) = futures::join!(slow, sum, prompt, resource);
    assert!(text_of(&slow.unwrap().content).contains("Long running operation completed"));
    assert_eq!(text_of(&sum.unwrap().content), "The sum of 2 and 3 is 5.");
    assert_eq!(prompt.unwrap().messages.len(), 1);
    assert_eq!(resource.unwrap().contents.len(), 1);
    client.disconnect().await.expect("ends the session");
}

#[wasm_bindgen_test]
async fn requests_after_disconnect_fail_with_a_clear_error() {
    let (client, _) = McpClient::connect(ClientConfig::new(server_url()), |_| {})
        .await
        .expect("connects");
    client.disconnect().await.expect("ends the session");
    let error = client.ping().await.expect_err("no session any more");
    assert_eq!(
        error.to_string(),
        "Ping failed: there is no connection; connect first."
    );
}
