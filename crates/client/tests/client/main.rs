//! The client's hard logic, natively: a scripted HTTP fake replays recorded exchanges, a
//! manual clock moves only when nothing else can run, one thread runs everything. One file a
//! feature; the helpers they share are here.

#[path = "../support/mod.rs"]
mod support;

mod connect;
mod lifetimes;
mod lists;
mod manager;
mod protocol_2026;
mod requests;
mod task_extension;
mod tasks;

use mcp_lens_client::ClientConfig;
use serde_json::{json, Value};
use support::{initialize_result, Exchange, Harness, LiveStream, URL};

pub(crate) fn handshake_config() -> ClientConfig {
    let mut config = ClientConfig::new(URL);
    config.known_handshake = true; // straight to initialize
    config
}

/// The handshake-era connect of a server offering tools, ending with a session `session`,
/// the tools `tools` and no standalone GET stream.
pub(crate) fn stateful_connect(session: &str, tools: Value) -> Vec<Exchange> {
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

pub(crate) fn tool_names(
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

/// A stateful session ("sess-1") whose standalone GET stream is `stream`.
pub(crate) fn connect_with_get_stream(h: &mut Harness, stream: &LiveStream) {
    let mut connect = stateful_connect("sess-1", json!([]));
    connect.pop();
    h.script(connect);
    h.script([Exchange::get().sse(&[]).live(stream)]);
    h.connect(handshake_config()).expect("connects");
    h.settle();
}
