//! RFC 6570 URI Templates, levels 1 to 4, for MCP resource templates.
//!
//! Parsing never fails: a server may send any text as a template, and the inspector must
//! still show it and let the user fill it in. A malformed expression is kept as literal text
//! (copied unchanged when expanding) and described in [`UriTemplate::problems`], so the UI can
//! say what is wrong instead of refusing the whole template.
//!
//! Expansion follows RFC 6570 section 3 and Appendix A: undefined variables and empty lists
//! or pairs are skipped, values are UTF-8 percent-encoded (only unreserved characters stay
//! as they are, plus reserved characters and `%XX` triplets for `+` and `#`), and a prefix
//! `:N` counts Unicode characters, not bytes.

use std::collections::HashSet;
use std::fmt::Write as _;

/// A parsed URI template: its literal text and expressions, and what was wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UriTemplate {
    parts: Vec<Part>,
    problems: Vec<String>,
}

/// A value for one template variable. Lists and pairs are RFC 6570 composite values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplateValue {
    String(String),
    List(Vec<String>),
    /// Key-value pairs, kept in the caller's order because the expansion shows that order.
    Pairs(Vec<(String, String)>),
}

/// A variable as the template first uses it, so a form can ask for it appropriately.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    pub name: String,
    /// `'\0'` for a simple expression, else one of `+ # . / ; ? &`.
    pub operator: char,
    /// `*`: lists and pairs expand to one item per element.
    pub explode: bool,
    /// `:N`: only the first N characters of a string value are used.
    pub prefix: Option<usize>,
}

/// One piece of a template, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    /// Text outside braces; expansion percent-encodes what a URI cannot hold (RFC 6570 3.1).
    Literal(String),
    /// Text that is not a valid expression; expansion copies it unchanged so it stays visible.
    Malformed(String),
    Expression(Expression),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Expression {
    operator: Operator,
    varspecs: Vec<VarSpec>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct VarSpec {
    name: String,
    explode: bool,
    prefix: Option<usize>,
}

/// How an operator expands, as in the table of RFC 6570 Appendix A.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Operator {
    symbol: char,
    first: &'static str,
    separator: &'static str,
    named: bool,
    if_empty: &'static str,
    allow_reserved: bool,
}

const SIMPLE: Operator = Operator {
    symbol: '\0',
    first: "",
    separator: ",",
    named: false,
    if_empty: "",
    allow_reserved: false,
};

/// The operators of levels 2 to 4; an expression without one of these uses [`SIMPLE`].
const OPERATORS: [Operator; 7] = [
    Operator {
        symbol: '+',
        first: "",
        allow_reserved: true,
        ..SIMPLE
    },
    Operator {
        symbol: '#',
        first: "#",
        allow_reserved: true,
        ..SIMPLE
    },
    Operator {
        symbol: '.',
        first: ".",
        separator: ".",
        ..SIMPLE
    },
    Operator {
        symbol: '/',
        first: "/",
        separator: "/",
        ..SIMPLE
    },
    Operator {
        symbol: ';',
        first: ";",
        separator: ";",
        named: true,
        ..SIMPLE
    },
    Operator {
        symbol: '?',
        first: "?",
        separator: "&",
        named: true,
        if_empty: "=",
        ..SIMPLE
    },
    Operator {
        symbol: '&',
        first: "&",
        separator: "&",
        named: true,
        if_empty: "=",
        ..SIMPLE
    },
];

/// Operators RFC 6570 reserves for future extensions: a template using one is not valid today.
const RESERVED_OPERATORS: [char; 5] = ['=', ',', '!', '@', '|'];

impl UriTemplate {
    /// Never fails: a malformed expression (unclosed brace, bad operator/varname) is kept as
    /// literal text and reported in `problems()`.
    pub fn parse(text: &str) -> Self {
        let chars: Vec<char> = text.chars().collect();
        let mut parser = Parser::default();
        let mut position = 0;
        // Every step consumes at least one character, so this ends.
        while let Some(&current) = chars.get(position) {
            position = match current {
                '{' => parser.expression(&chars, position),
                '}' => parser.stray_closing_brace(position),
                _ => parser.literal(&chars, position),
            };
        }
        UriTemplate {
            parts: parser.parts,
            problems: parser.problems,
        }
    }

    /// Human sentences, one per problem, in template order; empty for a valid template.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// The variables in order of first appearance, each once, as first written.
    pub fn variables(&self) -> Vec<Variable> {
        let mut seen = HashSet::new();
        let mut variables = Vec::new();
        for expression in self.expressions() {
            for spec in &expression.varspecs {
                if seen.insert(spec.name.as_str()) {
                    variables.push(Variable {
                        name: spec.name.clone(),
                        operator: expression.operator.symbol,
                        explode: spec.explode,
                        prefix: spec.prefix,
                    });
                }
            }
        }
        variables
    }

    /// The URI for these values; `values` answers `None` for an undefined variable.
    pub fn expand(&self, values: &dyn Fn(&str) -> Option<TemplateValue>) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Literal(text) => encode(text, true, &mut out),
                Part::Malformed(text) => out.push_str(text),
                Part::Expression(expression) => expand_expression(expression, values, &mut out),
            }
        }
        out
    }

    fn expressions(&self) -> impl Iterator<Item = &Expression> {
        self.parts.iter().filter_map(|part| match part {
            Part::Expression(expression) => Some(expression),
            _ => None,
        })
    }
}

/// Collects parts and problems while [`UriTemplate::parse`] walks the characters.
#[derive(Default)]
struct Parser {
    parts: Vec<Part>,
    problems: Vec<String>,
}

impl Parser {
    /// Handles the `{` at `start`; returns the position after what it consumed.
    fn expression(&mut self, chars: &[char], start: usize) -> usize {
        let after_brace = chars.get(start + 1..).unwrap_or_default();
        let stop = after_brace.iter().position(|&c| c == '{' || c == '}');
        match stop {
            Some(offset) if after_brace.get(offset) == Some(&'}') => {
                let end = start + offset + 2;
                let body = after_brace.get(..offset).unwrap_or_default();
                match parse_expression(body) {
                    Ok(expression) => self.parts.push(Part::Expression(expression)),
                    Err(reason) => self.malformed(chars, start, end, &reason),
                }
                end
            }
            // No `}` before the next `{` or the end: keep the text up to there as it is.
            _ => {
                let end = stop.map_or(chars.len(), |offset| start + offset + 1);
                self.malformed(chars, start, end, "is not closed.");
                end
            }
        }
    }

    fn malformed(&mut self, chars: &[char], start: usize, end: usize, reason: &str) {
        let text = chars.get(start..end).unwrap_or_default().iter().collect();
        self.parts.push(Part::Malformed(text));
        self.problems.push(format!(
            "The expression at character {} {reason}",
            start + 1
        ));
    }

    fn stray_closing_brace(&mut self, position: usize) -> usize {
        self.parts.push(Part::Malformed("}".to_owned()));
        self.problems.push(format!(
            "The closing brace at character {} has no opening brace.",
            position + 1
        ));
        position + 1
    }

    /// Takes the literal text from `start` up to the next brace, noting characters that a
    /// template may not contain (they are still expanded, percent-encoded).
    fn literal(&mut self, chars: &[char], start: usize) -> usize {
        let length = chars
            .get(start..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&c| c != '{' && c != '}')
            .count();
        let end = start + length;
        for position in start..end {
            self.check_literal_char(chars, position);
        }
        let text: String = chars.get(start..end).unwrap_or_default().iter().collect();
        match self.parts.last_mut() {
            Some(Part::Literal(previous)) => previous.push_str(&text),
            _ => self.parts.push(Part::Literal(text)),
        }
        end
    }

    fn check_literal_char(&mut self, chars: &[char], position: usize) {
        let Some(&current) = chars.get(position) else {
            return;
        };
        let character = position + 1;
        if current == '%' {
            let escape = chars.get(position + 1..position + 3).unwrap_or_default();
            if !escape.iter().all(char::is_ascii_hexdigit) || escape.len() != 2 {
                self.problems.push(format!(
                    "The percent sign at character {character} does not start a %XX escape."
                ));
            }
        } else if !is_literal_char(current) {
            self.problems.push(format!(
                "The character {current:?} at character {character} is not allowed in a URI template."
            ));
        }
    }
}

/// Parses the text between the braces, or says what is wrong with it.
fn parse_expression(body: &[char]) -> Result<Expression, String> {
    let Some((&first, after_first)) = body.split_first() else {
        return Err("is empty.".to_owned());
    };
    if RESERVED_OPERATORS.contains(&first) {
        return Err(format!(
            "uses the operator '{first}', which RFC 6570 reserves for future extensions."
        ));
    }
    let (operator, list) = match OPERATORS.iter().find(|op| op.symbol == first) {
        Some(&operator) => (operator, after_first),
        None => (SIMPLE, body),
    };
    if list.is_empty() {
        return Err("has an operator but no variable.".to_owned());
    }
    let varspecs = list
        .split(|&c| c == ',')
        .map(parse_varspec)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Expression { operator, varspecs })
}

/// `varname [ ":" max-length | "*" ]`.
fn parse_varspec(spec: &[char]) -> Result<VarSpec, String> {
    let text: String = spec.iter().collect();
    if text.is_empty() {
        return Err("has an empty variable name (a stray comma).".to_owned());
    }
    let (name, explode, prefix) = if let Some(name) = text.strip_suffix('*') {
        (name, true, None)
    } else if let Some((name, length)) = text.split_once(':') {
        (name, false, Some(parse_prefix(length)?))
    } else {
        (text.as_str(), false, None)
    };
    if !is_varname(name) {
        return Err(format!("has an invalid variable name {name:?}."));
    }
    Ok(VarSpec {
        name: name.to_owned(),
        explode,
        prefix,
    })
}

/// `max-length = %x31-39 0*3DIGIT`: 1 to 9999 without leading zeros.
fn parse_prefix(length: &str) -> Result<usize, String> {
    let well_formed = (1..=4).contains(&length.len())
        && length.bytes().all(|b| b.is_ascii_digit())
        && !length.starts_with('0');
    well_formed
        .then(|| length.parse().ok())
        .flatten()
        .ok_or_else(|| {
            format!("has the prefix length {length:?}; it must be a number from 1 to 9999.")
        })
}

/// `varname = varchar *( ["."] varchar )`, `varchar = ALPHA / DIGIT / "_" / pct-encoded`.
fn is_varname(name: &str) -> bool {
    !name.is_empty() && name.split('.').all(is_varchars)
}

fn is_varchars(segment: &str) -> bool {
    let mut chars = segment.chars();
    let mut any = false;
    while let Some(c) = chars.next() {
        let valid = match c {
            '%' => is_hex_pair(chars.next(), chars.next()),
            _ => c.is_ascii_alphanumeric() || c == '_',
        };
        if !valid {
            return false;
        }
        any = true;
    }
    any
}

fn is_hex_pair(first: Option<char>, second: Option<char>) -> bool {
    first.is_some_and(|c| c.is_ascii_hexdigit()) && second.is_some_and(|c| c.is_ascii_hexdigit())
}

/// RFC 6570 `literals` without `%` (checked separately). The apostrophe is accepted although
/// the RFC's ABNF leaves it out: it is a URI sub-delimiter, and the JSON Schema test suite
/// treats it as valid.
fn is_literal_char(c: char) -> bool {
    matches!(c, '!' | '#' | '$' | '&' | '\'' | '('..=';' | '=' | '?'..='[' | ']' | '_' | 'a'..='z' | '~')
        || is_ucschar(c)
        || is_iprivate(c)
}

/// RFC 3987 `ucschar`: the non-ASCII characters an IRI may hold.
pub fn is_ucschar(c: char) -> bool {
    let code = u32::from(c);
    matches!(code, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF | 0x1_0000..=0xE_FFFD)
        && (code & 0xFFFF) <= 0xFFFD
        && !(0xE_0000..0xE_1000).contains(&code)
}

/// RFC 3987 `iprivate`: private-use characters.
pub fn is_iprivate(c: char) -> bool {
    matches!(u32::from(c), 0xE000..=0xF8FF | 0xF_0000..=0xF_FFFD | 0x10_0000..=0x10_FFFD)
}

fn expand_expression(
    expression: &Expression,
    values: &dyn Fn(&str) -> Option<TemplateValue>,
    out: &mut String,
) {
    let operator = expression.operator;
    let mut first = true;
    for spec in &expression.varspecs {
        let Some(value) = values(&spec.name).filter(is_defined) else {
            continue;
        };
        out.push_str(if first {
            operator.first
        } else {
            operator.separator
        });
        first = false;
        expand_value(operator, spec, &value, out);
    }
}

/// RFC 6570 2.3: empty lists and pairs count as undefined; an empty string does not.
fn is_defined(value: &TemplateValue) -> bool {
    match value {
        TemplateValue::String(_) => true,
        TemplateValue::List(items) => !items.is_empty(),
        TemplateValue::Pairs(pairs) => !pairs.is_empty(),
    }
}

/// A prefix on a list or pairs is an error in RFC 6570 2.4.1; having no error channel here,
/// expansion ignores it and uses the whole value, which is what the user most likely wants.
fn expand_value(operator: Operator, spec: &VarSpec, value: &TemplateValue, out: &mut String) {
    match value {
        TemplateValue::String(text) => expand_string(operator, spec, text, out),
        TemplateValue::List(items) if spec.explode => {
            expand_exploded_list(operator, &spec.name, items, out);
        }
        TemplateValue::List(items) => {
            expand_joined(operator, &spec.name, items.iter().map(String::as_str), out);
        }
        TemplateValue::Pairs(pairs) if spec.explode => expand_exploded_pairs(operator, pairs, out),
        TemplateValue::Pairs(pairs) => {
            let flat = pairs.iter().flat_map(|(k, v)| [k.as_str(), v.as_str()]);
            expand_joined(operator, &spec.name, flat, out);
        }
    }
}

fn expand_string(operator: Operator, spec: &VarSpec, text: &str, out: &mut String) {
    let text = first_chars(text, spec.prefix);
    if operator.named {
        push_name(operator, &spec.name, text.is_empty(), out);
    }
    encode(text, operator.allow_reserved, out);
}

/// A composite value without `*`: one comma-separated item.
fn expand_joined<'a>(
    operator: Operator,
    name: &str,
    items: impl Iterator<Item = &'a str>,
    out: &mut String,
) {
    if operator.named {
        push_name(operator, name, false, out);
    }
    for (index, item) in items.enumerate() {
        if index > 0 {
            out.push(',');
        }
        encode(item, operator.allow_reserved, out);
    }
}

fn expand_exploded_list(operator: Operator, name: &str, items: &[String], out: &mut String) {
    for (index, item) in items.iter().enumerate() {
        if index > 0 {
            out.push_str(operator.separator);
        }
        if operator.named {
            push_name(operator, name, item.is_empty(), out);
        }
        encode(item, operator.allow_reserved, out);
    }
}

fn expand_exploded_pairs(operator: Operator, pairs: &[(String, String)], out: &mut String) {
    for (index, (key, value)) in pairs.iter().enumerate() {
        if index > 0 {
            out.push_str(operator.separator);
        }
        encode(key, operator.allow_reserved, out);
        if operator.named && value.is_empty() {
            out.push_str(operator.if_empty);
        } else {
            out.push('=');
        }
        encode(value, operator.allow_reserved, out);
    }
}

fn push_name(operator: Operator, name: &str, value_is_empty: bool, out: &mut String) {
    out.push_str(name);
    out.push_str(if value_is_empty {
        operator.if_empty
    } else {
        "="
    });
}

/// The first `limit` Unicode characters of `text` (all of it without a limit).
fn first_chars(text: &str, limit: Option<usize>) -> &str {
    match limit.and_then(|count| text.char_indices().nth(count)) {
        Some((end, _)) => text.get(..end).unwrap_or(text),
        None => text,
    }
}

/// Appends `text` percent-encoded as UTF-8. Unreserved characters stay; with
/// `allow_reserved`, so do reserved characters and existing `%XX` triplets.
fn encode(text: &str, allow_reserved: bool, out: &mut String) {
    for (index, c) in text.char_indices() {
        let keep = is_unreserved(c)
            || (allow_reserved
                && (is_reserved(c) || (c == '%' && starts_with_hex_pair(text.get(index + 1..)))));
        if keep {
            out.push(c);
        } else {
            let mut buffer = [0; 4];
            for byte in c.encode_utf8(&mut buffer).bytes() {
                // Writing to a String cannot fail.
                let _ = write!(out, "%{byte:02X}");
            }
        }
    }
}

fn starts_with_hex_pair(rest: Option<&str>) -> bool {
    rest.is_some_and(|rest| {
        let mut chars = rest.chars();
        is_hex_pair(chars.next(), chars.next())
    })
}

fn is_unreserved(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~')
}

fn is_reserved(c: char) -> bool {
    matches!(
        c,
        ':' | '/'
            | '?'
            | '#'
            | '['
            | ']'
            | '@'
            | '!'
            | '$'
            | '&'
            | '\''
            | '('
            | ')'
            | '*'
            | '+'
            | ','
            | ';'
            | '='
    )
}

/// A JSON Schema for a template's variables, so the same form engine asks for them: one
/// string per variable (a list for exploded ones, `{/path*}`), required when the variable is
/// part of the path (simple, `+`, `/`, `.` expressions), optional for `?`, `&`, `;`, `#`.
pub fn form_schema(template: &UriTemplate) -> serde_json::Value {
    let mut properties = serde_json::Map::new();
    let mut required = Vec::new();
    for variable in template.variables() {
        let (place, in_path) = match variable.operator {
            '?' | '&' => ("query parameter", false),
            ';' => ("path parameter", false),
            '#' => ("fragment", false),
            _ => ("part of the path", true),
        };
        let property = if variable.explode {
            serde_json::json!({"type": "array", "items": {"type": "string"}, "description": format!("{place}, one or more values")})
        } else {
            serde_json::json!({"type": "string", "description": place})
        };
        if in_path {
            required.push(serde_json::Value::from(variable.name.clone()));
        }
        properties.insert(variable.name, property);
    }
    serde_json::json!({"type": "object", "properties": properties, "required": required})
}

/// Expands a template with a form's values: strings as they are, numbers and booleans as
/// their JSON text, arrays as lists, objects as key-value pairs; anything absent is undefined.
pub fn expand_arguments(
    template: &UriTemplate,
    arguments: &serde_json::Map<String, serde_json::Value>,
) -> String {
    use serde_json::Value;
    let text = |value: &Value| match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    template.expand(&|name| match arguments.get(name)? {
        Value::Null => None,
        Value::Array(items) => Some(TemplateValue::List(items.iter().map(text).collect())),
        Value::Object(map) => Some(TemplateValue::Pairs(
            map.iter().map(|(k, v)| (k.clone(), text(v))).collect(),
        )),
        other => Some(TemplateValue::String(text(other))),
    })
}

#[cfg(test)]
mod tests;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn any_value() -> impl Strategy<Value = Option<TemplateValue>> {
        prop_oneof![
            Just(None),
            any::<String>().prop_map(|s| Some(TemplateValue::String(s))),
            proptest::collection::vec(any::<String>(), 0..4)
                .prop_map(|items| Some(TemplateValue::List(items))),
            proptest::collection::vec((any::<String>(), any::<String>()), 0..4)
                .prop_map(|pairs| Some(TemplateValue::Pairs(pairs))),
        ]
    }

    /// Text biased towards template syntax, so parsing reaches its deeper branches.
    fn template_like() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just("{".to_owned()),
                Just("}".to_owned()),
                "[+#./;?&=,!@|*:%0-9a-z.]{0,4}",
                any::<String>(),
            ],
            0..8,
        )
        .prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #[test]
        fn any_template_with_any_values_never_panics(
            text in prop_oneof![any::<String>(), template_like()],
            value in any_value(),
        ) {
            let template = UriTemplate::parse(&text);
            let _ = template.variables();
            let _ = template.expand(&|_| value.clone());
            let _ = template.expand(&|_| None);
        }

        #[test]
        fn templates_without_expressions_expand_to_themselves(
            text in "([A-Za-z0-9._~:/?#@!$&'()*+,;=\\[\\]-]|%[0-9A-Fa-f]{2})*",
        ) {
            let template = UriTemplate::parse(&text);
            prop_assert!(template.problems().is_empty());
            prop_assert_eq!(template.expand(&|_| None), text);
        }
    }
}
