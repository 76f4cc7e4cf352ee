//! The wire log: every message in both directions, in a ring buffer bounded by count and by
//! bytes, with secrets redacted when an entry is made (so they never reach the page, an
//! export, or a copied curl command).
//!
//! Bytes: a server may send hundreds of messages just under the 16 MB one message may be, so
//! a count alone bounds nothing (1,000 such entries are 16 GB). A body over
//! [`MAX_BODY_BYTES`] keeps only its start, and once the entries hold more than the log's byte
//! budget ([`DEFAULT_BYTE_BUDGET`]) the oldest bodies are dropped first: their rows stay, with
//! their method, id, status and timing, and say why their body is gone ([`BodyCut`]).
//!
//! One job a file, each importing only those listed before it (this file declares and
//! re-exports them, and holds nothing else):
//! - `budget.rs`: the limits, and the note on a body that is not whole ([`BodyCut`]);
//! - `redact.rs`: secrets out of URLs, headers and free text;
//! - `summary.rs`: a payload's columns (kind, method, id, batch) read without building it;
//! - `entry.rs`: [`WireEntry`] and its constructors (the one place an entry is made), [`Via`],
//!   [`WireAnswer`];
//! - `filter.rs`, `curl.rs`, `export.rs`: which entries to show, a request as a curl command,
//!   the JSON export;
//! - `log.rs`: [`WireLog`], the ring buffer: numbering, timing, completing, trimming.

mod budget;
mod curl;
mod entry;
mod export;
mod filter;
mod log;
mod redact;
mod summary;

pub use budget::{size_text, BodyCut, DEFAULT_BYTE_BUDGET, MAX_BODY_BYTES};
pub use curl::curl_command;
pub use entry::{Direction, Via, WireAnswer, WireEntry};
pub use filter::Filter;
pub use log::{WireLog, DEFAULT_CAPACITY};
pub use redact::{
    is_param_header, is_protocol_header, redact_headers, redact_response_headers, redact_url,
    redact_urls_in, url_has_credentials, REDACTED,
};
pub use summary::{summarize, summarize_decoded, MessageKind, Summary};
