//! The JSON a draft means, and the issues of reading it: text is never rewritten, an
//! unparsable number stays as typed and is reported (or, leniently, travels as a string).

use super::build::initial;
use super::tree::{Draft, Issue, Mode};
use crate::model::{Kind, Node, ObjectNode};
use serde_json::{Map, Number, Value};

/// The whole form's value (an object for tool arguments) and what is wrong with the input.
pub fn form_value(node: &Node, draft: &Draft, mode: Mode) -> (Value, Vec<Issue>) {
    let mut issues = Vec::new();
    let mut path = String::new();
    let value = value_of(node, draft, mode, &mut path, &mut issues);
    let value = value.unwrap_or_else(|| match node.expanded().kind {
        Kind::Object(_) => Value::Object(Map::new()),
        _ => Value::Null,
    });
    (value, issues)
}

/// The JSON a draft means at `path` (a JSON pointer); `None` when nothing was entered.
pub fn value_of(
    node: &Node,
    draft: &Draft,
    mode: Mode,
    path: &mut String,
    issues: &mut Vec<Issue>,
) -> Option<Value> {
    let mut problem = |message: String, text: &str| -> Option<Value> {
        match mode {
            Mode::Strict => {
                issues.push(Issue {
                    path: path.clone(),
                    message,
                });
                None
            }
            Mode::Lenient => Some(Value::String(text.to_owned())),
        }
    };
    match (&node.kind, draft) {
        (_, Draft::Empty) => None,
        (_, Draft::Raw(text)) => match serde_json::from_str(text) {
            Ok(value) => Some(value),
            Err(err) => problem(format!("Not valid JSON: {err}."), text),
        },
        (Kind::Lazy(_), _) if node.is_bottomless() => {
            value_of(&Node::default(), draft, mode, path, issues)
        }
        (Kind::Lazy(_), _) => value_of(node.expanded(), draft, mode, path, issues),
        (Kind::String(_), Draft::Text(text)) if text.is_empty() => None,
        (Kind::String(_), Draft::Text(text)) => Some(Value::String(text.clone())),
        (Kind::Number(rules), Draft::Text(text)) => {
            let trimmed = text.trim();
            if trimmed.is_empty() {
                return None;
            }
            let parsed = if rules.integer {
                parse_integer(trimmed)
            } else {
                parse_number(trimmed).ok_or_else(|| "Enter a number.".to_owned())
            };
            match parsed {
                Ok(value) => Some(value),
                Err(message) => problem(message, text),
            }
        }
        (Kind::Json { .. }, Draft::Text(text)) if text.trim().is_empty() => None,
        (Kind::Json { .. }, Draft::Text(text)) => match serde_json::from_str(text) {
            Ok(value) => Some(value),
            Err(err) => problem(format!("Not valid JSON: {err}."), text),
        },
        (Kind::Boolean, Draft::Bool(b)) => Some(Value::Bool(*b)),
        (Kind::Null, Draft::Null) => Some(Value::Null),
        (Kind::Const(value), Draft::Bool(send)) => send.then(|| value.clone()),
        (Kind::Enum(choices), Draft::Choice(i)) => choices.get(*i).map(|c| c.value.clone()),
        // A large enum is searched by label: the typed label names the value.
        (Kind::Enum(choices), Draft::Text(text)) => match choices.iter().find(|c| &c.label == text)
        {
            Some(choice) => Some(choice.value.clone()),
            None => problem("Choose one of the listed values.".into(), text),
        },
        (Kind::MultiEnum { choices, .. }, Draft::Multi(indices)) => Some(Value::Array(
            indices
                .iter()
                .filter_map(|i| choices.get(*i).map(|c| c.value.clone()))
                .collect(),
        )),
        (
            Kind::Object(object),
            Draft::Object {
                props,
                extra,
                present,
            },
        ) => {
            // An optional object nobody touched (its fields still as the form started them,
            // defaults included) is omitted, not sent half-filled with defaults.
            if !*present && extra.is_empty() && untouched(object, props) {
                return None;
            }
            let mut map = Map::new();
            let mut missing = Vec::new();
            for (property, draft) in object.properties.iter().zip(props) {
                let mark = push_token(path, &property.name);
                let reported = issues.len();
                match value_of(&property.node, draft, mode, path, issues) {
                    Some(value) => {
                        map.insert(property.name.clone(), value);
                    }
                    // Entered but unreadable: that problem is already said; "Required" would repeat it.
                    None if property.required && issues.len() == reported => {
                        missing.push(path.clone())
                    }
                    None => {}
                }
                path.truncate(mark);
            }
            for entry in extra {
                let mark = push_token(path, &entry.key);
                let value = match &object.extra {
                    Some(node) => value_of(node, &entry.value, mode, path, issues),
                    None => value_of(&Node::default(), &entry.value, mode, path, issues),
                };
                let key_taken = map.contains_key(&entry.key);
                match (entry.key.is_empty(), value) {
                    (true, None) => {}
                    (true, Some(_)) if mode == Mode::Strict => issues.push(Issue {
                        path: path.clone(),
                        message: "This entry needs a key.".into(),
                    }),
                    (false, _) if key_taken && mode == Mode::Strict => issues.push(Issue {
                        path: path.clone(),
                        message: format!("The key \"{}\" is used twice.", entry.key),
                    }),
                    (_, value) => {
                        map.insert(entry.key.clone(), value.unwrap_or(Value::Null));
                    }
                }
                path.truncate(mark);
            }
            let sent = *present || !map.is_empty();
            if sent && mode == Mode::Strict {
                issues.extend(missing.into_iter().map(|path| Issue {
                    path,
                    message: "Required.".into(),
                }));
            }
            sent.then_some(Value::Object(map))
        }
        (Kind::Array(array), Draft::Array(items)) => {
            let mut values = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let mark = push_token(path, &i.to_string());
                let item_node = array.prefix.get(i).or(array.items.as_deref());
                let reported = issues.len();
                let value = match (item_node, &item.value) {
                    // An added string item left blank is the empty string.
                    (Some(node), Draft::Empty) if is_string(node) => {
                        Some(Value::String(String::new()))
                    }
                    (Some(node), Draft::Text(text)) if text.is_empty() && is_string(node) => {
                        Some(Value::String(String::new()))
                    }
                    (Some(node), draft) => value_of(node, draft, mode, path, issues),
                    (None, draft) => value_of(&Node::default(), draft, mode, path, issues),
                };
                match value {
                    Some(value) => values.push(value),
                    // Entered but unreadable: that problem is already said; "no value" would repeat it.
                    None if mode == Mode::Strict && issues.len() == reported => {
                        issues.push(Issue {
                            path: path.clone(),
                            message: "This item has no value.".into(),
                        })
                    }
                    None if mode == Mode::Strict => {}
                    None => values.push(Value::Null),
                }
                path.truncate(mark);
            }
            Some(Value::Array(values))
        }
        (Kind::Nullable(_), Draft::Nullable { is_null: true, .. }) => Some(Value::Null),
        (Kind::Nullable(inner), Draft::Nullable { inner: draft, .. }) => {
            value_of(inner, draft, mode, path, issues)
        }
        (Kind::Variants(variants), Draft::Variant { chosen, drafts }) => {
            match (variants.get(*chosen), drafts.get(*chosen)) {
                (Some(variant), Some(draft)) => value_of(&variant.node, draft, mode, path, issues),
                _ => None,
            }
        }
        // A draft of another shape (the schema changed under it): say so, keep nothing.
        (_, other) => problem(
            "This input does not match the schema any more.".into(),
            &other.text(),
        ),
    }
}

/// Whether every field of an object is still as the form started it (compared ignoring item
/// and entry ids, which differ between two drafts of the same default).
fn untouched(object: &ObjectNode, props: &[Draft]) -> bool {
    object.properties.iter().zip(props).all(|(p, draft)| {
        *draft == Draft::Empty || same_ignoring_ids(draft, &initial(&p.node, p.required))
    })
}

fn same_ignoring_ids(a: &Draft, b: &Draft) -> bool {
    match (a, b) {
        (
            Draft::Object {
                props: pa,
                extra: ea,
                present: xa,
            },
            Draft::Object {
                props: pb,
                extra: eb,
                present: xb,
            },
        ) => {
            xa == xb
                && pa.len() == pb.len()
                && ea.len() == eb.len()
                && pa.iter().zip(pb).all(|(a, b)| same_ignoring_ids(a, b))
                && ea
                    .iter()
                    .zip(eb)
                    .all(|(a, b)| a.key == b.key && same_ignoring_ids(&a.value, &b.value))
        }
        (Draft::Array(ia), Draft::Array(ib)) => {
            ia.len() == ib.len()
                && ia
                    .iter()
                    .zip(ib)
                    .all(|(a, b)| same_ignoring_ids(&a.value, &b.value))
        }
        (
            Draft::Nullable {
                is_null: na,
                inner: ia,
            },
            Draft::Nullable {
                is_null: nb,
                inner: ib,
            },
        ) => na == nb && same_ignoring_ids(ia, ib),
        (
            Draft::Variant {
                chosen: ca,
                drafts: da,
            },
            Draft::Variant {
                chosen: cb,
                drafts: db,
            },
        ) => {
            ca == cb
                && da.len() == db.len()
                && da.iter().zip(db).all(|(a, b)| same_ignoring_ids(a, b))
        }
        _ => a == b,
    }
}

fn is_string(node: &Node) -> bool {
    matches!(node.kind, Kind::String(_))
}

/// Appends `/token` (escaped as a JSON pointer) and returns the length to truncate back to.
fn push_token(path: &mut String, token: &str) -> usize {
    let mark = path.len();
    path.push('/');
    path.push_str(&token.replace('~', "~0").replace('/', "~1"));
    mark
}

/// A number as typed: integers stay integers, others become finite floats.
pub fn parse_number(text: &str) -> Option<Value> {
    if let Ok(integer) = text.parse::<i64>() {
        return Some(Value::from(integer));
    }
    if let Ok(integer) = text.parse::<u64>() {
        return Some(Value::from(integer));
    }
    let float = text.parse::<f64>().ok()?;
    Number::from_f64(float).map(Value::Number)
}

/// An integer as typed: `5`, `-3`, `5.0` and `1e3` are whole numbers and sent as integers;
/// anything outside the range JSON integers can carry here exactly is refused, never rounded.
fn parse_integer(text: &str) -> Result<Value, String> {
    if let Ok(integer) = text.parse::<i64>() {
        return Ok(Value::from(integer));
    }
    if let Ok(integer) = text.parse::<u64>() {
        return Ok(Value::from(integer));
    }
    let digits_only = text
        .trim_start_matches('-')
        .chars()
        .all(|c| c.is_ascii_digit());
    if digits_only && !text.trim_start_matches('-').is_empty() {
        return Err(
            "This whole number is too large to send exactly (the limit is 2^64 − 1).".into(),
        );
    }
    match text.parse::<f64>() {
        Ok(float) if float.is_finite() && float.fract() == 0.0 && float.abs() < 9.0e15 => {
            Ok(Value::from(float as i64))
        }
        Ok(float) if float.is_finite() && float.fract() == 0.0 => {
            Err("This whole number is too large to send exactly; type its digits.".into())
        }
        _ => Err("Enter a whole number.".into()),
    }
}
