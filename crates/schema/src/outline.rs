//! A readable text rendering of a form model: one line per field, indented by nesting.
//! The schema corpus in `tests/schemas/` keeps each schema's expected outline, so a change
//! in how any real-world schema becomes a form shows up as a diff.

use super::model::{Kind, Node};
use std::fmt::Write;

/// Lazy nodes are shown, not expanded (they are built when a person opens them).
pub fn outline(node: &Node) -> String {
    let mut out = String::new();
    line(&mut out, node, "(root)", false, 0);
    out
}

fn line(out: &mut String, node: &Node, name: &str, required: bool, depth: usize) {
    let indent = "  ".repeat(depth);
    let mark = if required { "*" } else { "" };
    let title = match &node.title {
        Some(title) if title != name => format!(" \"{title}\""),
        _ => String::new(),
    };
    let mut notes = Vec::new();
    if let Some(default) = &node.default {
        notes.push(format!("default={default}"));
    }
    if node.deprecated {
        notes.push("deprecated".into());
    }
    if node.read_only {
        notes.push("read-only".into());
    }
    let _ = write!(out, "{indent}{name}{mark}{title}: {}", describe(&node.kind));
    if !notes.is_empty() {
        let _ = write!(out, " [{}]", notes.join(", "));
    }
    out.push('\n');
    children(out, &node.kind, depth);
}

fn children(out: &mut String, kind: &Kind, depth: usize) {
    match kind {
        Kind::Object(object) => {
            for property in &object.properties {
                line(
                    out,
                    &property.node,
                    &property.name,
                    property.required,
                    depth + 1,
                );
            }
            if let (Some(extra), true) = (&object.extra, object.offer_extra) {
                line(out, extra, "(other keys)", false, depth + 1);
            }
        }
        Kind::Array(array) => {
            for (i, item) in array.prefix.iter().enumerate() {
                line(out, item, &format!("[{i}]"), true, depth + 1);
            }
            if let Some(items) = &array.items {
                line(out, items, "[]", false, depth + 1);
            }
        }
        Kind::Nullable(inner) => children(out, &inner.kind, depth),
        Kind::Variants(variants) => {
            for variant in variants {
                line(
                    out,
                    &variant.node,
                    &format!("<{}>", variant.label),
                    false,
                    depth + 1,
                );
            }
        }
        _ => {}
    }
}

fn describe(kind: &Kind) -> String {
    match kind {
        Kind::String(rules) => {
            let mut text = "string".to_owned();
            if let Some(format) = &rules.format {
                let _ = write!(text, " format={format}");
            }
            if let Some(pattern) = &rules.pattern {
                let _ = write!(text, " pattern={pattern}");
            }
            bounds(&mut text, "length", rules.min_length, rules.max_length);
            text
        }
        Kind::Number(rules) => {
            let mut text = if rules.integer { "integer" } else { "number" }.to_owned();
            for (symbol, _, value) in rules.bounds() {
                let _ = write!(text, " {symbol}{value}");
            }
            text
        }
        Kind::Boolean => "boolean".into(),
        Kind::Null => "null".into(),
        Kind::Const(value) => format!("const {value}"),
        Kind::Enum(choices) => format!("enum {}", choice_list(choices)),
        Kind::MultiEnum {
            choices,
            min_items,
            max_items,
            unique,
        } => {
            let mut text = format!("multi-select {}", choice_list(choices));
            bounds(&mut text, "items", *min_items, *max_items);
            if *unique {
                text.push_str(" unique");
            }
            text
        }
        Kind::Object(object) => {
            let mut text = "object".to_owned();
            match (&object.extra, object.offer_extra) {
                (None, _) => text.push_str(" closed"),
                (Some(_), true) => text.push_str(" +keys"),
                _ => {}
            }
            text
        }
        Kind::Array(array) => {
            let mut text = if array.prefix.is_empty() {
                "array"
            } else {
                "tuple"
            }
            .to_owned();
            bounds(&mut text, "items", array.min_items, array.max_items);
            if array.unique {
                text.push_str(" unique");
            }
            if array.items.is_none() {
                text.push_str(" no-more-items");
            }
            text
        }
        Kind::Nullable(inner) => format!("nullable {}", describe(&inner.kind)),
        Kind::Variants(variants) => format!("one of {}", variants.len()),
        Kind::Lazy(lazy) => format!("lazy ({})", lazy.reason),
        Kind::Json { reason: None } => "json".into(),
        Kind::Json { reason: Some(why) } => format!("json ({why})"),
    }
}

fn bounds(text: &mut String, what: &str, min: Option<u64>, max: Option<u64>) {
    match (min, max) {
        (None, None) => {}
        (min, max) => {
            let min = min.map_or(String::new(), |m| m.to_string());
            let max = max.map_or(String::new(), |m| m.to_string());
            let _ = write!(text, " {what}={min}..{max}");
        }
    }
}

fn choice_list(choices: &[super::model::Choice]) -> String {
    let shown: Vec<String> = choices
        .iter()
        .take(8)
        .map(|c| {
            let value = c.value.to_string();
            if c.label == super::model::option_label(&c.value) {
                value
            } else {
                format!("{value}=\"{}\"", c.label)
            }
        })
        .collect();
    let more = if choices.len() > 8 {
        format!(", … {} in all", choices.len())
    } else {
        String::new()
    };
    format!("[{}{more}]", shown.join(", "))
}
