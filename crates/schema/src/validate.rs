//! Checks a JSON value against a JSON Schema (2020-12, draft-07 keywords accepted) and says
//! what is wrong where, as JSON pointers into the value. Used before sending a form and on a
//! tool's `structuredContent` against its `outputSchema`.
//!
//! Bounded: at most [`STEP_BUDGET`] checks and [`MAX_DEPTH`] nested schemas per run; a schema
//! needing more (a `$ref` DAG under `anyOf`, a cycle that consumes no input) stops early and
//! says so in [`Report::incomplete`] rather than hanging the page.

use super::draft::Issue;
use super::format;
use super::resolve::{resolve, Target};
use super::value::{is_whole, json_equal};
use serde_json::{Map, Value};

pub const STEP_BUDGET: usize = 200_000;
pub const MAX_DEPTH: usize = 128;
/// Problems kept per list: a person reads the first few, and `anyOf` inside `anyOf` could
/// otherwise multiply them without end.
pub const MAX_ISSUES: usize = 100;

/// Regular expressions are ECMA-262 in JSON Schema: the page uses the browser's `RegExp`,
/// native tests a Rust engine. `None` means the pattern could not be compiled (not checked).
pub trait Patterns {
    fn is_match(&self, pattern: &str, text: &str) -> Option<bool>;
}

/// Whether a `pattern` could make a backtracking engine (the browser's `RegExp`) take
/// exponential time: a group that repeats without bound and itself contains a repetition or
/// an alternation (`(a+)+`, `(\w+\s?)*`, `(a|aa)+`, `(x{1,}){2,}`). Such patterns are not run
/// on server-supplied text; the check says "not checked" instead of freezing the page. This is
/// a guard for the known catastrophic shapes, not a proof of linear time.
pub fn risks_catastrophic_backtracking(pattern: &str) -> bool {
    let chars: Vec<char> = pattern.chars().collect();
    // Whether the quantifier starting at `at` repeats without a small bound.
    let unbounded_at = |at: usize| -> bool {
        match chars.get(at) {
            Some('+') | Some('*') => true,
            Some('{') => {
                let body: String = chars[at + 1..]
                    .iter()
                    .take_while(|c| **c != '}')
                    .take(24)
                    .collect();
                match body.split_once(',') {
                    Some((_, "")) => true,
                    Some((_, max)) => max.trim().parse::<u32>().is_ok_and(|max| max > 9),
                    None => false,
                }
            }
            _ => false,
        }
    };
    // For each open group: whether it contains a repetition or an alternation.
    let mut open: Vec<bool> = Vec::new();
    let mut in_class = false;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                i += 2;
                continue;
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            _ if in_class => {}
            '(' => open.push(false),
            ')' => {
                let contained = open.pop().unwrap_or(false);
                let repeated = unbounded_at(i + 1);
                if contained && repeated {
                    return true;
                }
                if let Some(parent) = open.last_mut() {
                    *parent |= contained || repeated;
                }
            }
            '|' | '+' | '*' => {
                if let Some(group) = open.last_mut() {
                    *group = true;
                }
            }
            '{' if unbounded_at(i) => {
                if let Some(group) = open.last_mut() {
                    *group = true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// Checks no patterns (they are reported as unchecked).
pub struct NoPatterns;

impl Patterns for NoPatterns {
    fn is_match(&self, _: &str, _: &str) -> Option<bool> {
        None
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Report {
    pub issues: Vec<Issue>,
    /// Why the check did not cover everything, when it did not.
    pub incomplete: Option<String>,
}

impl Report {
    pub fn is_valid(&self) -> bool {
        self.issues.is_empty()
    }
}

/// Validates `instance` against the schema document `schema`.
pub fn validate(schema: &Value, instance: &Value, patterns: &dyn Patterns) -> Report {
    let mut validator = Validator {
        document: schema,
        patterns,
        steps: 0,
        incomplete: None,
    };
    let mut issues = Vec::new();
    validator.check(schema, instance, &mut String::new(), 0, &mut issues);
    Report {
        issues,
        incomplete: validator.incomplete,
    }
}

struct Validator<'a> {
    document: &'a Value,
    patterns: &'a dyn Patterns,
    steps: usize,
    incomplete: Option<String>,
}

impl Validator<'_> {
    fn stop(&mut self, why: &str) {
        self.incomplete.get_or_insert_with(|| why.to_owned());
    }

    fn check(
        &mut self,
        schema: &Value,
        instance: &Value,
        path: &mut String,
        depth: usize,
        out: &mut Vec<Issue>,
    ) {
        self.steps += 1;
        if self.steps > STEP_BUDGET {
            return self.stop("The schema is too complex to check completely.");
        }
        if depth > MAX_DEPTH {
            return self.stop("The schema nests too deeply to check completely.");
        }
        let map = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => return issue(out, path, "No value is allowed here.".into()),
            Value::Object(map) => map,
            _ => return,
        };
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            match resolve(self.document, reference) {
                Target::Found(target) => self.check(target, instance, path, depth + 1, out),
                Target::Remote => self.stop(&format!(
                    "The schema refers to another document ({reference}), which is not checked."
                )),
                Target::Missing => self.stop(&format!(
                    "The schema refers to {reference}, which it does not define; that part is not checked."
                )),
            }
        }
        self.type_and_values(map, instance, path, out);
        match instance {
            Value::Number(_) => self.number(map, instance, path, out),
            Value::String(text) => self.string(map, text, path, out),
            Value::Array(items) => self.array(map, items, path, depth, out),
            Value::Object(members) => self.object(map, instance, members, path, depth, out),
            _ => {}
        }
        self.combinators(map, instance, path, depth, out);
    }

    fn type_and_values(
        &mut self,
        map: &Map<String, Value>,
        instance: &Value,
        path: &str,
        out: &mut Vec<Issue>,
    ) {
        let names: Vec<&str> = match map.get("type") {
            Some(Value::String(name)) => vec![name],
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if !names.is_empty() && !names.iter().any(|name| has_type(instance, name)) {
            issue(
                out,
                path,
                format!(
                    "Expected {}, got {}.",
                    names.join(" or "),
                    type_of(instance)
                ),
            );
        }
        if let Some(values) = map.get("enum").and_then(Value::as_array) {
            if !values.iter().any(|v| json_equal(v, instance)) {
                let listed: Vec<String> = values.iter().take(10).map(short).collect();
                let more = if values.len() > 10 { ", …" } else { "" };
                issue(
                    out,
                    path,
                    format!("Must be one of: {}{more}.", listed.join(", ")),
                );
            }
        }
        if let Some(expected) = map.get("const") {
            if !json_equal(expected, instance) {
                issue(out, path, format!("Must be {}.", short(expected)));
            }
        }
    }

    fn number(
        &mut self,
        map: &Map<String, Value>,
        instance: &Value,
        path: &str,
        out: &mut Vec<Issue>,
    ) {
        let Some(x) = instance.as_f64() else { return };
        let bound = |key: &str| map.get(key).and_then(Value::as_f64);
        let flag = |key: &str| map.get(key).and_then(Value::as_bool) == Some(true);
        if let Some(min) = bound("minimum") {
            if flag("exclusiveMinimum") && x <= min {
                issue(
                    out,
                    path,
                    format!("Must be greater than {}.", short(&map["minimum"])),
                );
            } else if x < min {
                issue(
                    out,
                    path,
                    format!("Must be at least {}.", short(&map["minimum"])),
                );
            }
        }
        if let Some(max) = bound("maximum") {
            if flag("exclusiveMaximum") && x >= max {
                issue(
                    out,
                    path,
                    format!("Must be less than {}.", short(&map["maximum"])),
                );
            } else if x > max {
                issue(
                    out,
                    path,
                    format!("Must be at most {}.", short(&map["maximum"])),
                );
            }
        }
        if let Some(min) = bound("exclusiveMinimum") {
            if x <= min {
                issue(
                    out,
                    path,
                    format!("Must be greater than {}.", short(&map["exclusiveMinimum"])),
                );
            }
        }
        if let Some(max) = bound("exclusiveMaximum") {
            if x >= max {
                issue(
                    out,
                    path,
                    format!("Must be less than {}.", short(&map["exclusiveMaximum"])),
                );
            }
        }
        if let Some(step) = bound("multipleOf").filter(|m| *m > 0.0) {
            if !is_multiple(instance, x, step) {
                issue(
                    out,
                    path,
                    format!("Must be a multiple of {}.", short(&map["multipleOf"])),
                );
            }
        }
    }

    fn string(&mut self, map: &Map<String, Value>, text: &str, path: &str, out: &mut Vec<Issue>) {
        let length = text.chars().count() as u64;
        if let Some(min) = map.get("minLength").and_then(Value::as_u64) {
            if length < min {
                issue(
                    out,
                    path,
                    format!("Must be at least {min} characters long."),
                );
            }
        }
        if let Some(max) = map.get("maxLength").and_then(Value::as_u64) {
            if length > max {
                issue(out, path, format!("Must be at most {max} characters long."));
            }
        }
        if let Some(pattern) = map.get("pattern").and_then(Value::as_str) {
            match self.patterns.is_match(pattern, text) {
                Some(true) => {}
                Some(false) => issue(out, path, format!("Must match the pattern {pattern}.")),
                None => self.stop(&format!("The pattern {pattern} could not be checked.")),
            }
        }
        if let Some(name) = map.get("format").and_then(Value::as_str) {
            if let Some(Err(why)) = format::check(name, text) {
                issue(out, path, sentence(&why));
            }
        }
    }

    fn array(
        &mut self,
        map: &Map<String, Value>,
        items: &[Value],
        path: &mut String,
        depth: usize,
        out: &mut Vec<Issue>,
    ) {
        let count = items.len() as u64;
        if let Some(min) = map.get("minItems").and_then(Value::as_u64) {
            if count < min {
                issue(
                    out,
                    path,
                    format!("Needs at least {min} item{}.", plural(min)),
                );
            }
        }
        if let Some(max) = map.get("maxItems").and_then(Value::as_u64) {
            if count > max {
                issue(
                    out,
                    path,
                    format!("Allows at most {max} item{}.", plural(max)),
                );
            }
        }
        let (prefix, rest) = match (map.get("prefixItems"), map.get("items")) {
            (Some(Value::Array(prefix)), rest) => (prefix.as_slice(), rest),
            (None, Some(Value::Array(prefix))) => (prefix.as_slice(), map.get("additionalItems")),
            (_, rest) => (&[][..], rest),
        };
        for (i, item) in items.iter().enumerate() {
            let schema = match prefix.get(i) {
                Some(schema) => schema,
                None => match rest {
                    Some(schema) => schema,
                    None => continue,
                },
            };
            if i >= prefix.len() && schema == &Value::Bool(false) {
                issue(
                    out,
                    path,
                    format!(
                        "Allows at most {} item{}.",
                        prefix.len(),
                        plural(prefix.len() as u64)
                    ),
                );
                break;
            }
            let mark = push_token(path, &i.to_string());
            self.check(schema, item, path, depth + 1, out);
            path.truncate(mark);
        }
        if map.get("uniqueItems").and_then(Value::as_bool) == Some(true) {
            self.unique(items, path, out);
        }
        if let Some(contains) = map.get("contains") {
            let matching = items
                .iter()
                .filter(|item| {
                    let mut scratch = Vec::new();
                    self.check(contains, item, &mut String::new(), depth + 1, &mut scratch);
                    scratch.is_empty()
                })
                .count() as u64;
            let min = map.get("minContains").and_then(Value::as_u64).unwrap_or(1);
            if matching < min {
                issue(
                    out,
                    path,
                    format!(
                        "Needs at least {min} item{} of the required kind.",
                        plural(min)
                    ),
                );
            }
            if let Some(max) = map.get("maxContains").and_then(Value::as_u64) {
                if matching > max {
                    issue(
                        out,
                        path,
                        format!("Allows at most {max} item{} of that kind.", plural(max)),
                    );
                }
            }
        }
    }

    fn unique(&mut self, items: &[Value], path: &str, out: &mut Vec<Issue>) {
        for (i, a) in items.iter().enumerate() {
            for (j, b) in items.iter().enumerate().skip(i + 1) {
                self.steps += 1;
                if self.steps > STEP_BUDGET {
                    return self.stop("The list is too long to check for duplicates.");
                }
                if json_equal(a, b) {
                    return issue(
                        out,
                        path,
                        format!(
                            "Items {} and {} are the same; each must be different.",
                            i + 1,
                            j + 1
                        ),
                    );
                }
            }
        }
    }

    fn object(
        &mut self,
        map: &Map<String, Value>,
        instance: &Value,
        members: &Map<String, Value>,
        path: &mut String,
        depth: usize,
        out: &mut Vec<Issue>,
    ) {
        let count = members.len() as u64;
        if let Some(min) = map.get("minProperties").and_then(Value::as_u64) {
            if count < min {
                issue(
                    out,
                    path,
                    format!("Needs at least {min} key{}.", plural(min)),
                );
            }
        }
        if let Some(max) = map.get("maxProperties").and_then(Value::as_u64) {
            if count > max {
                issue(
                    out,
                    path,
                    format!("Allows at most {max} key{}.", plural(max)),
                );
            }
        }
        for name in map
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(name) = name.as_str() {
                if !members.contains_key(name) {
                    let mark = push_token(path, name);
                    issue(out, path, "Required.".into());
                    path.truncate(mark);
                }
            }
        }
        let properties = map.get("properties").and_then(Value::as_object);
        let patterns = map.get("patternProperties").and_then(Value::as_object);
        for (key, value) in members {
            let mark = push_token(path, key);
            let mut matched = false;
            if let Some(schema) = properties.and_then(|p| p.get(key)) {
                matched = true;
                self.check(schema, value, path, depth + 1, out);
            }
            for (pattern, schema) in patterns.into_iter().flatten() {
                match self.patterns.is_match(pattern, key) {
                    Some(true) => {
                        matched = true;
                        self.check(schema, value, path, depth + 1, out);
                    }
                    Some(false) => {}
                    None => {
                        matched = true;
                        self.stop(&format!("The pattern {pattern} could not be checked."));
                    }
                }
            }
            if !matched {
                match map.get("additionalProperties") {
                    Some(Value::Bool(false)) => {
                        issue(out, path, "This key is not allowed here.".into())
                    }
                    Some(schema) => self.check(schema, value, path, depth + 1, out),
                    None => {}
                }
            }
            if let Some(names) = map.get("propertyNames") {
                let mut scratch = Vec::new();
                self.check(
                    names,
                    &Value::String(key.clone()),
                    &mut String::new(),
                    depth + 1,
                    &mut scratch,
                );
                if let Some(first) = scratch.first() {
                    issue(
                        out,
                        path,
                        format!("The key is not allowed: {}", first.message),
                    );
                }
            }
            path.truncate(mark);
        }
        let dependent = map
            .get("dependentRequired")
            .or_else(|| map.get("dependencies"))
            .and_then(Value::as_object);
        for (trigger, needed) in dependent.into_iter().flatten() {
            if !members.contains_key(trigger) {
                continue;
            }
            match needed {
                Value::Array(names) => {
                    for name in names.iter().filter_map(Value::as_str) {
                        if !members.contains_key(name) {
                            let mark = push_token(path, name);
                            issue(out, path, format!("Required when \"{trigger}\" is given."));
                            path.truncate(mark);
                        }
                    }
                }
                schema @ Value::Object(_) => self.check(schema, instance, path, depth + 1, out),
                _ => {}
            }
        }
        if let Some(schemas) = map.get("dependentSchemas").and_then(Value::as_object) {
            for (trigger, schema) in schemas {
                if members.contains_key(trigger) {
                    self.check(schema, instance, path, depth + 1, out);
                }
            }
        }
    }

    fn combinators(
        &mut self,
        map: &Map<String, Value>,
        instance: &Value,
        path: &mut String,
        depth: usize,
        out: &mut Vec<Issue>,
    ) {
        for schema in map
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.check(schema, instance, path, depth + 1, out);
        }
        for keyword in ["anyOf", "oneOf"] {
            let Some(options) = map.get(keyword).and_then(Value::as_array) else {
                continue;
            };
            let mut passing = Vec::new();
            let mut closest: Option<Vec<Issue>> = None;
            for (i, option) in options.iter().enumerate() {
                let mut found = Vec::new();
                self.check(option, instance, path, depth + 1, &mut found);
                if found.is_empty() {
                    passing.push(i);
                } else if closest.as_ref().is_none_or(|c| found.len() < c.len()) {
                    closest = Some(found);
                }
            }
            match passing.as_slice() {
                [] if !options.is_empty() => {
                    issue(out, path, format!("Matches none of the {} allowed shapes.", options.len()));
                    let room = MAX_ISSUES.saturating_sub(out.len());
                    out.extend(closest.unwrap_or_default().into_iter().take(room));
                }
                [first, second, ..] if keyword == "oneOf" => issue(
                    out,
                    path,
                    format!("Matches more than one allowed shape (options {} and {}); exactly one must match.", first + 1, second + 1),
                ),
                _ => {}
            }
        }
        if let Some(schema) = map.get("not") {
            let mut found = Vec::new();
            self.check(schema, instance, path, depth + 1, &mut found);
            if found.is_empty() {
                issue(out, path, "Matches a shape the schema rules out.".into());
            }
        }
        if let Some(condition) = map.get("if") {
            let mut found = Vec::new();
            self.check(condition, instance, path, depth + 1, &mut found);
            let branch = if found.is_empty() {
                map.get("then")
            } else {
                map.get("else")
            };
            if let Some(branch) = branch {
                self.check(branch, instance, path, depth + 1, out);
            }
        }
    }
}

fn issue(out: &mut Vec<Issue>, path: &str, message: String) {
    if out.len() < MAX_ISSUES {
        out.push(Issue {
            path: path.to_owned(),
            message,
        });
    }
}

fn push_token(path: &mut String, token: &str) -> usize {
    let mark = path.len();
    path.push('/');
    path.push_str(&token.replace('~', "~0").replace('/', "~1"));
    mark
}

/// "not an email address" -> "Not an email address."
fn sentence(phrase: &str) -> String {
    let mut chars = phrase.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A value as a short piece of text in a message.
fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 40 {
        format!("{}…", text.chars().take(40).collect::<String>())
    } else {
        text
    }
}

fn has_type(instance: &Value, name: &str) -> bool {
    match (name, instance) {
        ("null", Value::Null)
        | ("boolean", Value::Bool(_))
        | ("number", Value::Number(_))
        | ("string", Value::String(_))
        | ("array", Value::Array(_))
        | ("object", Value::Object(_)) => true,
        ("integer", Value::Number(n)) => is_whole(n),
        _ => false,
    }
}

pub fn type_of(instance: &Value) -> &'static str {
    match instance {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if is_whole(n) => "an integer",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `multipleOf` without floating-point surprises: exact for integers, a relative tolerance
/// for decimals (0.3 is a multiple of 0.1).
fn is_multiple(instance: &Value, x: f64, step: f64) -> bool {
    if let (Some(i), true) = (
        instance.as_i64(),
        step.fract() == 0.0 && step.abs() < 9.0e15,
    ) {
        return i % (step as i64) == 0;
    }
    let quotient = x / step;
    if !quotient.is_finite() {
        return false;
    }
    (quotient - quotient.round()).abs() <= 1e-9 * quotient.abs().max(1.0)
}
