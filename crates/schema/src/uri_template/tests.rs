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
