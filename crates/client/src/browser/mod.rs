//! Browser I/O: `fetch` with streamed bodies, abort, timers. Follows the rules in
//! `mcp_lens_protocol::streamable`; holds no protocol state of its own.

pub mod http;
pub mod timer;
