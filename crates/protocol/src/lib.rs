//! MCP as data: the protocol layer of mcp-lens. Pure: no browser APIs, no I/O, no UI, so
//! everything here is tested natively.
//!
//! Architecture invariant: this crate depends on nothing above it (no `web-sys`, `js-sys`,
//! `wasm-bindgen`, Leptos); every function is total on server input (never panics).
//!
//! - [`apps`]: MCP Apps (SEP-1865), host side: tool UIs and visibility, the app's resource,
//!   its CSP and sandbox, `postMessage` messages, the session state machine.
//! - [`auth`]: MCP authorization (OAuth 2.1) as data: challenges, discovery URLs and
//!   metadata checks, scopes, PKCE, the authorization URL, token and registration messages.
//! - [`jsonrpc`]: envelopes, ids, classifying incoming messages.
//! - [`large`]: reading a large message in steps (its long strings on the side).
//! - [`pending`]: requests waiting for answers, matched by id.
//! - [`resume`]: when and from where to resume an event stream that ended early.
//! - [`server_requests`]: sampling and elicitation requests: what to show, how answers look.
//! - [`shrink`]: a server's JSON cut to a size the page may keep for display, marked where cut.
//! - [`skills`]: skills (SEP-2640): `skills/list` entries checked, files verified by size,
//!   digest and frontmatter before use, relative references resolved.
//! - [`sse`]: the incremental event-stream parser.
//! - [`streamable`]: the Streamable HTTP rules (headers, what each answer means).
//! - [`transport_choice`]: Auto/Streamable HTTP/legacy SSE, the fallback rule, endpoint URLs.
//! - [`url`]: http(s) URLs read exactly as a browser reads them (WHATWG), for every check.
//! - [`wire_log`]: the redacted ring buffer of every message, filters, export, curl.
//! - [`mcp`]: MCP method names, parameters, decoding results into rmcp types.
//! - [`tasks`]: tasks (2025-11-25): the task, tool task support, the server's capability.
//! - [`task_extension`]: tasks as an extension (SEP-2663): either task shape read and told
//!   apart, `tasks/get`/`tasks/update`/`tasks/cancel` params, acknowledgements, declaring it.
//! - [`capabilities`]: what this client declares (`initialize` and the stateless envelope):
//!   MCP's capabilities and the MCP Apps extension.
//! - [`caching`]: list lifetimes (SEP-2549): `ttlMs` and `cacheScope` read, freshness, when
//!   to list again (stale, asked, changed), which results may be cached.
//! - [`deadline`]: request timeouts that progress resets, with a maximum total.
//! - [`era`]: the handshake and stateless (2026-07-28) eras: negotiation, envelope, headers,
//!   `input_required` rounds.
//! - [`error`]: error values with the failing step and a human sentence.
//! - [`version_retry`]: after "unsupported protocol version" (-32022): the version to retry
//!   with, and the refusals that must not make Auto fall back to another era or transport.
//! - [`headers`]: tool parameters mirrored into `Mcp-Param-*` headers (SEP-2243): which,
//!   how encoded, and why a tool's annotations make it invalid.

pub mod apps;
pub mod auth;
pub mod caching;
pub mod capabilities;
pub mod deadline;
pub mod era;
pub mod error;
pub mod headers;
pub mod jsonrpc;
pub mod large;
pub mod mcp;
pub mod pending;
pub mod resume;
pub mod server_requests;
pub mod shrink;
pub mod skills;
pub mod sse;
pub mod streamable;
pub mod task_extension;
pub mod tasks;
pub mod transport_choice;
pub mod url;
pub mod version_retry;
pub mod wire_log;

/// The prefix of every tool parameter header's name (SEP-2243, [`headers`]): here, at the root,
/// so that the wire log's redaction reads it without depending on the header rules.
pub const PARAM_HEADER_PREFIX: &str = "Mcp-Param-";

/// Arbitrary JSON for property tests of everything that reads server input (also offered to
/// other crates' tests with the `test-support` feature).
#[cfg(any(feature = "test-support", all(test, not(target_arch = "wasm32"))))]
pub mod arbitrary {
    use proptest::prelude::*;
    use serde_json::{Map, Value};

    /// Any JSON value, biased towards the keys MCP readers look for.
    pub fn json() -> impl Strategy<Value = Value> {
        let key = prop_oneof![
            Just("type".to_owned()),
            Just("properties".to_owned()),
            Just("required".to_owned()),
            Just("enum".to_owned()),
            Just("default".to_owned()),
            Just("method".to_owned()),
            Just("params".to_owned()),
            Just("id".to_owned()),
            Just("result".to_owned()),
            Just("resultType".to_owned()),
            Just("inputRequests".to_owned()),
            Just("messages".to_owned()),
            Just("content".to_owned()),
            Just("_meta".to_owned()),
            "[a-z]{0,6}",
        ];
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
            ".{0,12}".prop_map(Value::String),
            prop_oneof![
                Just("string"),
                Just("number"),
                Just("integer"),
                Just("boolean"),
                Just("object"),
                Just("input_required")
            ]
            .prop_map(|s| Value::String(s.to_owned())),
        ];
        leaf.prop_recursive(4, 48, 6, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::vec((key.clone(), inner), 0..6)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
            ]
        })
    }
}
