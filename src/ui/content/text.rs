//! Long texts shown a part at a time: where a part ends (on a character boundary, after a line
//! when one is near), JSON formatted as it is shown (a part costs what it shows, never the
//! whole 10 MB), and sizes in words. Pure, tested natively; total on any input.

/// The end of the part of `text` starting at `from` that holds at most `max` bytes: after the
/// last newline in its second half when there is one, else on the last character boundary.
/// Always past `from` unless `from` is the end, so a reader advances even with `max` 0 or a
/// character longer than `max`. A `from` inside a character or past the end counts as the
/// next boundary.
pub fn chunk_end(text: &str, from: usize, max: usize) -> usize {
    let from = next_boundary(text, from);
    if text.len() - from <= max {
        return text.len();
    }
    let mut end = from + max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    if end == from {
        return next_boundary(text, from + 1);
    }
    match text[from..end].rfind('\n') {
        Some(newline) if newline + 1 > max / 2 => from + newline + 1,
        _ => end,
    }
}

/// `at`, or the first character boundary after it (the end at most).
fn next_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// A size for people: "512 bytes", "64.0 KB", "10.0 MB" (powers of 1024).
pub fn human_size(bytes: usize) -> String {
    const KB: f64 = 1024.0;
    let size = bytes as f64;
    if bytes < 1024 {
        format!("{bytes} bytes")
    } else if size < KB * KB {
        format!("{:.1} KB", size / KB)
    } else {
        format!("{:.1} MB", size / (KB * KB))
    }
}

/// Reads a text a part at a time: as it is, or formatted as JSON.
#[derive(Debug, Clone)]
pub enum Reader {
    Raw,
    Json(JsonFormatter),
}

impl Reader {
    /// The next part of `text` from `*pos`: at most about `max` bytes of output (a line or
    /// string longer than that may end it); `*pos` moves past what was read. Empty at the end.
    pub fn next(&mut self, text: &str, pos: &mut usize, max: usize) -> String {
        match self {
            Reader::Raw => {
                let from = next_boundary(text, *pos);
                let end = chunk_end(text, from, max);
                *pos = end;
                text[from..end].to_owned()
            }
            Reader::Json(formatter) => {
                let mut out = String::new();
                formatter.format(text, pos, max, &mut out);
                out
            }
        }
    }

    /// Whether what was shown is formatted JSON.
    pub fn is_json(&self) -> bool {
        matches!(self, Reader::Json(formatter) if !formatter.broken)
    }
}

/// The first part of `text` as shown (about `max` bytes), where reading stopped, and the
/// reader to continue with. JSON objects and arrays are formatted; text that is not JSON
/// (it breaks within the first part, or is all read and incomplete) is shown as it is.
pub fn first_part(text: &str, max: usize) -> (String, usize, Reader) {
    let starts_like_json = matches!(text.trim_start().as_bytes().first(), Some(b'{' | b'['));
    if starts_like_json {
        let mut reader = Reader::Json(JsonFormatter::default());
        let mut pos = 0;
        let part = reader.next(text, &mut pos, max);
        let fine = match &reader {
            Reader::Json(f) => !f.broken && (pos < text.len() || f.is_complete()),
            Reader::Raw => false,
        };
        if fine {
            return (part, pos, reader);
        }
    }
    let mut reader = Reader::Raw;
    let mut pos = 0;
    let part = reader.next(text, &mut pos, max);
    (part, pos, reader)
}

/// The whole of `text` formatted, when it is a JSON object or array.
#[cfg(test)]
pub fn pretty_json(text: &str) -> Option<String> {
    let (part, pos, reader) = first_part(text, usize::MAX);
    (pos == text.len() && reader.is_json()).then_some(part)
}

/// Deeper nesting than this is not formatted (its indentation alone would be huge).
const MAX_DEPTH: usize = 128;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Expect {
    /// The start: an object or an array.
    #[default]
    Top,
    Value,
    /// Just after `[`: a value or `]`.
    FirstValue,
    /// Just after `{`: a key or `}`.
    FirstKey,
    Key,
    Colon,
    CommaOrClose,
    /// The top-level value ended: only whitespace may follow.
    Done,
}

/// Formats JSON text the way `serde_json::to_string_pretty` does (two-space indent, `": "`,
/// empty containers as `[]` and `{}`), reading it as a stream: each call formats only what
/// it shows, and keeps its state for the next. Strings, numbers and literals are copied as
/// they are. At the first thing that is not JSON it stops formatting and copies the rest
/// verbatim (`broken`), so no character but whitespace between tokens is ever dropped.
#[derive(Debug, Clone, Default)]
pub struct JsonFormatter {
    /// The open containers, `{` or `[`.
    stack: Vec<u8>,
    expect: Expect,
    in_string: bool,
    in_key: bool,
    escape: bool,
    indent_pending: bool,
    /// A number or literal being read (it may continue in the next part).
    token: String,
    broken: bool,
}

impl JsonFormatter {
    /// A whole value was read and nothing is open.
    pub fn is_complete(&self) -> bool {
        !self.broken && self.expect == Expect::Done && !self.in_string && self.token.is_empty()
    }

    /// Formats `text[*pos..]` onto `out` until `out` grew by at least `max` bytes and ends a
    /// line (or a string longer than `max` is cut), or the text ends; moves `*pos`.
    pub fn format(&mut self, text: &str, pos: &mut usize, max: usize, out: &mut String) {
        let bytes = text.as_bytes();
        let start = out.len();
        let mut i = next_boundary(text, *pos);
        while i < bytes.len() {
            let grown = out.len() - start;
            // Full: grew by `max` (and by something, so every call advances).
            let full = grown > 0 && grown >= max;
            if self.broken {
                if full {
                    break;
                }
                let end = chunk_end(text, i, max.saturating_sub(grown));
                out.push_str(&text[i..end]);
                i = end;
                continue;
            }
            if self.in_string {
                if full {
                    break; // a long string is cut (i is on a character boundary)
                }
                if self.escape {
                    let end = next_boundary(text, i + 1);
                    out.push_str(&text[i..end]);
                    self.escape = false;
                    i = end;
                    continue;
                }
                let run = bytes[i..]
                    .iter()
                    .position(|&b| b == b'"' || b == b'\\')
                    .map_or(bytes.len(), |n| i + n);
                let mut end = run.min(i.saturating_add(max.saturating_sub(grown)));
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                if end > i {
                    out.push_str(&text[i..end]);
                    i = end;
                    continue;
                }
                if end < run {
                    // No room for even one character: take it anyway, to advance.
                    let end = next_boundary(text, i + 1);
                    out.push_str(&text[i..end]);
                    i = end;
                    continue;
                }
                out.push(bytes[i] as char);
                if bytes[i] == b'\\' {
                    self.escape = true;
                } else {
                    self.in_string = false;
                    if self.in_key {
                        self.expect = Expect::Colon;
                    } else {
                        self.after_value();
                    }
                }
                i += 1;
                continue;
            }
            let b = bytes[i];
            if !self.token.is_empty() {
                if is_token_byte(b) {
                    self.token.push(b as char);
                    i += 1;
                    continue;
                }
                if !self.end_token(out) {
                    continue; // broken: the rest is copied from here
                }
            }
            if b.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            if full && out.ends_with('\n') {
                break;
            }
            if self.step(b, out) {
                i += 1;
            }
        }
        if i >= bytes.len() && !self.token.is_empty() {
            self.end_token(out);
        }
        *pos = i;
    }

    /// One structural byte, a string's quote or a token's first byte; false when it is not
    /// JSON here (then `broken` is set and the byte is left for the verbatim copy).
    fn step(&mut self, b: u8, out: &mut String) -> bool {
        if matches!(self.expect, Expect::FirstValue | Expect::FirstKey) {
            let closer = if self.expect == Expect::FirstValue {
                b']'
            } else {
                b'}'
            };
            if b == closer {
                out.push(b as char);
                self.stack.pop();
                self.after_value();
                return true;
            }
            out.push('\n');
            self.indent_pending = true;
            self.expect = if self.expect == Expect::FirstValue {
                Expect::Value
            } else {
                Expect::Key
            };
        }
        match (b, self.expect) {
            (b'{' | b'[', Expect::Top | Expect::Value) if self.stack.len() < MAX_DEPTH => {
                self.indent(out);
                out.push(b as char);
                self.stack.push(b);
                self.expect = if b == b'{' {
                    Expect::FirstKey
                } else {
                    Expect::FirstValue
                };
            }
            (b'}' | b']', Expect::CommaOrClose)
                if self.stack.last() == Some(&if b == b'}' { b'{' } else { b'[' }) =>
            {
                self.stack.pop();
                out.push('\n');
                self.indent_pending = true;
                self.indent(out);
                out.push(b as char);
                self.after_value();
            }
            (b',', Expect::CommaOrClose) => {
                out.push_str(",\n");
                self.indent_pending = true;
                self.expect = if self.stack.last() == Some(&b'{') {
                    Expect::Key
                } else {
                    Expect::Value
                };
            }
            (b':', Expect::Colon) => {
                out.push_str(": ");
                self.expect = Expect::Value;
            }
            (b'"', Expect::Value | Expect::Key) => {
                self.indent(out);
                out.push('"');
                self.in_key = self.expect == Expect::Key;
                self.in_string = true;
            }
            (b'-' | b'0'..=b'9' | b't' | b'f' | b'n', Expect::Value) => {
                self.indent(out);
                self.token.push(b as char);
            }
            _ => {
                self.broken = true;
                return false;
            }
        }
        true
    }

    /// Ends the number or literal being read: copied out, or `broken` when it is not one.
    fn end_token(&mut self, out: &mut String) -> bool {
        let token = std::mem::take(&mut self.token);
        out.push_str(&token);
        if is_number(&token) || matches!(token.as_str(), "true" | "false" | "null") {
            self.after_value();
            true
        } else {
            self.broken = true;
            false
        }
    }

    fn after_value(&mut self) {
        self.expect = if self.stack.is_empty() {
            Expect::Done
        } else {
            Expect::CommaOrClose
        };
    }

    fn indent(&mut self, out: &mut String) {
        if self.indent_pending {
            for _ in 0..self.stack.len() {
                out.push_str("  ");
            }
            self.indent_pending = false;
        }
    }
}

fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')
}

/// A JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn is_number(token: &str) -> bool {
    let mut rest = token.strip_prefix('-').unwrap_or(token).as_bytes();
    let digits = |rest: &mut &[u8]| {
        let n = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        *rest = &rest[n..];
        n
    };
    match rest.first() {
        Some(b'0') => rest = &rest[1..],
        Some(b'1'..=b'9') => {
            digits(&mut rest);
        }
        _ => return false,
    }
    if let Some(b'.') = rest.first() {
        rest = &rest[1..];
        if digits(&mut rest) == 0 {
            return false;
        }
    }
    if let Some(b'e' | b'E') = rest.first() {
        rest = &rest[1..];
        if let Some(b'+' | b'-') = rest.first() {
            rest = &rest[1..];
        }
        if digits(&mut rest) == 0 {
            return false;
        }
    }
    rest.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// Reads all of `text` in parts of `max` bytes.
    fn parts(text: &str, max: usize) -> (Vec<String>, bool) {
        let (first, mut pos, mut reader) = first_part(text, max);
        let mut parts = vec![first];
        while pos < text.len() {
            let before = pos;
            parts.push(reader.next(text, &mut pos, max));
            assert!(pos > before, "a reader always advances");
        }
        (parts, reader.is_json())
    }

    #[test]
    fn chunks_end_after_a_line_or_on_a_character_boundary() {
        let text = "line one\nline two\nline three\n";
        assert_eq!(chunk_end(text, 0, 20), 18); // after "line two\n"
        assert_eq!(chunk_end(text, 0, 1000), text.len());
        // No newline in the second half: cut at the byte limit, on a boundary.
        let text = "ééééé"; // 2 bytes each
        assert_eq!(chunk_end(text, 0, 5), 4);
        assert_eq!(chunk_end(text, 1, 5), 6); // from inside a character: the next one
        assert_eq!(chunk_end(text, 0, 0), 2); // always advances
        assert_eq!(chunk_end(text, 0, 1), 2);
        assert_eq!(chunk_end(text, 99, 5), text.len());
        assert_eq!(chunk_end("", 0, 5), 0);
    }

    #[test]
    fn parts_of_any_text_join_to_the_text() {
        let samples = [
            "plain text\nwith lines\n".repeat(50),
            "ü😀a\n".repeat(300),
            "x".repeat(1000),
            "[INFO] not json\n".repeat(20),
            "{not json} at all".to_owned(),
            String::new(),
        ];
        for text in &samples {
            for max in [0, 1, 2, 3, 7, 64, 100_000] {
                let (parts, json) = parts(text, max);
                assert!(!json, "{text:?}");
                assert_eq!(parts.concat(), *text, "max {max}");
            }
        }
    }

    #[test]
    fn json_is_formatted_like_serde_pretty() {
        let value = json!({
            "a": [1, -2.5e3, true, null, "x\"y\\z", {}, [], {"b": []}],
            "é😀": {"nested": {"deep": [[["bottom"]]]}}, "empty": "",
        });
        let compact = serde_json::to_string(&value).unwrap();
        let expected = serde_json::to_string_pretty(&value).unwrap();
        assert_eq!(pretty_json(&compact).as_deref(), Some(expected.as_str()));
        // Whitespace between tokens does not matter; a part at a time gives the same text.
        let spaced = serde_json::to_string_pretty(&json!([value, value])).unwrap();
        let expected = serde_json::to_string_pretty(&json!([value, value])).unwrap();
        for max in [1, 5, 16, 40, 1000] {
            let (parts, json) = parts(&spaced, max);
            assert!(json);
            assert_eq!(parts.concat(), expected, "max {max}");
        }
        assert_eq!(pretty_json("[]").as_deref(), Some("[]"));
        assert_eq!(
            pretty_json(" {\"a\":1} \n").as_deref(),
            Some("{\n  \"a\": 1\n}")
        );
    }

    #[test]
    fn random_values_format_like_serde() {
        let mut seed = 0x2545F4914F6CDD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        fn value(next: &mut dyn FnMut() -> u64, depth: u32) -> Value {
            match next() % if depth > 4 { 4 } else { 6 } {
                0 => Value::from(next() as i64 % 1000),
                1 => Value::from((next() % 10_000) as f64 / 7.0),
                2 => Value::from(["", "a", "é\n\"\\", "😀", "\u{1}"][(next() % 5) as usize]),
                3 => [Value::Null, Value::Bool(true), Value::Bool(false)][(next() % 3) as usize]
                    .clone(),
                4 => Value::Array((0..next() % 4).map(|_| value(next, depth + 1)).collect()),
                _ => Value::Object(
                    (0..next() % 4)
                        .map(|n| (format!("k{n}"), value(next, depth + 1)))
                        .collect(),
                ),
            }
        }
        for _ in 0..500 {
            let value = Value::Array(vec![value(&mut next, 0)]);
            let compact = serde_json::to_string(&value).unwrap();
            let expected = serde_json::to_string_pretty(&value).unwrap();
            let max = (next() % 50) as usize;
            let (parts, json) = parts(&compact, max);
            assert!(json, "{compact}");
            assert_eq!(parts.concat(), expected, "{compact}");
        }
    }

    #[test]
    fn text_that_is_not_json_is_shown_as_it_is() {
        for text in [
            "[INFO] started",
            "{not json}",
            "[1, 2",
            "[1 2]",
            "[01]",
            "[1.]",
            "[-]",
            "[tru]",
            "{\"a\" 1}",
            "{\"a\": 1,}",
            "[1] [2]",
            "]",
            "\"just a string\"",
            "42",
        ] {
            assert_eq!(pretty_json(text), None, "{text}");
            let (part, pos, reader) = first_part(text, 1000);
            assert_eq!(
                (part.as_str(), pos, reader.is_json()),
                (text, text.len(), false)
            );
        }
        // Too deep to indent.
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(pretty_json(&deep), None);
        let deep_ok = format!("{}{}", "[".repeat(100), "]".repeat(100));
        assert!(pretty_json(&deep_ok).is_some());
    }

    #[test]
    fn json_that_breaks_after_the_first_part_keeps_the_rest_verbatim() {
        let text = format!("[{}\"x\"] oops, not json", "1, ".repeat(100));
        let (parts, json) = parts(&text, 30);
        assert!(!json);
        let joined = parts.concat();
        assert!(joined.starts_with("[\n  1,\n  1,\n"));
        assert!(joined.ends_with("\"x\"\n]oops, not json"), "{joined}");
    }

    #[test]
    fn a_long_string_is_cut_into_parts_on_character_boundaries() {
        let text = format!("[\"{}\"]", "é".repeat(10_000));
        let (parts, json) = parts(&text, 1000);
        assert!(json);
        assert!(parts.len() > 10);
        assert!(parts.iter().all(|p| p.len() <= 1100));
        assert_eq!(
            parts.concat(),
            serde_json::to_string_pretty(&json!(["é".repeat(10_000)])).unwrap()
        );
    }

    #[test]
    fn sizes_in_words() {
        assert_eq!(human_size(0), "0 bytes");
        assert_eq!(human_size(1023), "1023 bytes");
        assert_eq!(human_size(64 * 1024), "64.0 KB");
        assert_eq!(human_size(10 * 1024 * 1024), "10.0 MB");
    }
}
