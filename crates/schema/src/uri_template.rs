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
mod tests {
    #[test]
    fn mcp_templates_become_forms_and_expand_from_their_values() {
        let template = UriTemplate::parse("weather://{city}/current{?units}");
        let schema = form_schema(&template);
        assert_eq!(
            schema,
            serde_json::json!({"type": "object", "properties": {
                "city": {"type": "string", "description": "part of the path"},
                "units": {"type": "string", "description": "query parameter"}
            }, "required": ["city"]})
        );
        let mut arguments = serde_json::Map::new();
        arguments.insert("city".into(), "São Paulo".into());
        assert_eq!(
            expand_arguments(&template, &arguments),
            "weather://S%C3%A3o%20Paulo/current"
        );
        arguments.insert("units".into(), "metric".into());
        assert_eq!(
            expand_arguments(&template, &arguments),
            "weather://S%C3%A3o%20Paulo/current?units=metric"
        );
        let files = UriTemplate::parse("files:///{+path}{/segments*}");
        let mut arguments = serde_json::Map::new();
        arguments.insert("path".into(), "a/b c".into());
        arguments.insert("segments".into(), serde_json::json!(["x", 1]));
        assert_eq!(expand_arguments(&files, &arguments), "files:///a/b%20c/x/1");
    }

    use super::*;
    use serde_json::Value;

    /// `spec-examples.json` from github.com/uri-templates/uritemplate-test: the examples of
    /// RFC 6570 section 1.2, by level.
    const SPEC_EXAMPLES: &str = r##"{
  "Level 1 Examples" :
  {
    "level": 1,
    "variables": {
       "var"   : "value",
       "hello" : "Hello World!"
     },
     "testcases" : [
        ["{var}", "value"],
        ["{hello}", "Hello%20World%21"]
     ]
  },
  "Level 2 Examples" :
  {
    "level": 2,
    "variables": {
       "var"   : "value",
       "hello" : "Hello World!",
       "path"  : "/foo/bar"
     },
     "testcases" : [
        ["{+var}", "value"],
        ["{+hello}", "Hello%20World!"],
        ["{+path}/here", "/foo/bar/here"],
        ["here?ref={+path}", "here?ref=/foo/bar"]
     ]
  },
  "Level 3 Examples" :
  {
    "level": 3,
    "variables": {
       "var"   : "value",
       "hello" : "Hello World!",
       "empty" : "",
       "path"  : "/foo/bar",
       "x"     : "1024",
       "y"     : "768"
     },
     "testcases" : [
        ["map?{x,y}", "map?1024,768"],
        ["{x,hello,y}", "1024,Hello%20World%21,768"],
        ["{+x,hello,y}", "1024,Hello%20World!,768"],
        ["{+path,x}/here", "/foo/bar,1024/here"],
        ["{#x,hello,y}", "#1024,Hello%20World!,768"],
        ["{#path,x}/here", "#/foo/bar,1024/here"],
        ["X{.var}", "X.value"],
        ["X{.x,y}", "X.1024.768"],
        ["{/var}", "/value"],
        ["{/var,x}/here", "/value/1024/here"],
        ["{;x,y}", ";x=1024;y=768"],
        ["{;x,y,empty}", ";x=1024;y=768;empty"],
        ["{?x,y}", "?x=1024&y=768"],
        ["{?x,y,empty}", "?x=1024&y=768&empty="],
        ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
        ["{&x,y,empty}", "&x=1024&y=768&empty="]
     ]
  },
  "Level 4 Examples" :
  {
    "level": 4,
    "variables": {
      "var": "value",
      "hello": "Hello World!",
      "path": "/foo/bar",
      "list": ["red", "green", "blue"],
      "keys": {"semi": ";", "dot": ".", "comma":","}
    },
    "testcases": [
      ["{var:3}", "val"],
      ["{var:30}", "value"],
      ["{list}", "red,green,blue"],
      ["{list*}", "red,green,blue"],
      ["{keys}", "comma,%2C,dot,.,semi,%3B"],
      ["{keys*}", "comma=%2C,dot=.,semi=%3B"],
      ["{+path:6}/here", "/foo/b/here"],
      ["{+list}", "red,green,blue"],
      ["{+list*}", "red,green,blue"],
      ["{+keys}", "comma,,,dot,.,semi,;"],
      ["{+keys*}", "comma=,,dot=.,semi=;"],
      ["{#path:6}/here", "#/foo/b/here"],
      ["{#list}", "#red,green,blue"],
      ["{#list*}", "#red,green,blue"],
      ["{#keys}", "#comma,,,dot,.,semi,;"],
      ["{#keys*}", "#comma=,,dot=.,semi=;"],
      ["X{.var:3}", "X.val"],
      ["X{.list}", "X.red,green,blue"],
      ["X{.list*}", "X.red.green.blue"],
      ["X{.keys}", "X.comma,%2C,dot,.,semi,%3B"],
      ["{/var:1,var}", "/v/value"],
      ["{/list}", "/red,green,blue"],
      ["{/list*}", "/red/green/blue"],
      ["{/list*,path:4}", "/red/green/blue/%2Ffoo"],
      ["{/keys}", "/comma,%2C,dot,.,semi,%3B"],
      ["{/keys*}", "/comma=%2C/dot=./semi=%3B"],
      ["{;hello:5}", ";hello=Hello"],
      ["{;list}", ";list=red,green,blue"],
      ["{;list*}", ";list=red;list=green;list=blue"],
      ["{;keys}", ";keys=comma,%2C,dot,.,semi,%3B"],
      ["{;keys*}", ";comma=%2C;dot=.;semi=%3B"],
      ["{?var:3}", "?var=val"],
      ["{?list}", "?list=red,green,blue"],
      ["{?list*}", "?list=red&list=green&list=blue"],
      ["{?keys}", "?keys=comma,%2C,dot,.,semi,%3B"],
      ["{?keys*}", "?comma=%2C&dot=.&semi=%3B"],
      ["{&var:3}", "&var=val"],
      ["{&list}", "&list=red,green,blue"],
      ["{&list*}", "&list=red&list=green&list=blue"],
      ["{&keys}", "&keys=comma,%2C,dot,.,semi,%3B"],
      ["{&keys*}", "&comma=%2C&dot=.&semi=%3B"]
    ]
  }
}"##;

    /// `spec-examples-by-section.json` from the same repository: every example of RFC 6570
    /// section 3.2. The file repeats one variable set in each section; it is given once here.
    const SECTION_3_2_EXAMPLES: &str = r##"{
  "variables": {
     "count"      : ["one", "two", "three"],
     "dom"        : ["example", "com"],
     "dub"        : "me/too",
     "hello"      : "Hello World!",
     "half"       : "50%",
     "var"        : "value",
     "who"        : "fred",
     "base"       : "http://example.com/home/",
     "path"       : "/foo/bar",
     "list"       : ["red", "green", "blue"],
     "keys"       : [ ["semi", ";"] , ["dot","."], ["comma",","] ],
     "v"          : "6",
     "x"          : "1024",
     "y"          : "768",
     "empty"      : "",
     "empty_keys" : [],
     "undef"      : null
  },
  "3.2.1 Variable Expansion" : [
     ["{count}", "one,two,three"],
     ["{count*}", "one,two,three"],
     ["{/count}", "/one,two,three"],
     ["{/count*}", "/one/two/three"],
     ["{;count}", ";count=one,two,three"],
     ["{;count*}", ";count=one;count=two;count=three"],
     ["{?count}", "?count=one,two,three"],
     ["{?count*}", "?count=one&count=two&count=three"],
     ["{&count*}", "&count=one&count=two&count=three"]
  ],
  "3.2.2 Simple String Expansion" : [
     ["{var}", "value"],
     ["{hello}", "Hello%20World%21"],
     ["{half}", "50%25"],
     ["O{empty}X", "OX"],
     ["O{undef}X", "OX"],
     ["{x,y}", "1024,768"],
     ["{x,hello,y}", "1024,Hello%20World%21,768"],
     ["?{x,empty}", "?1024,"],
     ["?{x,undef}", "?1024"],
     ["?{undef,y}", "?768"],
     ["{var:3}", "val"],
     ["{var:30}", "value"],
     ["{list}", "red,green,blue"],
     ["{list*}", "red,green,blue"],
     ["{keys}", "comma,%2C,dot,.,semi,%3B"],
     ["{keys*}", "comma=%2C,dot=.,semi=%3B"]
  ],
  "3.2.3 Reserved Expansion" : [
     ["{+var}", "value"],
     ["{+hello}", "Hello%20World!"],
     ["{+half}", "50%25"],
     ["{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"],
     ["{+base}index", "http://example.com/home/index"],
     ["O{+empty}X", "OX"],
     ["O{+undef}X", "OX"],
     ["{+path}/here", "/foo/bar/here"],
     ["{+path:6}/here", "/foo/b/here"],
     ["here?ref={+path}", "here?ref=/foo/bar"],
     ["up{+path}{var}/here", "up/foo/barvalue/here"],
     ["{+x,hello,y}", "1024,Hello%20World!,768"],
     ["{+path,x}/here", "/foo/bar,1024/here"],
     ["{+list}", "red,green,blue"],
     ["{+list*}", "red,green,blue"],
     ["{+keys}", "comma,,,dot,.,semi,;"],
     ["{+keys*}", "comma=,,dot=.,semi=;"]
  ],
  "3.2.4 Fragment Expansion" : [
     ["{#var}", "#value"],
     ["{#hello}", "#Hello%20World!"],
     ["{#half}", "#50%25"],
     ["foo{#empty}", "foo#"],
     ["foo{#undef}", "foo"],
     ["{#x,hello,y}", "#1024,Hello%20World!,768"],
     ["{#path,x}/here", "#/foo/bar,1024/here"],
     ["{#path:6}/here", "#/foo/b/here"],
     ["{#list}", "#red,green,blue"],
     ["{#list*}", "#red,green,blue"],
     ["{#keys}", "#comma,,,dot,.,semi,;"]
  ],
  "3.2.5 Label Expansion with Dot-Prefix" : [
     ["{.who}", ".fred"],
     ["{.who,who}", ".fred.fred"],
     ["{.half,who}", ".50%25.fred"],
     ["www{.dom*}", "www.example.com"],
     ["X{.var}", "X.value"],
     ["X{.var:3}", "X.val"],
     ["X{.empty}", "X."],
     ["X{.undef}", "X"],
     ["X{.list}", "X.red,green,blue"],
     ["X{.list*}", "X.red.green.blue"],
     ["X{.keys}", "X.comma,%2C,dot,.,semi,%3B"],
     ["X{.keys*}", "X.comma=%2C.dot=..semi=%3B"],
     ["X{.empty_keys}", "X"],
     ["X{.empty_keys*}", "X"]
  ],
  "3.2.6 Path Segment Expansion" : [
     ["{/who}", "/fred"],
     ["{/who,who}", "/fred/fred"],
     ["{/half,who}", "/50%25/fred"],
     ["{/who,dub}", "/fred/me%2Ftoo"],
     ["{/var}", "/value"],
     ["{/var,empty}", "/value/"],
     ["{/var,undef}", "/value"],
     ["{/var,x}/here", "/value/1024/here"],
     ["{/var:1,var}", "/v/value"],
     ["{/list}", "/red,green,blue"],
     ["{/list*}", "/red/green/blue"],
     ["{/list*,path:4}", "/red/green/blue/%2Ffoo"],
     ["{/keys}", "/comma,%2C,dot,.,semi,%3B"],
     ["{/keys*}", "/comma=%2C/dot=./semi=%3B"]
  ],
  "3.2.7 Path-Style Parameter Expansion" : [
     ["{;who}", ";who=fred"],
     ["{;half}", ";half=50%25"],
     ["{;empty}", ";empty"],
     ["{;hello:5}", ";hello=Hello"],
     ["{;v,empty,who}", ";v=6;empty;who=fred"],
     ["{;v,bar,who}", ";v=6;who=fred"],
     ["{;x,y}", ";x=1024;y=768"],
     ["{;x,y,empty}", ";x=1024;y=768;empty"],
     ["{;x,y,undef}", ";x=1024;y=768"],
     ["{;list}", ";list=red,green,blue"],
     ["{;list*}", ";list=red;list=green;list=blue"],
     ["{;keys}", ";keys=comma,%2C,dot,.,semi,%3B"],
     ["{;keys*}", ";comma=%2C;dot=.;semi=%3B"]
  ],
  "3.2.8 Form-Style Query Expansion" : [
     ["{?who}", "?who=fred"],
     ["{?half}", "?half=50%25"],
     ["{?x,y}", "?x=1024&y=768"],
     ["{?x,y,empty}", "?x=1024&y=768&empty="],
     ["{?x,y,undef}", "?x=1024&y=768"],
     ["{?var:3}", "?var=val"],
     ["{?list}", "?list=red,green,blue"],
     ["{?list*}", "?list=red&list=green&list=blue"],
     ["{?keys}", "?keys=comma,%2C,dot,.,semi,%3B"],
     ["{?keys*}", "?comma=%2C&dot=.&semi=%3B"]
  ],
  "3.2.9 Form-Style Query Continuation" : [
     ["{&who}", "&who=fred"],
     ["{&half}", "&half=50%25"],
     ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
     ["{&var:3}", "&var=val"],
     ["{&x,y,empty}", "&x=1024&y=768&empty="],
     ["{&x,y,undef}", "&x=1024&y=768"],
     ["{&list}", "&list=red,green,blue"],
     ["{&list*}", "&list=red&list=green&list=blue"],
     ["{&keys}", "&keys=comma,%2C,dot,.,semi,%3B"],
     ["{&keys*}", "&comma=%2C&dot=.&semi=%3B"]
  ]
}"##;

    /// A fixture variable as a template value. The fixtures' expected outputs list the
    /// `keys` pairs sorted by key (a JSON object has no order), so pairs are given sorted;
    /// [`rfc_text_keeps_the_order_of_pairs`] checks the RFC's own order.
    fn template_value(value: &Value) -> Option<TemplateValue> {
        match value {
            Value::String(text) => Some(TemplateValue::String(text.clone())),
            Value::Array(items) if items.iter().all(Value::is_array) => {
                let pairs = items.iter().filter_map(|item| pair(item.as_array()?));
                Some(sorted_pairs(pairs.collect()))
            }
            Value::Array(items) => Some(TemplateValue::List(
                items
                    .iter()
                    .filter_map(|i| Some(i.as_str()?.to_owned()))
                    .collect(),
            )),
            Value::Object(map) => Some(sorted_pairs(
                map.iter()
                    .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
                    .collect(),
            )),
            _ => None,
        }
    }

    fn pair(items: &[Value]) -> Option<(String, String)> {
        match items {
            [Value::String(key), Value::String(value)] => Some((key.clone(), value.clone())),
            _ => None,
        }
    }

    fn sorted_pairs(mut pairs: Vec<(String, String)>) -> TemplateValue {
        pairs.sort();
        TemplateValue::Pairs(pairs)
    }

    fn check_cases(group: &str, variables: &Value, cases: &Value) -> usize {
        let lookup = |name: &str| variables.get(name).and_then(template_value);
        let cases = cases.as_array().expect("testcases is an array");
        for case in cases {
            let template = case[0].as_str().expect("template is a string");
            let expected = case[1].as_str().expect("expected output is a string");
            let parsed = UriTemplate::parse(template);
            assert_eq!(parsed.problems(), &[] as &[String], "{group}: {template}");
            assert_eq!(parsed.expand(&lookup), expected, "{group}: {template}");
        }
        cases.len()
    }

    #[test]
    fn rfc_examples_by_level() {
        let fixture: Value = serde_json::from_str(SPEC_EXAMPLES).expect("fixture is JSON");
        let mut checked = 0;
        for (group, tests) in fixture.as_object().expect("fixture is an object") {
            checked += check_cases(group, &tests["variables"], &tests["testcases"]);
        }
        assert_eq!(checked, 2 + 4 + 16 + 41);
    }

    #[test]
    fn rfc_examples_of_section_3_2() {
        let fixture: Value = serde_json::from_str(SECTION_3_2_EXAMPLES).expect("fixture is JSON");
        let variables = &fixture["variables"];
        let mut checked = 0;
        for (group, cases) in fixture.as_object().expect("fixture is an object") {
            if group != "variables" {
                checked += check_cases(group, variables, cases);
            }
        }
        assert_eq!(checked, 9 + 16 + 17 + 11 + 14 + 14 + 13 + 10 + 10);
    }

    /// The RFC's variable `keys` is the ordered list (semi, dot, comma); its section 3.2
    /// examples show that order, including `{#keys*}`, which the fixture lacks.
    #[test]
    fn rfc_text_keeps_the_order_of_pairs() {
        let keys = TemplateValue::Pairs(vec![
            ("semi".into(), ";".into()),
            ("dot".into(), ".".into()),
            ("comma".into(), ",".into()),
        ]);
        let lookup = |name: &str| (name == "keys").then(|| keys.clone());
        let cases = [
            ("{keys}", "semi,%3B,dot,.,comma,%2C"),
            ("{keys*}", "semi=%3B,dot=.,comma=%2C"),
            ("{+keys}", "semi,;,dot,.,comma,,"),
            ("{+keys*}", "semi=;,dot=.,comma=,"),
            ("{#keys}", "#semi,;,dot,.,comma,,"),
            ("{#keys*}", "#semi=;,dot=.,comma=,"),
            ("X{.keys}", "X.semi,%3B,dot,.,comma,%2C"),
            ("X{.keys*}", "X.semi=%3B.dot=..comma=%2C"),
            ("{/keys}", "/semi,%3B,dot,.,comma,%2C"),
            ("{/keys*}", "/semi=%3B/dot=./comma=%2C"),
            ("{;keys}", ";keys=semi,%3B,dot,.,comma,%2C"),
            ("{;keys*}", ";semi=%3B;dot=.;comma=%2C"),
            ("{?keys}", "?keys=semi,%3B,dot,.,comma,%2C"),
            ("{?keys*}", "?semi=%3B&dot=.&comma=%2C"),
            ("{&keys}", "&keys=semi,%3B,dot,.,comma,%2C"),
            ("{&keys*}", "&semi=%3B&dot=.&comma=%2C"),
        ];
        for (template, expected) in cases {
            assert_eq!(
                UriTemplate::parse(template).expand(&lookup),
                expected,
                "{template}"
            );
        }
    }

    fn strings<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<TemplateValue> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| TemplateValue::String((*value).to_owned()))
        }
    }

    #[test]
    fn mcp_resource_templates() {
        let weather = UriTemplate::parse("weather://{city}/current{?units}");
        assert!(weather.problems().is_empty());
        let values = [("city", "São Paulo"), ("units", "metric")];
        assert_eq!(
            weather.expand(&strings(&values)),
            "weather://S%C3%A3o%20Paulo/current?units=metric"
        );
        assert_eq!(
            weather.expand(&strings(&[("city", "Oslo")])),
            "weather://Oslo/current"
        );

        let files = UriTemplate::parse("files:///{+path}");
        assert!(files.problems().is_empty());
        let values = [("path", "src/main rs/a?b#c")];
        assert_eq!(
            files.expand(&strings(&values)),
            "files:///src/main%20rs/a?b#c"
        );

        let demo = UriTemplate::parse("demo://resource/dynamic/text/{resourceId}");
        assert!(demo.problems().is_empty());
        let values = [("resourceId", "42")];
        assert_eq!(
            demo.expand(&strings(&values)),
            "demo://resource/dynamic/text/42"
        );
        assert_eq!(demo.expand(&|_| None), "demo://resource/dynamic/text/");
    }

    #[test]
    fn variables_in_order_of_first_appearance_without_duplicates() {
        let template = UriTemplate::parse("{/list*,path:4}{?q,list}x{#frag}{q}");
        let variables = template.variables();
        let expected = [
            ("list", '/', true, None),
            ("path", '/', false, Some(4)),
            ("q", '?', false, None),
            ("frag", '#', false, None),
        ];
        assert_eq!(variables.len(), expected.len());
        for (variable, (name, operator, explode, prefix)) in variables.iter().zip(expected) {
            assert_eq!(variable.name, name);
            assert_eq!(variable.operator, operator);
            assert_eq!(variable.explode, explode);
            assert_eq!(variable.prefix, prefix);
        }
        assert_eq!(UriTemplate::parse("{city}").variables()[0].operator, '\0');
    }

    #[test]
    fn malformed_templates_are_kept_as_text_and_reported() {
        let cases = [
            ("{", "{", "The expression at character 1 is not closed."),
            ("{}", "{}", "The expression at character 1 is empty."),
            ("{a", "{a", "The expression at character 1 is not closed."),
            (
                "x{?}",
                "x{?}",
                "The expression at character 2 has an operator but no variable.",
            ),
            ("{a:0}", "{a:0}", "prefix length \"0\""),
            (
                "{a:99999999999999999999}",
                "{a:99999999999999999999}",
                "1 to 9999",
            ),
            ("{a:10000}", "{a:10000}", "1 to 9999"),
            ("{a,,b}", "{a,,b}", "empty variable name"),
            ("{=x}", "{=x}", "reserves"),
            ("{a b}", "{a b}", "invalid variable name \"a b\""),
            ("{a..b}", "{a..b}", "invalid variable name"),
            ("{hello:2*}", "{hello:2*}", "invalid variable name"),
            ("a%", "a%25", "The percent sign at character 2"),
            ("a b", "a%20b", "The character ' ' at character 2"),
        ];
        for (text, expanded, problem) in cases {
            let template = UriTemplate::parse(text);
            assert_eq!(template.expand(&|_| None), expanded, "{text}");
            assert_eq!(
                template.problems().len(),
                1,
                "{text}: {:?}",
                template.problems()
            );
            assert!(
                template.problems()[0].contains(problem),
                "{text}: {:?}",
                template.problems()
            );
        }
    }

    #[test]
    fn braces_out_of_order_are_each_reported() {
        let template = UriTemplate::parse("}{");
        assert_eq!(
            template.problems(),
            [
                "The closing brace at character 1 has no opening brace.",
                "The expression at character 2 is not closed.",
            ]
        );
        assert_eq!(template.expand(&|_| None), "}{");

        let template = UriTemplate::parse("{a{b}");
        assert_eq!(
            template.problems(),
            ["The expression at character 1 is not closed."]
        );
        assert_eq!(template.expand(&strings(&[("b", "x")])), "{ax");
    }

    #[test]
    fn valid_templates_have_no_problems() {
        for text in [
            "",
            "a'b",
            "a%41b",
            "{%41}",
            "{a.b}",
            "{v:9999}",
            "a\u{e000}b",
            "ü/{x}",
        ] {
            assert_eq!(
                UriTemplate::parse(text).problems(),
                &[] as &[String],
                "{text}"
            );
        }
    }

    #[test]
    fn prefix_counts_characters_and_encodes_utf8() {
        let template = UriTemplate::parse("{word:2}/{+word:3}");
        let values = [("word", "ñandú")];
        assert_eq!(template.expand(&strings(&values)), "%C3%B1a/%C3%B1an");
    }

    #[test]
    fn prefix_on_a_list_uses_the_whole_list() {
        let template = UriTemplate::parse("{list:1}");
        let list = TemplateValue::List(vec!["red".into(), "green".into()]);
        assert_eq!(template.expand(&|_| Some(list.clone())), "red,green");
    }

    #[test]
    fn named_explode_with_empty_items() {
        let list = TemplateValue::List(vec!["a".into(), String::new()]);
        let pairs = TemplateValue::Pairs(vec![("k".into(), String::new())]);
        let expand = |text: &str, value: &TemplateValue| {
            UriTemplate::parse(text).expand(&|_| Some(value.clone()))
        };
        assert_eq!(expand("{?l*}", &list), "?l=a&l=");
        assert_eq!(expand("{;l*}", &list), ";l=a;l");
        assert_eq!(expand("{?p*}", &pairs), "?k=");
        assert_eq!(expand("{;p*}", &pairs), ";k");
    }

    #[test]
    fn literals_outside_the_uri_character_set_are_encoded() {
        let template = UriTemplate::parse("a<b>ü%zz%41");
        assert_eq!(template.expand(&|_| None), "a%3Cb%3E%C3%BC%25zz%41");
        assert_eq!(template.problems().len(), 3);
    }
}

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
