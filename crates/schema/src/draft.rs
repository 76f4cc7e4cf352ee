//! What a person has entered in a form, kept apart from the JSON it means.
//!
//! A [`Draft`] mirrors a [`Node`] tree and holds exactly what the inputs show (text as typed,
//! which choice, which items). [`value_of`] turns it into JSON; [`draft_for`] turns JSON back
//! into a draft (raw mode -> form). Text is never rewritten: an unparsable number stays as
//! typed and is reported, and in [`Mode::Lenient`] it travels to raw JSON as a string, so
//! switching modes loses nothing.

use super::model::{Kind, Node};
use super::value::{fits, json_equal};
use serde_json::{Map, Number, Value};
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug, Clone, PartialEq)]
pub enum Draft {
    /// Nothing entered: an optional field is omitted.
    Empty,
    /// A string, a number as typed, or JSON text.
    Text(String),
    /// A boolean, or whether a `const` is sent.
    Bool(bool),
    /// The index of the chosen enum value.
    Choice(usize),
    /// The chosen values of a multi-select, as indices.
    Multi(Vec<usize>),
    /// `props` is parallel to the node's properties; `present` sends an empty object.
    Object {
        props: Vec<Draft>,
        extra: Vec<Entry>,
        present: bool,
    },
    Array(Vec<Item>),
    /// Null chosen (for a `null` type).
    Null,
    /// A nullable value: `is_null`, or the inner draft (kept while null is chosen).
    Nullable {
        is_null: bool,
        inner: Box<Draft>,
    },
    /// The chosen variant and one draft per variant (switching back restores it).
    Variant {
        chosen: usize,
        drafts: Vec<Draft>,
    },
    /// A value that does not fit the form here, edited as JSON text.
    Raw(String),
}

/// One key of an object beyond its declared properties.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: u64,
    pub key: String,
    pub value: Draft,
}

/// One array item; the id keeps its inputs attached to it when items move.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub id: u64,
    pub value: Draft,
}

/// A step from a draft to one of its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    Prop(usize),
    Entry(u64),
    Item(u64),
    Variant(usize),
    /// The value inside a nullable.
    Inner,
}

/// Something wrong with a value, at a JSON pointer into it (`""` is the whole value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    pub path: String,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Unparsable input is an issue and gives no value.
    Strict,
    /// Unparsable input is kept as a JSON string (for raw mode; nothing is lost).
    Lenient,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A fresh id for an item or entry.
pub fn new_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

impl Draft {
    pub fn at(&self, path: &[Step]) -> Option<&Draft> {
        let Some((step, rest)) = path.split_first() else {
            return Some(self);
        };
        let next = match (self, step) {
            (Draft::Object { props, .. }, Step::Prop(i)) => props.get(*i),
            (Draft::Object { extra, .. }, Step::Entry(id)) => {
                extra.iter().find(|e| e.id == *id).map(|e| &e.value)
            }
            (Draft::Array(items), Step::Item(id)) => {
                items.iter().find(|i| i.id == *id).map(|i| &i.value)
            }
            (Draft::Variant { drafts, .. }, Step::Variant(i)) => drafts.get(*i),
            (Draft::Nullable { inner, .. }, Step::Inner) => Some(inner.as_ref()),
            _ => None,
        };
        next?.at(rest)
    }

    pub fn at_mut(&mut self, path: &[Step]) -> Option<&mut Draft> {
        let Some((step, rest)) = path.split_first() else {
            return Some(self);
        };
        let next = match (self, step) {
            (Draft::Object { props, present, .. }, Step::Prop(i)) => {
                *present = true;
                props.get_mut(*i)
            }
            (Draft::Object { extra, present, .. }, Step::Entry(id)) => {
                *present = true;
                extra.iter_mut().find(|e| e.id == *id).map(|e| &mut e.value)
            }
            (Draft::Array(items), Step::Item(id)) => {
                items.iter_mut().find(|i| i.id == *id).map(|i| &mut i.value)
            }
            (Draft::Variant { drafts, .. }, Step::Variant(i)) => drafts.get_mut(*i),
            (Draft::Nullable { inner, .. }, Step::Inner) => Some(inner.as_mut()),
            _ => None,
        };
        next?.at_mut(rest)
    }

    /// The text an input shows.
    pub fn text(&self) -> String {
        match self {
            Draft::Text(text) | Draft::Raw(text) => text.clone(),
            _ => String::new(),
        }
    }

    /// The ids of an array's items, in order.
    pub fn item_ids(&self) -> Vec<u64> {
        match self {
            Draft::Array(items) => items.iter().map(|i| i.id).collect(),
            _ => Vec::new(),
        }
    }

    /// The ids of an object's extra entries, in order.
    pub fn entry_ids(&self) -> Vec<u64> {
        match self {
            Draft::Object { extra, .. } => extra.iter().map(|e| e.id).collect(),
            _ => Vec::new(),
        }
    }
}

/// Drafts nest no deeper than this, and building one takes at most [`DRAFT_BUDGET`] steps (a
/// lazy part built on the way costs [`EXPANSION_COST`]): a default that contains a recursive
/// part would otherwise unfold without end, each level's default filling the next. Past the
/// budget, what is left is kept as JSON text (from a value) or left empty (from defaults).
const MAX_DRAFT_DEPTH: usize = 64;
const DRAFT_BUDGET: usize = 100_000;
const EXPANSION_COST: usize = 1_000;

/// The draft a field starts with: see [`initial_at`].
pub fn initial(node: &Node, required: bool) -> Draft {
    initial_at(node, required, 0, &mut DRAFT_BUDGET.clone())
}

/// The draft that shows `value`: see [`draft_at`].
pub fn draft_for(node: &Node, value: Option<&Value>, required: bool) -> Draft {
    draft_at(node, value, required, 0, &mut DRAFT_BUDGET.clone())
}

/// The draft a field starts with: the schema's default (unless null), else empty (a required boolean
/// starts false, a required `const` is sent, objects start with their fields' defaults, a
/// required tuple with its slots).
fn initial_at(node: &Node, required: bool, depth: usize, budget: &mut usize) -> Draft {
    if depth > MAX_DRAFT_DEPTH || *budget == 0 {
        return Draft::Empty;
    }
    *budget -= 1;
    // A `null` default (pydantic's `Optional[X] = None`) is what omitting means: the form
    // starts empty rather than sending null nobody chose.
    if let Some(default) = node.default.as_ref().filter(|d| !d.is_null()) {
        return draft_at(node, Some(default), required, depth + 1, budget);
    }
    match &node.kind {
        Kind::Boolean if required => Draft::Bool(false),
        Kind::Const(_) => Draft::Bool(required),
        Kind::Object(object) => Draft::Object {
            props: object
                .properties
                .iter()
                .map(|p| initial_at(&p.node, p.required, depth + 1, budget))
                .collect(),
            extra: Vec::new(),
            present: required,
        },
        // A required tuple starts with one item per slot (`prefixItems`): its inputs show at
        // once; other arrays start with no items.
        Kind::Array(array) if required => Draft::Array(
            array
                .prefix
                .iter()
                .map(|slot| Item {
                    id: new_id(),
                    value: initial_at(slot, true, depth + 1, budget),
                })
                .collect(),
        ),
        Kind::Nullable(inner) => Draft::Nullable {
            is_null: false,
            inner: Box::new(initial_at(inner, required, depth + 1, budget)),
        },
        // Only the chosen variant's draft is built; the others when they are chosen
        // (variants within variants would otherwise multiply).
        Kind::Variants(variants) => Draft::Variant {
            chosen: 0,
            drafts: variants
                .iter()
                .enumerate()
                .map(|(i, v)| match i {
                    0 => initial_at(&v.node, required, depth + 1, budget),
                    _ => Draft::Empty,
                })
                .collect(),
        },
        _ => Draft::Empty,
    }
}

/// The draft that shows `value` (or the initial draft when there is none). A value that does
/// not fit the node becomes [`Draft::Raw`], so it survives.
fn draft_at(
    node: &Node,
    value: Option<&Value>,
    required: bool,
    depth: usize,
    budget: &mut usize,
) -> Draft {
    let Some(value) = value else {
        return initial_at(
            &Node {
                default: None,
                ..node.clone()
            },
            required,
            depth + 1,
            budget,
        );
    };
    let raw = || Draft::Raw(serde_json::to_string_pretty(value).unwrap_or_default());
    if depth > MAX_DRAFT_DEPTH || *budget == 0 {
        return raw();
    }
    *budget -= 1;
    match (&node.kind, value) {
        (Kind::Lazy(_), _) if node.is_bottomless() => raw(),
        (Kind::Lazy(_), _) if *budget < EXPANSION_COST => raw(),
        (Kind::Lazy(_), _) => {
            *budget -= EXPANSION_COST;
            draft_at(node.expanded(), Some(value), required, depth + 1, budget)
        }
        // An empty string would read as "not entered": keep it visible as JSON.
        (Kind::String(_), Value::String(text)) if text.is_empty() => raw(),
        (Kind::String(_), Value::String(text)) => Draft::Text(text.clone()),
        (Kind::Number(_), Value::Number(number)) => Draft::Text(number.to_string()),
        // A number typed wrongly comes back from raw mode as a string: show it as typed.
        (Kind::Number(_), Value::String(text)) if !text.trim().is_empty() => {
            Draft::Text(text.clone())
        }
        (Kind::Boolean, Value::Bool(b)) => Draft::Bool(*b),
        (Kind::Null, Value::Null) => Draft::Null,
        (Kind::Const(expected), _) if json_equal(expected, value) => Draft::Bool(true),
        (Kind::Enum(choices), _) => choices
            .iter()
            .position(|c| json_equal(&c.value, value))
            .map_or_else(raw, Draft::Choice),
        (Kind::MultiEnum { choices, .. }, Value::Array(values)) => {
            let indices: Option<Vec<usize>> = values
                .iter()
                .map(|v| choices.iter().position(|c| json_equal(&c.value, v)))
                .collect();
            indices.map_or_else(raw, Draft::Multi)
        }
        (Kind::Object(object), Value::Object(map)) => Draft::Object {
            props: object
                .properties
                .iter()
                .map(|p| match map.get(&p.name) {
                    Some(v) => draft_at(&p.node, Some(v), p.required, depth + 1, budget),
                    None => initial_at(
                        &Node {
                            default: None,
                            ..p.node.clone()
                        },
                        p.required,
                        depth + 1,
                        budget,
                    ),
                })
                .collect(),
            extra: map
                .iter()
                .filter(|(key, _)| !object.properties.iter().any(|p| &p.name == *key))
                .map(|(key, v)| Entry {
                    id: new_id(),
                    key: key.clone(),
                    value: match &object.extra {
                        Some(extra) => draft_at(extra, Some(v), true, depth + 1, budget),
                        None => Draft::Raw(serde_json::to_string_pretty(v).unwrap_or_default()),
                    },
                })
                .collect(),
            present: true,
        },
        (Kind::Array(array), Value::Array(values)) => {
            let fits_length = array.items.is_some() || values.len() <= array.prefix.len();
            if !fits_length {
                return raw();
            }
            Draft::Array(
                values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| Item {
                        id: new_id(),
                        value: match array.prefix.get(i).or(array.items.as_deref()) {
                            Some(item) => draft_at(item, Some(v), true, depth + 1, budget),
                            None => Draft::Raw(v.to_string()),
                        },
                    })
                    .collect(),
            )
        }
        (Kind::Nullable(inner), Value::Null) => Draft::Nullable {
            is_null: true,
            inner: Box::new(initial_at(inner, required, depth + 1, budget)),
        },
        (Kind::Nullable(inner), _) => Draft::Nullable {
            is_null: false,
            inner: Box::new(draft_at(inner, Some(value), required, depth + 1, budget)),
        },
        (Kind::Variants(variants), _) => {
            let chosen = variants
                .iter()
                .position(|v| fits(&v.node, value))
                .unwrap_or(0);
            Draft::Variant {
                chosen,
                drafts: variants
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        if i == chosen {
                            draft_at(&v.node, Some(value), required, depth + 1, budget)
                        } else {
                            Draft::Empty
                        }
                    })
                    .collect(),
            }
        }
        (Kind::Json { .. }, _) => {
            Draft::Text(serde_json::to_string_pretty(value).unwrap_or_default())
        }
        _ => raw(),
    }
}

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
fn untouched(object: &super::model::ObjectNode, props: &[Draft]) -> bool {
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

/// Operations on a draft that change its shape, for the form's buttons.
pub mod edit {
    use super::*;

    /// Adds an item to the array at `path` (creating the array if it was empty). The item
    /// starts ready to fill: a lazy (recursive) item is built one level, so its fields show.
    pub fn add_item(draft: &mut Draft, node: &Node) -> Option<u64> {
        let Kind::Array(array) = &node.expanded().kind else {
            return None;
        };
        if matches!(draft, Draft::Empty) {
            *draft = Draft::Array(Vec::new());
        }
        let Draft::Array(items) = draft else {
            return None;
        };
        let item_node = array.prefix.get(items.len()).or(array.items.as_deref())?;
        let start = match &item_node.kind {
            Kind::Lazy(_) if item_node.default.is_none() => item_node.expanded(),
            _ => item_node,
        };
        let id = new_id();
        items.push(Item {
            id,
            value: initial(start, true),
        });
        Some(id)
    }

    pub fn remove_item(draft: &mut Draft, id: u64) {
        if let Draft::Array(items) = draft {
            items.retain(|i| i.id != id);
        }
    }

    /// Moves an item one place up (`-1`) or down (`1`).
    pub fn move_item(draft: &mut Draft, id: u64, by: isize) {
        if let Draft::Array(items) = draft {
            if let Some(from) = items.iter().position(|i| i.id == id) {
                let to = from as isize + by;
                if to >= 0 && (to as usize) < items.len() {
                    items.swap(from, to as usize);
                }
            }
        }
    }

    pub fn add_entry(draft: &mut Draft, node: &Node) -> Option<u64> {
        let Kind::Object(object) = &node.expanded().kind else {
            return None;
        };
        if matches!(draft, Draft::Empty) {
            *draft = initial(node.expanded(), true);
        }
        let Draft::Object { extra, present, .. } = draft else {
            return None;
        };
        let id = new_id();
        let value = object
            .extra
            .as_deref()
            .map_or(Draft::Empty, |n| initial(n, true));
        extra.push(Entry {
            id,
            key: String::new(),
            value,
        });
        *present = true;
        Some(id)
    }

    pub fn remove_entry(draft: &mut Draft, id: u64) {
        if let Draft::Object { extra, .. } = draft {
            extra.retain(|e| e.id != id);
        }
    }

    pub fn set_entry_key(draft: &mut Draft, id: u64, key: String) {
        if let Draft::Object { extra, .. } = draft {
            if let Some(entry) = extra.iter_mut().find(|e| e.id == id) {
                entry.key = key;
            }
        }
    }

    /// Chooses variant `to`. When that variant has nothing entered yet, what was entered in
    /// the previous one is carried over where it fits (same-named properties, a compatible
    /// scalar); the previous variant's draft stays, so switching back restores it.
    pub fn choose_variant(draft: &mut Draft, node: &Node, to: usize) {
        let Kind::Variants(variants) = &node.expanded().kind else {
            return;
        };
        let Draft::Variant { chosen, drafts } = draft else {
            return;
        };
        let (Some(from_variant), Some(to_variant)) = (variants.get(*chosen), variants.get(to))
        else {
            return;
        };
        let untouched = drafts.get(to).is_none_or(|d| {
            *d == Draft::Empty
                || *d == initial(&to_variant.node, true)
                || *d == initial(&to_variant.node, false)
        });
        if untouched {
            let mut ignored = Vec::new();
            let previous = drafts.get(*chosen).and_then(|d| {
                value_of(
                    &from_variant.node,
                    d,
                    Mode::Lenient,
                    &mut String::new(),
                    &mut ignored,
                )
            });
            if let Some(slot) = drafts.get_mut(to) {
                *slot = match previous.and_then(|v| carry(&to_variant.node, v)) {
                    Some(carried) => draft_for(&to_variant.node, Some(&carried), true),
                    None => initial(&to_variant.node, true),
                };
            }
        }
        *chosen = to;
    }

    /// The part of `value` that fits `node`: an object keeps only the properties the node
    /// declares (a discriminator `const` takes the node's own value); a scalar is kept if it
    /// fits.
    fn carry(node: &Node, value: Value) -> Option<Value> {
        match (&node.expanded().kind, value) {
            (Kind::Object(object), Value::Object(map)) => {
                let kept: Map<String, Value> = object
                    .properties
                    .iter()
                    .filter_map(|p| match &p.node.kind {
                        Kind::Const(c) => Some((p.name.clone(), c.clone())),
                        _ => map
                            .get(&p.name)
                            .filter(|v| fits(&p.node, v))
                            .map(|v| (p.name.clone(), v.clone())),
                    })
                    .collect();
                Some(Value::Object(kept))
            }
            (_, value) => fits(node, &value).then_some(value),
        }
    }

    /// Sets a nullable's null choice.
    pub fn set_null(draft: &mut Draft, node: &Node, null: bool) {
        match draft {
            Draft::Nullable { is_null, .. } => *is_null = null,
            _ => {
                if let Kind::Nullable(inner) = &node.expanded().kind {
                    *draft = Draft::Nullable {
                        is_null: null,
                        inner: Box::new(initial(inner, true)),
                    };
                }
            }
        }
    }

    /// Toggles one choice of a multi-select, keeping the schema's order.
    pub fn toggle_choice(draft: &mut Draft, index: usize, on: bool) {
        let mut chosen = match draft {
            Draft::Multi(chosen) => std::mem::take(chosen),
            _ => Vec::new(),
        };
        chosen.retain(|i| *i != index);
        if on {
            chosen.push(index);
            chosen.sort_unstable();
        }
        *draft = Draft::Multi(chosen);
    }
}
