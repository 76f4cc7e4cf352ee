//! The file's text before and beside JSON: a byte-order mark, JSONC's comments and
//! trailing commas, and the line each server's key stands on.

use std::collections::HashMap;

/// The line (1-based) of each member key of the object at `path` (member keys from the root:
/// `["mcpServers"]`, `["mcp", "servers"]`; `[]` for the root object itself), the first if a
/// key is repeated. One pass over the text, whatever the number of entries: JSON with
/// JSONC's comments and trailing commas (the text was parsed already; on anything else the
/// lines found so far are returned).
pub(super) fn key_lines(text: &str, path: &[&str]) -> HashMap<String, usize> {
    /// A container being read: an object with the member key being read (decoded only at
    /// depths where it can be part of `path`), or an array.
    enum Frame {
        Object {
            key: Option<String>,
            expect_key: bool,
        },
        Array,
    }
    let bytes = text.as_bytes();
    let mut lines = HashMap::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut line = 1;
    let mut at = 0;
    // Whether the innermost frame is the object at `path`.
    let at_path = |stack: &[Frame]| {
        stack.len() == path.len() + 1
            && stack.iter().zip(path).all(|(frame, want)| {
                matches!(frame, Frame::Object { key: Some(key), .. } if key == want)
            })
    };
    while at < bytes.len() {
        match bytes[at] {
            b'\n' => line += 1,
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                while at < bytes.len() && bytes[at] != b'\n' {
                    at += 1;
                }
                continue; // the newline is counted on the next turn
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => {
                at += 2;
                while at < bytes.len() && !(bytes[at] == b'*' && bytes.get(at + 1) == Some(&b'/')) {
                    if bytes[at] == b'\n' {
                        line += 1;
                    }
                    at += 1;
                }
                at += 1;
            }
            b'"' => {
                let start = at;
                at += 1;
                while at < bytes.len() && bytes[at] != b'"' {
                    match bytes[at] {
                        b'\\' => at += 1,
                        b'\n' => line += 1,
                        _ => {}
                    }
                    at += 1;
                }
                let depth = stack.len();
                let is_path_object = at_path(&stack);
                if let Some(Frame::Object { key, expect_key }) = stack.last_mut() {
                    if *expect_key {
                        *expect_key = false;
                        // Keys are decoded only where they matter: on the way to `path`,
                        // or as the entries there.
                        *key = if depth <= path.len() + 1 {
                            text.get(start..=at.min(bytes.len() - 1))
                                .and_then(|quoted| serde_json::from_str::<String>(quoted).ok())
                        } else {
                            None
                        };
                        if let (true, Some(name)) = (is_path_object, key.as_ref()) {
                            lines.entry(name.clone()).or_insert(line);
                        }
                    }
                }
            }
            b'{' => stack.push(Frame::Object {
                key: None,
                expect_key: true,
            }),
            b'[' => stack.push(Frame::Array),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(Frame::Object { key, expect_key }) = stack.last_mut() {
                    *key = None;
                    *expect_key = true;
                }
            }
            _ => {}
        }
        at += 1;
    }
    lines
}

pub(super) fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Removes `//` and `/* */` comments (outside strings) and commas before `}` or `]`, keeping
/// line breaks so positions stay on their lines.
pub(super) fn strip_jsonc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                    }
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            _ => out.push(c),
        }
    }
    // Trailing commas.
    let mut result = String::with_capacity(out.len());
    let mut in_string = false;
    let mut escaped = false;
    let bytes: Vec<char> = out.chars().collect();
    for (i, &c) in bytes.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            result.push(c);
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        if c == ',' {
            let next = bytes[i + 1..].iter().find(|c| !c.is_whitespace());
            if matches!(next, Some('}' | ']')) {
                continue;
            }
        }
        result.push(c);
    }
    result
}
