//! JSON Schema -> form model -> arguments JSON. Pure: no browser, no protocol.
//!
//! A form holds one text value per field (what the inputs show); [`FormModel::arguments`]
//! turns those values into the arguments object, typed as the schema says. Properties the
//! form cannot represent directly fall back to a JSON text field for that property.

use serde_json::{Map, Number, Value};

#[derive(Debug, Clone, PartialEq)]
pub struct FormModel {
    pub fields: Vec<Field>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The property name, the key in the arguments object.
    pub name: String,
    /// `title` when the schema gives one, else the name.
    pub label: String,
    pub description: Option<String>,
    pub required: bool,
    pub kind: FieldKind,
    /// The value the input starts with: the schema's default, in the form's text encoding.
    pub initial: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum FieldKind {
    Text,
    Number,
    /// Sent as a JSON integer, never as `5.0`.
    Integer,
    /// Value `"true"`/`"false"`; an optional boolean may also be `""` (not sent).
    Boolean,
    /// A choice among the schema's `enum` values; the form value is the chosen index.
    Enum(Vec<Value>),
    /// Anything richer: the value is JSON text for this one property.
    Json,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl FormModel {
    /// Builds the form for an object schema (a tool's `inputSchema`). Properties keep the
    /// schema's order; anything that is not an object schema yields an empty form.
    pub fn from_schema(schema: &Map<String, Value>) -> Self {
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let fields = schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|properties| {
                properties
                    .iter()
                    .map(|(name, property)| {
                        field(name, property, required.contains(&name.as_str()))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Self { fields }
    }

    /// The values the inputs start with.
    pub fn initial_values(&self) -> Vec<String> {
        self.fields.iter().map(|f| f.initial.clone()).collect()
    }

    /// Turns the inputs' values (one per field, in order) into the arguments object.
    /// Optional fields left empty are omitted, never sent as null.
    pub fn arguments(&self, values: &[String]) -> Result<Map<String, Value>, Vec<FieldError>> {
        let mut arguments = Map::new();
        let mut errors = Vec::new();
        for (field, value) in self.fields.iter().zip(values) {
            match field.value(value) {
                Ok(Some(json)) => {
                    arguments.insert(field.name.clone(), json);
                }
                Ok(None) if field.required => errors.push(FieldError {
                    field: field.name.clone(),
                    message: format!("{} is required.", field.label),
                }),
                Ok(None) => {}
                Err(message) => errors.push(FieldError {
                    field: field.name.clone(),
                    message,
                }),
            }
        }
        if errors.is_empty() {
            Ok(arguments)
        } else {
            Err(errors)
        }
    }
}

impl Field {
    /// The JSON for one input value; `None` when the input is empty.
    fn value(&self, text: &str) -> Result<Option<Value>, String> {
        let trimmed = text.trim();
        if trimmed.is_empty() && !matches!(self.kind, FieldKind::Text) {
            return Ok(None);
        }
        let json = match &self.kind {
            FieldKind::Text if text.is_empty() => return Ok(None),
            FieldKind::Text => Value::String(text.to_owned()),
            FieldKind::Number => {
                parse_number(trimmed).ok_or_else(|| format!("{} must be a number.", self.label))?
            }
            FieldKind::Integer => trimmed
                .parse::<i64>()
                .map(Value::from)
                .map_err(|_| format!("{} must be a whole number.", self.label))?,
            FieldKind::Boolean => match trimmed {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => return Err(format!("{} must be true or false.", self.label)),
            },
            FieldKind::Enum(options) => trimmed
                .parse::<usize>()
                .ok()
                .and_then(|index| options.get(index))
                .cloned()
                .ok_or_else(|| format!("{} must be one of the listed values.", self.label))?,
            FieldKind::Json => serde_json::from_str(trimmed)
                .map_err(|err| format!("{} is not valid JSON: {err}.", self.label))?,
        };
        Ok(Some(json))
    }
}

/// A number as typed: integers stay integers, others become finite floats.
fn parse_number(text: &str) -> Option<Value> {
    if let Ok(integer) = text.parse::<i64>() {
        return Some(Value::from(integer));
    }
    let float = text.parse::<f64>().ok()?;
    Number::from_f64(float).map(Value::Number)
}

/// How an enum option is shown to a person.
pub fn option_label(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

fn field(name: &str, property: &Value, required: bool) -> Field {
    let empty = Map::new();
    let property = property.as_object().unwrap_or(&empty);
    let kind = kind_of(property);
    let initial = property
        .get("default")
        .map(|default| initial_text(&kind, default))
        .unwrap_or_else(|| match kind {
            FieldKind::Boolean if required => "false".to_owned(),
            _ => String::new(),
        });
    Field {
        name: name.to_owned(),
        label: property
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or(name)
            .to_owned(),
        description: property
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned),
        required,
        kind,
        initial,
    }
}

fn kind_of(property: &Map<String, Value>) -> FieldKind {
    if let Some(options) = property.get("enum").and_then(Value::as_array) {
        if !options.is_empty() {
            return FieldKind::Enum(options.clone());
        }
    }
    match single_type(property.get("type")) {
        Some("string") => FieldKind::Text,
        Some("number") => FieldKind::Number,
        Some("integer") => FieldKind::Integer,
        Some("boolean") => FieldKind::Boolean,
        _ => FieldKind::Json,
    }
}

/// The one type a property has: `"string"`, or `["string", "null"]` (nullable: an empty
/// input is simply not sent). Several types, or none, fall back to JSON.
fn single_type(type_value: Option<&Value>) -> Option<&str> {
    match type_value? {
        Value::String(name) => Some(name),
        Value::Array(names) => {
            let mut non_null = names
                .iter()
                .filter_map(Value::as_str)
                .filter(|n| *n != "null");
            let first = non_null.next()?;
            non_null.next().is_none().then_some(first)
        }
        _ => None,
    }
}

fn initial_text(kind: &FieldKind, default: &Value) -> String {
    match (kind, default) {
        (FieldKind::Text, Value::String(text)) => text.clone(),
        (FieldKind::Enum(options), _) => options
            .iter()
            .position(|option| option == default)
            .map(|index| index.to_string())
            .unwrap_or_default(),
        (FieldKind::Json, _) => serde_json::to_string_pretty(default).unwrap_or_default(),
        (_, Value::String(text)) => text.clone(),
        (_, Value::Null) => String::new(),
        (_, other) => other.to_string(),
    }
}

/// Parses the raw-JSON editor's text into an arguments object.
pub fn raw_arguments(text: &str) -> Result<Map<String, Value>, String> {
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(arguments)) => Ok(arguments),
        Ok(_) => Err("The arguments must be a JSON object, like {\"name\": \"value\"}.".to_owned()),
        Err(err) => Err(format!("The arguments are not valid JSON: {err}.")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn form(schema: Value) -> FormModel {
        FormModel::from_schema(schema.as_object().unwrap())
    }

    fn values(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn every_supported_type_becomes_its_field_and_its_json() {
        let model = form(json!({
            "type": "object",
            "properties": {
                "message": {"type": "string", "description": "What to echo", "title": "Message"},
                "ratio": {"type": "number"},
                "count": {"type": "integer"},
                "loud": {"type": "boolean"},
                "operation": {"type": "string", "enum": ["add", "multiply"]},
                "tags": {"type": "array", "items": {"type": "string"}}
            },
            "required": ["message", "count", "loud", "operation"]
        }));
        let kinds: Vec<_> = model.fields.iter().map(|f| f.kind.clone()).collect();
        assert_eq!(
            kinds,
            vec![
                FieldKind::Text,
                FieldKind::Number,
                FieldKind::Integer,
                FieldKind::Boolean,
                FieldKind::Enum(vec![json!("add"), json!("multiply")]),
                FieldKind::Json
            ]
        );
        assert_eq!(model.fields[0].label, "Message");
        assert_eq!(model.fields[0].description.as_deref(), Some("What to echo"));
        let required: Vec<_> = model.fields.iter().map(|f| f.required).collect();
        assert_eq!(required, vec![true, false, true, true, true, false]);

        let arguments = model
            .arguments(&values(&["hi", "2.5", "4", "true", "1", "[\"a\"]"]))
            .unwrap();
        assert_eq!(
            Value::Object(arguments),
            json!({"message": "hi", "ratio": 2.5, "count": 4, "loud": true, "operation": "multiply", "tags": ["a"]})
        );
    }

    #[test]
    fn integers_stay_integers_and_whole_numbers_are_not_floats() {
        let model =
            form(json!({"properties": {"n": {"type": "integer"}, "x": {"type": "number"}}}));
        let arguments = model.arguments(&values(&["7", "3"])).unwrap();
        assert_eq!(
            serde_json::to_string(&arguments).unwrap(),
            r#"{"n":7,"x":3}"#
        );
        let errors = model.arguments(&values(&["7.5", "abc"])).unwrap_err();
        assert_eq!(errors[0].message, "n must be a whole number.");
        assert_eq!(errors[1].message, "x must be a number.");
    }

    #[test]
    fn optional_empty_fields_are_omitted_not_null() {
        let model = form(json!({"properties": {
            "a": {"type": "string"}, "b": {"type": "number"}, "c": {"type": "boolean"},
            "d": {"enum": [1, 2]}, "e": {"type": "object"}
        }}));
        let arguments = model.arguments(&values(&["", "", "", "", ""])).unwrap();
        assert!(arguments.is_empty());
    }

    #[test]
    fn required_empty_fields_are_errors_naming_the_field() {
        let model = form(json!({"properties": {"a": {"type": "string"}}, "required": ["a"]}));
        let errors = model.arguments(&values(&[""])).unwrap_err();
        assert_eq!(
            errors,
            vec![FieldError {
                field: "a".into(),
                message: "a is required.".into()
            }]
        );
    }

    #[test]
    fn defaults_prefill_the_inputs() {
        let model = form(json!({"properties": {
            "s": {"type": "string", "default": "hello"},
            "n": {"type": "integer", "default": 3},
            "b": {"type": "boolean", "default": true},
            "e": {"type": "string", "enum": ["x", "y"], "default": "y"},
            "o": {"type": "object", "default": {"k": 1}},
            "r": {"type": "boolean"}
        }, "required": ["r"]}));
        assert_eq!(
            model.initial_values(),
            values(&["hello", "3", "true", "1", "{\n  \"k\": 1\n}", "false"])
        );
        let arguments = model.arguments(&model.initial_values()).unwrap();
        assert_eq!(
            Value::Object(arguments),
            json!({"s": "hello", "n": 3, "b": true, "e": "y", "o": {"k": 1}, "r": false})
        );
    }

    #[test]
    fn nullable_single_types_keep_their_input_and_unions_fall_back_to_json() {
        let model = form(json!({"properties": {
            "a": {"type": ["string", "null"]},
            "b": {"type": ["string", "number"]},
            "c": {"anyOf": [{"type": "string"}, {"type": "number"}]}
        }}));
        let kinds: Vec<_> = model.fields.iter().map(|f| f.kind.clone()).collect();
        assert_eq!(
            kinds,
            vec![FieldKind::Text, FieldKind::Json, FieldKind::Json]
        );
    }

    #[test]
    fn non_string_enum_values_keep_their_type() {
        let model = form(json!({"properties": {"level": {"enum": [1, "two", null]}}}));
        let arguments = model.arguments(&values(&["0"])).unwrap();
        assert_eq!(arguments["level"], json!(1));
        assert_eq!(option_label(&json!(1)), "1");
        assert_eq!(option_label(&json!("two")), "two");
    }

    #[test]
    fn malformed_schemas_give_empty_or_json_fields_not_panics() {
        assert!(form(json!({"properties": 5})).fields.is_empty());
        assert!(form(json!({})).fields.is_empty());
        let model = form(json!({"properties": {"x": 5, "y": {"type": 7}}, "required": "x"}));
        assert_eq!(model.fields.len(), 2);
        assert!(model
            .fields
            .iter()
            .all(|f| f.kind == FieldKind::Json && !f.required));
    }

    #[test]
    fn raw_mode_accepts_objects_only() {
        assert_eq!(raw_arguments("").unwrap(), Map::new());
        assert_eq!(raw_arguments(r#"{"a":1}"#).unwrap()["a"], json!(1));
        assert!(raw_arguments("[1]").unwrap_err().contains("JSON object"));
        assert!(raw_arguments("{")
            .unwrap_err()
            .starts_with("The arguments are not valid JSON"));
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use crate::protocol::arbitrary;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn any_schema_and_any_input_never_panic(schema in arbitrary::json(), inputs in proptest::collection::vec(".{0,8}", 0..8)) {
                if let Value::Object(schema) = &schema {
                    let model = FormModel::from_schema(schema);
                    let _ = model.arguments(&model.initial_values());
                    let _ = model.arguments(&inputs);
                }
                let _ = raw_arguments(&schema.to_string());
            }
        }
    }
}
