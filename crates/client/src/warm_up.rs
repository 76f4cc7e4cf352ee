//! A server in memory, for warming up the page's code: V8 compiles each wasm function at its
//! first call, so the page's first connect would wait for its whole path to compile (the
//! request, the answers' decoding, the session's bookkeeping). A connect to this server runs
//! that path, through the real client, with nothing sent: [`runtime`] is the page's clock and
//! spawner with [`InMemoryServer`] for HTTP.
//!
//! It answers as a typical handshake-era server does (the SDKs' Streamable HTTP): `server/discover`
//! refused with 400 "Server not initialized", `initialize` with a session id, notifications
//! with 202, the first page of each list with one item, and `tools/call` of its one tool, `echo`,
//! with `Echo: ` and the message; any other request is "Method not found", a GET stream 405, a
//! DELETE 200. Each answer comes in a task of its own
//! ([`crate::runtime::Clock::yield_now`]), so the page's first run of the code is spread
//! over several short tasks rather than one long one.

use crate::runtime::{Body, Clock, Http, HttpRequest, HttpResponse, Runtime};
use futures::future::LocalBoxFuture;
use mcp_lens_protocol::error::ErrorKind;
use serde_json::{json, Value};
use std::rc::Rc;

/// The server's URL (the `.invalid` top-level domain is reserved: never a real host).
pub const URL: &str = "http://warm-up.invalid/mcp";

/// The page's runtime with [`InMemoryServer`] for HTTP (only usable inside a browser).
pub fn runtime() -> Runtime {
    let browser = crate::browser::runtime();
    Runtime {
        http: Rc::new(InMemoryServer {
            clock: browser.clock.clone(),
        }),
        ..browser
    }
}

/// Answers the client's requests from memory (see the module's description).
pub struct InMemoryServer {
    /// Each answer waits for [`Clock::yield_now`].
    pub clock: Rc<dyn Clock>,
}

impl Http for InMemoryServer {
    fn send<'a>(
        &'a self,
        request: HttpRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<HttpResponse, ErrorKind>> {
        let answer = answer(request.method, request.body);
        let turn = self.clock.yield_now();
        Box::pin(async move {
            turn.await;
            let (status, body) = answer;
            let mut headers = vec![("mcp-session-id".to_owned(), "warm-up".to_owned())];
            let body = body.map(|body| {
                headers.push(("content-type".to_owned(), "application/json".to_owned()));
                Box::new(Once(Some(body.to_string().into_bytes()))) as Box<dyn Body>
            });
            Ok(HttpResponse::new(status, headers, body))
        })
    }
}

/// The status and JSON body this server answers a request with.
fn answer(method: &str, body: Option<&str>) -> (u16, Option<Value>) {
    if method == "GET" {
        return (405, None);
    }
    if method != "POST" {
        return (200, None);
    }
    let message: Value = body
        .and_then(|body| serde_json::from_str(body).ok())
        .unwrap_or(Value::Null);
    let Some(id) = message.get("id").cloned() else {
        return (202, None); // a notification
    };
    let rpc = message.get("method").and_then(Value::as_str).unwrap_or("");
    let result = |result: Value| {
        (
            200,
            Some(json!({ "jsonrpc": "2.0", "id": id, "result": result })),
        )
    };
    match rpc {
        "server/discover" => (
            400,
            Some(json!({
                "jsonrpc": "2.0",
                "id": null,
                "error": { "code": -32000, "message": "Bad Request: Server not initialized" },
            })),
        ),
        "initialize" => {
            let version = message
                .pointer("/params/protocolVersion")
                .cloned()
                .unwrap_or(Value::Null);
            result(json!({
                "protocolVersion": version,
                "capabilities": {
                    "tools": { "listChanged": true },
                    "prompts": { "listChanged": true },
                    "resources": { "subscribe": true, "listChanged": true },
                    "logging": {},
                    "completions": {},
                },
                "serverInfo": { "name": "warm-up", "version": "1.0.0" },
                "instructions": "warm-up",
            }))
        }
        "tools/list" => result(json!({ "tools": [{
            "name": "echo",
            "description": "Echoes its message.",
            "inputSchema": {
                "type": "object",
                "properties": { "message": { "type": "string", "description": "What to echo" } },
                "required": ["message"],
            },
        }] })),
        "tools/call" => {
            let message = message
                .pointer("/params/arguments/message")
                .and_then(Value::as_str)
                .unwrap_or("");
            result(json!({ "content": [{ "type": "text", "text": format!("Echo: {message}") }] }))
        }
        "prompts/list" => result(json!({ "prompts": [{
            "name": "greeting",
            "description": "A greeting.",
            "arguments": [{ "name": "name", "description": "Who", "required": true }],
        }] })),
        "resources/list" => result(json!({ "resources": [{
            "uri": "test://static/resource/1",
            "name": "Resource 1",
            "mimeType": "text/plain",
        }] })),
        "resources/templates/list" => result(json!({ "resourceTemplates": [{
            "uriTemplate": "test://static/resource/{id}",
            "name": "Resource by id",
        }] })),
        _ => (
            200,
            Some(json!({
                "jsonrpc": "2.0",
                "id": id,
                "error": { "code": -32601, "message": "Method not found" },
            })),
        ),
    }
}

/// Runs the page's own HTTP path once with nothing sent: `fetch` of a `blob:` URL made here (an
/// answer as an event stream: a priming event, then a result) through the browser's [`Http`],
/// its body read through [`crate::runtime::SseReader`] to the end. [`InMemoryServer`] stands in for
/// `fetch`, so a warm-up connect leaves the code that calls it and reads its answers
/// uncompiled: the request's headers, init and abort signal, the response's status, headers
/// and body reader, the event-stream parser. (The page's Content-Security-Policy allows
/// `blob:` in `connect-src` for this.) Only usable inside a browser.
pub async fn browser_fetch() {
    use crate::runtime::SseReader;
    use wasm_bindgen::JsValue;
    let text = "id: 0\ndata:\n\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n";
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/event-stream");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    // Read as an event stream, then as a whole text (how a JSON answer is read).
    for stream in [true, false] {
        let abort = crate::runtime::Abort::new();
        let request = HttpRequest {
            method: "GET",
            url: &url,
            headers: vec![("accept".to_owned(), "text/event-stream".to_owned())],
            body: None,
            abort: Some(&abort),
            refuse_redirects: false,
        };
        let Ok(response) = crate::browser::http::Fetch.send(request).await else {
            break;
        };
        let _ = response.header("content-type");
        if !stream {
            let _ = response.text(1 << 20).await;
        } else if let Some(body) = response.body() {
            let mut events = SseReader::new(body, 1 << 20);
            while let Ok(Some(event)) = events.next_event().await {
                let _ = mcp_lens_protocol::jsonrpc::decode_incoming(&event.data);
            }
            events.cancel();
        }
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// A body of one chunk.
struct Once(Option<Vec<u8>>);

impl Body for Once {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>, ErrorKind>> {
        let chunk = self.0.take();
        Box::pin(async move { Ok(chunk) })
    }

    fn cancel(&self) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_like_a_handshake_era_server() {
        let (status, body) = answer(
            "POST",
            Some(r#"{"jsonrpc":"2.0","id":0,"method":"server/discover"}"#),
        );
        assert_eq!(status, 400);
        assert_eq!(body.unwrap()["error"]["code"], -32000);
        let (status, body) = answer(
            "POST",
            Some(
                r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#,
            ),
        );
        assert_eq!(status, 200);
        let body = body.unwrap();
        assert_eq!(body["id"], 1);
        assert_eq!(body["result"]["protocolVersion"], "2025-11-25");
        assert_eq!(
            answer(
                "POST",
                Some(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            ),
            (202, None)
        );
        let (_, body) = answer(
            "POST",
            Some(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#),
        );
        assert_eq!(body.unwrap()["result"]["tools"][0]["name"], "echo");
        let (_, body) = answer(
            "POST",
            Some(
                r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}"#,
            ),
        );
        assert_eq!(body.unwrap()["result"]["content"][0]["text"], "Echo: hi");
        let (_, body) = answer(
            "POST",
            Some(r#"{"jsonrpc":"2.0","id":4,"method":"completion/complete"}"#),
        );
        assert_eq!(body.unwrap()["error"]["code"], -32601);
        assert_eq!(answer("GET", None), (405, None));
        assert_eq!(answer("DELETE", None), (200, None));
    }
}
