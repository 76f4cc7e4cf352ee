//! Pure protocol logic: no browser APIs here, so everything is tested natively.
//!
//! - [`jsonrpc`]: envelopes, ids, classifying incoming messages.
//! - [`pending`]: requests waiting for answers, matched by id.
//! - [`resume`]: when and from where to resume an event stream that ended early.
//! - [`server_requests`]: sampling and elicitation requests: what to show, how answers look.
//! - [`sse`]: the incremental event-stream parser.
//! - [`streamable`]: the Streamable HTTP rules (headers, what each answer means).
//! - [`transport_choice`]: Auto/Streamable HTTP/legacy SSE, the fallback rule, endpoint URLs.
//! - [`wire_log`]: the redacted ring buffer of every message, filters, export, curl.
//! - [`mcp`]: MCP method names, parameters, decoding results into rmcp types.
//! - [`deadline`]: request timeouts that progress resets, with a maximum total.
//! - [`era`]: the handshake and stateless (2026-07-28) eras: negotiation, envelope, headers,
//!   `input_required` rounds.
//! - [`error`]: error values with the failing step and a human sentence.

pub mod deadline;
pub mod era;
pub mod error;
pub mod jsonrpc;
pub mod mcp;
pub mod pending;
pub mod resume;
pub mod server_requests;
pub mod sse;
pub mod streamable;
pub mod transport_choice;
pub mod wire_log;
