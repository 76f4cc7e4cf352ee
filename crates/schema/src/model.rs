//! JSON Schema -> a tree of form nodes: what input each part of the value gets.
//!
//! Building is total and bounded: any JSON gives a tree, `$ref` cycles and very deep or very
//! wide schemas become [`Kind::Lazy`] nodes (built when a person opens them), and whatever
//! a form cannot show becomes [`Kind::Json`] for that sub-tree only, with the reason.

use super::resolve::{merge_all_of, resolve, Target};
use serde_json::{Map, Value};
use std::sync::{Arc, OnceLock};

/// Nesting deeper than this is built lazily (a person opens it to see it).
const MAX_EAGER_DEPTH: usize = 24;
/// Composite nodes (objects, arrays, references, alternatives) built eagerly per build; past
/// it the rest are lazy. Bounds time and memory for
/// schemas whose `$ref`s fan out (a DAG of references can describe exponentially many paths).
const NODE_BUDGET: usize = 2000;
/// `$ref` chains (`A -> B -> C ...`) longer than this are refused.
const MAX_REF_CHAIN: usize = 32;

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
    document: Arc<Value>,
    schema: Value,
    /// Why it was not built with the rest, for the person ("recursive: Tree").
    pub reason: String,
    built: Arc<OnceLock<Node>>,
}

impl Lazy {
    /// The node, built the first time it is asked for.
    pub fn node(&self) -> &Node {
        self.built.get_or_init(|| {
            let mut builder = Builder::new(&self.document);
            builder.node(&self.schema, 0)
        })
    }

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
    /// The form for a whole schema document (a tool's `inputSchema`, an elicitation's
    /// `requestedSchema`).
    pub fn from_schema(document: &Value) -> Self {
        let document = Arc::new(document.clone());
        let mut builder = Builder::new(&document);
        builder.node(&document, 0)
    }

    /// The label a person sees: the title, else `fallback` (the property name).
    pub fn label_or(&self, fallback: &str) -> String {
        self.title.clone().unwrap_or_else(|| fallback.to_owned())
    }

    /// The node itself, or what a lazy node builds to. A schema that only refers to itself
    /// builds to another lazy node; after a few such steps this returns the lazy node, and
    /// callers treat it as plain JSON.
    pub fn expanded(&self) -> &Node {
        let mut node = self;
        for _ in 0..8 {
            match &node.kind {
                Kind::Lazy(lazy) => node = lazy.node(),
                _ => break,
            }
        }
        node
    }

    /// Whether expanding leads nowhere (a reference to itself and nothing else).
    pub fn is_bottomless(&self) -> bool {
        matches!(self.expanded().kind, Kind::Lazy(_))
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

struct Builder<'a> {
    document: &'a Arc<Value>,
    /// The `$ref`s being expanded on the current path: meeting one again is a cycle.
    refs: Vec<String>,
    budget: usize,
}

impl<'a> Builder<'a> {
    fn new(document: &'a Arc<Value>) -> Self {
        Self {
            document,
            refs: Vec::new(),
            budget: NODE_BUDGET,
        }
    }

    fn lazy(&self, schema: &Value, reason: String) -> Node {
        Node {
            kind: Kind::Lazy(Lazy {
                document: self.document.clone(),
                schema: schema.clone(),
                reason,
                built: Arc::new(OnceLock::new()),
            }),
            ..annotations(schema.as_object())
        }
    }

    fn node(&mut self, schema: &Value, depth: usize) -> Node {
        let map = match schema {
            Value::Object(map) => map,
            Value::Bool(true) => return json_node(None),
            Value::Bool(false) => return json_node(Some("The schema allows no value here.")),
            _ => return json_node(Some("The schema here is not a JSON Schema object.")),
        };
        if depth > MAX_EAGER_DEPTH {
            return self.lazy(schema, "nested deeply".into());
        }
        // Only schemas that lead to other schemas count: a flat list of thousands of scalar
        // properties is linear work; references and nesting are what can multiply.
        if leads_further(map) {
            if self.budget == 0 {
                return self.lazy(schema, "large schema: built when opened".into());
            }
            self.budget -= 1;
        }
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            return self.reference(map, reference, depth);
        }
        if let Some(parts) = map.get("allOf").and_then(Value::as_array) {
            let merged = self.merged(map, parts);
            return self.node(&Value::Object(merged), depth);
        }
        let mut node = annotations(Some(map));
        // A nullable wrapper carries the annotations; its inner node repeats none of them.
        node.kind = self.kind(map, depth);
        node
    }

    /// `allOf` parts (each resolved if it is a `$ref`) merged into one schema.
    fn merged(&mut self, map: &Map<String, Value>, parts: &[Value]) -> Map<String, Value> {
        let mut resolved = Vec::new();
        for part in parts.iter().take(64) {
            let mut part = part;
            for _ in 0..MAX_REF_CHAIN {
                let Some(reference) = part.get("$ref").and_then(Value::as_str) else {
                    break;
                };
                match resolve(self.document, reference) {
                    Target::Found(target) => part = target,
                    _ => break,
                }
            }
            if let Some(part) = part.as_object() {
                let mut part = part.clone();
                // A nested allOf inside a part: flatten one level.
                if let Some(inner) = part.remove("allOf").and_then(|v| match v {
                    Value::Array(items) => Some(items),
                    _ => None,
                }) {
                    for item in inner.iter().take(64) {
                        if let Some(item) = item.as_object() {
                            resolved.push(item.clone());
                        }
                    }
                }
                resolved.push(part);
            }
        }
        let refs: Vec<&Map<String, Value>> = resolved.iter().collect();
        merge_all_of(map, &refs)
    }

    fn reference(&mut self, map: &Map<String, Value>, reference: &str, depth: usize) -> Node {
        let target = match resolve(self.document, reference) {
            Target::Found(target) => target,
            Target::Remote => {
                return json_node(Some(&format!(
                    "The schema refers to another document ({reference}), which is never fetched."
                )))
            }
            Target::Missing => {
                return json_node(Some(&format!(
                    "The schema refers to {reference}, which it does not define."
                )))
            }
        };
        let name = reference.rsplit('/').next().unwrap_or(reference).to_owned();
        if self.refs.iter().any(|r| r == reference) {
            let mut node = self.lazy(target, format!("recursive: {name}"));
            apply_sibling_annotations(&mut node, map);
            return node;
        }
        if self.refs.len() >= MAX_REF_CHAIN {
            return json_node(Some("The schema's references nest too deeply to show."));
        }
        // Keywords beside `$ref` apply too (2020-12): merge them over the target.
        let siblings: Map<String, Value> = map
            .iter()
            .filter(|(k, _)| k.as_str() != "$ref")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        self.refs.push(reference.to_owned());
        let mut node = if has_constraints(&siblings) {
            let combined = Value::Object(Map::from_iter([(
                "allOf".to_owned(),
                Value::Array(vec![target.clone(), Value::Object(siblings.clone())]),
            )]));
            self.node(&combined, depth)
        } else {
            self.node(target, depth)
        };
        self.refs.pop();
        apply_sibling_annotations(&mut node, &siblings);
        node
    }

    fn kind(&mut self, map: &Map<String, Value>, depth: usize) -> Kind {
        if let Some(value) = map.get("const") {
            return Kind::Const(value.clone());
        }
        if let Some(values) = map.get("enum").and_then(Value::as_array) {
            return enum_kind(map, values);
        }
        for keyword in ["oneOf", "anyOf"] {
            if let Some(options) = map.get(keyword).and_then(Value::as_array) {
                return self.alternatives(options, &with_base(map, keyword, options), depth);
            }
        }
        let types = type_names(map);
        let non_null: Vec<&str> = types.iter().copied().filter(|t| *t != "null").collect();
        if types.len() > non_null.len() && !non_null.is_empty() {
            let mut inner_schema = map.clone();
            inner_schema.insert(
                "type".into(),
                match non_null.as_slice() {
                    [one] => Value::from(*one),
                    many => Value::Array(many.iter().map(|t| Value::from(*t)).collect()),
                },
            );
            strip_annotations(&mut inner_schema);
            let inner = self.kind(&inner_schema, depth);
            return Kind::Nullable(Box::new(Node {
                kind: inner,
                ..Node::default()
            }));
        }
        match non_null.as_slice() {
            [] if types.is_empty() => self.untyped(map, depth),
            [] => Kind::Null,
            [one] => self.typed(map, one, depth),
            many => Kind::Variants(
                many.iter()
                    .map(|name| Variant {
                        label: (*name).to_owned(),
                        node: Node {
                            kind: self.typed(map, name, depth),
                            ..Node::default()
                        },
                    })
                    .collect(),
            ),
        }
    }

    /// No `type`: infer it from the keywords that only make sense for one type.
    fn untyped(&mut self, map: &Map<String, Value>, depth: usize) -> Kind {
        let has = |keys: &[&str]| keys.iter().any(|k| map.contains_key(*k));
        if has(&[
            "properties",
            "additionalProperties",
            "patternProperties",
            "required",
        ]) {
            self.typed(map, "object", depth)
        } else if has(&[
            "items",
            "prefixItems",
            "minItems",
            "maxItems",
            "uniqueItems",
        ]) {
            self.typed(map, "array", depth)
        } else if has(&["minLength", "maxLength", "pattern", "format"]) {
            self.typed(map, "string", depth)
        } else if has(&[
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
        ]) {
            self.typed(map, "number", depth)
        } else {
            Kind::Json { reason: None }
        }
    }

    fn typed(&mut self, map: &Map<String, Value>, name: &str, depth: usize) -> Kind {
        match name {
            "string" => Kind::String(StringRules {
                format: map.get("format").and_then(Value::as_str).map(str::to_owned),
                pattern: map
                    .get("pattern")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                min_length: map.get("minLength").and_then(Value::as_u64),
                max_length: map.get("maxLength").and_then(Value::as_u64),
            }),
            "number" | "integer" => Kind::Number(number_rules(map, name == "integer")),
            "boolean" => Kind::Boolean,
            "null" => Kind::Null,
            "object" => Kind::Object(self.object(map, depth)),
            "array" => self.array(map, depth),
            other => Kind::Json {
                reason: Some(format!(
                    "The schema's type \"{other}\" is not a JSON Schema type."
                )),
            },
        }
    }

    fn object(&mut self, map: &Map<String, Value>, depth: usize) -> ObjectNode {
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let properties: Vec<Property> = map
            .get("properties")
            .and_then(Value::as_object)
            .map(|properties| {
                properties
                    .iter()
                    .map(|(name, schema)| Property {
                        name: name.clone(),
                        required: required.contains(&name.as_str()),
                        node: self.node(schema, depth + 1),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let patterns = map.get("patternProperties").and_then(Value::as_object);
        let additional = map.get("additionalProperties");
        let (extra, offer_extra) = match (additional, patterns) {
            (Some(Value::Bool(false)), None) => (None, false),
            (Some(schema @ Value::Object(_)), _) => (Some(self.node(schema, depth + 1)), true),
            (_, Some(patterns)) if patterns.len() == 1 => {
                let schema = patterns.values().next().unwrap_or(&Value::Bool(true));
                (Some(self.node(schema, depth + 1)), true)
            }
            (_, Some(_)) => (Some(json_node(None)), true),
            _ => (Some(json_node(None)), properties.is_empty()),
        };
        ObjectNode {
            properties,
            extra: extra.map(Box::new),
            offer_extra,
        }
    }

    fn array(&mut self, map: &Map<String, Value>, depth: usize) -> Kind {
        let min_items = map.get("minItems").and_then(Value::as_u64);
        let max_items = map.get("maxItems").and_then(Value::as_u64);
        let unique = map.get("uniqueItems").and_then(Value::as_bool) == Some(true);
        // draft-07 tuples: `items: [..]` with `additionalItems`.
        let (prefix_schemas, rest) = match (map.get("prefixItems"), map.get("items")) {
            (Some(Value::Array(prefix)), rest) => (prefix.as_slice(), rest),
            (None, Some(Value::Array(prefix))) => (prefix.as_slice(), map.get("additionalItems")),
            (_, rest) => (&[][..], rest),
        };
        if prefix_schemas.is_empty() {
            if let Some(choices) = rest.and_then(|items| self.item_choices(items)) {
                return Kind::MultiEnum {
                    choices,
                    min_items,
                    max_items,
                    unique,
                };
            }
        }
        let prefix = prefix_schemas
            .iter()
            .take(256)
            .map(|schema| self.node(schema, depth + 1))
            .collect();
        let items = match rest {
            Some(Value::Bool(false)) => None,
            Some(schema) => Some(Box::new(self.node(schema, depth + 1))),
            None => Some(Box::new(json_node(None))),
        };
        Kind::Array(ArrayNode {
            prefix,
            items,
            min_items,
            max_items,
            unique,
        })
    }

    /// Items that are a fixed set of values (`enum`, or `oneOf`/`anyOf` of `const`s).
    fn item_choices(&mut self, items: &Value) -> Option<Vec<Choice>> {
        let mut items = items;
        for _ in 0..MAX_REF_CHAIN {
            match items.get("$ref").and_then(Value::as_str) {
                Some(reference) => match resolve(self.document, reference) {
                    Target::Found(target) => items = target,
                    _ => return None,
                },
                None => break,
            }
        }
        let map = items.as_object()?;
        if let Some(values) = map.get("enum").and_then(Value::as_array) {
            return match enum_kind(map, values) {
                Kind::Enum(choices) => Some(choices),
                _ => None,
            };
        }
        ["oneOf", "anyOf"]
            .iter()
            .find_map(|k| map.get(*k).and_then(Value::as_array))
            .and_then(|options| titled_consts(options))
    }

    /// `original` are the options as written (for labels and null detection); `options`
    /// the same with any shared keywords merged in (what each variant's form shows).
    fn alternatives(&mut self, original: &[Value], options: &[Value], depth: usize) -> Kind {
        if let Some(choices) = titled_consts(original) {
            return Kind::Enum(choices);
        }
        let resolved: Vec<&Value> = original
            .iter()
            .take(256)
            .map(|option| self.follow(option))
            .collect();
        let (nulls, others): (Vec<usize>, Vec<usize>) =
            (0..resolved.len()).partition(|&i| is_null_schema(resolved[i]));
        let variants: Vec<Variant> = others
            .iter()
            .map(|&i| {
                let node = self.node(&options[i], depth + 1);
                Variant {
                    label: variant_label(&node, resolved[i], i),
                    node,
                }
            })
            .collect();
        let inner = match variants.len() {
            0 if !nulls.is_empty() => return Kind::Null,
            0 => {
                return Kind::Json {
                    reason: Some("The schema's list of alternatives is empty.".into()),
                }
            }
            1 => variants
                .into_iter()
                .next()
                .map(|v| v.node)
                .unwrap_or_default(),
            _ => Node {
                kind: Kind::Variants(variants),
                ..Node::default()
            },
        };
        if nulls.is_empty() {
            inner.kind
        } else {
            Kind::Nullable(Box::new(inner))
        }
    }

    /// A schema with its `$ref` chain followed (for looking at it, not building it).
    fn follow<'v>(&self, schema: &'v Value) -> &'v Value
    where
        'a: 'v,
    {
        let mut current = schema;
        for _ in 0..MAX_REF_CHAIN {
            match current.get("$ref").and_then(Value::as_str) {
                Some(reference) => match resolve(self.document, reference) {
                    Target::Found(target) => current = target,
                    _ => break,
                },
                None => break,
            }
        }
        current
    }
}

fn leads_further(map: &Map<String, Value>) -> bool {
    const KEYWORDS: [&str; 10] = [
        "$ref",
        "allOf",
        "anyOf",
        "oneOf",
        "properties",
        "items",
        "prefixItems",
        "additionalProperties",
        "patternProperties",
        "additionalItems",
    ];
    KEYWORDS.iter().any(|k| map.contains_key(*k))
}

/// Options of a `oneOf`/`anyOf` that sits beside structural keywords (shared `properties`,
/// `required`, `items`: "an object with these fields, and one of these extra rules") each get
/// those keywords merged in, so no variant loses the shared fields.
fn with_base(map: &Map<String, Value>, keyword: &str, options: &[Value]) -> Vec<Value> {
    let structural = [
        "properties",
        "required",
        "items",
        "prefixItems",
        "additionalProperties",
    ];
    if !structural.iter().any(|k| map.contains_key(*k)) {
        return options.to_vec();
    }
    let base: Map<String, Value> = map
        .iter()
        .filter(|(k, _)| {
            !matches!(
                k.as_str(),
                "oneOf"
                    | "anyOf"
                    | "title"
                    | "description"
                    | "default"
                    | "examples"
                    | "$defs"
                    | "definitions"
            ) && k.as_str() != keyword
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    options
        .iter()
        .map(|option| {
            Value::Object(Map::from_iter([(
                "allOf".to_owned(),
                Value::Array(vec![Value::Object(base.clone()), option.clone()]),
            )]))
        })
        .collect()
}

fn json_node(reason: Option<&str>) -> Node {
    Node {
        kind: Kind::Json {
            reason: reason.map(str::to_owned),
        },
        ..Node::default()
    }
}

fn annotations(map: Option<&Map<String, Value>>) -> Node {
    let Some(map) = map else {
        return Node::default();
    };
    let text = |key: &str| map.get(key).and_then(Value::as_str).map(str::to_owned);
    Node {
        title: text("title"),
        description: text("description"),
        default: map.get("default").cloned(),
        examples: match map.get("examples") {
            Some(Value::Array(items)) => items.iter().take(16).cloned().collect(),
            _ => Vec::new(),
        },
        deprecated: map.get("deprecated").and_then(Value::as_bool) == Some(true),
        read_only: map.get("readOnly").and_then(Value::as_bool) == Some(true),
        kind: Kind::default(),
    }
}

/// Annotations written next to a `$ref` win over the target's.
fn apply_sibling_annotations(node: &mut Node, siblings: &Map<String, Value>) {
    let own = annotations(Some(siblings));
    if own.title.is_some() {
        node.title = own.title;
    }
    if own.description.is_some() {
        node.description = own.description;
    }
    if own.default.is_some() {
        node.default = own.default;
    }
    if !own.examples.is_empty() {
        node.examples = own.examples;
    }
    node.deprecated |= own.deprecated;
    node.read_only |= own.read_only;
}

fn strip_annotations(map: &mut Map<String, Value>) {
    for key in [
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "readOnly",
    ] {
        map.remove(key);
    }
}

/// Whether keywords beside a `$ref` constrain the value (rather than only annotate it).
fn has_constraints(siblings: &Map<String, Value>) -> bool {
    const ANNOTATIONS: [&str; 9] = [
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$comment",
        "$schema",
    ];
    siblings.keys().any(|k| {
        !ANNOTATIONS.contains(&k.as_str()) && k != "$defs" && k != "definitions" && k != "$id"
    })
}

fn type_names(map: &Map<String, Value>) -> Vec<&str> {
    match map.get("type") {
        Some(Value::String(name)) => vec![name.as_str()],
        Some(Value::Array(names)) => {
            let mut seen: Vec<&str> = Vec::new();
            for name in names.iter().filter_map(Value::as_str) {
                if !seen.contains(&name) {
                    seen.push(name);
                }
            }
            seen
        }
        _ => Vec::new(),
    }
}

fn number_rules(map: &Map<String, Value>, integer: bool) -> NumberRules {
    let number = |key: &str| map.get(key).and_then(Value::as_f64);
    // draft-04 wrote exclusive bounds as booleans beside minimum/maximum.
    let exclusive = |key: &str, bound: &str| match map.get(key) {
        Some(Value::Bool(true)) => number(bound),
        other => other.and_then(Value::as_f64),
    };
    let old_style = |key: &str| map.get(key).and_then(Value::as_bool) == Some(true);
    NumberRules {
        integer,
        minimum: number("minimum").filter(|_| !old_style("exclusiveMinimum")),
        maximum: number("maximum").filter(|_| !old_style("exclusiveMaximum")),
        exclusive_minimum: exclusive("exclusiveMinimum", "minimum"),
        exclusive_maximum: exclusive("exclusiveMaximum", "maximum"),
        multiple_of: number("multipleOf").filter(|m| *m > 0.0),
    }
}

fn enum_kind(map: &Map<String, Value>, values: &[Value]) -> Kind {
    let names: Vec<Option<&str>> = match map.get("enumNames").and_then(Value::as_array) {
        Some(names) => names.iter().map(Value::as_str).collect(),
        None => Vec::new(),
    };
    let choices: Vec<Choice> = values
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.is_null())
        .map(|(i, value)| Choice {
            value: value.clone(),
            label: names
                .get(i)
                .copied()
                .flatten()
                .map(str::to_owned)
                .unwrap_or_else(|| option_label(value)),
        })
        .collect();
    let has_null = values.iter().any(Value::is_null);
    match (choices.is_empty(), has_null) {
        (true, true) => Kind::Null,
        (true, false) => Kind::Json {
            reason: Some("The schema's enum lists no values, so nothing is valid.".into()),
        },
        (false, true) => Kind::Nullable(Box::new(Node {
            kind: Kind::Enum(choices),
            ..Node::default()
        })),
        (false, false) => Kind::Enum(choices),
    }
}

/// `oneOf`/`anyOf` whose every option is `{const, title?}`: an enum with labels (SEP-1330).
fn titled_consts(options: &[Value]) -> Option<Vec<Choice>> {
    if options.is_empty() {
        return None;
    }
    options
        .iter()
        .map(|option| {
            let option = option.as_object()?;
            let value = option.get("const")?;
            let only_annotations = option.keys().all(|k| {
                matches!(
                    k.as_str(),
                    "const" | "title" | "description" | "type" | "$comment" | "deprecated"
                )
            });
            only_annotations.then(|| Choice {
                value: value.clone(),
                label: option
                    .get("title")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .unwrap_or_else(|| option_label(value)),
            })
        })
        .collect()
}

fn is_null_schema(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else {
        return false;
    };
    map.get("type").and_then(Value::as_str) == Some("null")
        || map.get("const").is_some_and(Value::is_null)
        || map
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|values| !values.is_empty() && values.iter().all(Value::is_null))
}

/// A variant's name: its title, the value of a `const` property (a discriminator, like
/// `kind: "circle"`), or its type.
fn variant_label(node: &Node, schema: &Value, index: usize) -> String {
    if let Some(title) = &node.title {
        return title.clone();
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        let discriminator = properties.iter().find_map(|(name, property)| {
            property
                .get("const")
                .or_else(|| {
                    property
                        .get("enum")
                        .and_then(Value::as_array)
                        .filter(|v| v.len() == 1)
                        .and_then(|v| v.first())
                })
                .map(|value| format!("{name}: {}", option_label(value)))
        });
        if let Some(label) = discriminator {
            return label;
        }
    }
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        return reference.rsplit('/').next().unwrap_or(reference).to_owned();
    }
    match &node.kind {
        Kind::Json { .. } => format!("option {}", index + 1),
        Kind::Object(object) if !object.properties.is_empty() => {
            let names: Vec<&str> = object
                .properties
                .iter()
                .take(4)
                .map(|p| p.name.as_str())
                .collect();
            let more = if object.properties.len() > 4 {
                ", …"
            } else {
                ""
            };
            format!("object: {}{more}", names.join(", "))
        }
        Kind::Const(value) => option_label(value),
        _ => node.type_hint(),
    }
}

/// How a JSON value is shown as a choice.
pub fn option_label(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}
