//! Tool parameters mirrored into HTTP headers (SEP-2243, 2026-07-28 Streamable HTTP): a
//! tool's `inputSchema` may mark a property with `x-mcp-header: "Region"`, and every
//! `tools/call` of that tool then carries the argument's value in `Mcp-Param-Region` too, so
//! gateways can route on it without reading the body.
//!
//! - [`tool_headers`]: which parameters a tool mirrors, or why its annotations are invalid
//!   (an invalid tool must be left out of the tool list and never called).
//! - [`param_headers`]: the `Mcp-Param-*` headers of one call, values encoded as the
//!   specification says (strings as they are or `=?base64?…?=`, integers in decimal,
//!   booleans as `true`/`false`, nothing for a null or absent argument).
//! - [`ToolHeaders::cors_header_names`]: the header names a browser will ask the server to
//!   allow in its preflight, for the CORS diagnosis.
//! - [`after_header_mismatch`]: what to do when the server answers `-32020`.
//!
//! ```
//! use mcp_lens_protocol::headers::{param_headers, tool_headers};
//! use serde_json::json;
//! let schema = json!({"type": "object", "properties": {
//!     "region": {"type": "string", "x-mcp-header": "Region"}, "query": {"type": "string"}}});
//! let tool = tool_headers(&schema).unwrap();
//! let headers = param_headers(&tool, &json!({"region": "us-west1", "query": "SELECT 1"})).unwrap();
//! assert_eq!(headers, [("Mcp-Param-Region".to_owned(), "us-west1".to_owned())]);
//! ```

use crate::era::encode_header_value;
use serde_json::{Map, Value};
use std::fmt;

/// The annotation that marks a property for mirroring.
pub const ANNOTATION: &str = "x-mcp-header";
/// The prefix of every mirrored header's name (kept at the crate root, where the wire log's
/// redaction reads it too without depending on this module).
pub use crate::PARAM_HEADER_PREFIX;
/// JSON-RPC error: the headers do not match the body, or a required one is missing.
pub const HEADER_MISMATCH: i32 = -32020;
/// The largest integer a header may carry: the specification keeps integers within what an
/// IEEE 754 double represents exactly, so every peer reads the same number.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// The primitive JSON types a mirrored parameter may have (never `number`: a float's text
/// form is not unique, so header and body could disagree while meaning the same value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MirroredType {
    String,
    Integer,
    Boolean,
}

/// One parameter a tool mirrors into a header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MirroredParam {
    /// The chain of `properties` keys from the schema root to the parameter (nested object
    /// properties are allowed when every step is a `properties` key).
    pub path: Vec<String>,
    /// The annotation's value: the header is `Mcp-Param-{name}`.
    pub name: String,
    /// The primitive types the schema allows (one or more of them, `null` aside).
    pub types: Vec<MirroredType>,
}

impl MirroredParam {
    /// `Mcp-Param-{name}`, with the name's case as the server wrote it.
    pub fn header_name(&self) -> String {
        format!("{PARAM_HEADER_PREFIX}{}", self.name)
    }

    /// The parameter's path as a person reads it: `options.limit`.
    pub fn dotted_path(&self) -> String {
        self.path.join(".")
    }
}

/// What a valid tool mirrors (empty for most tools).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolHeaders {
    pub params: Vec<MirroredParam>,
}

impl ToolHeaders {
    /// The lowercase header names a call may carry: a browser lists them in the preflight's
    /// `Access-Control-Request-Headers`, so the server must allow each of them (or `*`).
    pub fn cors_header_names(&self) -> Vec<String> {
        self.params
            .iter()
            .map(|param| param.header_name().to_ascii_lowercase())
            .collect()
    }
}

/// The sentence for a call the browser blocked when the tool mirrors parameters: the
/// preflight asked for these headers and the server's CORS settings must allow them (no
/// other request of the session carries them, so only this tool's calls fail).
pub fn cors_refusal(tool_name: &str, tool: &ToolHeaders) -> Option<String> {
    let names = tool.cors_header_names();
    (!names.is_empty()).then(|| {
        format!(
            "the browser blocked the call of {}: its parameters are mirrored into {} (SEP-2243), so \
             the server's Access-Control-Allow-Headers must allow {} (or *) besides the usual MCP headers",
            crate::error::excerpt(tool_name, 80),
            if names.len() == 1 { "a header" } else { "headers" },
            names.join(", ")
        )
    })
}

/// Why a tool's `x-mcp-header` annotations make it invalid. `Display` is the sentence the
/// tool list shows after "not offered for calling: ".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InvalidAnnotation {
    /// The annotation is not a string at all.
    NotAString {
        at: String,
    },
    Empty {
        at: String,
    },
    /// Not an HTTP field-name token (RFC 9110 `1*tchar`): a space, a colon, a control or a
    /// non-ASCII character, or another separator.
    NotAToken {
        at: String,
        name: String,
        bad: char,
    },
    /// Two annotations name the same header, ignoring case (header names are
    /// case-insensitive, so the server could not tell the two apart).
    Duplicate {
        at: String,
        first_at: String,
        name: String,
    },
    /// The parameter is not a string, integer or boolean (`found` says what it is).
    NotPrimitive {
        at: String,
        name: String,
        found: String,
    },
    /// The annotation sits where no `properties` chain from the root reaches (inside
    /// `items`, `anyOf`, `$defs`, …): its value has no fixed place in the arguments.
    NotReachable {
        at: String,
        through: String,
    },
    /// The annotation is on the input schema itself, which is the whole arguments object.
    OnTheWholeSchema,
}

impl fmt::Display for InvalidAnnotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidAnnotation::NotAString { at } => {
                write!(f, "the {ANNOTATION} of {at} is not a string")
            }
            InvalidAnnotation::Empty { at } => write!(f, "the {ANNOTATION} of {at} is empty"),
            InvalidAnnotation::NotAToken { at, name, bad } => write!(
                f,
                "the {ANNOTATION} \"{}\" of {at} is not a valid header name: it contains {}",
                name.escape_debug(),
                describe_char(*bad)
            ),
            InvalidAnnotation::Duplicate { at, first_at, name } => write!(
                f,
                "the {ANNOTATION} \"{}\" of {at} names the same header as the one of {first_at} \
                 (header names ignore case)",
                name.escape_debug()
            ),
            InvalidAnnotation::NotPrimitive { at, name, found } => write!(
                f,
                "the {ANNOTATION} \"{}\" is on {at}, which is {found}; only string, integer and \
                 boolean parameters can be sent as headers",
                name.escape_debug()
            ),
            InvalidAnnotation::NotReachable { at, through } => write!(
                f,
                "an {ANNOTATION} sits at {at}, inside \"{through}\", where no chain of \
                 properties from the top reaches it"
            ),
            InvalidAnnotation::OnTheWholeSchema => write!(
                f,
                "the input schema itself carries an {ANNOTATION}, which belongs on one parameter"
            ),
        }
    }
}

fn describe_char(c: char) -> String {
    match c {
        ' ' => "a space".to_owned(),
        ':' => "a colon".to_owned(),
        '\t' => "a tab".to_owned(),
        '\r' | '\n' => "a line break".to_owned(),
        c if c.is_control() => format!("the control character U+{:04X}", u32::from(c)),
        c if !c.is_ascii() => format!("the non-ASCII character \"{c}\""),
        c => format!("\"{c}\""),
    }
}

/// RFC 9110 §5.6.2 `tchar`.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// Keywords whose value is one subschema, an array of them, or a map of them: where an
/// annotation could hide. Values of other keywords (`const`, `default`, `examples`, …) are
/// data, so a key spelled `x-mcp-header` there is not an annotation.
const SINGLE: [&str; 10] = [
    "items",
    "additionalProperties",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
];
const LISTS: [&str; 4] = ["allOf", "anyOf", "oneOf", "prefixItems"];
const MAPS: [&str; 4] = [
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
];

/// Where a subschema sits: at the end of a chain of `properties` keys from the root (its
/// path), or somewhere else, behind the first keyword that left the chain.
#[derive(Debug, Clone)]
enum Place {
    Reachable(Vec<String>),
    Hidden { behind: String },
}

/// A subschema still to visit, with its JSON pointer (for messages).
struct Visit<'a> {
    schema: &'a Value,
    pointer: String,
    place: Place,
}

/// Reads a tool's `inputSchema`: the parameters it mirrors, or every reason it is invalid.
/// Total on any JSON; the walk is iterative, so no schema depth can exhaust the stack.
pub fn tool_headers(input_schema: &Value) -> Result<ToolHeaders, Vec<InvalidAnnotation>> {
    let mut params = Vec::new();
    let mut problems = Vec::new();
    let mut stack = vec![Visit {
        schema: input_schema,
        pointer: String::new(),
        place: Place::Reachable(Vec::new()),
    }];
    while let Some(visit) = stack.pop() {
        let Value::Object(map) = visit.schema else {
            continue;
        };
        if let Some(annotation) = map.get(ANNOTATION) {
            match &visit.place {
                Place::Reachable(path) if path.is_empty() => {
                    problems.push(InvalidAnnotation::OnTheWholeSchema)
                }
                Place::Reachable(path) => {
                    let at = format!("the parameter \"{}\"", path.join("."));
                    match read_annotation(annotation, map, &at) {
                        Ok((name, types)) => params.push(MirroredParam {
                            path: path.clone(),
                            name,
                            types,
                        }),
                        Err(problem) => problems.push(problem),
                    }
                }
                Place::Hidden { behind } => problems.push(InvalidAnnotation::NotReachable {
                    at: display_pointer(&visit.pointer),
                    through: behind.clone(),
                }),
            }
        }
        push_subschemas(&mut stack, map, &visit);
    }
    params.sort_by(|a, b| a.path.cmp(&b.path));
    check_unique(&params, &mut problems);
    if problems.is_empty() {
        Ok(ToolHeaders { params })
    } else {
        Err(problems)
    }
}

fn push_subschemas<'a>(
    stack: &mut Vec<Visit<'a>>,
    map: &'a Map<String, Value>,
    parent: &Visit<'a>,
) {
    let pointer = |segments: &[&str]| {
        let mut pointer = parent.pointer.clone();
        for segment in segments {
            pointer.push('/');
            pointer.push_str(&escape_pointer(segment));
        }
        pointer
    };
    let hidden = |keyword: &str| match &parent.place {
        Place::Hidden { behind } => Place::Hidden {
            behind: behind.clone(),
        },
        Place::Reachable(_) => Place::Hidden {
            behind: keyword.to_owned(),
        },
    };
    if let Some(Value::Object(properties)) = map.get("properties") {
        for (name, schema) in properties {
            let place = match &parent.place {
                Place::Reachable(path) => {
                    let mut path = path.clone();
                    path.push(name.clone());
                    Place::Reachable(path)
                }
                hidden => hidden.clone(),
            };
            let pointer = pointer(&["properties", name]);
            stack.push(Visit {
                schema,
                pointer,
                place,
            });
        }
    }
    // Every other subschema: (keyword, pointer segment under it, subschema).
    let mut others: Vec<(&str, Option<String>, &Value)> = Vec::new();
    for keyword in SINGLE {
        others.extend(map.get(keyword).map(|schema| (keyword, None, schema)));
    }
    for keyword in LISTS {
        if let Some(Value::Array(schemas)) = map.get(keyword) {
            let indexed = schemas.iter().enumerate();
            others
                .extend(indexed.map(|(index, schema)| (keyword, Some(index.to_string()), schema)));
        }
    }
    for keyword in MAPS {
        if let Some(Value::Object(schemas)) = map.get(keyword) {
            others.extend(
                schemas
                    .iter()
                    .map(|(name, schema)| (keyword, Some(name.clone()), schema)),
            );
        }
    }
    for (keyword, segment, schema) in others {
        let pointer = match &segment {
            Some(segment) => pointer(&[keyword, segment]),
            None => pointer(&[keyword]),
        };
        let place = hidden(keyword);
        stack.push(Visit {
            schema,
            pointer,
            place,
        });
    }
}

/// RFC 6901 escaping of one pointer segment.
fn escape_pointer(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

fn display_pointer(pointer: &str) -> String {
    format!("\"{}\"", crate::error::excerpt(pointer, 120))
}

/// The annotation's header name and the parameter's primitive types.
fn read_annotation(
    annotation: &Value,
    schema: &Map<String, Value>,
    at: &str,
) -> Result<(String, Vec<MirroredType>), InvalidAnnotation> {
    let at = at.to_owned();
    let Value::String(name) = annotation else {
        return Err(InvalidAnnotation::NotAString { at });
    };
    if name.is_empty() {
        return Err(InvalidAnnotation::Empty { at });
    }
    if let Some(bad) = name.chars().find(|&c| !is_tchar(c)) {
        return Err(InvalidAnnotation::NotAToken {
            at,
            name: name.clone(),
            bad,
        });
    }
    let types = primitive_types(schema).map_err(|found| InvalidAnnotation::NotPrimitive {
        at,
        name: name.clone(),
        found,
    })?;
    Ok((name.clone(), types))
}

/// The parameter's primitive types, from `type` (a name or a list, `null` allowed beside
/// primitives), or from `enum`/`const` when it declares no `type`. `Err` says what it is.
fn primitive_types(schema: &Map<String, Value>) -> Result<Vec<MirroredType>, String> {
    let named = |name: &str| match name {
        "string" => Ok(Some(MirroredType::String)),
        "integer" => Ok(Some(MirroredType::Integer)),
        "boolean" => Ok(Some(MirroredType::Boolean)),
        "null" => Ok(None),
        "number" => Err("a number (only integers may be mirrored)".to_owned()),
        "object" => Err("an object".to_owned()),
        "array" => Err("an array".to_owned()),
        other => Err(format!(
            "of the unknown type \"{}\"",
            crate::error::excerpt(other, 40)
        )),
    };
    let mut types = Vec::new();
    match schema.get("type") {
        Some(Value::String(name)) => types.extend(named(name)?),
        Some(Value::Array(names)) => {
            for name in names {
                let Value::String(name) = name else {
                    return Err("typed with a list holding a non-string".to_owned());
                };
                types.extend(named(name)?);
            }
        }
        Some(_) => return Err("typed with something that is not a type name".to_owned()),
        None => {
            let values: Vec<&Value> = match (schema.get("const"), schema.get("enum")) {
                (Some(value), _) => vec![value],
                (None, Some(Value::Array(values))) => values.iter().collect(),
                _ => return Err("of no declared type".to_owned()),
            };
            for value in values {
                match value {
                    Value::String(_) => types.push(MirroredType::String),
                    Value::Bool(_) => types.push(MirroredType::Boolean),
                    Value::Number(n) if n.is_i64() || n.is_u64() => {
                        types.push(MirroredType::Integer)
                    }
                    Value::Null => {}
                    _ => return Err("an enumeration of non-primitive values".to_owned()),
                }
            }
        }
    }
    types.sort_by_key(|t| *t as u8);
    types.dedup();
    if types.is_empty() {
        return Err("always null".to_owned());
    }
    Ok(types)
}

fn check_unique(params: &[MirroredParam], problems: &mut Vec<InvalidAnnotation>) {
    for (index, param) in params.iter().enumerate() {
        if let Some(first) = params[..index]
            .iter()
            .find(|earlier| earlier.name.eq_ignore_ascii_case(&param.name))
        {
            problems.push(InvalidAnnotation::Duplicate {
                at: format!("the parameter \"{}\"", param.dotted_path()),
                first_at: format!("the parameter \"{}\"", first.dotted_path()),
                name: param.name.clone(),
            });
        }
    }
}

/// Why a call's argument cannot be mirrored (the call is not sent: the server would reject
/// it with `-32020`, and a header cannot say what the body says).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnmirrorableValue {
    /// An object or array where a primitive belongs.
    NotPrimitive { header: String, found: &'static str },
    /// An integer outside ±(2^53 − 1).
    UnsafeInteger { header: String, value: String },
}

impl fmt::Display for UnmirrorableValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnmirrorableValue::NotPrimitive { header, found } => write!(
                f,
                "the argument mirrored in {header} is {found}; only a string, integer or \
                 boolean can be sent as a header"
            ),
            UnmirrorableValue::UnsafeInteger { header, value } => write!(
                f,
                "the argument mirrored in {header} is {value}, beyond the ±9007199254740991 \
                 that a header may carry"
            ),
        }
    }
}

/// The `Mcp-Param-*` headers of a call of `tool` with `arguments`, in parameter order. An
/// argument that is absent or `null` gets no header (the specification's table).
pub fn param_headers(
    tool: &ToolHeaders,
    arguments: &Value,
) -> Result<Vec<(String, String)>, UnmirrorableValue> {
    let mut headers = Vec::new();
    for param in &tool.params {
        let value = param
            .path
            .iter()
            .try_fold(arguments, |value, key| value.get(key));
        let header = param.header_name();
        let text = match value {
            None | Some(Value::Null) => continue,
            Some(Value::String(text)) => encode_header_value(text),
            Some(Value::Bool(flag)) => flag.to_string(),
            Some(Value::Number(number)) => integer_text(number, &header)?,
            Some(Value::Array(_)) => {
                return Err(UnmirrorableValue::NotPrimitive {
                    header,
                    found: "an array",
                })
            }
            Some(Value::Object(_)) => {
                return Err(UnmirrorableValue::NotPrimitive {
                    header,
                    found: "an object",
                })
            }
        };
        headers.push((header, text));
    }
    Ok(headers)
}

/// A number in decimal: integers as they are (`42.0` as `42`, which the server compares
/// numerically), other numbers in their JSON form so the server can report the bad input.
fn integer_text(number: &serde_json::Number, header: &str) -> Result<String, UnmirrorableValue> {
    let unsafe_integer = || UnmirrorableValue::UnsafeInteger {
        header: header.to_owned(),
        value: number.to_string(),
    };
    if let Some(integer) = number.as_i64() {
        return if integer.unsigned_abs() <= MAX_SAFE_INTEGER as u64 {
            Ok(integer.to_string())
        } else {
            Err(unsafe_integer())
        };
    }
    if number.as_u64().is_some() {
        return Err(unsafe_integer()); // above i64::MAX, so far above the safe range
    }
    match number.as_f64() {
        Some(float) if float.fract() == 0.0 && float.abs() <= MAX_SAFE_INTEGER as f64 => {
            Ok((float as i64).to_string())
        }
        Some(float) if float.fract() == 0.0 => Err(unsafe_integer()),
        _ => Ok(number.to_string()),
    }
}

/// What to do after the server answered a call with `-32020` (header mismatch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterHeaderMismatch {
    /// The tool's schema may have changed: `tools/list` again, then send the call once more
    /// with the headers the fresh schema asks for (the server refused before running it, so
    /// sending again cannot run it twice).
    RelistThenRetry,
    /// Already retried once: report the error.
    Report,
}

/// The specification's SHOULD after `-32020`, limited to one retry.
pub fn after_header_mismatch(code: i32, retried_already: bool) -> Option<AfterHeaderMismatch> {
    (code == HEADER_MISMATCH).then_some(if retried_already {
        AfterHeaderMismatch::Report
    } else {
        AfterHeaderMismatch::RelistThenRetry
    })
}

#[cfg(test)]
mod tests;
