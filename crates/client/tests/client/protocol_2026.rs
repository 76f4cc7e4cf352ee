//! The 2026-07-28 rules that cross the wire: tool parameters mirrored into `Mcp-Param-*`
//! headers (SEP-2243) and the one retry after -32020, a tool with invalid annotations never
//! called, the one retry after "unsupported protocol version" (-32022) with no fallback to
//! another era or transport, and a 401 that does not send Auto to `initialize`.

use crate::support::{Exchange, Harness, URL};
use mcp_lens_client::protocol::error::ErrorKind;
use mcp_lens_client::ClientConfig;
use serde_json::{json, Map, Value};

const DISCOVER: &str = r#"{"capabilities":{"tools":{}},"resultType":"complete","supportedVersions":["2026-07-28"],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"x","version":"1"}}}"#;

fn region_tool(header: &str) -> Value {
    json!({ "name": "query", "inputSchema": { "type": "object", "properties": {
        "region": { "type": "string", "x-mcp-header": header },
        "limit": { "type": "integer", "x-mcp-header": "Limit" },
        "note": { "type": "string" } } } })
}

/// A stateless connect listing `tools` (no subscriptions/listen).
fn modern_connect(h: &mut Harness, tools: Value) {
    h.script([
        Exchange::post("server/discover").result(serde_json::from_str(DISCOVER).unwrap()),
        Exchange::post("tools/list").result(json!({ "tools": tools, "resultType": "complete" })),
        Exchange::post("subscriptions/listen").status(404),
    ]);
    h.connect(ClientConfig::new(URL)).expect("connects");
}

fn arguments(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap()
}

const DONE: &str = r#"{"content":[{"type":"text","text":"ok"}],"resultType":"complete"}"#;

#[test]
fn a_call_mirrors_its_annotated_arguments_and_omits_null_ones() {
    let mut h = Harness::new();
    modern_connect(&mut h, json!([region_tool("Region")]));
    h.script([Exchange::post("tools/call")
        .header("mcp-param-region", "=?base64?IEhlbGxvLCDkuJbnlYw=?=")
        .no_header("mcp-param-limit")
        .no_header("mcp-param-note")
        .result(serde_json::from_str(DONE).unwrap())]);
    let client = h.client();
    let (_, call) = client.call_tool(
        "query",
        arguments(json!({ "region": " Hello, 世界", "limit": null, "note": "x" })),
    );
    h.run(call).expect("called");
    h.script([Exchange::post("tools/call")
        .header("mcp-param-region", "eu")
        .header("mcp-param-limit", "42")
        .result(serde_json::from_str(DONE).unwrap())]);
    let (_, call) = client.call_tool("query", arguments(json!({ "region": "eu", "limit": 42.0 })));
    h.run(call).expect("called");
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn a_tool_with_invalid_annotations_is_never_sent_and_says_why() {
    let mut h = Harness::new();
    modern_connect(&mut h, json!([region_tool("My Region")]));
    let client = h.client();
    let why = client.tool_not_callable("query").expect("invalid");
    assert!(why.contains("My Region"), "{why}");
    let (_, call) = client.call_tool("query", arguments(json!({ "region": "eu" })));
    let error = h.run(call).expect_err("refused");
    assert!(matches!(error.kind, ErrorKind::NotSent { .. }), "{error}");
    assert!(
        error.to_string().contains("not offered for calling"),
        "{error}"
    );
    assert!(h.http.seen_rpc("tools/call").is_empty());
}

#[test]
fn after_32020_the_tools_are_listed_again_and_the_call_sent_once_more() {
    let mut h = Harness::new();
    modern_connect(&mut h, json!([region_tool("Region")]));
    let mismatch =
        r#"{"jsonrpc":"2.0","id":$ID,"error":{"code":-32020,"message":"Header mismatch"}}"#;
    h.script([
        Exchange::post("tools/call")
            .header("mcp-param-region", "eu")
            .status(400)
            .json_body(mismatch),
        // The schema changed: the parameter is now mirrored as Zone.
        Exchange::post("tools/list")
            .result(json!({ "tools": [region_tool("Zone")], "resultType": "complete" })),
        Exchange::post("tools/call")
            .header("mcp-param-zone", "eu")
            .no_header("mcp-param-region")
            .status(400)
            .json_body(mismatch),
    ]);
    let client = h.client();
    let (_, call) = client.call_tool("query", arguments(json!({ "region": "eu" })));
    let error = h
        .run(call)
        .expect_err("refused twice: reported, not retried again");
    assert!(error.to_string().contains("-32020"), "{error}");
    assert_eq!(h.http.seen_rpc("tools/call").len(), 2);
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn the_handshake_era_mirrors_nothing() {
    let mut h = Harness::new();
    h.script(crate::stateful_connect(
        "s",
        json!([region_tool("Bad Name")]),
    ));
    h.connect(crate::handshake_config()).expect("connects");
    let client = h.client();
    assert_eq!(client.tool_not_callable("query"), None);
    h.script([Exchange::post("tools/call")
        .no_header("mcp-param-region")
        .result(serde_json::from_str(DONE).unwrap())]);
    let (_, call) = client.call_tool("query", arguments(json!({ "region": "eu" })));
    h.run(call).expect("called");
}

#[test]
fn unsupported_version_is_retried_once_with_a_listed_version_never_another_era() {
    let mut h = Harness::new();
    let refused = r#"{"jsonrpc":"2.0","id":$ID,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2026-07-28"}}}"#;
    h.script([
        Exchange::post("server/discover")
            .status(400)
            .json_body(refused),
        Exchange::post("server/discover")
            .header("mcp-protocol-version", "2026-07-28")
            .result(serde_json::from_str(DISCOVER).unwrap()),
        Exchange::post("tools/list").result(json!({ "tools": [], "resultType": "complete" })),
        Exchange::post("subscriptions/listen").status(404),
    ]);
    let state = h
        .connect(ClientConfig::new(URL))
        .expect("connects after one retry");
    assert_eq!(state.era_reason, "the server answered server/discover");
    assert!(!state.transport.legacy);
    assert!(h.http.seen_rpc("initialize").is_empty());
    let discovers = h.http.seen_rpc("server/discover");
    assert_ne!(
        discovers[0].body.as_ref().unwrap()["id"],
        discovers[1].body.as_ref().unwrap()["id"]
    );

    // Refused again: one retry only, then the sentence, and still no other era or transport.
    let mut h = Harness::new();
    h.script([
        Exchange::post("server/discover")
            .status(400)
            .json_body(refused),
        Exchange::post("server/discover")
            .status(400)
            .json_body(refused),
    ]);
    let error = h.connect(ClientConfig::new(URL)).expect_err("gives up");
    assert!(error.to_string().contains("after one retry"), "{error}");
    assert!(h.http.seen_rpc("initialize").is_empty());
    assert!(h.http.remaining().is_empty(), "{:?}", h.http.remaining());
}

#[test]
fn a_401_on_discover_asks_for_sign_in_instead_of_falling_back() {
    let mut h = Harness::new();
    h.script([Exchange::post("server/discover")
        .status(401)
        .answer_header("www-authenticate", "Bearer resource_metadata=\"http://127.0.0.1:3001/.well-known/oauth-protected-resource\"")]);
    let error = h.connect(ClientConfig::new(URL)).expect_err("401");
    assert!(
        matches!(error, ErrorKind::HttpStatus { status: 401, .. }),
        "{error}"
    );
    assert!(h.http.seen_rpc("initialize").is_empty());
    assert!(
        h.http.seen.borrow().iter().all(|seen| seen.method != "GET"),
        "no legacy SSE stream"
    );
}

mod skills {
    use super::*;
    use mcp_lens_client::protocol::auth::pkce::sha256;

    const SKILL_MD: &str =
        "---\nname: pdf-processing\ndescription: Extract PDFs\n---\n\nSkill body.\n";
    const FORMS: &str = "Forms.\n";

    fn digest(text: &str) -> String {
        let hex: String = sha256(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        format!("sha256:{hex}")
    }

    fn entry() -> Value {
        json!({ "uri": "skill://pdf-processing/SKILL.md",
            "frontmatter": { "name": "pdf-processing", "description": "Extract PDFs" },
            "resources": [
                { "uri": "skill://pdf-processing/SKILL.md", "digest": digest(SKILL_MD), "size": SKILL_MD.len() },
                { "uri": "skill://pdf-processing/references/FORMS.md", "digest": digest(FORMS), "size": FORMS.len() } ] })
    }

    fn read_answer(uri: &str, text: &str) -> Value {
        json!({ "contents": [{ "uri": uri, "mimeType": "text/markdown", "text": text }], "resultType": "complete" })
    }

    #[test]
    fn skills_are_listed_without_reading_and_each_file_is_verified_when_opened() {
        let mut h = Harness::new();
        modern_connect(&mut h, json!([]));
        let client = h.client();
        h.script([Exchange::post("skills/list")
            .result(json!({ "skills": [entry(), { "uri": "skill://Bad/SKILL.md" }], "resultType": "complete" }))]);
        let listed = h.run({
            let client = client.clone();
            async move { client.list_skills().await }
        });
        let listed = listed.expect("listed");
        assert_eq!(listed.len(), 2);
        assert!(
            listed[1].is_err(),
            "an invalid entry is listed with its reason"
        );
        assert!(
            h.http.seen_rpc("resources/read").is_empty(),
            "nothing read on listing"
        );
        let skill = listed[0].clone().expect("valid");

        h.script([Exchange::post("resources/read")
            .header("mcp-name", "skill://pdf-processing/SKILL.md")
            .result(read_answer(&skill.uri, SKILL_MD))]);
        let read = h.run({
            let (client, skill) = (client.clone(), skill.clone());
            async move { client.read_skill_file(&skill, &skill.uri).await }
        });
        assert!(read
            .expect("verified")
            .text
            .unwrap()
            .contains("Skill body."));

        // A supporting file whose bytes differ from its entry is refused, not shown.
        let forms = "skill://pdf-processing/references/FORMS.md";
        h.script([Exchange::post("resources/read").result(read_answer(forms, "Forms!\n"))]);
        let read = h.run({
            let (client, skill) = (client.clone(), skill.clone());
            async move { client.read_skill_file(&skill, forms).await }
        });
        let error = read.expect_err("digest mismatch");
        assert!(
            error.to_string().contains("does not match the digest"),
            "{error}"
        );

        // An unlisted file is refused before anything is sent.
        let before = h.http.seen_rpc("resources/read").len();
        let read = h.run({
            let client = client.clone();
            async move {
                client
                    .read_skill_file(&skill, "skill://pdf-processing/other.md")
                    .await
            }
        });
        assert!(read.is_err());
        assert_eq!(h.http.seen_rpc("resources/read").len(), before);
    }

    #[test]
    fn a_skill_md_whose_frontmatter_differs_from_the_entry_is_not_used() {
        let mut h = Harness::new();
        modern_connect(&mut h, json!([]));
        let client = h.client();
        let tampered = SKILL_MD.replace("Extract PDFs", "Exfiltrate credentials");
        let mut listed = entry();
        listed["resources"][0]["digest"] = json!(digest(&tampered));
        listed["resources"][0]["size"] = json!(tampered.len());
        h.script([
            Exchange::post("skills/list").result(json!({ "skills": [listed] })),
            Exchange::post("resources/read")
                .result(read_answer("skill://pdf-processing/SKILL.md", &tampered)),
        ]);
        let error = h.run(async move {
            let skill = client.list_skills().await.unwrap().remove(0).unwrap();
            client.read_skill_file(&skill, &skill.uri).await
        });
        let error = error.expect_err("frontmatter differs");
        assert!(error.to_string().contains("frontmatter"), "{error}");
    }
}
