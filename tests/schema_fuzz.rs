//! A mutation fuzzer for the schema layer, run for a bounded time in the test command.
//!
//! Not coverage-guided (cargo-fuzz needs a nightly toolchain and libFuzzer, which this
//! project's machines do not have): it starts from the real-world corpus in
//! `tests/schemas/`, mutates schemas and instances at random (replacing, duplicating and
//! deepening sub-trees, splicing in keywords and `$ref`s that point anywhere), and drives
//! every entry point a server's input reaches: form model, outline, drafts from values,
//! values from drafts in both modes, edits, validation, examples. A panic fails the test; so
//! does any single input taking more than a second.
//!
//! `MCP_LENS_FUZZ_SECONDS` (default 20) bounds the run; `MCP_LENS_FUZZ_SEED` replays one.
#![cfg(not(target_arch = "wasm32"))]

use mcp_lens::schema::draft::edit;
use mcp_lens::schema::{
    draft_for, example::valid_example, form_value, initial, outline::outline, validate, Draft,
    Kind, Mode, NoPatterns, Node, Step,
};
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};

/// xorshift64*: small, seedable, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn seeds() -> Vec<(Value, Vec<Value>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas");
    let mut seeds = Vec::new();
    for family in std::fs::read_dir(root).unwrap().flatten() {
        let Ok(files) = std::fs::read_dir(family.path()) else {
            continue;
        };
        for file in files.flatten() {
            if file.path().extension().is_none_or(|e| e != "json") {
                continue;
            }
            let entry: Value =
                serde_json::from_str(&std::fs::read_to_string(file.path()).unwrap()).unwrap();
            let mut instances: Vec<Value> = Vec::new();
            for key in ["valid", "invalid"] {
                instances.extend(entry[key].as_array().cloned().unwrap_or_default());
            }
            seeds.push((entry["schema"].clone(), instances));
        }
    }
    seeds.sort_by_key(|(schema, _)| schema.to_string());
    seeds
}

const KEYWORDS: [&str; 30] = [
    "type",
    "properties",
    "required",
    "items",
    "prefixItems",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "$ref",
    "$defs",
    "enum",
    "const",
    "default",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "additionalProperties",
    "patternProperties",
    "pattern",
    "format",
    "minLength",
    "enumNames",
    "if",
    "then",
    "dependentRequired",
];

fn random_leaf(rng: &mut Rng) -> Value {
    match rng.below(12) {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 0),
        2 => json!(rng.next() as i64),
        3 => json!(f64::from_bits(rng.next()).clamp(-1e300, 1e300)),
        4 => json!(
            ["string", "integer", "number", "object", "array", "null", "boolean"][rng.below(7)]
        ),
        5 => json!(
            [
                "#",
                "#/$defs/A",
                "#/properties",
                "#/definitions/x",
                "#/items/0",
                "http://x",
                "#anchor"
            ][rng.below(7)]
        ),
        6 => json!(["email", "date", "date-time", "uri", "time", "uuid", "regex"][rng.below(7)]),
        7 => json!(rng.below(5)),
        8 => json!({}),
        9 => json!([]),
        10 => json!(""),
        _ => json!("x".repeat(rng.below(40))),
    }
}

/// Every sub-tree's address, to pick one to mutate.
fn addresses(value: &Value, at: &mut Vec<Vec<String>>, path: &mut Vec<String>) {
    at.push(path.clone());
    if at.len() > 2000 {
        return;
    }
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                path.push(k.clone());
                addresses(v, at, path);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                path.push(i.to_string());
                addresses(v, at, path);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at_mut<'a>(value: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    path.iter().try_fold(value, |v, k| match v {
        Value::Object(map) => map.get_mut(k),
        Value::Array(items) => k.parse::<usize>().ok().and_then(|i| items.get_mut(i)),
        _ => None,
    })
}

fn depth(value: &Value) -> usize {
    match value {
        Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

fn mutate(value: &mut Value, donor: &Value, rng: &mut Rng) {
    let mut all = Vec::new();
    addresses(value, &mut all, &mut Vec::new());
    let target = all[rng.below(all.len())].clone();
    let mut donors = Vec::new();
    addresses(donor, &mut donors, &mut Vec::new());
    let piece = {
        let from = &donors[rng.below(donors.len())];
        let mut d = donor.clone();
        at_mut(&mut d, from).cloned().unwrap_or(Value::Null)
    };
    let Some(slot) = at_mut(value, &target) else {
        return;
    };
    match rng.below(7) {
        0 => *slot = random_leaf(rng),
        1 => *slot = piece,
        2 => *slot = json!({ KEYWORDS[rng.below(KEYWORDS.len())]: slot.take() }),
        3 => *slot = json!([slot.take(), random_leaf(rng)]),
        4 => {
            if let Value::Object(map) = slot {
                map.insert(
                    KEYWORDS[rng.below(KEYWORDS.len())].to_owned(),
                    random_leaf(rng),
                );
            }
        }
        5 => {
            if let Value::Object(map) = slot {
                map.insert("$ref".into(), random_leaf(rng));
                map.insert("$defs".into(), json!({"A": piece}));
            }
        }
        _ => {
            if let Value::Object(map) = slot {
                let keys: Vec<String> = map.keys().cloned().collect();
                if let Some(k) = keys.get(rng.below(keys.len())) {
                    map.remove(k);
                }
            }
        }
    }
}

/// Everything a server's schema and a person's input can reach.
fn drive(schema: &Value, instance: &Value) {
    let form = Node::from_schema(schema);
    let _ = outline(&form);
    let _ = validate(schema, instance, &NoPatterns);
    let _ = valid_example(schema, &form);
    for mode in [Mode::Strict, Mode::Lenient] {
        let mut draft = draft_for(&form, Some(instance), true);
        let _ = form_value(&form, &draft, mode);
        poke(&form, &mut draft, &[], 0);
        let (value, _) = form_value(&form, &draft, mode);
        let _ = validate(schema, &value, &NoPatterns);
        let again = draft_for(&form, Some(&value), true);
        let _ = form_value(&form, &again, mode);
    }
    let _ = form_value(&form, &initial(&form, true), Mode::Strict);
}

/// Presses the form's buttons: adds items and keys, switches variants, toggles null.
fn poke(node: &Node, draft: &mut Draft, path: &[Step], depth: usize) {
    if depth > 6 {
        return;
    }
    let node = node.expanded();
    let Some(here) = draft.at_mut(path) else {
        return;
    };
    match &node.kind {
        Kind::Array(_) => {
            edit::add_item(here, node);
        }
        Kind::Object(object) => {
            edit::add_entry(here, node);
            for (i, p) in object.properties.iter().enumerate().take(8) {
                let mut next = path.to_vec();
                next.push(Step::Prop(i));
                poke(&p.node, draft, &next, depth + 1);
            }
        }
        Kind::Variants(variants) => {
            for to in (0..variants.len()).rev().take(3) {
                if let Some(here) = draft.at_mut(path) {
                    edit::choose_variant(here, node, to);
                }
            }
        }
        Kind::Nullable(_) => edit::set_null(here, node, true),
        Kind::MultiEnum { .. } => edit::toggle_choice(here, 0, true),
        _ => *here = Draft::Text("12x".into()),
    }
}

#[test]
fn mutated_real_schemas_never_panic_and_stay_fast() {
    let seconds: u64 = std::env::var("MCP_LENS_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let seed: u64 = std::env::var("MCP_LENS_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
                | 1
        });
    let corpus = seeds();
    assert!(!corpus.is_empty());
    // Printed first: a stack overflow aborts the process before any assertion can speak.
    eprintln!("schema fuzz: seed {seed} (replay with MCP_LENS_FUZZ_SEED={seed})");
    // MCP_LENS_FUZZ_TRACE=<file>: each input is written there before it runs.
    let trace = std::env::var("MCP_LENS_FUZZ_TRACE").ok();
    let mut rng = Rng(seed);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let (mut runs, mut slowest) = (0u64, Duration::ZERO);
    while Instant::now() < deadline {
        let (schema, instances) = &corpus[rng.below(corpus.len())];
        let (donor, _) = &corpus[rng.below(corpus.len())];
        let mut schema = schema.clone();
        let mut instance = instances
            .get(rng.below(instances.len().max(1)))
            .cloned()
            .unwrap_or_else(|| json!({}));
        for _ in 0..1 + rng.below(4) {
            mutate(&mut schema, donor, &mut rng);
        }
        if rng.below(2) == 0 {
            mutate(&mut instance, donor, &mut rng);
        }
        // What a server can send: serde_json refuses JSON nested deeper than 128.
        if depth(&schema) > 120 || depth(&instance) > 120 {
            continue;
        }
        if let Some(file) = &trace {
            let _ = std::fs::write(file, format!("{schema}\n{instance}\n"));
        }
        let started = Instant::now();
        let replay =
            format!("MCP_LENS_FUZZ_SEED={seed}, run {runs}: schema {schema}, instance {instance}");
        let outcome = std::panic::catch_unwind(|| drive(&schema, &instance));
        let took = started.elapsed();
        assert!(outcome.is_ok(), "panicked: {replay}");
        assert!(took < Duration::from_secs(1), "took {took:?}: {replay}");
        slowest = slowest.max(took);
        runs += 1;
    }
    println!("schema fuzz: {runs} inputs in {seconds} s (seed {seed}), slowest {slowest:?}");
    assert!(runs > 100, "only {runs} inputs in {seconds} s");
}
