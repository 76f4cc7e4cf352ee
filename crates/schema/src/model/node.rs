//! The form tree's types: what input each part of a value gets, and how a node describes
//! itself to a person (its label, its type, its rules in words).

use serde_json::Value;
use std::sync::{Arc, OnceLock};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Node {
    pub title: Option<String>,
    pub description: Option<String>,
    pub default: Option<Value>,
    pub examples: Vec<Value>,
    pub deprecated: bool,
    pub read_only: bool,
    pub kind: Kind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    String(StringRules),
    /// `number` or `integer`; integers are parsed and sent as JSON integers.
    Number(NumberRules),
    Boolean,
    /// `type: "null"`: the only value is null.
    Null,
    /// One fixed value.
    Const(Value),
    /// One of fixed values (any JSON), each with a label.
    Enum(Vec<Choice>),
    /// An array whose items are choices: a multi-select.
    MultiEnum {
        choices: Vec<Choice>,
        min_items: Option<u64>,
        max_items: Option<u64>,
        unique: bool,
    },
    Object(ObjectNode),
    Array(ArrayNode),
    /// `type: [X, "null"]` or `anyOf: [X, {type: null}]`: X's input plus an explicit null.
    Nullable(Box<Node>),
    /// `oneOf` / `anyOf` / several types: a picker and the chosen variant's form.
    Variants(Vec<Variant>),
    /// A part built when opened (recursion, depth, size).
    Lazy(Lazy),
    /// Edited as JSON text; `reason` says why when the schema asked for more than any value.
    Json {
        reason: Option<String>,
    },
}

impl Default for Kind {
    fn default() -> Self {
        Kind::Json { reason: None }
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct StringRules {
    pub format: Option<String>,
    pub pattern: Option<String>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct NumberRules {
    pub integer: bool,
    pub minimum: Option<f64>,
    pub maximum: Option<f64>,
    pub exclusive_minimum: Option<f64>,
    pub exclusive_maximum: Option<f64>,
    pub multiple_of: Option<f64>,
}

impl NumberRules {
    /// Each bound the rules set, as (symbol, words, value): `(">=", "at least", 0.0)`.
    pub fn bounds(&self) -> impl Iterator<Item = (&'static str, &'static str, f64)> {
        [
            (">=", "at least", self.minimum),
            (">", "more than", self.exclusive_minimum),
            ("<=", "at most", self.maximum),
            ("<", "less than", self.exclusive_maximum),
            ("multipleOf=", "a multiple of", self.multiple_of),
        ]
        .into_iter()
        .filter_map(|(symbol, words, value)| value.map(|v| (symbol, words, v)))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub value: Value,
    pub label: String,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ObjectNode {
    /// In the order the server gave them.
    pub properties: Vec<Property>,
    /// The schema of keys beyond `properties` (`additionalProperties`, `patternProperties`);
    /// `None` when the schema forbids them.
    pub extra: Option<Box<Node>>,
    /// Whether the form offers a key-value editor (the schema describes extra keys, or the
    /// object has no declared properties at all). Extra keys that arrive from raw JSON are
    /// kept and shown either way.
    pub offer_extra: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    pub name: String,
    pub required: bool,
    pub node: Node,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ArrayNode {
    /// `prefixItems` (or draft-07's array-form `items`): one node per position.
    pub prefix: Vec<Node>,
    /// Items after the prefix; `None` when the schema allows none (`items: false`).
    pub items: Option<Box<Node>>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub unique: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    pub label: String,
    pub node: Node,
}

/// A sub-schema built on demand. Cloning shares the built node.
#[derive(Clone)]
pub struct Lazy {
    pub(super) document: Arc<Value>,
    pub(super) schema: Value,
    /// Why it was not built with the rest, for the person ("recursive: Tree").
    pub reason: String,
    pub(super) built: Arc<OnceLock<Node>>,
}

impl Lazy {
    pub fn schema(&self) -> &Value {
        &self.schema
    }
}

impl PartialEq for Lazy {
    fn eq(&self, other: &Self) -> bool {
        self.schema == other.schema && self.reason == other.reason
    }
}

impl std::fmt::Debug for Lazy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lazy({})", self.reason)
    }
}

impl Node {
    /// The label a person sees: the title, else `fallback` (the property name).
    pub fn label_or(&self, fallback: &str) -> String {
        self.title.clone().unwrap_or_else(|| fallback.to_owned())
    }

    /// The rules a value must meet, in words, shown under the input ("2 to 50 characters;
    /// matches ^[a-z]+$"). Empty when there are none worth saying.
    pub fn rules_hint(&self) -> String {
        let range = |what: &str, min: Option<u64>, max: Option<u64>| {
            let noun = |n: u64| {
                if n == 1 {
                    what.trim_end_matches('s')
                } else {
                    what
                }
            };
            match (min, max) {
                (Some(min), Some(max)) if min == max => {
                    Some(format!("exactly {min} {}", noun(min)))
                }
                (Some(min), Some(max)) => Some(format!("{min} to {max} {what}")),
                (Some(min), None) if min > 0 => Some(format!("at least {min} {}", noun(min))),
                (None, Some(max)) => Some(format!("at most {max} {}", noun(max))),
                _ => None,
            }
        };
        let mut rules: Vec<String> = Vec::new();
        match &self.kind {
            Kind::String(r) => {
                rules.extend(range("characters", r.min_length, r.max_length));
                rules.extend(r.pattern.as_ref().map(|p| format!("matches {p}")));
            }
            Kind::Number(r) => {
                rules.extend(r.bounds().map(|(_, words, b)| format!("{words} {b}")));
            }
            Kind::MultiEnum {
                min_items,
                max_items,
                ..
            } => {
                rules.extend(range("choices", *min_items, *max_items));
            }
            Kind::Array(a) => {
                rules.extend(range("items", a.min_items, a.max_items));
                if a.unique {
                    rules.push("no duplicates".into());
                }
            }
            Kind::Nullable(inner) => return inner.rules_hint(),
            _ => {}
        }
        rules.join("; ")
    }

    /// A short name of the kind of value, shown next to the label.
    pub fn type_hint(&self) -> String {
        match &self.kind {
            Kind::String(rules) => rules.format.clone().unwrap_or_else(|| "string".into()),
            Kind::Number(rules) if rules.integer => "integer".into(),
            Kind::Number(_) => "number".into(),
            Kind::Boolean => "boolean".into(),
            Kind::Null => "null".into(),
            Kind::Const(_) => "const".into(),
            Kind::Enum(_) => "enum".into(),
            Kind::MultiEnum { .. } => "choices".into(),
            Kind::Object(_) => "object".into(),
            Kind::Array(_) => "array".into(),
            Kind::Nullable(inner) => format!("{} or null", inner.type_hint()),
            Kind::Variants(_) => "one of".into(),
            Kind::Lazy(_) => "object".into(),
            Kind::Json { .. } => "JSON".into(),
        }
    }
}
