//! The app <-> host messages (JSON-RPC 2.0 over `postMessage`, shapes from `spec.types.ts`):
//! [`classify`] turns anything the app posts into an [`AppMessage`]; the builders make what
//! the host sends.
//!
//! Like the reference host's `PostMessageTransport`, anything without `"jsonrpc": "2.0"` is
//! not a message at all; like its SDK `Protocol` (TypeScript SDK 1.32), an unknown request
//! method is answered "method not found" (-32601). A request whose parameters have the wrong
//! shape is answered "invalid params" (-32602), as JSON-RPC 2.0 defines it; the reference
//! host answers -32603 there (its handler wrapper throws the schema's error, which has no
//! code, so it becomes "internal error"). Unknown members are ignored (forward compatibility).

mod incoming;
mod outgoing;

pub use super::display::*;
pub use super::host_context::*;
pub use crate::jsonrpc::RequestId;
pub use incoming::{classify, classify_text, AppInit, AppMessage, RpcError, MAX_MESSAGE_BYTES};
pub use outgoing::{
    codes, error, host_context_changed, notification, request, resource_teardown, result,
    tool_cancelled, tool_input, tool_input_partial, tool_result, MAX_ERROR_CHARS,
};

#[cfg(test)]
mod tests;
