//! Samples recorded from the formats' own documentation: Claude Desktop's quickstart and the
//! GitHub MCP server's README (claude_desktop.json), Cursor's MCP docs (cursor.json), Claude
//! Code's `.mcp.json` docs (claude_code.json), VS Code's MCP docs (vscode.json, JSONC with
//! inputs) and the MCP Inspector 1.0.3 README's `--config` examples (inspector.json). Secret
//! values in them are made-up stand-ins.

use super::text::strip_jsonc;
use super::*;
use proptest::prelude::*;
use serde_json::Value;

const CLAUDE_DESKTOP: &str = include_str!("samples/claude_desktop.json");
const CURSOR: &str = include_str!("samples/cursor.json");
const CLAUDE_CODE: &str = include_str!("samples/claude_code.json");
const VSCODE: &str = include_str!("samples/vscode.json");
const INSPECTOR: &str = include_str!("samples/inspector.json");

fn names(imported: &Imported) -> (Vec<&str>, Vec<&str>) {
    (
        imported.remote.iter().map(|s| s.name.as_str()).collect(),
        imported.stdio.iter().map(|s| s.name.as_str()).collect(),
    )
}

#[test]
fn claude_desktop_stdio_servers_get_a_bridge_without_their_env_values() {
    let imported = parse(CLAUDE_DESKTOP).unwrap();
    assert_eq!(names(&imported), (vec![], vec!["filesystem", "github"]));
    let fs = &imported.stdio[0];
    assert_eq!(
        fs.command_line,
        "npx -y @modelcontextprotocol/server-filesystem /Users/username/Desktop /Users/username/Downloads"
    );
    assert_eq!(
        fs.bridge,
        "npx -y supergateway@4.0.0 --stdio 'npx -y @modelcontextprotocol/server-filesystem \
         /Users/username/Desktop /Users/username/Downloads' --outputTransport streamableHttp \
         --stateful --port 8000 --cors"
    );
    assert_eq!(fs.bridge_url, "http://localhost:8000/mcp");
    let github = &imported.stdio[1];
    assert_eq!(github.env_names, vec!["GITHUB_PERSONAL_ACCESS_TOKEN"]);
    assert!(github.bridge.starts_with(
        "GITHUB_PERSONAL_ACCESS_TOKEN=\"$GITHUB_PERSONAL_ACCESS_TOKEN\" npx -y supergateway"
    ));
    assert!(github.bridge.contains("--port 8001"));
    assert!(!format!("{imported:?}").contains("ghp_recorded"));
    assert!(imported.skipped.is_empty());
}

#[test]
fn cursor_urls_and_headers() {
    let imported = parse(CURSOR).unwrap();
    assert_eq!(
        names(&imported),
        (vec!["server-name", "legacy"], vec!["mcp-server"])
    );
    let server = &imported.remote[0];
    assert_eq!(server.url, "http://localhost:3000/mcp");
    assert_eq!(server.transport, "auto");
    assert_eq!(server.headers, vec![("API_KEY".into(), "value".into())]);
    assert_eq!(imported.remote[1].transport, "auto");
    // Values never in Debug output.
    assert!(!format!("{server:?}").contains("value\""));
}

#[test]
fn claude_code_bearer_headers_become_the_token_and_placeholders_stay_empty() {
    let imported = parse(CLAUDE_CODE).unwrap();
    assert_eq!(
        names(&imported),
        (vec!["api-server", "sentry", "asana"], vec![])
    );
    let api = &imported.remote[0];
    assert_eq!(api.transport, "streamable-http");
    assert_eq!(api.token, "");
    assert_eq!(api.placeholders, vec!["Authorization"]);
    assert_eq!(api.headers, vec![("Authorization".into(), String::new())]);
    let sentry = &imported.remote[1];
    assert_eq!(sentry.token, "sk-recorded-example");
    assert!(sentry.headers.is_empty());
    assert_eq!(imported.remote[2].transport, "sse");
}

#[test]
fn vscode_jsonc_with_inputs() {
    let imported = parse(VSCODE).unwrap();
    assert_eq!(
        names(&imported),
        (vec!["github", "my-remote"], vec!["Perplexity"])
    );
    assert_eq!(imported.remote[0].transport, "streamable-http");
    let remote = &imported.remote[1];
    assert_eq!(remote.transport, "sse");
    assert_eq!(
        remote.headers,
        vec![
            ("X-Api-Key".into(), String::new()),
            ("X-Team".into(), "docs".into())
        ]
    );
    assert_eq!(remote.placeholders, vec!["X-Api-Key"]);
    assert_eq!(imported.stdio[0].env_names, vec!["PERPLEXITY_API_KEY"]);
    // A VS Code settings.json holds the list under "mcp".
    let settings = r#"{"editor.fontSize": 14, "mcp": {"servers": {"a": {"type": "http", "url": "http://h/mcp"}}}}"#;
    assert_eq!(parse(settings).unwrap().remote[0].name, "a");
}

#[test]
fn inspector_config_types() {
    let imported = parse(INSPECTOR).unwrap();
    assert_eq!(
        names(&imported),
        (
            vec!["my-sse-server", "default-server"],
            vec!["everything", "my-stdio-server"]
        )
    );
    assert_eq!(imported.remote[0].transport, "sse");
    assert_eq!(imported.remote[1].transport, "streamable-http");
}

#[test]
fn malformed_files_name_the_line_or_key() {
    let broken =
        "{\n  \"mcpServers\": {\n    \"a\": { \"url\": \"http://h/mcp\" }\n    \"b\": {}\n  }\n}\n";
    let error = parse(broken).unwrap_err();
    assert_eq!(error.line, Some(4), "{error}");
    assert!(
        error.to_string().starts_with("Line 4, column 5:"),
        "{error}"
    );

    let error = parse("{\"mcpServers\": {").unwrap_err();
    assert!(error.to_string().contains("ends too early"), "{error}");

    let error = parse("{\"servers\": []}").unwrap_err();
    assert_eq!(error.key.as_deref(), Some("servers"));
    assert!(error.to_string().contains("Line 1, key servers"), "{error}");

    let error = parse("{\"other\": 1}").unwrap_err();
    assert!(
        error.to_string().contains("No server list found"),
        "{error}"
    );
    assert!(parse("[1, 2]")
        .unwrap_err()
        .to_string()
        .contains("an array"));
    assert!(parse("").is_err());
}

#[test]
fn bad_entries_are_skipped_with_their_key_and_line_and_the_rest_is_read() {
    let text = r#"{
  "mcpServers": {
    "good": { "url": "https://ok.example/mcp" },
    "no-url": { "type": "http" },
    "ws": { "type": "ws", "url": "ws://h" },
    "ftp": { "url": "ftp://h/mcp" },
    "bad-header": { "url": "https://h/mcp", "headers": { "X-A": 3, "Bad Name": "v" } },
    "num-header": { "url": "https://h/mcp", "headers": { "X-A": {"v": 1} } },
    "nothing": {},
    "args": { "command": "node", "args": "server.js" },
    "seven": 7
  }
}"#;
    let imported = parse(text).unwrap();
    assert_eq!(names(&imported), (vec!["good"], vec![]));
    let skipped: Vec<String> = imported.skipped.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        skipped,
        vec![
            "Line 4, key mcpServers.no-url.url: a remote server needs a \"url\".",
            "Line 5, key mcpServers.ws.type: \"ws\" is not a transport a browser page can use (http, streamable-http or sse).",
            "Line 6, key mcpServers.ftp.url: \"ftp://h/mcp\" is not an http(s) address.",
            "Line 7, key mcpServers.bad-header.headers.\"Bad Name\": is not a valid HTTP header name.",
            "Line 8, key mcpServers.num-header.headers.X-A: expected a string, found an object.",
            "Line 9, key mcpServers.nothing: has neither \"url\" nor \"command\".",
            "Line 10, key mcpServers.args.args: expected an array of strings, found a string.",
            "Line 11, key mcpServers.seven: expected an object, found a number.",
        ]
    );
}

#[test]
fn shell_quoting_keeps_every_argument_literal() {
    let text =
        r#"{"mcpServers": {"x": {"command": "my server", "args": ["it's", "$HOME", "a b"]}}}"#;
    let stdio = &parse(text).unwrap().stdio[0];
    assert_eq!(stdio.command_line, r#"'my server' 'it'\''s' '$HOME' 'a b'"#);
    assert!(stdio.bridge.contains(
        r#"--stdio ''\''my server'\'' '\''it'\''\'\'''\''s'\'' '\''$HOME'\'' '\''a b'\''' "#
    ));
}

fn sample_servers() -> Vec<ExportServer> {
    vec![
        ExportServer {
            name: "everything".into(),
            url: "http://127.0.0.1:3001/mcp".into(),
            transport: "auto".into(),
            header_names: vec!["X-Api-Key".into()],
        },
        ExportServer {
            name: "legacy".into(),
            url: "http://127.0.0.1:3005/sse".into(),
            transport: "auto".into(),
            header_names: vec![],
        },
        ExportServer {
            name: "pinned".into(),
            url: "https://h.example/mcp".into(),
            transport: "streamable-http".into(),
            header_names: vec![],
        },
        ExportServer {
            name: "sse".into(),
            url: "https://h.example/events".into(),
            transport: "sse".into(),
            header_names: vec![],
        },
        ExportServer {
            name: "empty".into(),
            url: String::new(),
            transport: "auto".into(),
            header_names: vec![],
        },
    ]
}

#[test]
fn export_writes_each_format_and_reads_back() {
    let servers = sample_servers();
    for format in Format::ALL {
        let text = export(format, &servers);
        let back = parse(&text).unwrap();
        assert!(back.skipped.is_empty() && back.stdio.is_empty(), "{text}");
        let got: Vec<(&str, &str)> = back
            .remote
            .iter()
            .map(|s| (s.name.as_str(), s.url.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("everything", "http://127.0.0.1:3001/mcp"),
                ("legacy", "http://127.0.0.1:3005/sse"),
                ("pinned", "https://h.example/mcp"),
                ("sse", "https://h.example/events"),
            ],
            "{format:?}"
        );
        assert_eq!(back.remote[3].transport, "sse", "{format:?}");
        assert_eq!(back.remote[2].transport, "streamable-http", "{format:?}");
        assert_eq!(Format::from_key(format.key()), Some(format));
    }
    let mcp = export(Format::McpServers, &servers);
    assert_eq!(
        parse(&mcp).unwrap().remote[0].headers,
        vec![("X-Api-Key".into(), String::new())]
    );
    assert!(mcp.starts_with("{\n  \"mcpServers\": {\n    \"everything\": {\n      \"url\""));
    let vscode = export(Format::Vscode, &servers);
    assert!(vscode.contains("\"servers\""));
    assert!(vscode.contains("\"type\": \"http\""));
    let inspector = export(Format::Inspector, &servers);
    // The inspector needs a type; a URL ending in /sse is legacy SSE.
    let value: Value = serde_json::from_str(&inspector).unwrap();
    assert_eq!(value["mcpServers"]["legacy"]["type"], "sse");
    assert_eq!(value["mcpServers"]["everything"]["type"], "streamable-http");
    assert!(value["mcpServers"]["everything"].get("headers").is_none());
}

#[test]
fn export_makes_names_unique() {
    let mut servers = sample_servers();
    servers[1].name = "everything".into();
    let text = export(Format::Vscode, &servers);
    let back = parse(&text).unwrap();
    assert_eq!(back.remote[1].name, "everything (2)");
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,400}") {
        let _ = parse(&text);
    }

    #[test]
    fn arbitrary_json_like_text_never_panics(
        text in "[{}\\[\\]\":,/* \\n\\tabcmdurltypeservsMSh0-9]{0,300}"
    ) {
        let _ = parse(&text);
        let _ = strip_jsonc(&text);
    }

    #[test]
    fn any_names_and_urls_round_trip(
        entries in proptest::collection::vec(("\\PC{1,20}", "[a-z]{1,10}", 0usize..3), 0..6)
    ) {
        let servers: Vec<ExportServer> = entries.iter().map(|(name, host, t)| ExportServer {
            name: name.clone(),
            url: format!("https://{host}.example/mcp"),
            transport: ["auto", "streamable-http", "sse"][*t].into(),
            header_names: vec![],
        }).collect();
        for format in Format::ALL {
            let back = parse(&export(format, &servers)).unwrap();
            prop_assert_eq!(back.remote.len(), servers.len());
            for (server, read) in servers.iter().zip(&back.remote) {
                prop_assert_eq!(&server.url, &read.url);
            }
        }
    }
}

/// A file of `count` entries `"e<n>": {}` (each skipped: it has neither a URL nor a command)
/// on lines of their own, and its length.
fn many_entries(count: usize) -> String {
    let entries: Vec<String> = (0..count).map(|n| format!("\"e{n}\":{{}}")).collect();
    format!("{{\"mcpServers\":{{\n{}\n}}}}", entries.join(",\n"))
}

#[test]
fn a_file_of_80000_entries_is_read_in_one_pass_and_capped_with_a_message() {
    let text = many_entries(80_000);
    assert!(
        text.len() <= MAX_FILE_BYTES && text.len() > 900_000,
        "{}",
        text.len()
    );
    let started = std::time::Instant::now();
    let imported = parse(&text).expect("read");
    let took = started.elapsed();
    // Only the first 1,000 entries are read, each with its own line.
    let read = imported.remote.len() + imported.stdio.len() + imported.skipped.len();
    assert_eq!(read, 1_000);
    assert_eq!(
        imported.skipped[0].to_string(),
        "Line 2, key mcpServers.e0: has neither \"url\" nor \"command\"."
    );
    assert_eq!(imported.skipped[999].line, Some(1_001));
    assert_eq!(
        imported.left_out().as_deref(),
        Some("The file lists 80,000 servers; the first 1,000 were read and 79,000 were left out (at most 1,000 are imported at once).")
    );
    // A sanity bound only (one pass takes milliseconds; finding each name anew took minutes
    // in the page).
    assert!(took.as_secs_f64() < 5.0, "{took:?}");
}

#[test]
fn entry_lines_are_found_in_every_list_shape_and_through_comments() {
    let vscode = "{\n  // a comment with \"mcp\": {\n  \"mcp\": {\n    /* \"servers\": { */\n    \"servers\": {\n      \"a\": 1,\n      \"b\": {\"a\": {}},\n      \"c\\u0022q\": [],\n    },\n  },\n}\n";
    let imported = parse(vscode).expect("JSONC read");
    let lines: Vec<(String, Option<usize>)> = imported
        .skipped
        .iter()
        .map(|s| (s.key.clone(), s.line))
        .collect();
    assert_eq!(
        lines,
        [
            ("mcp.servers.a".to_owned(), Some(6)),
            ("mcp.servers.b".to_owned(), Some(7)),
            ("mcp.servers.\"c\\\"q\"".to_owned(), Some(8)),
        ]
    );
    // A name that is also a key inside an earlier entry gets its own line.
    let text = "{\"servers\": {\n\"x\": {\"headers\": {\"y\": 1}},\n\"y\": 2\n}}";
    let imported = parse(text).unwrap();
    assert_eq!(imported.skipped[1].key, "servers.y");
    assert_eq!(imported.skipped[1].line, Some(3));
    assert_eq!(imported.left_out(), None);
    assert_eq!(imported.listed, 2);
}
