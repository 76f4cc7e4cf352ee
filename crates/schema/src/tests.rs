//! Tests of the schema layer as a whole: model, drafts, edits, validation, bounds.
//! The corpus of real-world schemas is tested in `tests/schema_corpus.rs`.

use super::draft::edit;
use super::model::{Kind, Node};
use super::*;
use serde_json::{json, Value};

fn node(schema: Value) -> Node {
    Node::from_schema(&schema)
}

fn strict(node: &Node, draft: &Draft) -> (Value, Vec<Issue>) {
    form_value(node, draft, Mode::Strict)
}

fn set(draft: &mut Draft, path: &[Step], value: Draft) {
    *draft.at_mut(path).expect("path exists") = value;
}

fn text(s: &str) -> Draft {
    Draft::Text(s.to_owned())
}

fn messages(issues: &[Issue]) -> Vec<(String, String)> {
    issues
        .iter()
        .map(|i| (i.path.clone(), i.message.clone()))
        .collect()
}

#[test]
fn integers_are_sent_as_integers_and_never_rounded() {
    let form = node(json!({"properties": {"n": {"type": "integer"}, "x": {"type": "number"}}}));
    let mut draft = initial(&form, true);
    for (typed, sent) in [
        ("7", "7"),
        ("-3", "-3"),
        ("5.0", "5"),
        ("1e3", "1000"),
        ("18446744073709551615", "18446744073709551615"),
        ("9007199254740993", "9007199254740993"),
    ] {
        set(&mut draft, &[Step::Prop(0)], text(typed));
        set(&mut draft, &[Step::Prop(1)], text(typed));
        let (value, issues) = strict(&form, &draft);
        assert!(issues.is_empty(), "{typed}: {issues:?}");
        assert_eq!(value["n"].to_string(), sent, "integer {typed}");
    }
    set(&mut draft, &[Step::Prop(1)], text("3"));
    assert_eq!(
        strict(&form, &draft).0["x"].to_string(),
        "3",
        "a whole number stays whole"
    );
    for bad in ["7.5", "abc", "18446744073709551616", "1e300"] {
        set(&mut draft, &[Step::Prop(0)], text(bad));
        let (value, issues) = strict(&form, &draft);
        assert!(value.get("n").is_none(), "{bad} was sent");
        assert_eq!(issues.len(), 1, "{bad}: {issues:?}");
        assert_eq!(issues[0].path, "/n");
    }
}

#[test]
fn unparsable_input_stays_as_typed_and_travels_to_raw_mode_as_text() {
    let form = node(json!({"properties": {"n": {"type": "integer"}, "j": {}}}));
    let mut draft = initial(&form, true);
    set(&mut draft, &[Step::Prop(0)], text("12x"));
    set(&mut draft, &[Step::Prop(1)], text("{broken"));
    let (strict_value, issues) = strict(&form, &draft);
    assert_eq!(strict_value, json!({}));
    assert_eq!(
        messages(&issues),
        vec![
            ("/n".into(), "Enter a whole number.".into()),
            (
                "/j".into(),
                "Not valid JSON: key must be a string at line 1 column 2.".into()
            )
        ]
    );
    let (lenient, issues) = form_value(&form, &draft, Mode::Lenient);
    assert!(issues.is_empty());
    assert_eq!(lenient, json!({"n": "12x", "j": "{broken"}));
    // Back from raw mode: the number input shows what was typed.
    let back = draft_for(&form, Some(&lenient), true);
    assert_eq!(back.at(&[Step::Prop(0)]), Some(&text("12x")));
}

#[test]
fn optional_fields_left_empty_are_omitted_and_null_is_sent_only_when_chosen() {
    let form = node(json!({"properties": {
        "s": {"type": "string"}, "n": {"type": "number"}, "b": {"type": "boolean"},
        "e": {"enum": [1, 2]}, "o": {"type": "object", "properties": {"k": {"type": "string", "default": "d"}}},
        "a": {"type": "array"}, "m": {"type": "array", "items": {"enum": ["x", "y"]}},
        "nul": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null}
    }}));
    let mut draft = initial(&form, true);
    assert_eq!(strict(&form, &draft), (json!({}), vec![]));
    edit::set_null(
        draft.at_mut(&[Step::Prop(7)]).unwrap(),
        &Node::default(),
        true,
    );
    assert_eq!(strict(&form, &draft).0, json!({"nul": null}));
    // Touching a nested field sends its object, defaults included.
    set(&mut draft, &[Step::Prop(4), Step::Prop(0)], text("changed"));
    assert_eq!(
        strict(&form, &draft).0,
        json!({"nul": null, "o": {"k": "changed"}})
    );
}

#[test]
fn required_fields_are_reported_only_where_their_object_is_sent() {
    let form = node(json!({"properties": {
        "name": {"type": "string"},
        "address": {"type": "object", "properties": {"street": {"type": "string"}, "zip": {"type": "string"}}, "required": ["street"]}
    }, "required": ["name"]}));
    let mut draft = initial(&form, true);
    assert_eq!(
        messages(&strict(&form, &draft).1),
        vec![("/name".into(), "Required.".into())]
    );
    set(&mut draft, &[Step::Prop(1), Step::Prop(1)], text("12345"));
    assert_eq!(
        messages(&strict(&form, &draft).1),
        vec![
            ("/address/street".into(), "Required.".into()),
            ("/name".into(), "Required.".into())
        ]
    );
}

#[test]
fn arrays_add_remove_and_move_items_keeping_each_items_input() {
    let form = node(json!({"properties": {"xs": {"type": "array", "items": {"type": "string"}}}}));
    let array_node = match &form.kind {
        Kind::Object(o) => o.properties[0].node.clone(),
        _ => unreachable!(),
    };
    let mut draft = initial(&form, true);
    let at = [Step::Prop(0)];
    let ids: Vec<u64> = (0..3)
        .map(|_| edit::add_item(draft.at_mut(&at).unwrap(), &array_node).unwrap())
        .collect();
    for (id, word) in ids.iter().zip(["a", "b", "c"]) {
        set(&mut draft, &[Step::Prop(0), Step::Item(*id)], text(word));
    }
    edit::move_item(draft.at_mut(&at).unwrap(), ids[2], -1);
    edit::move_item(draft.at_mut(&at).unwrap(), ids[0], -1); // already first: no change
    edit::remove_item(draft.at_mut(&at).unwrap(), ids[1]);
    assert_eq!(strict(&form, &draft).0, json!({"xs": ["a", "c"]}));
    // An added item left empty is an empty string for string items, an issue otherwise.
    edit::add_item(draft.at_mut(&at).unwrap(), &array_node);
    assert_eq!(strict(&form, &draft).0, json!({"xs": ["a", "c", ""]}));
}

#[test]
fn tuples_use_one_node_per_position_and_stop_when_no_more_items_are_allowed() {
    let form = node(
        json!({"properties": {"pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}}}),
    );
    let pair = match &form.kind {
        Kind::Object(o) => o.properties[0].node.clone(),
        _ => unreachable!(),
    };
    let mut draft = initial(&form, true);
    let at = [Step::Prop(0)];
    let first = edit::add_item(draft.at_mut(&at).unwrap(), &pair).unwrap();
    let second = edit::add_item(draft.at_mut(&at).unwrap(), &pair).unwrap();
    assert_eq!(edit::add_item(draft.at_mut(&at).unwrap(), &pair), None);
    set(&mut draft, &[Step::Prop(0), Step::Item(first)], text("a"));
    set(&mut draft, &[Step::Prop(0), Step::Item(second)], text("7"));
    assert_eq!(strict(&form, &draft).0, json!({"pair": ["a", 7]}));
}

#[test]
fn a_required_tuple_starts_with_one_item_per_slot() {
    let form = node(json!({
        "properties": {
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false},
            "later": {"type": "array", "prefixItems": [{"type": "integer"}]}
        },
        "required": ["pair"]
    }));
    let draft = initial(&form, true);
    let slots = draft.at(&[Step::Prop(0)]).unwrap().item_ids();
    assert_eq!(slots.len(), 2, "{draft:?}");
    // An optional tuple starts empty (it is omitted until someone adds to it).
    assert_eq!(draft.at(&[Step::Prop(1)]), Some(&Draft::Empty));
    let mut draft = draft;
    set(
        &mut draft,
        &[Step::Prop(0), Step::Item(slots[0])],
        text("a"),
    );
    set(
        &mut draft,
        &[Step::Prop(0), Step::Item(slots[1])],
        text("7"),
    );
    assert_eq!(strict(&form, &draft), (json!({"pair": ["a", 7]}), vec![]));
}

#[test]
fn an_unreadable_item_is_reported_once() {
    let schema = json!({
        "properties": {
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false},
            "ns": {"type": "array", "items": {"type": "integer"}}
        },
        "required": ["pair"]
    });
    let form = node(schema.clone());
    // Numbers typed wrongly, as raw mode hands them back to the form.
    let mut draft = draft_for(
        &form,
        Some(&json!({"pair": ["a", "x"], "ns": ["7.5"]})),
        true,
    );
    let Kind::Object(object) = &form.kind else {
        unreachable!()
    };
    edit::add_item(
        draft.at_mut(&[Step::Prop(1)]).unwrap(),
        &object.properties[1].node,
    );
    assert_eq!(
        messages(&check_form(&schema, &form, &draft, &NoPatterns).1),
        vec![
            ("/pair/1".into(), "Enter a whole number.".into()),
            ("/ns/0".into(), "Enter a whole number.".into()),
            // An item left empty has no value; one typed wrongly says only why.
            ("/ns/1".into(), "This item has no value.".into()),
        ]
    );
}

#[test]
fn an_added_item_starts_ready_to_fill_even_when_recursive() {
    let form = node(json!({
        "$defs": {"Tree": {"type": "object", "properties": {
            "label": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}
        }, "required": ["label", "children"]}},
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/Tree"}},
        "required": ["tree"]
    }));
    let mut draft = initial(&form, true);
    let children = [Step::Prop(0), Step::Prop(1)];
    let Kind::Object(tree) = &form.kind else {
        unreachable!()
    };
    let Kind::Object(tree) = &tree.properties[0].node.kind else {
        unreachable!()
    };
    let children_node = tree.properties[1].node.clone();
    let id = edit::add_item(draft.at_mut(&children).unwrap(), &children_node).unwrap();
    let child = [Step::Prop(0), Step::Prop(1), Step::Item(id)];
    // The recursive item is built one level: its fields (and its own required list) are there.
    assert!(
        matches!(draft.at(&child), Some(Draft::Object { props, .. }) if props.len() == 2),
        "{:?}",
        draft.at(&child)
    );
    assert_eq!(
        draft.at(&[&child[..], &[Step::Prop(1)]].concat()),
        Some(&Draft::Array(Vec::new()))
    );
    set(
        &mut draft,
        &[&child[..], &[Step::Prop(0)]].concat(),
        text("leaf"),
    );
    set(&mut draft, &[Step::Prop(0), Step::Prop(0)], text("root"));
    assert_eq!(
        strict(&form, &draft),
        (
            json!({"tree": {"label": "root", "children": [{"label": "leaf", "children": []}]}}),
            vec![]
        )
    );
}

#[test]
fn switching_variants_carries_what_fits_and_switching_back_restores() {
    let form = node(json!({"oneOf": [
        {"title": "A", "type": "object", "properties": {"kind": {"const": "a"}, "name": {"type": "string"}, "size": {"type": "integer"}}, "required": ["kind"]},
        {"title": "B", "type": "object", "properties": {"kind": {"const": "b"}, "name": {"type": "string"}, "colour": {"type": "string"}}, "required": ["kind"]}
    ]}));
    let mut draft = initial(&form, true);
    set(&mut draft, &[Step::Variant(0), Step::Prop(1)], text("Ada"));
    set(&mut draft, &[Step::Variant(0), Step::Prop(2)], text("3"));
    edit::choose_variant(&mut draft, &form, 1);
    assert_eq!(strict(&form, &draft).0, json!({"kind": "b", "name": "Ada"}));
    edit::choose_variant(&mut draft, &form, 0);
    assert_eq!(
        strict(&form, &draft).0,
        json!({"kind": "a", "name": "Ada", "size": 3})
    );
}

#[test]
fn a_value_that_does_not_fit_the_form_is_kept_as_json_and_extra_keys_are_kept() {
    let form = node(
        json!({"properties": {"n": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}}, "additionalProperties": false}),
    );
    let value = json!({"n": {"odd": true}, "tags": ["a", 5], "extra": [1]});
    let draft = draft_for(&form, Some(&value), true);
    assert!(matches!(draft.at(&[Step::Prop(0)]), Some(Draft::Raw(_))));
    assert_eq!(form_value(&form, &draft, Mode::Lenient).0, value);
    assert_eq!(strict(&form, &draft).0, value);
    let report = validate(
        &json!({"properties": {"n": {"type": "integer"}}, "additionalProperties": false}),
        &value,
        &NoPatterns,
    );
    assert_eq!(
        messages(&report.issues),
        vec![
            ("/n".into(), "Expected integer, got an object.".into()),
            ("/tags".into(), "This key is not allowed here.".into()),
            ("/extra".into(), "This key is not allowed here.".into())
        ]
    );
}

#[test]
fn key_value_entries_need_unique_non_empty_keys() {
    let form = node(json!({"type": "object", "additionalProperties": {"type": "integer"}}));
    let mut draft = initial(&form, true);
    let a = edit::add_entry(&mut draft, &form).unwrap();
    let b = edit::add_entry(&mut draft, &form).unwrap();
    edit::set_entry_key(&mut draft, a, "x".into());
    set(&mut draft, &[Step::Entry(a)], text("1"));
    set(&mut draft, &[Step::Entry(b)], text("2"));
    assert_eq!(
        messages(&strict(&form, &draft).1),
        vec![("/".into(), "This entry needs a key.".into())]
    );
    edit::set_entry_key(&mut draft, b, "x".into());
    assert_eq!(
        messages(&strict(&form, &draft).1),
        vec![("/x".into(), "The key \"x\" is used twice.".into())]
    );
    edit::set_entry_key(&mut draft, b, "y".into());
    assert_eq!(strict(&form, &draft), (json!({"x": 1, "y": 2}), vec![]));
    edit::remove_entry(&mut draft, a);
    assert_eq!(strict(&form, &draft).0, json!({"y": 2}));
}

#[test]
fn a_large_enum_is_chosen_by_its_label() {
    let form =
        node(json!({"properties": {"e": {"enum": [1, "two"], "enumNames": ["One", "Two"]}}}));
    let mut draft = initial(&form, true);
    set(&mut draft, &[Step::Prop(0)], text("One"));
    assert_eq!(strict(&form, &draft).0, json!({"e": 1}));
    set(&mut draft, &[Step::Prop(0)], text("Three"));
    assert_eq!(
        messages(&strict(&form, &draft).1),
        vec![("/e".into(), "Choose one of the listed values.".into())]
    );
    assert_eq!(
        form_value(&form, &draft, Mode::Lenient).0,
        json!({"e": "Three"})
    );
}

#[test]
fn multi_selects_keep_the_schemas_order() {
    let form = node(
        json!({"properties": {"m": {"type": "array", "items": {"anyOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]}}}}),
    );
    let mut draft = initial(&form, true);
    let at = [Step::Prop(0)];
    edit::toggle_choice(draft.at_mut(&at).unwrap(), 1, true);
    edit::toggle_choice(draft.at_mut(&at).unwrap(), 0, true);
    assert_eq!(strict(&form, &draft).0, json!({"m": ["s", "l"]}));
    edit::toggle_choice(draft.at_mut(&at).unwrap(), 0, false);
    assert_eq!(strict(&form, &draft).0, json!({"m": ["l"]}));
}

#[test]
fn the_validator_speaks_each_keyword() {
    let schema = json!({
        "type": "object",
        "properties": {
            "n": {"type": "number", "minimum": 1, "exclusiveMaximum": 10, "multipleOf": 0.5},
            "old": {"type": "number", "minimum": 0, "exclusiveMinimum": true},
            "s": {"type": "string", "minLength": 2, "maxLength": 3, "format": "email"},
            "a": {"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": true},
            "e": {"enum": ["x", 1]},
            "c": {"const": {"k": 1.0}},
            "one": {"oneOf": [{"type": "integer"}, {"type": "number"}]},
            "any": {"anyOf": [{"type": "string"}, {"type": "boolean"}]},
            "not": {"not": {"type": "null"}}
        },
        "required": ["missing"],
        "dependentRequired": {"n": ["s"]},
        "maxProperties": 20
    });
    let value = json!({
        "n": 10.25, "old": 0, "s": "abcd", "a": [1, 1.0, 2], "e": "y", "c": {"k": 1},
        "one": 3, "any": 5, "not": null
    });
    assert_eq!(
        messages(&validate(&schema, &value, &NoPatterns).issues),
        vec![
            ("/missing".into(), "Required.".into()),
            ("/n".into(), "Must be less than 10.".into()),
            ("/n".into(), "Must be a multiple of 0.5.".into()),
            ("/old".into(), "Must be greater than 0.".into()),
            ("/s".into(), "Must be at most 3 characters long.".into()),
            ("/s".into(), "Not an email address.".into()),
            ("/a".into(), "Allows at most 2 items.".into()),
            (
                "/a".into(),
                "Items 1 and 2 are the same; each must be different.".into()
            ),
            ("/e".into(), "Must be one of: \"x\", 1.".into()),
            (
                "/one".into(),
                "Matches more than one allowed shape (options 1 and 2); exactly one must match."
                    .into()
            ),
            (
                "/any".into(),
                "Matches none of the 2 allowed shapes.".into()
            ),
            ("/any".into(), "Expected string, got an integer.".into()),
            (
                "/not".into(),
                "Matches a shape the schema rules out.".into()
            ),
        ]
    );
    assert!(validate(
        &schema,
        &json!({"missing": 1, "n": 2.5, "s": "a@b"}),
        &NoPatterns
    )
    .is_valid());
    assert!(validate(&json!({"multipleOf": 0.1}), &json!(0.3), &NoPatterns).is_valid());
}

#[test]
fn refs_resolve_locally_and_remote_refs_are_never_followed() {
    let schema = json!({"$defs": {"P": {"type": "integer"}}, "properties": {
        "p": {"$ref": "#/$defs/P", "title": "Local", "minimum": 3},
        "r": {"$ref": "https://example.com/schema.json"},
        "m": {"$ref": "#/$defs/Missing"}
    }});
    let form = node(schema.clone());
    let Kind::Object(object) = &form.kind else {
        unreachable!()
    };
    assert_eq!(object.properties[0].node.title.as_deref(), Some("Local"));
    assert!(
        matches!(&object.properties[0].node.kind, Kind::Number(r) if r.integer && r.minimum == Some(3.0))
    );
    assert!(
        matches!(&object.properties[1].node.kind, Kind::Json { reason: Some(r) } if r.contains("never fetched"))
    );
    assert!(
        matches!(&object.properties[2].node.kind, Kind::Json { reason: Some(r) } if r.contains("does not define"))
    );
    let report = validate(&schema, &json!({"p": 2, "r": 1}), &NoPatterns);
    assert_eq!(
        messages(&report.issues),
        vec![("/p".into(), "Must be at least 3.".into())]
    );
    assert!(report.incomplete.unwrap().contains("not checked"));
}

#[test]
fn recursive_schemas_are_built_lazily_one_level_per_opening() {
    let schema = json!({"$ref": "#/$defs/T", "$defs": {"T": {"type": "object", "properties": {
        "label": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/T"}}
    }}}});
    let form = node(schema.clone());
    let Kind::Object(object) = &form.kind else {
        panic!("{form:?}")
    };
    let Kind::Array(children) = &object.properties[1].node.kind else {
        unreachable!()
    };
    let child = children.items.as_deref().unwrap();
    assert!(matches!(child.kind, Kind::Lazy(_)));
    assert!(matches!(child.expanded().kind, Kind::Object(_)));
    // A value deeper than the eager part still goes value -> form -> value.
    let value = json!({"label": "a", "children": [{"label": "b", "children": [{"label": "c", "children": []}]}]});
    let draft = draft_for(&form, Some(&value), true);
    assert_eq!(strict(&form, &draft), (value.clone(), vec![]));
    assert!(validate(&schema, &value, &NoPatterns).is_valid());
    // Self-reference with nothing else: bounded, never a hang.
    let selfish = json!({"$defs": {"A": {"$ref": "#/$defs/A"}}, "$ref": "#/$defs/A"});
    let form = node(selfish.clone());
    let _ = form.expanded().expanded();
    let report = validate(&selfish, &json!(1), &NoPatterns);
    assert!(report.incomplete.is_some());
}

#[test]
fn adversarial_schemas_cost_bounded_time_and_never_panic() {
    let started = std::time::Instant::now();
    // 1. As deep as JSON from a server can be (serde_json refuses more than 128 levels), with
    //    a reference back to the root at every level.
    let levels = 60;
    let text = format!(
        "{}{{\"type\": \"string\"}}{}",
        r##"{"type": "object", "anyOf": [{"$ref": "#"}], "properties": {"x": "##.repeat(levels),
        "}}".repeat(levels)
    );
    let deep: Value = serde_json::from_str(&text).expect("within serde_json's depth limit");
    assert!(serde_json::from_str::<Value>(&"[".repeat(200)).is_err());
    let form = node(deep.clone());
    let _ = outline::outline(&form);
    let mut instance = json!("leaf");
    for _ in 0..levels {
        instance = json!({ "x": instance });
    }
    let report = validate(&deep, &instance, &NoPatterns);
    assert!(report.incomplete.is_some() || report.is_valid());
    let draft = draft_for(&form, Some(&instance), true);
    assert_eq!(strict(&form, &draft).0, instance);
    // 2. A DAG of references: 2^40 paths through 40 definitions.
    let mut defs = serde_json::Map::new();
    for i in 0..40 {
        let next = format!("#/$defs/d{}", i + 1);
        defs.insert(
            format!("d{i}"),
            json!({"type": "object", "properties": {"a": {"$ref": next}, "b": {"$ref": next}}, "anyOf": [{"$ref": next}, {"$ref": next}]}),
        );
    }
    defs.insert("d40".into(), json!({"type": "string"}));
    let dag = json!({"$defs": defs, "$ref": "#/$defs/d0"});
    let form = node(dag.clone());
    let _ = example::example(&form);
    let report = validate(&dag, &json!({"a": {"a": {"a": 1}}}), &NoPatterns);
    assert!(report.incomplete.is_some() || !report.issues.is_empty());
    // 3. A huge enum and a megabyte of properties.
    let values: Vec<Value> = (0..100_000).map(Value::from).collect();
    let big_enum = json!({"enum": values});
    assert!(matches!(node(big_enum.clone()).kind, Kind::Enum(ref c) if c.len() == 100_000));
    assert!(validate(&big_enum, &json!(99_999), &NoPatterns).is_valid());
    let mut properties = serde_json::Map::new();
    for i in 0..5000 {
        properties.insert(
            format!("p{i}"),
            json!({"type": "string", "description": "d".repeat(200)}),
        );
    }
    let wide = json!({"type": "object", "properties": properties});
    assert!(wide.to_string().len() > 1_000_000);
    let form = node(wide);
    let draft = initial(&form, true);
    assert_eq!(strict(&form, &draft).0, json!({}));
    // A guard against runaway (exponential) work, not a benchmark: a debug build takes ~10 s
    // here on an idle 2-core machine and twice that while something else compiles; blowing
    // up on the 2^40-path DAG would take hours.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(120),
        "adversarial schemas took {:?}",
        started.elapsed()
    );
}

#[test]
fn rules_are_put_in_words() {
    let hint = |schema: Value| node(schema).rules_hint();
    assert_eq!(
        hint(json!({"type": "string", "minLength": 2, "maxLength": 50, "pattern": "^[a-z]+$"})),
        "2 to 50 characters; matches ^[a-z]+$"
    );
    assert_eq!(
        hint(
            json!({"type": ["integer", "null"], "minimum": 0, "exclusiveMaximum": 10, "multipleOf": 2})
        ),
        "at least 0; less than 10; a multiple of 2"
    );
    assert_eq!(
        hint(json!({"type": "array", "minItems": 1, "maxItems": 1, "uniqueItems": true})),
        "exactly 1 item; no duplicates"
    );
    assert_eq!(
        hint(json!({"type": "array", "items": {"enum": ["a", "b"]}, "maxItems": 2})),
        "at most 2 choices"
    );
    assert_eq!(hint(json!({"type": "string", "minLength": 0})), "");
}

/// Found by the fuzzer: a default that refers (through `$ref: "#"` and `anyOf`) to the whole
/// schema, whose properties have that default again. Drafts built from defaults used to unfold
/// without end (a stack overflow), then exponentially (variants within variants).
#[test]
fn defaults_that_recur_through_references_stay_bounded() {
    let schema: Value = serde_json::from_str(
        r##"{"properties":{"key":{"anyOf":[{"type":"integer"},{"type":{"minItems":"string"}}],"title":"Key"},"fallback":{"anyOf":[{"type":"number"},{"type":"boolean"},[{"type":"null"},{}]],"default":{"type":"object","properties":{"payload":true,"forbidden":false,"items":{"type":"array","items":true}},"required":["payload"],"additionalProperties":true},"title":"Fallback","$ref":"#","$defs":{"A":{"type":"array","items":true}}},"ids":{"default":[],"items":{"anyOf":[{"type":"integer"},{"type":"string"}]},"title":"Ids","type":"array"}},"required":["key"],"title":"lookupArguments","type":"object"}"##,
    )
    .unwrap();
    let form = node(schema.clone());
    let started = std::time::Instant::now();
    let draft = draft_for(&form, Some(&json!({"key": [1]})), true);
    let _ = strict(&form, &draft);
    let _ = strict(&form, &initial(&form, true));
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

#[test]
fn raw_text_parses_objects_for_arguments_and_any_value_otherwise() {
    assert_eq!(parse_raw("", true).unwrap(), json!({}));
    assert_eq!(parse_raw(r#"{"a":1}"#, true).unwrap(), json!({"a": 1}));
    assert!(parse_raw("[1]", true).unwrap_err().contains("JSON object"));
    assert_eq!(parse_raw("[1]", false).unwrap(), json!([1]));
    assert!(parse_raw("{", true)
        .unwrap_err()
        .starts_with("This is not valid JSON"));
}

#[cfg(not(target_arch = "wasm32"))]
mod properties {
    use super::*;
    use mcp_lens_protocol::arbitrary;
    use proptest::prelude::*;

    /// JSON shaped like JSON Schema, with every keyword the model and validator read and
    /// references that point anywhere (including at themselves).
    fn schema_like() -> impl Strategy<Value = Value> {
        let keyword = prop_oneof![
            Just("type"),
            Just("properties"),
            Just("required"),
            Just("items"),
            Just("prefixItems"),
            Just("anyOf"),
            Just("oneOf"),
            Just("allOf"),
            Just("not"),
            Just("$ref"),
            Just("$defs"),
            Just("enum"),
            Just("const"),
            Just("default"),
            Just("minimum"),
            Just("maximum"),
            Just("exclusiveMinimum"),
            Just("multipleOf"),
            Just("minItems"),
            Just("maxItems"),
            Just("uniqueItems"),
            Just("additionalProperties"),
            Just("patternProperties"),
            Just("pattern"),
            Just("format"),
            Just("minLength"),
            Just("if"),
            Just("then"),
            Just("enumNames"),
            Just("title"),
            Just("x"),
            Just("y"),
        ]
        .prop_map(str::to_owned);
        let leaf = prop_oneof![
            arbitrary::json(),
            prop_oneof![
                Just("#"),
                Just("#/$defs/x"),
                Just("#/$defs/y"),
                Just("#/properties/x"),
                Just("#/items"),
                Just("http://example.com"),
                Just("string"),
                Just("integer"),
                Just("null"),
                Just("object"),
                Just("array"),
                Just("email"),
                Just("date"),
            ]
            .prop_map(|s| Value::String(s.to_owned())),
            (-3i64..20).prop_map(Value::from),
        ];
        leaf.prop_recursive(5, 64, 6, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::vec((keyword.clone(), inner), 0..6)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    /// A satisfiable schema: bounds that leave room, enums that are not empty, variants
    /// told apart by a discriminator.
    fn satisfiable(depth: u32) -> BoxedStrategy<Value> {
        let leaf = prop_oneof![
            (0u64..3, 0u64..5, proptest::option::of(prop_oneof![Just("email"), Just("date"), Just("uri"), Just("date-time")]))
                .prop_map(|(min, extra, format)| match format {
                    Some(format) => json!({"type": "string", "format": format}),
                    None => json!({"type": "string", "minLength": min, "maxLength": min + extra}),
                }),
            (-50i64..50, 0i64..20, 1i64..4).prop_map(|(min, span, step)| json!({"type": "integer", "minimum": min, "maximum": min + span + step * 2, "multipleOf": step})),
            (-5.0f64..5.0, 0.5f64..3.0).prop_map(|(low, span)| json!({"type": "number", "exclusiveMinimum": low, "maximum": low + span})),
            Just(json!({"type": "boolean"})),
            Just(json!({"type": ["string", "null"]})),
            proptest::collection::vec(arbitrary::json(), 1..4).prop_map(|values| json!({"enum": values})),
            arbitrary::json().prop_map(|value| json!({"const": value})),
        ];
        if depth == 0 {
            return leaf.boxed();
        }
        let inner = satisfiable(depth - 1);
        prop_oneof![
            2 => leaf,
            1 => object_of(inner.clone()),
            1 => (inner.clone(), 0u64..3).prop_map(|(items, min)| json!({"type": "array", "items": items, "minItems": min})),
            1 => (object_of(inner.clone()), object_of(inner.clone())).prop_map(|(a, b)| {
                let tag = |mut o: Value, t: &str| {
                    o["properties"]["kind"] = json!({"const": t});
                    if let Some(required) = o["required"].as_array_mut() {
                        required.push(json!("kind"));
                    }
                    o
                };
                json!({"oneOf": [tag(a, "a"), tag(b, "b")]})
            }),
            1 => inner.clone().prop_map(|target| json!({"$defs": {"t": target}, "anyOf": [{"$ref": "#/$defs/t"}, {"type": "null"}]})),
            1 => (inner.clone(), inner).prop_map(|(a, b)| json!({"allOf": [
                {"type": "object", "properties": {"a": a}, "required": ["a"]},
                {"type": "object", "properties": {"b": b}}
            ]})),
        ]
        .boxed()
    }

    fn object_of(inner: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
        proptest::collection::vec((("[a-d]{1,2}"), inner, any::<bool>()), 0..4).prop_map(|fields| {
            let mut properties = serde_json::Map::new();
            let mut required = Vec::new();
            for (name, schema, needed) in fields {
                if needed && !properties.contains_key(&name) {
                    required.push(Value::from(name.clone()));
                }
                properties.insert(name, schema);
            }
            json!({"type": "object", "properties": properties, "required": required})
        })
    }

    fn exercise(schema: &Value, inputs: &[String]) {
        let form = Node::from_schema(schema);
        let _ = outline::outline(&form);
        let mut draft = initial(&form, true);
        let _ = form_value(&form, &draft, Mode::Strict);
        if let Kind::Object(object) = &form.kind {
            for (i, input) in inputs.iter().enumerate().take(object.properties.len()) {
                if let Some(slot) = draft.at_mut(&[Step::Prop(i)]) {
                    *slot = Draft::Text(input.clone());
                }
            }
        }
        for mode in [Mode::Strict, Mode::Lenient] {
            let (value, _) = form_value(&form, &draft, mode);
            let _ = validate(schema, &value, &NoPatterns);
            let back = draft_for(&form, Some(&value), true);
            let _ = form_value(&form, &back, mode);
        }
        let _ = example::valid_example(schema, &form);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn any_schema_and_any_input_never_panic(schema in schema_like(), inputs in proptest::collection::vec(".{0,8}", 0..6), instance in arbitrary::json()) {
            exercise(&schema, &inputs);
            let form = Node::from_schema(&schema);
            let draft = draft_for(&form, Some(&instance), true);
            let _ = form_value(&form, &draft, Mode::Lenient);
            let _ = validate(&schema, &instance, &NoPatterns);
        }

        #[test]
        fn generated_defaults_validate_and_prefill_the_form_exactly(schema in object_of(satisfiable(2))) {
            let form = Node::from_schema(&schema);
            let example = example::example(&form);
            prop_assert!(example.is_some(), "no example for {}", schema);
            let example = example.unwrap_or_default();
            let report = validate(&schema, &example, &NoPatterns);
            prop_assert!(report.is_valid(), "{} made {} : {:?}", schema, example, report.issues);
            // The example as the schema's default: the form starts with it and sends it back.
            let mut with_default = schema.clone();
            with_default["default"] = example.clone();
            let form = Node::from_schema(&with_default);
            let (sent, issues) = form_value(&form, &initial(&form, true), Mode::Strict);
            prop_assert!(issues.is_empty(), "{:?}", issues);
            prop_assert!(value::json_equal(&sent, &example), "{} came back as {}", example, sent);
        }
    }
}

#[test]
fn patterns_that_backtrack_exponentially_are_recognised() {
    use crate::validate::risks_catastrophic_backtracking as risky;
    for bad in [
        "^(a+)+$",
        "(a*)*b",
        "^(\\w+\\s?)*$",
        "(a|aa)+",
        "((ab)*c)+",
        "(x{1,}){2,}",
        "^([a-z0-9]+[-.])*[a-z]$",
        "(a{1,20})+",
    ] {
        assert!(risky(bad), "{bad}");
    }
    for fine in [
        "^[a-z]+$",
        "^\\d{4}-\\d{2}-\\d{2}$",
        "^(foo|bar)$",
        "(ab)+",
        "[(a+)+]",
        "\\(a+\\)+",
        "^(a{2}){3}$",
        "^[A-Z][a-z]*( [A-Z][a-z]*)?$",
    ] {
        assert!(!risky(fine), "{fine}");
    }
}
