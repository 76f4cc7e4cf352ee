//! JSON Schema -> form model -> JSON, and JSON checked against a schema. Pure: no browser, no
//! protocol. Every function here is total: any schema and any input give a result, never a
//! panic, in bounded time.
//!
//! - [`model`]: the schema as a tree of form nodes ([`Node`]).
//! - [`draft`]: what a person entered ([`Draft`]), its JSON value, and back.
//! - [`validate`]: a value against the schema, with JSON-pointer paths.
//! - [`example`]: a value made up to satisfy a schema.
//! - [`resolve`]: local `$ref`s and `allOf` merging; [`format`]: `format` checks.
//! - [`uri_template`]: RFC 6570 URI templates (resource templates), and the object schema
//!   their variables get as a form.
//!
//! Architecture invariant: this crate depends on nothing of mcp-lens (not even the protocol
//! layer) and on no browser API: schemas come from tools, elicitations, prompts and templates
//! alike, and the callers describe each as a JSON Schema.

pub mod draft;
pub mod example;
pub mod format;
pub mod model;
pub mod outline;
pub mod resolve;
pub mod uri_template;
pub mod validate;
pub mod value;

pub use draft::{draft_for, form_value, initial, Draft, Issue, Mode, Step};
pub use model::{option_label, Kind, Node};
pub use validate::{validate, NoPatterns, Patterns, Report};

use serde_json::{Map, Value};

/// Parses the raw-JSON editor's text into the value it holds. Tool arguments must be an
/// object; `object_only` says so.
pub fn parse_raw(text: &str, object_only: bool) -> Result<Value, String> {
    if text.trim().is_empty() {
        return Ok(Value::Object(Map::new()));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(value @ Value::Object(_)) => Ok(value),
        Ok(_) if object_only => {
            Err("The arguments must be a JSON object, like {\"name\": \"value\"}.".to_owned())
        }
        Ok(value) => Ok(value),
        Err(err) => Err(format!("This is not valid JSON: {err}.")),
    }
}

/// Everything wrong with a form's input: parse problems first (a field that could not be
/// read), then the schema's complaints about the value. Schema complaints at a path that
/// already has a parse problem are dropped (they would repeat it).
pub fn check_form(
    schema: &Value,
    node: &Node,
    draft: &Draft,
    patterns: &dyn Patterns,
) -> (Value, Vec<Issue>, Option<String>) {
    let (value, mut issues) = form_value(node, draft, Mode::Strict);
    let report = validate(schema, &value, patterns);
    let read_problems: Vec<String> = issues.iter().map(|i| i.path.clone()).collect();
    issues.extend(
        report
            .issues
            .into_iter()
            .filter(|found| !read_problems.contains(&found.path)),
    );
    (value, issues, report.incomplete)
}

#[cfg(test)]
mod tests;
