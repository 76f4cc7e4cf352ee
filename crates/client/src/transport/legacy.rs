//! The legacy HTTP+SSE transport (protocol 2024-11-05): one long GET event stream carries
//! every message from the server; its first `endpoint` event says where to POST.
//!
//! The stream is read through `fetch` (not `EventSource`, which cannot send Authorization or
//! custom headers).

use super::{acknowledged, error_body, Endpoint, Inbox, OutgoingRequest, ServerStream};
use super::{StreamEnd, Transport};
use crate::runtime::{Abort, Clock, HttpRequest, HttpResponse, Pacer, Runtime, SseReader};
use futures::future::{select, Either, LocalBoxFuture};
use mcp_lens_protocol::error::{ErrorKind, McpError, Step};
use mcp_lens_protocol::streamable::{media_type, AnswerError, Session};
use mcp_lens_protocol::transport_choice::{origin_of, resolve_endpoint};
use mcp_lens_protocol::wire_log::Via;
use std::pin::pin;
use std::rc::Rc;

/// Messages are POSTed to the endpoint the SSE stream named; answers come back on that
/// stream, which a task reads into the inbox until it ends or the transport closes.
pub(crate) struct Legacy {
    endpoint: Endpoint,
    runtime: Runtime,
    /// Where messages go: the stream's `endpoint`, resolved against the server URL.
    post_url: String,
    /// Stops the SSE stream.
    stream: Abort,
}

impl Legacy {
    /// Opens the SSE stream at the endpoint's URL, waits for its `endpoint` event (at most
    /// `timeout_ms`), then keeps reading the stream in the background, handing every message
    /// to `inbox`.
    pub(crate) async fn open(
        endpoint: Endpoint,
        runtime: Runtime,
        timeout_ms: u32,
        inbox: Rc<dyn Inbox>,
    ) -> Result<Legacy, McpError> {
        let fail = |kind| McpError::new(Step::Initialize, kind);
        let stream = Abort::new();
        let headers = endpoint.headers(vec![("accept", "text/event-stream".to_owned())], &[]);
        let response = runtime
            .http
            .send(HttpRequest {
                method: "GET",
                url: &endpoint.url,
                headers,
                body: None,
                abort: Some(&stream),
                refuse_redirects: false,
            })
            .await
            .map_err(fail)?;
        let content_type = response.header("content-type").unwrap_or_default();
        let status = response.status();
        if !(200..300).contains(&status) || media_type(&content_type) != "text/event-stream" {
            let error = if (200..300).contains(&status) {
                AnswerError::UnexpectedContent(content_type)
            } else {
                AnswerError::HttpStatus(status)
            };
            let body = error_body(&response).await;
            return Err(fail(error.with_body(&body)));
        }
        let Some(body) = response.body() else {
            return Err(fail(ErrorKind::StreamEnded));
        };
        let mut events = SseReader::new(body, endpoint.max_message_bytes);
        let found = {
            let wait = pin!(wait_for_endpoint(&endpoint.url, &mut events, &*inbox));
            match select(wait, runtime.clock.sleep(timeout_ms)).await {
                Either::Left((found, _)) => found,
                Either::Right(_) => Err(ErrorKind::InvalidAnswer {
                    detail: "the SSE stream sent no endpoint event; is this a legacy HTTP+SSE MCP endpoint?".to_owned(),
                }),
            }
        };
        let post_url = match found {
            Ok(url) => url,
            Err(kind) => {
                stream.abort();
                return Err(fail(kind));
            }
        };
        let clock = runtime.clock.clone();
        runtime
            .spawner
            .spawn(Box::pin(read_stream(events, clock, inbox)));
        Ok(Legacy {
            endpoint,
            runtime,
            post_url,
            stream,
        })
    }

    /// The origin messages are POSTed to (always the SSE URL's: see `resolve_endpoint`).
    pub(crate) fn post_origin(&self) -> Option<String> {
        origin_of(&self.post_url)
    }

    /// POSTs a message to the endpoint. The legacy transport predates session and version
    /// headers: the session is in the endpoint URL.
    fn post<'a>(&'a self, body: &'a str) -> LocalBoxFuture<'a, Result<HttpResponse, ErrorKind>> {
        self.runtime.http.send(HttpRequest {
            method: "POST",
            url: &self.post_url,
            headers: self
                .endpoint
                .headers(Session::default().post_headers(), &[]),
            body: Some(body),
            abort: None,
            refuse_redirects: false,
        })
    }
}

/// Reads events until the `endpoint` one, handing any message before it to `inbox`: the URL
/// it names, resolved against the server URL.
async fn wait_for_endpoint(
    url: &str,
    events: &mut SseReader,
    inbox: &dyn Inbox,
) -> Result<String, ErrorKind> {
    while let Some(event) = events.next_event().await? {
        if event.event == "endpoint" {
            return resolve_endpoint(url, &event.data)
                .map_err(|detail| ErrorKind::InvalidAnswer { detail });
        }
        inbox.deliver(Via::Sse, event.data, None).await;
    }
    Err(ErrorKind::StreamEnded)
}

/// Reads the stream to its end; then nothing else can deliver answers: the inbox is told.
async fn read_stream(mut events: SseReader, clock: Rc<dyn Clock>, inbox: Rc<dyn Inbox>) {
    let mut pacer = Pacer::new(clock);
    let ended = loop {
        match events.next_event().await {
            Ok(Some(event)) if event.event == "message" && !event.data.trim().is_empty() => {
                inbox.deliver(Via::Sse, event.data, None).await;
                pacer.pace().await;
            }
            Ok(Some(_)) => {}
            Ok(None) => break ErrorKind::StreamEnded,
            Err(kind) => break kind,
        }
    };
    let reason = match &ended {
        ErrorKind::StreamEnded => {
            "The server closed the SSE stream; reconnect to continue.".to_owned()
        }
        other => format!("The SSE stream failed: {other} Reconnect to continue."),
    };
    inbox.lost(ended, reason);
}

impl Transport for Legacy {
    /// The answer comes on the SSE stream: the POST is only accepted.
    fn send_request<'a>(
        &'a self,
        request: OutgoingRequest<'a>,
        _inbox: &'a dyn Inbox,
    ) -> LocalBoxFuture<'a, Result<(), ErrorKind>> {
        self.send_message(request.body)
    }

    fn send_message<'a>(&'a self, body: &'a str) -> LocalBoxFuture<'a, Result<(), ErrorKind>> {
        Box::pin(async move { acknowledged(self.post(body).await?).await })
    }

    /// The one SSE stream, opened with the transport, carries the server's own messages.
    fn server_stream<'a>(
        &'a self,
        _stream: ServerStream<'a>,
        _inbox: &'a dyn Inbox,
    ) -> LocalBoxFuture<'a, StreamEnd> {
        Box::pin(async {
            StreamEnd::Refused(
                "the legacy SSE stream carries the server's own messages: no other stream"
                    .to_owned(),
            )
        })
    }

    fn session_id(&self) -> Option<String> {
        None
    }

    fn set_protocol_version(&self, _version: Option<String>) {}

    fn forget_session(&self) {}

    fn is_legacy(&self) -> bool {
        true
    }

    fn close(&self) -> LocalBoxFuture<'_, Result<(), ErrorKind>> {
        self.stream.abort();
        Box::pin(async { Ok(()) })
    }
}
