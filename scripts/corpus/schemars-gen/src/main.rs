//! Regenerates tests/schemas/schemars/*.json for mcp-lens.
//!
//! Each entry is a Rust type deriving `JsonSchema + Deserialize`, the way an rmcp tool's
//! `Parameters<T>` is declared. The schema is produced exactly as rmcp 3.x does it
//! (`rmcp::handler::server::common::{schema_for_input, schema_for_output}`):
//!   input:  SchemaSettings::draft2020_12() -> into_root_schema_for::<T>() -> root must be
//!           `"type": "object"` -> drop the root `title` and `description`;
//!   output: SchemaSettings::draft2020_12().for_serialize() -> drop root `title`/`description`.
//! Instances are classified by `serde_json::from_value::<T>` (what rmcp's `Parameters<T>` does);
//! the program exits 1 if serde disagrees with the label an instance was written under.
//!
//! Usage: bash scripts/corpus/schemars_gen.sh  (or: cargo run -j 1 -- <output dir>)

#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

// ------------------------------------------------------------------------------------ types

/// Search for flights.
#[derive(Deserialize, JsonSchema)]
struct NumericFormats {
    /// Number of adult passengers.
    adults: u8,
    /// Maximum number of results.
    limit: u32,
    /// Unix timestamp in milliseconds.
    since_ms: i64,
    offset: usize,
    delta: i16,
    ratio: f32,
    price: f64,
    direct_only: bool,
    initial: char,
}

#[derive(Deserialize, JsonSchema)]
struct Address {
    street: String,
    city: String,
    zip: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
struct OptionalFields {
    name: String,
    nickname: Option<String>,
    age: Option<u32>,
    tags: Option<Vec<String>>,
    address: Option<Address>,
    score: Option<f64>,
}

/// One line of an order.
#[derive(Deserialize, JsonSchema)]
struct LineItem {
    /// Stock keeping unit.
    sku: String,
    quantity: u32,
    unit_price: f64,
}

#[derive(Deserialize, JsonSchema)]
struct CreateOrder {
    customer_id: String,
    items: Vec<LineItem>,
    shipping: Address,
}

#[derive(Deserialize, JsonSchema)]
struct MapFields {
    /// Environment variables for the command.
    env: HashMap<String, String>,
    counts: BTreeMap<String, u64>,
    groups: HashMap<String, Vec<String>>,
    unique_tags: HashSet<String>,
}

/// How urgent the ticket is.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Priority {
    Low,
    Medium,
    High,
    Critical,
}

/// Sort order.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum SortOrder {
    /// Newest first.
    NewestFirst,
    /// Oldest first.
    OldestFirst,
    /// Most relevant first.
    Relevance,
}

#[derive(Deserialize, JsonSchema)]
struct UnitEnums {
    title: String,
    priority: Priority,
    sort: SortOrder,
    fallback_priority: Option<Priority>,
}

#[derive(Deserialize, JsonSchema)]
enum Shape {
    Circle { radius: f64 },
    Rect { width: f64, height: f64 },
    Square(f64),
    Empty,
}

#[derive(Deserialize, JsonSchema)]
struct ExternallyTagged {
    shape: Shape,
}

#[derive(Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Action {
    /// Click an element.
    Click {
        selector: String,
    },
    /// Type text into an element.
    TypeText {
        selector: String,
        text: String,
    },
    /// Wait a while.
    Wait {
        ms: u32,
    },
    Reload,
}

#[derive(Deserialize, JsonSchema)]
struct InternallyTagged {
    actions: Vec<Action>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(tag = "kind", content = "value", rename_all = "camelCase")]
enum Filter {
    Equals(String),
    Between(i64, i64),
    AnyOf(Vec<String>),
    IsNull,
}

#[derive(Deserialize, JsonSchema)]
struct AdjacentlyTagged {
    field: String,
    filter: Filter,
}

#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
enum IdOrName {
    Id(u64),
    Name(String),
}

#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
enum Range {
    Bounded { start: i32, end: i32 },
    Single(i32),
    List(Vec<i32>),
}

#[derive(Deserialize, JsonSchema)]
struct Untagged {
    user: IdOrName,
    range: Range,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct RenameAll {
    repo_owner: String,
    repo_name: String,
    #[serde(rename = "type")]
    kind: String,
    include_forks: bool,
    #[serde(rename = "per-page")]
    per_page: Option<u8>,
    visibility: Visibility,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Visibility {
    Public,
    Private,
    InternalOnly,
}

#[derive(Deserialize, JsonSchema)]
struct ValidationAttrs {
    /// GitHub login.
    #[schemars(length(min = 1, max = 39), regex(pattern = r"^[A-Za-z0-9-]+$"))]
    login: String,
    #[schemars(range(min = 1, max = 100))]
    per_page: u32,
    #[schemars(range(min = 0.0, max = 1.0))]
    threshold: f64,
    #[schemars(email)]
    contact: String,
    #[schemars(url)]
    homepage: Option<String>,
    #[schemars(length(min = 1, max = 5))]
    labels: Vec<String>,
    #[schemars(length(equal = 2))]
    pair: Vec<i32>,
}

/// Arguments for a directory listing.
///
/// The second paragraph of a doc comment stays in the description too.
#[derive(Deserialize, JsonSchema)]
struct DocComments {
    /// Path of the directory to list, relative to the workspace root.
    path: String,
    /// Glob patterns to skip.
    ///
    /// Matched against the relative path, e.g. `**/node_modules`.
    exclude: Vec<String>,
    #[schemars(
        title = "Follow symlinks",
        description = "Whether to descend into symlinked directories"
    )]
    follow_symlinks: bool,
    /// Deprecated: use `exclude`.
    #[deprecated]
    ignore_hidden: Option<bool>,
    #[schemars(example = 3, example = 10)]
    max_depth: Option<u32>,
}

/// A node of a category tree.
#[derive(Deserialize, JsonSchema)]
struct TreeNode {
    name: String,
    children: Vec<TreeNode>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(tag = "op", rename_all = "lowercase")]
enum Expr {
    Lit { value: f64 },
    Add { left: Box<Expr>, right: Box<Expr> },
    Neg { arg: Box<Expr> },
}

#[derive(Deserialize, JsonSchema)]
struct LinkedItem {
    value: String,
    next: Option<Box<LinkedItem>>,
}

#[derive(Deserialize, JsonSchema)]
struct Recursive {
    tree: TreeNode,
    expr: Expr,
    list: Option<LinkedItem>,
}

fn default_limit() -> u32 {
    50
}
fn default_sort() -> SortOrder {
    SortOrder::Relevance
}
fn default_branches() -> Vec<String> {
    vec!["main".into(), "develop".into()]
}

#[derive(Deserialize, JsonSchema)]
struct Defaults {
    query: String,
    #[serde(default)]
    include_archived: bool,
    #[serde(default = "default_limit")]
    limit: u32,
    #[serde(default = "default_sort")]
    sort: SortOrder,
    #[serde(default = "default_branches")]
    branches: Vec<String>,
    #[serde(default)]
    cursor: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema, Default)]
#[serde(default)]
struct PagingOptions {
    page: u32,
    per_page: u32,
    reverse: bool,
}

#[derive(Deserialize, JsonSchema)]
struct ContainerDefault {
    repo: String,
    #[serde(default)]
    paging: PagingOptions,
}

#[derive(Deserialize, JsonSchema)]
struct ChronoFormats {
    start: chrono::DateTime<chrono::Utc>,
    day: chrono::NaiveDate,
    at: Option<chrono::NaiveTime>,
    local: Option<chrono::NaiveDateTime>,
}

#[derive(Deserialize, JsonSchema)]
struct TuplesAndArrays {
    point: (i32, i32),
    labeled: (u16, String, bool),
    rgb: [u8; 3],
    matrix: Vec<Vec<f64>>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct DenyUnknown {
    key: String,
    value: String,
}

#[derive(Deserialize, JsonSchema)]
struct FlattenInner {
    page: Option<u32>,
    per_page: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
struct Flatten {
    query: String,
    #[serde(flatten)]
    paging: FlattenInner,
    #[serde(flatten)]
    extra: HashMap<String, Value>,
}

#[derive(Deserialize, JsonSchema)]
struct FreeFormValues {
    key: String,
    value: Value,
    metadata: Option<Map<String, Value>>,
    rows: Vec<Value>,
}

#[derive(Deserialize, JsonSchema)]
struct Empty {}

/// Result of a directory listing (tool output).
#[derive(Deserialize, Serialize, JsonSchema)]
struct ListingOutput {
    entries: Vec<ListingEntry>,
    truncated: bool,
    next_cursor: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    warning: Option<String>,
    #[serde(default)]
    total: u64,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ListingEntry {
    name: String,
    is_dir: bool,
    size_bytes: u64,
    priority: Option<Priority>,
}

// ------------------------------------------------------------------------------------ corpus

fn strip_title_description(mut obj: Map<String, Value>) -> Map<String, Value> {
    obj.remove("title");
    obj.remove("description");
    obj
}

/// rmcp 3.x `schema_for_input::<T>()`.
fn input_schema<T: JsonSchema>() -> Value {
    let schema = SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>();
    let Value::Object(obj) = serde_json::to_value(schema).unwrap() else {
        panic!("non-object schema")
    };
    assert_eq!(
        obj.get("type"),
        Some(&json!("object")),
        "rmcp requires a root type object"
    );
    Value::Object(strip_title_description(obj))
}

/// rmcp 3.x `schema_for_output::<T>()`.
fn output_schema<T: JsonSchema>() -> Value {
    let schema = SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>();
    let Value::Object(obj) = serde_json::to_value(schema).unwrap() else {
        panic!("non-object schema")
    };
    Value::Object(strip_title_description(obj))
}

struct Corpus {
    out: PathBuf,
    versions: String,
    written: usize,
    problems: Vec<String>,
}

impl Corpus {
    fn entry<T: JsonSchema + DeserializeOwned>(
        &mut self,
        file: &str,
        kind: &str,
        rust: &str,
        valid: Vec<Value>,
        invalid: Vec<Value>,
    ) {
        let schema = match kind {
            "input" => input_schema::<T>(),
            "output" => output_schema::<T>(),
            _ => unreachable!(),
        };
        for v in &valid {
            if let Err(e) = serde_json::from_value::<T>(v.clone()) {
                self.problems
                    .push(format!("{file}: serde rejects 'valid' {v}: {e}"));
            }
        }
        for v in &invalid {
            if serde_json::from_value::<T>(v.clone()).is_ok() {
                self.problems
                    .push(format!("{file}: serde accepts 'invalid' {v}"));
            }
        }
        let how = match kind {
            "input" => "rmcp 3.x schema_for_input settings (draft2020_12, root title/description stripped)",
            _ => "rmcp 3.x schema_for_output settings (draft2020_12().for_serialize(), root title/description stripped)",
        };
        // serde_json's Map is a BTreeMap here (rmcp does not enable `preserve_order`), so the schema's
        // keys come out sorted, as an rmcp server sends them; the wrapper keeps the corpus' key order.
        let source = json!(format!(
            "{} with {how}: {kind}Schema of {rust}",
            self.versions
        ));
        let fields = [
            ("source", source),
            ("schema", schema),
            ("valid", Value::Array(valid)),
            ("invalid", Value::Array(invalid)),
        ];
        let body: Vec<String> = fields
            .iter()
            .map(|(k, v)| {
                format!(
                    "  \"{k}\": {}",
                    serde_json::to_string_pretty(v)
                        .unwrap()
                        .replace('\n', "\n  ")
                )
            })
            .collect();
        let text = format!("{{\n{}\n}}\n", body.join(",\n"));
        std::fs::write(self.out.join(format!("{file}.json")), text).unwrap();
        self.written += 1;
    }
}

fn lock_version(name: &str) -> String {
    let lock = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock"));
    let needle = format!("name = \"{name}\"\nversion = \"");
    let start = lock.find(&needle).expect("crate in Cargo.lock") + needle.len();
    lock[start..].split('"').next().unwrap().to_string()
}

fn main() {
    let out = PathBuf::from(
        std::env::args()
            .nth(1)
            .expect("usage: schemars-corpus-gen <output dir>"),
    );
    std::fs::create_dir_all(&out).unwrap();
    let versions = format!(
        "schemars {} (derive JsonSchema, features chrono04) + serde {} / serde_json {} (no preserve_order, like rmcp)",
        lock_version("schemars"),
        lock_version("serde"),
        lock_version("serde_json")
    );
    let mut c = Corpus {
        out,
        versions,
        written: 0,
        problems: vec![],
    };

    c.entry::<NumericFormats>(
        "numeric-formats",
        "input",
        "struct { adults: u8, limit: u32, since_ms: i64, offset: usize, delta: i16, ratio: f32, price: f64, direct_only: bool, initial: char } with doc comments",
        vec![
            json!({"adults": 2, "limit": 10, "since_ms": -5, "offset": 0, "delta": -3, "ratio": 0.5, "price": 99.99, "direct_only": true, "initial": "A"}),
            json!({"adults": 255, "limit": 4294967295u64, "since_ms": 1700000000000i64, "offset": 7, "delta": 32767, "ratio": 1, "price": 0, "direct_only": false, "initial": "é"}),
        ],
        vec![
            json!({"adults": 256, "limit": 10, "since_ms": 0, "offset": 0, "delta": 0, "ratio": 0.5, "price": 1.0, "direct_only": true, "initial": "A"}),
            json!({"adults": 1, "limit": -1, "since_ms": 0, "offset": 0, "delta": 0, "ratio": 0.5, "price": 1.0, "direct_only": true, "initial": "A"}),
            json!({"adults": 1, "limit": 1, "since_ms": 0, "offset": 0, "delta": 0, "ratio": 0.5, "price": 1.0, "direct_only": true, "initial": "AB"}),
        ],
    );

    c.entry::<OptionalFields>(
        "option-fields",
        "input",
        "struct { name: String, nickname: Option<String>, age: Option<u32>, tags: Option<Vec<String>>, address: Option<Address>, score: Option<f64> }",
        vec![
            json!({"name": "Ada"}),
            json!({"name": "Ada", "nickname": null, "age": 36, "tags": ["math"], "address": {"street": "1 Main", "city": "London", "zip": null}, "score": null}),
        ],
        vec![
            json!({"nickname": "A"}),
            json!({"name": "Ada", "age": -1}),
            json!({"name": "Ada", "address": {"street": "1 Main"}}),
        ],
    );

    c.entry::<CreateOrder>(
        "vec-of-structs",
        "input",
        "struct CreateOrder { customer_id: String, items: Vec<LineItem { sku, quantity: u32, unit_price: f64 }>, shipping: Address }",
        vec![
            json!({"customer_id": "c1", "items": [], "shipping": {"street": "1 Main", "city": "X"}}),
            json!({"customer_id": "c1", "items": [{"sku": "A", "quantity": 2, "unit_price": 9.5}], "shipping": {"street": "1 Main", "city": "X", "zip": "123"}}),
        ],
        vec![
            json!({"customer_id": "c1", "items": [{"sku": "A", "quantity": 2}], "shipping": {"street": "1 Main", "city": "X"}}),
            json!({"customer_id": "c1", "items": {"sku": "A"}, "shipping": {"street": "1 Main", "city": "X"}}),
        ],
    );

    c.entry::<MapFields>(
        "maps-and-sets",
        "input",
        "struct { env: HashMap<String, String>, counts: BTreeMap<String, u64>, groups: HashMap<String, Vec<String>>, unique_tags: HashSet<String> }",
        vec![
            json!({"env": {}, "counts": {}, "groups": {}, "unique_tags": []}),
            json!({"env": {"PATH": "/bin"}, "counts": {"a": 1}, "groups": {"admins": ["ada"]}, "unique_tags": ["x", "y"]}),
        ],
        vec![
            json!({"env": {"PATH": 1}, "counts": {}, "groups": {}, "unique_tags": []}),
            json!({"env": {}, "counts": {"a": -1}, "groups": {}, "unique_tags": []}),
            json!({"env": {}, "counts": {}, "groups": {"admins": "ada"}, "unique_tags": []}),
        ],
    );

    c.entry::<UnitEnums>(
        "unit-enums",
        "input",
        "struct { title: String, priority: Priority (rename_all lowercase), sort: SortOrder (snake_case, doc comment per variant), fallback_priority: Option<Priority> }",
        vec![
            json!({"title": "t", "priority": "high", "sort": "newest_first"}),
            json!({"title": "t", "priority": "critical", "sort": "relevance", "fallback_priority": null}),
            json!({"title": "t", "priority": "low", "sort": "oldest_first", "fallback_priority": "medium"}),
        ],
        vec![
            json!({"title": "t", "priority": "High", "sort": "relevance"}),
            json!({"title": "t", "priority": "low", "sort": "random"}),
            json!({"title": "t", "priority": "low", "sort": "relevance", "fallback_priority": "urgent"}),
        ],
    );

    c.entry::<ExternallyTagged>(
        "externally-tagged-enum",
        "input",
        "struct { shape: enum Shape { Circle { radius: f64 }, Rect { width, height }, Square(f64), Empty } } (serde default external tagging)",
        vec![
            json!({"shape": {"Circle": {"radius": 1.5}}}),
            json!({"shape": {"Square": 2.0}}),
            json!({"shape": "Empty"}),
        ],
        vec![
            json!({"shape": {"Circle": {"r": 1.5}}}),
            json!({"shape": "Circle"}),
            json!({"shape": {"Triangle": {}}}),
        ],
    );

    c.entry::<InternallyTagged>(
        "internally-tagged-enum",
        "input",
        "struct { actions: Vec<Action> } with #[serde(tag = \"type\", rename_all = \"snake_case\")] enum Action { Click { selector }, TypeText { selector, text }, Wait { ms: u32 }, Reload }",
        vec![
            json!({"actions": []}),
            json!({"actions": [{"type": "click", "selector": "#go"}, {"type": "type_text", "selector": "#q", "text": "mcp"}, {"type": "wait", "ms": 100}, {"type": "reload"}]}),
        ],
        vec![
            json!({"actions": [{"type": "scroll"}]}),
            json!({"actions": [{"selector": "#go"}]}),
            json!({"actions": [{"type": "wait", "ms": -5}]}),
        ],
    );

    c.entry::<AdjacentlyTagged>(
        "adjacently-tagged-enum",
        "input",
        "struct { field: String, filter: Filter } with #[serde(tag = \"kind\", content = \"value\", rename_all = \"camelCase\")] enum Filter { Equals(String), Between(i64, i64), AnyOf(Vec<String>), IsNull }",
        vec![
            json!({"field": "status", "filter": {"kind": "equals", "value": "open"}}),
            json!({"field": "age", "filter": {"kind": "between", "value": [1, 10]}}),
            json!({"field": "x", "filter": {"kind": "isNull"}}),
        ],
        vec![
            json!({"field": "status", "filter": {"kind": "equals", "value": 3}}),
            json!({"field": "status", "filter": {"kind": "contains", "value": "x"}}),
            json!({"field": "age", "filter": {"kind": "between", "value": [1]}}),
        ],
    );

    c.entry::<Untagged>(
        "untagged-enums",
        "input",
        "struct { user: #[serde(untagged)] enum IdOrName { Id(u64), Name(String) }, range: #[serde(untagged)] enum Range { Bounded { start: i32, end: i32 }, Single(i32), List(Vec<i32>) } }",
        vec![
            json!({"user": 42, "range": 5}),
            json!({"user": "ada", "range": {"start": 1, "end": 9}}),
            json!({"user": 0, "range": [1, 2, 3]}),
        ],
        vec![
            json!({"user": true, "range": 5}),
            json!({"user": -1, "range": 5}),
            json!({"user": "ada", "range": "1..9"}),
        ],
    );

    c.entry::<RenameAll>(
        "rename-all-camel-case",
        "input",
        "#[serde(rename_all = \"camelCase\")] struct { repo_owner, repo_name, #[serde(rename = \"type\")] kind, include_forks: bool, #[serde(rename = \"per-page\")] per_page: Option<u8>, visibility: Visibility (SCREAMING_SNAKE_CASE) }",
        vec![
            json!({"repoOwner": "o", "repoName": "r", "type": "all", "includeForks": false, "visibility": "PUBLIC"}),
            json!({"repoOwner": "o", "repoName": "r", "type": "all", "includeForks": true, "per-page": 30, "visibility": "INTERNAL_ONLY"}),
        ],
        vec![
            json!({"repo_owner": "o", "repo_name": "r", "type": "all", "include_forks": false, "visibility": "PUBLIC"}),
            json!({"repoOwner": "o", "repoName": "r", "type": "all", "includeForks": true, "visibility": "internal_only"}),
            json!({"repoOwner": "o", "repoName": "r", "type": "all", "includeForks": true, "per-page": 300, "visibility": "PUBLIC"}),
        ],
    );

    c.entry::<ValidationAttrs>(
        "validation-attributes",
        "input",
        "struct with #[schemars(length(min = 1, max = 39), regex(pattern = ...))], #[schemars(range(min = 1, max = 100))], #[schemars(range(min = 0.0, max = 1.0))], #[schemars(email)], #[schemars(url)], #[schemars(length(equal = 2))] (schema-only: serde does not enforce them, so no invalid instance relies on them)",
        vec![
            json!({"login": "octocat", "per_page": 30, "threshold": 0.5, "contact": "a@example.com", "homepage": "https://example.com", "labels": ["bug"], "pair": [1, 2]}),
            json!({"login": "a-b", "per_page": 1, "threshold": 1, "contact": "a@example.com", "homepage": null, "labels": ["a", "b", "c", "d", "e"], "pair": [0, 0]}),
        ],
        vec![
            json!({"login": "octocat", "per_page": 30, "threshold": 0.5, "contact": "a@example.com", "labels": ["bug"]}),
            json!({"login": "octocat", "per_page": "30", "threshold": 0.5, "contact": "a@example.com", "labels": ["bug"], "pair": [1, 2]}),
        ],
    );

    c.entry::<DocComments>(
        "doc-comments-and-attrs",
        "input",
        "/// documented struct { /// path: String, /// (two paragraphs) exclude: Vec<String>, #[schemars(title, description)] follow_symlinks: bool, #[deprecated] ignore_hidden: Option<bool>, #[schemars(example = 3, example = 10)] max_depth: Option<u32> }",
        vec![
            json!({"path": ".", "exclude": [], "follow_symlinks": false}),
            json!({"path": "src", "exclude": ["**/target"], "follow_symlinks": true, "ignore_hidden": true, "max_depth": 3}),
        ],
        vec![
            json!({"path": ".", "follow_symlinks": false}),
            json!({"path": ".", "exclude": [], "follow_symlinks": "no"}),
        ],
    );

    c.entry::<Recursive>(
        "recursive-types",
        "input",
        "struct { tree: TreeNode { name, children: Vec<TreeNode> }, expr: #[serde(tag = \"op\")] enum Expr { Lit { value }, Add { left: Box<Expr>, right: Box<Expr> }, Neg { arg: Box<Expr> } }, list: Option<LinkedItem { value, next: Option<Box<LinkedItem>> }> }",
        vec![
            json!({"tree": {"name": "root", "children": []}, "expr": {"op": "lit", "value": 1}}),
            json!({
                "tree": {"name": "root", "children": [{"name": "a", "children": [{"name": "b", "children": []}]}]},
                "expr": {"op": "add", "left": {"op": "lit", "value": 1}, "right": {"op": "neg", "arg": {"op": "lit", "value": 2}}},
                "list": {"value": "a", "next": {"value": "b", "next": null}}
            }),
        ],
        vec![
            json!({"tree": {"name": "root"}, "expr": {"op": "lit", "value": 1}}),
            json!({"tree": {"name": "root", "children": []}, "expr": {"op": "add", "left": {"op": "lit", "value": 1}}}),
            json!({"tree": {"name": "root", "children": []}, "expr": {"op": "lit", "value": 1}, "list": {"next": null}}),
        ],
    );

    c.entry::<Defaults>(
        "serde-defaults",
        "input",
        "struct { query: String, #[serde(default)] include_archived: bool, #[serde(default = \"default_limit\")] limit: u32 (50), #[serde(default = \"default_sort\")] sort: SortOrder, #[serde(default = \"default_branches\")] branches: Vec<String>, #[serde(default)] cursor: Option<String> }",
        vec![
            json!({"query": "q"}),
            json!({"query": "q", "include_archived": true, "limit": 5, "sort": "oldest_first", "branches": [], "cursor": null}),
        ],
        vec![
            json!({"include_archived": true}),
            json!({"query": "q", "limit": -5}),
            json!({"query": "q", "sort": "alphabetical"}),
        ],
    );

    c.entry::<ContainerDefault>(
        "container-default",
        "input",
        "struct { repo: String, #[serde(default)] paging: PagingOptions } with #[serde(default)] struct PagingOptions { page: u32, per_page: u32, reverse: bool }",
        vec![
            json!({"repo": "r"}),
            json!({"repo": "r", "paging": {}}),
            json!({"repo": "r", "paging": {"page": 2, "reverse": true}}),
        ],
        vec![json!({"repo": "r", "paging": {"page": "2"}}), json!({"paging": {}})],
    );

    c.entry::<ChronoFormats>(
        "chrono-formats",
        "input",
        "struct { start: chrono::DateTime<Utc>, day: NaiveDate, at: Option<NaiveTime>, local: Option<NaiveDateTime> }",
        vec![
            json!({"start": "2025-11-25T10:00:00Z", "day": "2025-11-25"}),
            json!({"start": "2025-11-25T10:00:00+02:00", "day": "2025-11-25", "at": "09:30:00", "local": "2025-11-25T09:30:00"}),
        ],
        vec![
            json!({"start": "tomorrow", "day": "2025-11-25"}),
            json!({"start": "2025-11-25T10:00:00Z", "day": "2025-02-30"}),
        ],
    );

    c.entry::<TuplesAndArrays>(
        "tuples-and-arrays",
        "input",
        "struct { point: (i32, i32), labeled: (u16, String, bool), rgb: [u8; 3], matrix: Vec<Vec<f64>> }",
        vec![
            json!({"point": [1, -2], "labeled": [1, "a", true], "rgb": [255, 0, 10], "matrix": []}),
            json!({"point": [0, 0], "labeled": [65535, "", false], "rgb": [0, 0, 0], "matrix": [[1.5], [2, 3]]}),
        ],
        vec![
            json!({"point": [1], "labeled": [1, "a", true], "rgb": [255, 0, 10], "matrix": []}),
            json!({"point": [1, 2], "labeled": [1, "a", true], "rgb": [256, 0, 10], "matrix": []}),
            json!({"point": [1, 2], "labeled": [1, "a", true], "rgb": [1, 2, 3, 4], "matrix": []}),
        ],
    );

    c.entry::<DenyUnknown>(
        "deny-unknown-fields",
        "input",
        "#[serde(deny_unknown_fields)] struct { key: String, value: String }",
        vec![json!({"key": "k", "value": "v"})],
        vec![
            json!({"key": "k", "value": "v", "extra": 1}),
            json!({"key": "k"}),
        ],
    );

    c.entry::<Flatten>(
        "flatten",
        "input",
        "struct { query: String, #[serde(flatten)] paging: FlattenInner { page: Option<u32>, per_page: Option<u32> }, #[serde(flatten)] extra: HashMap<String, Value> }",
        vec![json!({"query": "q"}), json!({"query": "q", "page": 2, "per_page": 10, "anything": [1]})],
        vec![json!({"page": 2}), json!({"query": "q", "page": -1})],
    );

    c.entry::<FreeFormValues>(
        "free-form-values",
        "input",
        "struct { key: String, value: serde_json::Value, metadata: Option<Map<String, Value>>, rows: Vec<Value> }",
        vec![
            json!({"key": "k", "value": null, "rows": []}),
            json!({"key": "k", "value": {"a": [1, "b"]}, "metadata": {"x": 1}, "rows": [1, "a", null]}),
        ],
        vec![
            json!({"key": "k", "value": 1, "rows": {}}),
            json!({"key": "k", "value": 1, "metadata": [1], "rows": []}),
        ],
    );

    c.entry::<Empty>(
        "empty-struct",
        "input",
        "struct Empty {} (a tool whose Parameters type has no fields)",
        vec![json!({}), json!({"ignored": true})],
        vec![],
    );

    c.entry::<ListingOutput>(
        "output-listing",
        "output",
        "/// doc struct ListingOutput { entries: Vec<ListingEntry (camelCase) { name, is_dir, size_bytes: u64, priority: Option<Priority> }>, truncated: bool, next_cursor: Option<String>, #[serde(skip_serializing_if = \"Option::is_none\")] warning: Option<String>, #[serde(default)] total: u64 }",
        vec![
            json!({"entries": [], "truncated": false, "next_cursor": null, "total": 0}),
            json!({"entries": [{"name": "a", "isDir": true, "sizeBytes": 0, "priority": null}], "truncated": true, "next_cursor": "c", "warning": "slow", "total": 1}),
        ],
        vec![
            json!({"entries": [{"name": "a", "isDir": true}], "truncated": false, "next_cursor": null, "total": 0}),
            json!({"entries": [], "truncated": "no", "next_cursor": null, "total": 0}),
        ],
    );

    if !c.problems.is_empty() {
        for p in &c.problems {
            eprintln!("{p}");
        }
        std::process::exit(1);
    }
    println!(
        "schemars: wrote {} files to {}",
        c.written,
        Path::new(&c.out).display()
    );
}
