//! Reading a schema's values: a local `$ref`'s target, a value's kind in words, a list without
//! repeats.

use mcp_lens_client::protocol::url::percent_decode;
use serde_json::Value;

pub(super) fn dedup(values: Vec<Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(values.len());
    for value in values {
        if !out.contains(&value) {
            out.push(value);
        }
    }
    out
}

/// The schema a local `$ref` (`#`, `#/$defs/X`, any JSON pointer in the document) points to.
pub(super) fn resolve_local_ref<'a>(node: &'a Value, root: &'a Value) -> Option<&'a Value> {
    let reference = node.get("$ref")?.as_str()?;
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    // JSON pointers in URIs are percent-encoded.
    let decoded = String::from_utf8_lossy(&percent_decode(pointer)).into_owned();
    root.pointer(&decoded)
}

pub(super) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "is null",
        Value::Bool(_) => "is a boolean",
        Value::Number(_) => "is a number",
        Value::String(_) => "is a string",
        Value::Array(_) => "is an array",
        Value::Object(_) => "is an object",
    }
}
