//! What one session remembers, one struct per job: each has private fields, methods that keep
//! its rules, and unit tests; none does I/O or knows the client. [`crate::client::McpClient`]
//! holds one of each; the files named like them at the crate's top (`engine.rs`,
//! `session.rs`, `lists.rs`, `server_requests.rs`) do the work with them.

pub(crate) mod engine;
pub(crate) mod lists;
pub(crate) mod server_requests;
pub(crate) mod session;
