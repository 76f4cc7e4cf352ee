//! The client layer (no UI) in a real browser against a real server: what the page-level
//! end-to-end tests cannot easily drive, such as hundreds of calls in flight at once.
//!
//! Run by `scripts/test.sh`, which starts server-everything on loopback and passes its URL
//! at compile time in `MCP_LENS_TEST_SERVER`; `wasm-bindgen-test-runner` drives headless
//! Chromium through chromedriver.
#![cfg(target_arch = "wasm32")]

use futures::future::join_all;
use mcp_lens_client::{ClientConfig, McpClient};
use rmcp::model::ContentBlock;
use serde_json::{json, Map, Value};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn server_url() -> &'static str {
    option_env!("MCP_LENS_TEST_SERVER").unwrap_or("http://127.0.0.1:3001/mcp")
}

fn text_of(content: &[ContentBlock]) -> String {
    content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Text(text) => Some(text.text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn arguments(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

#[wasm_bindgen_test]
async fn two_hundred_concurrent_calls_each_reach_their_caller() {
    let (client, state) = McpClient::connect(ClientConfig::new(server_url()), |_| {})
        .await
        .expect("connects to server-everything");
    assert_eq!(state.info.server_info.name, "mcp-servers/everything");
    let calls: Vec<_> = (0..200)
        .map(|n| {
            let (_, call) =
                client.call_tool("echo", arguments(json!({ "message": format!("call {n}") })));
            call
        })
        .collect();
    let results = join_all(calls).await;
    for (n, result) in results.into_iter().enumerate() {
        let result = result.unwrap_or_else(|e| panic!("call {n} failed: {e}"));
        assert_eq!(text_of(&result.content), format!("Echo: call {n}"));
    }
    client.disconnect().await.expect("ends the session");
}

#[wasm_bindgen_test]
async fn answers_of_different_shapes_interleave_correctly() {
    let (client, _) = McpClient::connect(ClientConfig::new(server_url()), |_| {})
        .await
        .expect("connects");
    // Slow and fast requests of different kinds at once: each gets its own answer.
    let (_, slow) = client.call_tool(
        "trigger-long-running-operation",
        arguments(json!({ "duration": 1, "steps": 2 })),
    );
    let (_, sum) = client.call_tool("get-sum", arguments(json!({ "a": 2, "b": 3 })));
    let prompt = client.get_prompt("args-prompt", arguments(json!({ "city": "Paris" })));
    let resource = client.read_resource("demo://resource/static/document/extension.md");
    let (slow, sum, prompt, resource) = futures::join!(slow, sum, prompt, resource);
    assert!(text_of(&slow.unwrap().content).contains("Long running operation completed"));
    assert_eq!(text_of(&sum.unwrap().content), "The sum of 2 and 3 is 5.");
    assert_eq!(prompt.unwrap().messages.len(), 1);
    assert_eq!(resource.unwrap().contents.len(), 1);
    client.disconnect().await.expect("ends the session");
}

#[wasm_bindgen_test]
async fn requests_after_disconnect_fail_with_a_clear_error() {
    let (client, _) = McpClient::connect(ClientConfig::new(server_url()), |_| {})
        .await
        .expect("connects");
    client.disconnect().await.expect("ends the session");
    let error = client.ping().await.expect_err("no session any more");
    assert_eq!(
        error.to_string(),
        "Ping failed: there is no connection; connect first."
    );
}

fn python_url() -> &'static str {
    option_env!("MCP_LENS_TEST_PYTHON_SERVER").unwrap_or("http://127.0.0.1:3002/mcp")
}

/// The client library's `Manager` with two real servers at once: server-everything
/// (TypeScript SDK) and the Python SDK's server (mcp 2.3.0, which Auto speaks to in the
/// stateless 2026-07-28 era).
#[wasm_bindgen_test]
async fn the_manager_runs_two_servers_by_id() {
    use mcp_lens_client::manager::{Manager, ManagerError, Status, WireLine};
    use std::cell::RefCell;
    use std::rc::Rc;

    let manager = Manager::new();
    let logged = Rc::new(RefCell::new(Vec::<String>::new()));
    let sink = logged.clone();
    manager.on_wire(None, move |server, line| {
        if let WireLine::Entry(entry) = line {
            sink.borrow_mut().push(format!(
                "{server} {}",
                entry.method.clone().unwrap_or_default()
            ));
        }
    });
    let mut everything = ClientConfig::new(server_url());
    everything.bearer_token = Some("never-in-a-summary".into());
    manager
        .connect("everything", everything)
        .await
        .expect("connects server-everything");
    manager
        .connect("python", ClientConfig::new(python_url()))
        .await
        .expect("connects the Python SDK server");
    let again = manager
        .connect("python", ClientConfig::new(python_url()))
        .await;
    assert!(matches!(again, Err(ManagerError::AlreadyExists(id)) if id == "python"));

    // Both offer `echo`: the bare name is ambiguous, `server:tool` is not.
    let tagged = manager.all_tools(false);
    assert!(tagged
        .iter()
        .any(|t| t.server == "everything" && t.tool.name == "get-sum"));
    assert!(tagged
        .iter()
        .any(|t| t.server == "python" && t.tool.name == "calculate"));
    let ambiguous = manager.call_tool("echo", Map::new()).await;
    assert!(matches!(
        ambiguous,
        Err(ManagerError::UnresolvedTool { .. })
    ));
    let result = manager
        .call_tool(
            "python:echo",
            arguments(json!({ "message": "via the manager" })),
        )
        .await
        .expect("python:echo");
    assert_eq!(text_of(&result.content), "Echo: via the manager");
    let sum = manager
        .call_tool("get-sum", arguments(json!({ "a": 20, "b": 22 })))
        .await
        .expect("a name only one server offers");
    assert_eq!(text_of(&sum.content), "The sum of 20 and 22 is 42.");

    assert!(manager.check("everything").await.expect("pings") >= 0.0);
    let summaries = manager.summaries();
    assert_eq!(summaries.len(), 2);
    assert!(summaries.iter().all(|s| s.status == Status::Connected));
    assert!(summaries[0].has_token);
    assert!(!format!("{summaries:?}").contains("never-in-a-summary"));
    assert_eq!(
        summaries[1].server_name.as_deref(),
        Some("mcp-lens-python-test")
    );
    {
        let logged = logged.borrow();
        assert!(
            logged.contains(&"python tools/call".to_owned()),
            "{logged:?}"
        );
        assert!(
            logged.contains(&"everything tools/call".to_owned()),
            "{logged:?}"
        );
    }

    manager.disconnect_all().await;
    assert_eq!(manager.status("python"), Some(Status::Disconnected));
    let after = manager.call_tool_on("python", "echo", Map::new()).await;
    assert!(matches!(after, Err(ManagerError::NotConnected(_))));
    manager.remove("python").await.expect("removes");
    assert_eq!(manager.status("python"), None);
}

/// Server requests go to the server's own handler, else to the global one, and are answered
/// by id through the manager.
#[wasm_bindgen_test]
async fn the_manager_routes_server_requests_to_handlers() {
    use mcp_lens_client::manager::Manager;

    let manager = Manager::new();
    let answering = manager.clone();
    manager.on_server_request(None, move |request| {
        let (manager, request) = (answering.clone(), request.clone());
        // Answered later, as a person would (not from inside the client's dispatch).
        wasm_bindgen_futures::spawn_local(async move {
            assert_eq!(request.method, "elicitation/create");
            assert!(manager
                .pending_requests()
                .iter()
                .any(|p| p.id == request.id));
            assert!(manager.answer(
                &request.server,
                &request.id,
                Ok(json!({ "action": "decline" }))
            ));
        });
    });
    manager
        .connect("everything", ClientConfig::new(server_url()))
        .await
        .expect("connects");
    let result = manager
        .call_tool("everything:trigger-elicitation-request", Map::new())
        .await
        .expect("the tool answers after the elicitation");
    assert!(
        text_of(&result.content).contains("declined"),
        "{}",
        text_of(&result.content)
    );
    assert!(manager.pending_requests().is_empty());
    manager.disconnect_all().await;
}

/// The page's URL reading (`protocol::url`) against Chromium's own `URL` on the shared corpus
/// (the native test checks it against the `url` crate): whatever mcp-lens accepts, the
/// browser reads to the same href (escapes in the path aside: Chromium escapes `^` and `|`
/// there).
#[wasm_bindgen_test]
fn the_url_corpus_reads_as_chromium_reads_it() {
    let corpus: Vec<Value> =
        serde_json::from_str(include_str!("../../protocol/src/url/corpus.json")).expect("JSON");
    let cases: Vec<(String, Option<String>)> = corpus
        .iter()
        .map(|case| {
            (
                case["input"].as_str().expect("input").to_owned(),
                case["base"].as_str().map(str::to_owned),
            )
        })
        .collect();
    let failures = disagreements_with_chromium(&cases);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The same rule over 20,000 texts made of the pieces URL parsers disagree on (a fixed
/// pseudo-random sequence, so a failure repeats), alone and against a base.
#[wasm_bindgen_test]
fn generated_urls_read_as_chromium_reads_them() {
    const PIECES: [&str; 30] = [
        "http://", "https:", "/", "\\", "@", ":", "?", "#", "%", "%2e", "%5C", "%40", ".", "..",
        "[", "]", "\t", "\n", " ", "0x", "127", "ü", "a", "ff", "1", "example", "*", "^", "|",
        "::",
    ];
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let cases: Vec<(String, Option<String>)> = (0..20_000)
        .map(|n| {
            let length = (next() % 12) as usize;
            let text: String = (0..length)
                .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                .collect();
            let base = (n % 2 == 1).then(|| "http://u:p@h:81/a/b?q#f".to_owned());
            (text, base)
        })
        .collect();
    let failures = disagreements_with_chromium(&cases);
    assert!(
        failures.is_empty(),
        "{} of {}:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

fn disagreements_with_chromium(cases: &[(String, Option<String>)]) -> Vec<String> {
    use mcp_lens_client::protocol::url::{same_reading, WebUrl};
    let mut failures = Vec::new();
    for (input, base) in cases {
        let (input, base) = (input.as_str(), base.as_deref());
        let ours = match base {
            Some(base) => WebUrl::parse(base).and_then(|base| base.join(input)),
            None => WebUrl::parse(input),
        };
        let browser = match base {
            Some(base) => web_sys::Url::new_with_base(input, base).ok(),
            None => web_sys::Url::new(input).ok(),
        }
        .filter(|url| matches!(url.protocol().as_str(), "http:" | "https:"))
        .map(|url| url.href());
        match (&ours, &browser) {
            (Ok(url), Some(href)) if same_reading(url.href(), href) => {}
            // A refusal is always safe. (Chromium also accepts hosts the standard refuses,
            // such as one with a space, escaped as %20; the native test against the `url`
            // crate keeps mcp-lens's refusals to what implementations read differently.)
            (Err(_), _) => {}
            _ => failures.push(format!(
                "{input:?} (base {base:?}): mcp-lens {:?}, Chromium {browser:?}",
                ours.as_ref().map(|url| url.href())
            )),
        }
    }
    failures
}

/// DPoP: WebCrypto makes the key pair (its public half readable as a P-256 point, the private
/// half only usable) and signs ES256 (`r || s`, 64 bytes); two signatures of the same data
/// differ (ECDSA is randomized), so no proof is ever repeated byte for byte.
#[wasm_bindgen_test]
async fn a_dpop_key_from_webcrypto_gives_a_p256_point_and_es256_signatures() {
    use mcp_lens_client::auth::Signer;
    use mcp_lens_client::browser::sign::WebCryptoSigner;
    use mcp_lens_client::protocol::auth::dpop::PublicJwk;
    let key = WebCryptoSigner.dpop_key().await.expect("a key");
    let point = key.public_point();
    assert_eq!(point.len(), 65);
    assert!(PublicJwk::from_uncompressed(&point).is_ok());
    let first = key.sign(b"header.claims").await.expect("signed");
    let second = key.sign(b"header.claims").await.expect("signed");
    assert_eq!((first.len(), second.len()), (64, 64));
    assert_ne!(first, second);
    // Another sign-in, another key.
    let other = WebCryptoSigner.dpop_key().await.expect("a key");
    assert_ne!(other.public_point(), point);
}
