//! The typed calls: tools, prompts, resources (and their subscriptions), completion,
//! logging, ping. Each sends a raw request through the engine and decodes the `result` into
//! the rmcp type it expects (never through rmcp's message unions: they triple the wasm size).
//! The lists are in `lists.rs`, tasks in `tasks.rs` and `task_extension.rs`.

use crate::client::McpClient;
use crate::engine::decode;
use crate::events::{ClientEvent, ListUpdate};
use crate::lists::MAX_PAGES;
use futures::future::LocalBoxFuture;
use mcp_lens_protocol::error::{ErrorKind, McpError, Step};
use mcp_lens_protocol::headers::{
    after_header_mismatch, cors_refusal, param_headers, tool_headers, AfterHeaderMismatch,
    InvalidAnnotation,
};
use mcp_lens_protocol::jsonrpc::RequestId;
use mcp_lens_protocol::mcp;
use mcp_lens_protocol::task_extension::created_task;
use rmcp::model::{CallToolResult, GetPromptResult, JsonObject, ReadResourceResult};
use serde_json::{json, Value};

impl McpClient {
    /// Starts a tool call. Returns its request id at once (the progress token, and what
    /// [`McpClient::cancel`] takes) and the future of its result.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let arguments = serde_json::Map::from_iter([("message".to_owned(), serde_json::json!("hi"))]);
    /// let (_id, call) = client.call_tool("echo", arguments);
    /// let result = call.await?;
    /// println!("{:?}", result.content);
    /// # Ok(()) }
    /// ```
    pub fn call_tool(
        &self,
        name: &str,
        arguments: JsonObject,
    ) -> (
        RequestId,
        LocalBoxFuture<'static, Result<CallToolResult, McpError>>,
    ) {
        let (id, call) = self.call_tool_json(name, arguments);
        (
            id,
            Box::pin(async move { decode(Step::CallTool, mcp::TOOLS_CALL, call.await?) }),
        )
    }

    /// [`McpClient::call_tool`] with the result undecoded: what an MCP App asked for is
    /// passed back to it exactly as the server answered. A task of the tasks extension
    /// (SEP-2663) the server answered with instead is followed to its result here.
    pub fn call_tool_json(
        &self,
        name: &str,
        arguments: JsonObject,
    ) -> (RequestId, LocalBoxFuture<'static, Result<Value, McpError>>) {
        let (id, call) = self.tool_call(name, arguments, None);
        let client = self.clone();
        let call = Box::pin(async move {
            let value = call.await?;
            match created_task(&value) {
                Some(task) => client.finish_as_call(task).await,
                None => Ok(value),
            }
        });
        (id, call)
    }

    pub(crate) fn tool_call(
        &self,
        name: &str,
        arguments: JsonObject,
        task: Option<Value>,
    ) -> (RequestId, LocalBoxFuture<'static, Result<Value, McpError>>) {
        let id = self.engine().next_id();
        let mut params = json!({ "name": name, "arguments": arguments });
        params["_meta"] = json!({ "progressToken": id.clone().into_json_value() });
        if let Some(task) = task {
            params["task"] = task;
        }
        let client = self.clone();
        let call_id = id.clone();
        let name = name.to_owned();
        let call = Box::pin(async move {
            let mirrored = client.mirrored_headers(&name, &params["arguments"])?;
            let first = client
                .request_mirrored(
                    call_id,
                    Step::CallTool,
                    mcp::TOOLS_CALL,
                    Some(params.clone()),
                    mirrored,
                )
                .await;
            match first {
                // -32020: the headers did not match what the server expects; its tool may
                // have changed. The tools are listed again and the call sent once more with
                // the headers the fresh schema asks for (the server ran nothing).
                Err(error)
                    if jsonrpc_code(&error.kind)
                        .and_then(|code| after_header_mismatch(code, false))
                        == Some(AfterHeaderMismatch::RelistThenRetry) =>
                {
                    let tools = client.tools_from(None, MAX_PAGES).await;
                    let tools = tools.map(|page| page.items);
                    client.emit(ClientEvent::ListChanged(ListUpdate::Tools(tools)));
                    let mirrored = client.mirrored_headers(&name, &params["arguments"])?;
                    let id = client.engine().next_id();
                    client
                        .request_mirrored(
                            id,
                            Step::CallTool,
                            mcp::TOOLS_CALL,
                            Some(params),
                            mirrored,
                        )
                        .await
                }
                other => other,
            }
        });
        (id, call)
    }

    /// The `Mcp-Param-*` headers of a call of `tool` (SEP-2243, the 2026-07-28 era only), by
    /// the input schema the last tools list gave; a tool whose annotations are invalid is not
    /// called, nor is a call whose mirrored argument a header cannot carry.
    fn mirrored_headers(
        &self,
        tool: &str,
        arguments: &Value,
    ) -> Result<Vec<(String, String)>, McpError> {
        if !self.session().is_modern() {
            return Ok(Vec::new());
        }
        let Some(schema) = self.lists().input_schema(tool) else {
            return Ok(Vec::new());
        };
        let not_sent =
            |detail: String| McpError::new(Step::CallTool, ErrorKind::NotSent { detail });
        let mirrored = tool_headers(&schema).map_err(|problems| {
            not_sent(format!(
                "the tool is not offered for calling: {}",
                invalid_reasons(&problems)
            ))
        })?;
        param_headers(&mirrored, arguments).map_err(|why| not_sent(why.to_string()))
    }

    /// Why a tool may not be called (its `x-mcp-header` annotations are invalid), as a
    /// sentence; `None` for a tool that may be called, or one the last list did not give
    /// (the annotations mean something only in the 2026-07-28 era, where calls mirror them).
    ///
    /// ```no_run
    /// # fn run(client: mcp_lens_client::McpClient) {
    /// if let Some(why) = client.tool_not_callable("query") {
    ///     println!("not offered for calling: {why}");
    /// }
    /// # }
    /// ```
    pub fn tool_not_callable(&self, tool: &str) -> Option<String> {
        if !self.session().is_modern() {
            return None;
        }
        let schema = self.lists().input_schema(tool)?;
        tool_headers(&schema)
            .err()
            .map(|problems| invalid_reasons(&problems))
    }

    /// The lowercase `Mcp-Param-*` header names a call of `tool` carries (for the CORS
    /// diagnosis of a blocked call: the preflight asks the server to allow them).
    pub fn tool_cors_refusal(&self, tool: &str) -> Option<String> {
        if !self.session().is_modern() {
            return None;
        }
        let schema = self.lists().input_schema(tool)?;
        cors_refusal(tool, &tool_headers(&schema).ok()?)
    }

    /// Gets a prompt with its arguments filled in (`prompts/get`).
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let arguments = serde_json::Map::from_iter([("city".to_owned(), serde_json::json!("Paris"))]);
    /// let prompt = client.get_prompt("weather", arguments).await?;
    /// println!("{} messages", prompt.messages.len());
    /// # Ok(()) }
    /// ```
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: JsonObject,
    ) -> Result<GetPromptResult, McpError> {
        let params = json!({ "name": name, "arguments": arguments });
        let value = self
            .request(Step::GetPrompt, mcp::PROMPTS_GET, Some(params))
            .await?;
        decode(Step::GetPrompt, mcp::PROMPTS_GET, value)
    }

    /// Reads a resource (`resources/read`).
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let resource = client.read_resource("file:///notes.md").await?;
    /// println!("{} parts", resource.contents.len());
    /// # Ok(()) }
    /// ```
    pub async fn read_resource(&self, uri: &str) -> Result<ReadResourceResult, McpError> {
        let value = self.read_resource_json(uri).await?;
        decode(Step::ReadResource, mcp::RESOURCES_READ, value)
    }

    /// [`McpClient::read_resource`] as the server sent it, undecoded: an MCP App's `ui://`
    /// resource is read with its `_meta.ui` (CSP, permissions) exactly as written, and an
    /// app's own `resources/read` gets the server's answer unchanged.
    pub async fn read_resource_json(&self, uri: &str) -> Result<Value, McpError> {
        self.request(
            Step::ReadResource,
            mcp::RESOURCES_READ,
            Some(json!({ "uri": uri })),
        )
        .await
    }

    /// Subscribes to a resource's changes (`resources/subscribe`, when the server's
    /// `resources.subscribe` capability says so): the server then sends
    /// `notifications/resources/updated` with its URI (a [`crate::ClientEvent::Notification`]).
    /// Subscriptions belong to this session: a new session starts with none.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// client.subscribe_resource("file:///notes.md").await?;
    /// assert!(client.is_subscribed("file:///notes.md"));
    /// # Ok(()) }
    /// ```
    pub async fn subscribe_resource(&self, uri: &str) -> Result<(), McpError> {
        self.request(
            Step::SubscribeResource,
            mcp::RESOURCES_SUBSCRIBE,
            Some(json!({ "uri": uri })),
        )
        .await?;
        self.session().subscribed(uri);
        Ok(())
    }

    /// Ends a subscription (`resources/unsubscribe`). The URI counts as unsubscribed here
    /// even if the server's answer is an error: its updates are no longer wanted.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// client.unsubscribe_resource("file:///notes.md").await?;
    /// # Ok(()) }
    /// ```
    pub async fn unsubscribe_resource(&self, uri: &str) -> Result<(), McpError> {
        self.session().unsubscribed(uri);
        self.request(
            Step::UnsubscribeResource,
            mcp::RESOURCES_UNSUBSCRIBE,
            Some(json!({ "uri": uri })),
        )
        .await
        .map(drop)
    }

    /// Subscribes again, in the background, to everything subscribed so far (after the
    /// server lost the session and a new one was initialized). A subscription the new session
    /// refuses is dropped and reported as [`ClientEvent::Ignored`].
    pub(crate) fn resubscribe(&self) {
        for uri in self.subscriptions() {
            let client = self.background();
            self.spawn(async move {
                let params = Some(json!({ "uri": uri }));
                let step = Step::SubscribeResource;
                if let Err(error) = client.request(step, mcp::RESOURCES_SUBSCRIBE, params).await {
                    client.session().unsubscribed(&uri);
                    client.emit(ClientEvent::Ignored {
                        reason: format!("{error} (subscribing again to {uri} in the new session)"),
                    });
                }
            });
        }
    }

    /// Whether this session is subscribed to the resource.
    pub fn is_subscribed(&self, uri: &str) -> bool {
        self.session().is_subscribed(uri)
    }

    /// The resources this session is subscribed to, in the order subscribed.
    pub fn subscriptions(&self) -> Vec<String> {
        self.session().subscriptions()
    }

    /// Pings the server; returns the round trip in milliseconds.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// println!("{} ms", client.ping().await?);
    /// # Ok(()) }
    /// ```
    pub async fn ping(&self) -> Result<f64, McpError> {
        let started = self.now_ms();
        self.request(Step::Ping, mcp::PING, None).await?;
        Ok(self.now_ms() - started)
    }

    /// Completion values for a prompt argument as typed so far (`completion/complete`).
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// let values = client.complete_prompt_argument("weather", "city", "Pa").await?;
    /// println!("{values:?}");
    /// # Ok(()) }
    /// ```
    pub async fn complete_prompt_argument(
        &self,
        prompt: &str,
        argument: &str,
        value: &str,
    ) -> Result<Vec<String>, McpError> {
        let params = json!({
            "ref": { "type": "ref/prompt", "name": prompt },
            "argument": { "name": argument, "value": value }
        });
        let result = self
            .request(Step::Complete, mcp::COMPLETE, Some(params))
            .await?;
        let values = result
            .get("completion")
            .and_then(|c| c.get("values"))
            .and_then(Value::as_array)
            .map(|values| {
                values
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        Ok(values)
    }

    /// Asks the server to send log messages at `level` and above.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// client.set_log_level("debug").await?;
    /// # Ok(()) }
    /// ```
    pub async fn set_log_level(&self, level: &str) -> Result<(), McpError> {
        self.request(
            Step::SetLogLevel,
            mcp::SET_LOG_LEVEL,
            Some(json!({ "level": level })),
        )
        .await
        .map(drop)
    }

    /// The protocol version the server chose.
    ///
    /// ```no_run
    /// # async fn run(client: mcp_lens_client::McpClient) -> Result<(), mcp_lens_client::protocol::error::McpError> {
    /// println!("{:?}", client.protocol_version()); // Some("2025-11-25")
    /// # Ok(()) }
    /// ```
    pub fn protocol_version(&self) -> Option<String> {
        self.session().protocol_version()
    }
}

/// Every reason a tool's annotations are invalid, in one sentence.
fn invalid_reasons(problems: &[InvalidAnnotation]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// The JSON-RPC error code of a failed request: a JSON-RPC error, or the one in an HTTP
/// error's body (2026-07-28 servers answer -32020 with HTTP 400).
fn jsonrpc_code(kind: &ErrorKind) -> Option<i32> {
    match kind {
        ErrorKind::JsonRpc { code, .. } => Some(*code),
        ErrorKind::HttpStatus { body_start, .. } => serde_json::from_str::<Value>(body_start)
            .ok()?
            .get("error")?
            .get("code")?
            .as_i64()
            .and_then(|code| i32::try_from(code).ok()),
        _ => None,
    }
}
