//! The schema corpus (`tests/schemas/<family>/<name>.json`): schemas as real generators and
//! real servers emit them, each with instances the generating library accepted (`valid`)
//! and refused (`invalid`). For every schema:
//!
//! - its form model matches the reviewed outline in `<name>.outline`
//!   (`MCP_LENS_BLESS=1 cargo test --test schema_corpus` rewrites the outlines; review the diff);
//! - every valid instance goes value -> form -> value unchanged (strict and lenient), and
//!   form -> value -> form -> value is stable;
//! - our validator agrees with the generating library on every valid and invalid instance;
//! - the example the form would fill in, when it makes one, validates.
#![cfg(not(target_arch = "wasm32"))]

use mcp_lens::schema::{
    draft_for,
    example::{example, valid_example},
    form_value,
    outline::outline,
    validate,
    value::json_equal,
    Mode, Node, Patterns,
};
use serde_json::Value;
use std::path::{Path, PathBuf};

struct RustPatterns;

impl Patterns for RustPatterns {
    fn is_match(&self, pattern: &str, text: &str) -> Option<bool> {
        regex_lite::Regex::new(pattern)
            .ok()
            .map(|re| re.is_match(text))
    }
}

fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas");
    let mut files = Vec::new();
    for family in std::fs::read_dir(&root).expect("tests/schemas exists") {
        let family = family.unwrap().path();
        if !family.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&family).unwrap() {
            let file = file.unwrap().path();
            if file.extension().is_some_and(|e| e == "json") {
                files.push(file);
            }
        }
    }
    files.sort();
    files
}

fn name(file: &Path) -> String {
    let family = file
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy();
    format!("{family}/{}", file.file_stem().unwrap().to_string_lossy())
}

fn load(file: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(file).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

fn instances<'a>(entry: &'a Value, key: &str) -> &'a [Value] {
    entry[key].as_array().map(Vec::as_slice).unwrap_or_default()
}

#[test]
fn the_corpus_is_large_and_covers_every_family() {
    let files = corpus();
    assert!(files.len() >= 60, "only {} schemas", files.len());
    for family in ["pydantic", "zod", "schemars", "real", "hand"] {
        assert!(
            files.iter().any(|f| name(f).starts_with(family)),
            "no {family} schemas"
        );
    }
}

#[test]
fn every_schema_builds_its_reviewed_form_outline() {
    let bless = std::env::var("MCP_LENS_BLESS").is_ok_and(|v| v == "1");
    let mut failures = Vec::new();
    for file in corpus() {
        let entry = load(&file);
        let got = outline(&Node::from_schema(&entry["schema"]));
        let expected_file = file.with_extension("outline");
        let expected = std::fs::read_to_string(&expected_file).unwrap_or_default();
        if got != expected {
            if bless {
                std::fs::write(&expected_file, &got).unwrap();
            } else {
                failures.push(format!(
                    "{}:\n--- expected\n{expected}--- got\n{got}",
                    name(&file)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn valid_instances_survive_value_to_form_to_value() {
    let mut failures = Vec::new();
    for file in corpus() {
        let entry = load(&file);
        let node = Node::from_schema(&entry["schema"]);
        for instance in instances(&entry, "valid") {
            for mode in [Mode::Strict, Mode::Lenient] {
                let draft = draft_for(&node, Some(instance), true);
                let (value, issues) = form_value(&node, &draft, mode);
                if !json_equal(&value, instance) || !issues.is_empty() {
                    failures.push(format!(
                        "{} ({mode:?}): {instance} -> {value} {issues:?}",
                        name(&file)
                    ));
                    continue;
                }
                let again = draft_for(&node, Some(&value), true);
                let (second, _) = form_value(&node, &again, mode);
                if second != value {
                    failures.push(format!(
                        "{}: form -> JSON -> form changed {value} to {second}",
                        name(&file)
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_validator_agrees_with_the_generating_library() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for file in corpus() {
        let entry = load(&file);
        let schema = &entry["schema"];
        for instance in instances(&entry, "valid") {
            checked += 1;
            let report = validate(schema, instance, &RustPatterns);
            if !report.is_valid() {
                failures.push(format!(
                    "{}: refused valid {instance}: {:?}",
                    name(&file),
                    report.issues
                ));
            }
        }
        for instance in instances(&entry, "invalid") {
            checked += 1;
            if validate(schema, instance, &RustPatterns).is_valid() {
                failures.push(format!("{}: accepted invalid {instance}", name(&file)));
            }
        }
    }
    assert!(checked >= 150, "only {checked} instances");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Most examples the form model suggests are valid as they are; the few that keywords outside
/// the model rule out (`if`/`then`, `not`) are caught by `valid_example` and not offered.
#[test]
fn examples_the_form_fills_in_validate() {
    let mut unchecked_failures = Vec::new();
    let mut offered = 0;
    let files = corpus();
    for file in &files {
        let entry = load(file);
        let schema = &entry["schema"];
        let node = Node::from_schema(schema);
        if let Some(value) = example(&node) {
            let report = validate(schema, &value, &RustPatterns);
            if !report.is_valid() {
                unchecked_failures.push(name(file));
            }
        }
        if let Some(value) = valid_example(schema, &node) {
            offered += 1;
            assert!(
                validate(schema, &value, &RustPatterns).is_valid(),
                "{}",
                name(file)
            );
        }
    }
    assert!(
        offered >= 90,
        "only {offered} of {} schemas get an example",
        files.len()
    );
    assert!(unchecked_failures.len() <= 2, "{unchecked_failures:?}");
}
