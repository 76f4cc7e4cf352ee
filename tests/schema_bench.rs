//! Benchmark of the schema layer (prints numbers; not a timed test). Run by
//! `node scripts/bench-forms.mjs`, or directly:
//! `cargo test --release --test schema_bench -- --ignored --nocapture`.
#![cfg(not(target_arch = "wasm32"))]

use mcp_lens::schema::{draft_for, form_value, initial, validate, Mode, NoPatterns, Node};
use serde_json::{json, Map, Value};
use std::time::{Duration, Instant};

/// 500 properties in the shapes real servers send: scalars with formats and bounds, enums,
/// nullables, nested objects, arrays of objects, variants.
fn wide_schema() -> Value {
    let mut properties = Map::new();
    for i in 0..500 {
        let schema = match i % 10 {
            0 => json!({"type": "string", "description": "a name", "minLength": 1}),
            1 => json!({"type": "integer", "minimum": 0, "maximum": 1000, "default": 3}),
            2 => json!({"type": "number", "multipleOf": 0.25}),
            3 => json!({"type": "boolean", "default": false}),
            4 => json!({"type": "string", "enum": ["a", "b", "c", "d"]}),
            5 => {
                json!({"anyOf": [{"type": "string", "format": "email"}, {"type": "null"}], "default": null})
            }
            6 => {
                json!({"type": "object", "properties": {"street": {"type": "string"}, "zip": {"type": "string", "pattern": "^[0-9]{5}$"}}, "required": ["street"]})
            }
            7 => {
                json!({"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "string"}, "qty": {"type": "integer"}}}})
            }
            8 => {
                json!({"oneOf": [{"title": "A", "type": "object", "properties": {"kind": {"const": "a"}}}, {"title": "B", "type": "object", "properties": {"kind": {"const": "b"}, "n": {"type": "number"}}}]})
            }
            _ => json!({"type": "string", "format": "date-time"}),
        };
        properties.insert(format!("p{i:03}"), schema);
    }
    json!({"type": "object", "properties": properties, "required": ["p000", "p001"]})
}

fn filled_value() -> Value {
    let mut value = Map::new();
    for i in 0..500 {
        let v = match i % 10 {
            0 => json!("Ada"),
            1 => json!(7),
            2 => json!(1.25),
            3 => json!(true),
            4 => json!("c"),
            5 => json!("ada@example.com"),
            6 => json!({"street": "1 Main", "zip": "12345"}),
            7 => json!([{"sku": "A", "qty": 2}, {"sku": "B", "qty": 1}]),
            8 => json!({"kind": "b", "n": 2.5}),
            _ => json!("2026-11-30T09:00:00Z"),
        };
        value.insert(format!("p{i:03}"), v);
    }
    Value::Object(value)
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    let samples = (0..runs)
        .map(|_| {
            let started = Instant::now();
            std::hint::black_box(f());
            started.elapsed()
        })
        .collect();
    median(samples)
}

#[test]
#[ignore = "a benchmark: run with --ignored --nocapture, in release"]
fn schema_layer_speed() {
    let schema = wide_schema();
    let value = filled_value();
    let bytes = schema.to_string().len();
    let node = Node::from_schema(&schema);
    let runs = 50;
    let build = time(runs, || Node::from_schema(&schema));
    let start = time(runs, || initial(&node, true));
    let draft = draft_for(&node, Some(&value), true);
    let to_form = time(runs, || draft_for(&node, Some(&value), true));
    let to_value = time(runs, || form_value(&node, &draft, Mode::Strict));
    let check = time(runs, || validate(&schema, &value, &NoPatterns));
    assert!(validate(&schema, &value, &NoPatterns).is_valid());
    assert_eq!(form_value(&node, &draft, Mode::Strict).0, value);
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("500-property schema ({bytes} bytes), median of {runs} runs:");
    println!("  build form model: {:.3} ms", ms(build));
    println!("  initial draft (defaults): {:.3} ms", ms(start));
    println!(
        "  value -> form (raw mode back to form): {:.3} ms",
        ms(to_form)
    );
    println!("  form -> value (strict): {:.3} ms", ms(to_value));
    println!("  validate the value: {:.3} ms", ms(check));
}
