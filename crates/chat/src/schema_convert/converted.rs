//! What converting a tool's schema gives (its parameters, and notes of what a dialect could
//! not take), and the limits a conversion stays within.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Schema nodes converted per tool before the rest is cut (a hostile server's schema must
/// not exhaust the page; inlined `$ref`s count each time they are inlined).
pub const MAX_NODES: usize = 4_000;
/// Nesting depth converted before the rest is cut.
pub const MAX_DEPTH: usize = 32;

/// Something a dialect could not take as it was: where (a JSON pointer into the tool's
/// definition), what, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dropped {
    pub path: String,
    pub what: String,
    pub why: String,
}

impl Dropped {
    pub fn new(path: &str, what: impl Into<String>, why: impl Into<String>) -> Self {
        Self {
            path: path.to_owned(),
            what: what.into(),
            why: why.into(),
        }
    }
}

/// A tool's parameters in a dialect.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvertedSchema {
    /// None: the tool takes no arguments and the dialect is told none (Gemini refuses an
    /// object without properties).
    pub parameters: Option<Value>,
    pub dropped: Vec<Dropped>,
    /// Where in the arguments a value was asked for as JSON text (see [`restore_json_text`]):
    /// property names, `*` for every item of an array.
    pub json_text_paths: Vec<Vec<String>>,
}
