//! A `SKILL.md`'s YAML frontmatter, read into JSON so it can be compared field by field with
//! the skill entry's `frontmatter` (SEP-2640: any discrepancy forbids loading the skill).
//!
//! Only the YAML that frontmatter is written in is read: block mappings (nested by
//! indentation), block and flow sequences of scalars, plain, single- and double-quoted
//! scalars, literal and folded block scalars (`|`, `>`, with `-`/`+`), comments, and the core
//! schema's nulls, booleans and numbers. Anything else (anchors, aliases, tags, flow
//! mappings with content, several documents) is refused with a sentence rather than guessed
//! at: a comparison the client cannot make must not pass.

use serde_json::{Map, Number, Value};

/// The most frontmatter read (a skill's frontmatter is a few lines).
const MAX_BYTES: usize = 64 * 1024;
/// The deepest nesting read.
const MAX_DEPTH: usize = 16;

/// The frontmatter block of a `SKILL.md` (between the opening `---` line and the next
/// `---` line; a byte order mark first is skipped), and the body after it.
pub fn split(text: &str) -> Option<(&str, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line
            .trim_end_matches(['\n', '\r'])
            .trim_end_matches([' ', '\t'])
            == "---"
        {
            return Some((&rest[..offset], &rest[offset + line.len()..]));
        }
        offset += line.len();
    }
    None
}

/// One meaningful line: its indentation and its text without the comment.
#[derive(Debug, Clone, Copy)]
struct Line<'a> {
    indent: usize,
    text: &'a str,
    /// The raw line, for block scalars (whose `#` is text).
    raw: &'a str,
}

/// Reads frontmatter YAML into a JSON object. `Err` says what could not be read.
pub fn parse(yaml: &str) -> Result<Map<String, Value>, String> {
    if yaml.len() > MAX_BYTES {
        return Err(format!("the frontmatter is longer than {MAX_BYTES} bytes"));
    }
    let lines: Vec<Line> = yaml
        .lines()
        .map(|raw| {
            let indent = raw.len() - raw.trim_start_matches(' ').len();
            Line {
                indent,
                text: strip_comment(&raw[indent..]).trim_end(),
                raw,
            }
        })
        .collect();
    if lines
        .iter()
        .any(|line| line.raw.trim_start_matches(' ').starts_with('\t'))
    {
        return Err("it is indented with tabs, which YAML does not allow".to_owned());
    }
    let mut at = 0;
    skip_blank(&lines, &mut at);
    if at == lines.len() {
        return Ok(Map::new());
    }
    let indent = lines[at].indent;
    match block(&lines, &mut at, indent, 0)? {
        Value::Object(map) if at == lines.len() => Ok(map),
        Value::Object(_) => Err(format!(
            "line {} is indented less than the block it follows",
            at + 1
        )),
        _ => Err("it is not a mapping of fields".to_owned()),
    }
}

/// Drops a ` #` comment, outside quotes (a quote opens a quoted scalar only where one can
/// start, so the apostrophe of `Don't` is text).
fn strip_comment(text: &str) -> &str {
    if text.starts_with('#') {
        return "";
    }
    let mut open: Option<char> = None;
    let mut previous = ' ';
    for (index, c) in text.char_indices() {
        match (open, c) {
            (None, '\'' | '"') if matches!(previous, ' ' | '[' | ',' | ':') => open = Some(c),
            (Some('"'), '"') if previous != '\\' => open = None,
            (Some('\''), '\'') => open = None,
            (None, '#') if previous == ' ' || previous == '\t' => return &text[..index],
            _ => {}
        }
        previous = c;
    }
    text
}

fn skip_blank(lines: &[Line], at: &mut usize) {
    while *at < lines.len() && lines[*at].text.is_empty() {
        *at += 1;
    }
}

/// A block mapping or sequence whose lines start at `indent`.
fn block(lines: &[Line], at: &mut usize, indent: usize, depth: usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!("it nests deeper than {MAX_DEPTH} levels"));
    }
    let sequence = lines[*at].text == "-" || lines[*at].text.starts_with("- ");
    let mut map = Map::new();
    let mut items = Vec::new();
    loop {
        skip_blank(lines, at);
        let Some(line) = lines.get(*at).copied() else {
            break;
        };
        if line.indent < indent {
            break;
        }
        if line.indent > indent {
            return Err(format!(
                "line {} is indented more than the lines before it",
                *at + 1
            ));
        }
        *at += 1;
        if sequence {
            let Some(item) = line
                .text
                .strip_prefix('-')
                .filter(|r| r.is_empty() || r.starts_with(' '))
            else {
                return Err(format!("line {} mixes a list and fields", *at));
            };
            let item = item.trim_start();
            if item.is_empty() || item.contains(": ") || item.ends_with(':') {
                return Err(format!(
                    "line {}: lists of anything but plain values are not read",
                    *at
                ));
            }
            items.push(scalar(item, *at)?);
            continue;
        }
        let (key, value) = split_key(line.text)
            .ok_or_else(|| format!("line {} is not a \"field: value\" line", *at))?;
        if map.contains_key(&key) {
            return Err(format!("the field \"{key}\" appears twice"));
        }
        let value = match value {
            "" => {
                skip_blank(lines, at);
                match lines.get(*at) {
                    Some(next) if next.indent > indent => block(lines, at, next.indent, depth + 1)?,
                    // A list may sit at its key's indentation (`key:` then `- item`).
                    Some(next) if next.indent == indent && next.text.starts_with("- ") => {
                        block(lines, at, indent, depth + 1)?
                    }
                    _ => Value::Null,
                }
            }
            header if header.starts_with('|') || header.starts_with('>') => {
                block_scalar(header, lines, at, indent)?
            }
            value => scalar(value, *at)?,
        };
        map.insert(key, value);
    }
    Ok(if sequence {
        Value::Array(items)
    } else {
        Value::Object(map)
    })
}

/// `key: value` (the value may be empty), with a plain or quoted key.
fn split_key(text: &str) -> Option<(String, &str)> {
    if text.starts_with(['"', '\'']) {
        let quote = text.chars().next()?;
        let end = text[1..].find(quote)? + 1;
        let key = text[1..end].to_owned();
        let rest = text[end + 1..].strip_prefix(':')?;
        return (rest.is_empty() || rest.starts_with(' ')).then(|| (key, rest.trim()));
    }
    if text.starts_with(['?', '&', '*', '!', '-', '[', '{']) {
        return None;
    }
    let colon = text
        .find(": ")
        .or_else(|| text.ends_with(':').then(|| text.len() - 1))?;
    let key = text[..colon].trim();
    (!key.is_empty()).then(|| (key.to_owned(), text[colon + 1..].trim()))
}

/// A literal (`|`) or folded (`>`) block scalar, with its chomping indicator.
fn block_scalar(
    header: &str,
    lines: &[Line],
    at: &mut usize,
    indent: usize,
) -> Result<Value, String> {
    let (style, chomp) = header.split_at(1);
    if !matches!(chomp, "" | "-" | "+") {
        return Err(format!(
            "line {}: the block scalar header \"{header}\" is not read",
            *at
        ));
    }
    let mut body: Vec<&str> = Vec::new();
    let mut content_indent = None;
    while let Some(line) = lines.get(*at) {
        let blank = line.raw.trim().is_empty();
        if !blank && line.indent <= indent {
            break;
        }
        if blank {
            body.push("");
        } else {
            let strip = *content_indent.get_or_insert(line.indent);
            if line.indent < strip {
                return Err(format!(
                    "line {} is indented less than the text block it continues",
                    *at + 1
                ));
            }
            body.push(&line.raw[strip..]);
        }
        *at += 1;
    }
    let trailing = body.iter().rev().take_while(|l| l.is_empty()).count();
    let kept = &body[..body.len() - trailing];
    let mut text = if style == "|" {
        kept.join("\n")
    } else {
        // Folded: lines join with a space; an empty line stays a line break.
        let mut folded = String::new();
        for (index, line) in kept.iter().enumerate() {
            if index > 0 {
                folded.push(if line.is_empty() || kept[index - 1].is_empty() {
                    '\n'
                } else {
                    ' '
                });
            }
            folded.push_str(line);
        }
        folded.replace("\n\n", "\n")
    };
    match chomp {
        "-" => {}
        "+" => text.push_str(&"\n".repeat(trailing + 1)),
        _ if !kept.is_empty() => text.push('\n'),
        _ => {}
    }
    Ok(Value::String(text))
}

/// A flow or quoted or plain scalar (or a flow sequence of them).
fn scalar(text: &str, line: usize) -> Result<Value, String> {
    let unread = |what: &str| Err(format!("line {line}: {what} is not read"));
    match text.chars().next() {
        Some('"') => double_quoted(text)
            .ok_or_else(|| format!("line {line}: an unterminated \"quoted\" value")),
        Some('\'') => match text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
            Some(inner) if !inner.replace("''", "").contains('\'') => {
                Ok(Value::String(inner.replace("''", "'")))
            }
            _ => Err(format!("line {line}: an unterminated 'quoted' value")),
        },
        Some('[') => {
            let inner = text.strip_prefix('[').and_then(|t| t.strip_suffix(']'));
            let Some(inner) = inner.filter(|i| !i.contains(['[', '{'])) else {
                return unread("a nested flow sequence");
            };
            if inner.trim().is_empty() {
                return Ok(Value::Array(Vec::new()));
            }
            inner
                .split(',')
                .map(|item| scalar(item.trim(), line))
                .collect::<Result<_, _>>()
                .map(Value::Array)
        }
        Some('{') if text.replace(' ', "") == "{}" => Ok(Value::Object(Map::new())),
        Some('{') => unread("a flow mapping"),
        Some('&') => unread("an anchor"),
        Some('*') => unread("an alias"),
        Some('!') => unread("a tag"),
        Some('|' | '>' | '%' | '@' | '`') => unread("this value"),
        _ => Ok(plain(text)),
    }
}

fn double_quoted(text: &str) -> Option<Value> {
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    // YAML's double-quoted escapes are JSON's and a few more; JSON's are the common ones.
    let json: Value = serde_json::from_str(&format!("\"{inner}\"")).ok()?;
    json.is_string().then_some(json)
}

/// A plain scalar by the core schema: null, booleans, integers, floats, else text.
fn plain(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(integer) = text.trim_start_matches('+').parse::<i64>() {
            return Value::from(integer);
        }
    }
    let float_shaped = !digits.is_empty()
        && digits
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'))
        && digits.bytes().filter(|b| *b == b'.').count() <= 1
        && digits
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_digit() || b == b'.');
    if float_shaped {
        if let Some(number) = text.parse::<f64>().ok().and_then(Number::from_f64) {
            return Value::Number(number);
        }
    }
    Value::String(text.to_owned())
}

/// Whether two frontmatter values are the same content: numbers by value (YAML `1.0` and
/// JSON `1` are one number), everything else exactly; an absent field equals `null`.
pub fn same(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a.unwrap_or(&Value::Null), b.unwrap_or(&Value::Null)) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(Some(x), Some(y)))
        }
        (Value::Object(x), Value::Object(y)) => x
            .keys()
            .chain(y.keys())
            .all(|key| same(x.get(key), y.get(key))),
        (x, y) => x == y,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(text: &str) -> Result<Value, String> {
        let (yaml, _) = split(text).ok_or("no frontmatter")?;
        parse(yaml).map(Value::Object)
    }

    #[test]
    fn the_conformance_skill_and_the_specification_s_fields_are_read() {
        let skill = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nSkill body.\n";
        assert_eq!(
            read(skill).unwrap(),
            json!({"name": "pdf-processing", "description": "Extract, fill, and assemble PDF documents"})
        );
        assert_eq!(split(skill).unwrap().1, "\nSkill body.\n");
        let rich = "\u{feff}---\r\nname: refunds   # the skill\r\nlicense: 'Apache-2.0'\r\nmetadata:\r\n  version: 2.1.0\r\n  count: 3\r\n  ratio: 1.5\r\n  draft: false\r\n  owner: ~\r\nallowed-tools: [Bash, \"Read\"]\r\ntags:\r\n- a\r\n- 'b c'\r\n---   \r\nbody";
        assert_eq!(
            read(rich).unwrap(),
            json!({"name": "refunds", "license": "Apache-2.0",
                "metadata": {"version": "2.1.0", "count": 3, "ratio": 1.5, "draft": false, "owner": null},
                "allowed-tools": ["Bash", "Read"], "tags": ["a", "b c"]})
        );
    }

    #[test]
    fn block_scalars_keep_or_fold_their_lines() {
        let literal =
            "---\ndescription: |\n\n  line one\n    line two\n\nname: Don't stop # here\n---\n";
        assert_eq!(
            read(literal).unwrap()["description"],
            "\nline one\n  line two\n"
        );
        assert_eq!(read(literal).unwrap()["name"], "Don't stop");
        let folded = "---\ndescription: >-\n  Process refund\n  requests # not a comment\n\n  per policy\nname: x\n---\n";
        assert_eq!(
            read(folded).unwrap()["description"],
            "Process refund requests # not a comment\nper policy"
        );
        let kept = "---\nd: |+\n  a\n\n---\n";
        assert_eq!(read(kept).unwrap()["d"], "a\n\n");
        assert_eq!(read("---\nd: |\n---\n").unwrap()["d"], "");
    }

    #[test]
    fn yaml_beyond_frontmatter_is_refused_with_a_reason() {
        for (text, what) in [
            ("---\na: &x 1\n---\n", "anchor"),
            ("---\na: *x\n---\n", "alias"),
            ("---\na: !!str 1\n---\n", "tag"),
            ("---\na: {b: 1}\n---\n", "flow mapping"),
            ("---\na: 1\na: 2\n---\n", "twice"),
            ("---\n- a\n---\n", "not a mapping"),
            ("---\na: 1\n  b: 2\n---\n", "indented more"),
            ("---\na:\n\t b: 1\n---\n", "tabs"),
            ("---\na: \"open\n---\n", "unterminated"),
            (
                "---\na:\n  - b: 1\n---\n",
                "lists of anything but plain values",
            ),
        ] {
            let error = read(text).unwrap_err();
            assert!(error.contains(what), "{text:?}: {error}");
        }
        assert!(split("no frontmatter").is_none());
        assert!(split("---\nname: x\n").is_none());
        assert_eq!(read("---\n---\nbody").unwrap(), json!({}));
    }

    #[test]
    fn comparison_is_by_content() {
        assert!(same(Some(&json!(1.0)), Some(&json!(1))));
        assert!(same(None, Some(&Value::Null)));
        assert!(!same(Some(&json!("1")), Some(&json!(1))));
        assert!(same(
            Some(&json!({"a": [1, {"b": null}]})),
            Some(&json!({"a": [1.0, {}]}))
        ));
        assert!(!same(
            Some(&json!({"description": "Extract"})),
            Some(&json!({"description": "Exfiltrate credentials"}))
        ));
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn any_text_is_read_or_refused_without_panicking(text in "(---\n)?([a-z#:'\" \\-\\[\\]{}|>&*!~\t]{0,12}\n){0,12}(---\n)?") {
                if let Some((yaml, _)) = split(&text) {
                    let _ = parse(yaml);
                }
                let _ = parse(&text);
            }

            #[test]
            fn plain_fields_round_trip(key in "[a-z][a-z_-]{0,10}", value in "[A-Za-z][A-Za-z0-9 ,.()/-]{0,30}") {
                let value = value.trim_end().to_owned();
                let map = parse(&format!("{key}: {value}\n")).unwrap();
                let read = map[&key].clone();
                prop_assert!(read == Value::String(value.clone()) || !read.is_string(), "{:?} {:?}", read, value);
            }
        }
    }
}
