//! Building the tree from a schema: total and bounded. `$ref`s are followed (cycles and long
//! chains stop), `allOf` is merged, and past a depth or a node budget the rest is left
//! [`Lazy`], built when a person opens it.

use super::keywords::{
    annotations, apply_sibling_annotations, enum_kind, has_constraints, is_null_schema, json_node,
    leads_further, number_rules, strip_annotations, titled_consts, type_names, with_base,
};
use super::labels::variant_label;
use super::node::{
    ArrayNode, Choice, Kind, Lazy, Node, ObjectNode, Property, StringRules, Variant,
};
use crate::resolve::{merge_all_of, resolve, Target};
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

// Building a lazy node and expanding one live here, beside the builder, so that the types in
// `node.rs` need nothing of it.
impl Lazy {
    /// The node, built the first time it is asked for.
    pub fn node(&self) -> &Node {
        self.built.get_or_init(|| {
            let mut builder = Builder::new(&self.document);
            builder.node(&self.schema, 0)
        })
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
