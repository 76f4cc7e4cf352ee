//! The Streamable HTTP transport: every message is POSTed to the configured URL; an answer
//! comes as JSON or as an event stream (resumed with GET and `Last-Event-ID` when it ends
//! early), or later on the standalone GET stream (202).

use super::OutgoingRequest;
use crate::runtime::{Abort, HttpRequest, HttpResponse, SseReader};
use crate::McpClient;
use mcp_lens_protocol::error::ErrorKind;
use mcp_lens_protocol::jsonrpc::RequestId;
use mcp_lens_protocol::resume::{Next, ResumeState};
use mcp_lens_protocol::streamable::{
    adopted_session_id, classify_answer, media_type, AnswerError, AnswerForm, Sent,
    SESSION_ID_HEADER,
};

impl McpClient {
    /// POSTs one request and reads its answer stream until the answer has arrived.
    pub(super) async fn streamable_exchange(
        &self,
        request: OutgoingRequest<'_>,
    ) -> Result<(), ErrorKind> {
        let OutgoingRequest {
            method,
            body,
            id,
            abort,
            routing,
        } = request;
        let response = self.post(body, Some(abort), routing).await?;
        // Only a successful `initialize` answer starts a session: a refused `server/discover`
        // may carry a fresh session id too (Python SDK 1.x), which must not be kept.
        if let Some(session_id) = adopted_session_id(
            method,
            response.status(),
            response.header(SESSION_ID_HEADER),
        ) {
            self.0.session.borrow_mut().session_id = Some(session_id);
        }
        let content_type = response.header("content-type");
        match classify_answer(response.status(), content_type.as_deref(), Sent::Request) {
            AnswerForm::Json => {
                let text = response.text(self.0.config.max_message_bytes).await?;
                self.dispatch_in_steps("JSON", text, Some(id)).await;
            }
            AnswerForm::EventStream => {
                let Some(body) = response.body() else {
                    return Err(ErrorKind::StreamEnded);
                };
                return self
                    .read_answer_stream(
                        SseReader::new(body, self.0.config.max_message_bytes),
                        id,
                        abort,
                    )
                    .await;
            }
            // The answer will come on the standalone GET stream.
            AnswerForm::Accepted => return Ok(()),
            AnswerForm::Error(error) => {
                let body = self.error_body(&response).await;
                return Err(error.with_body(&body));
            }
        }
        if self.0.pending.borrow().contains(id) {
            return Err(ErrorKind::StreamEnded);
        }
        Ok(())
    }

    /// Reads a request's event stream until its answer arrives. A stream that ends first
    /// is resumed with GET and `Last-Event-ID` after the server's `retry` delay, so an answer
    /// sent while the client was away still arrives (and only once: the pending table
    /// resolves each id once).
    async fn read_answer_stream(
        &self,
        mut events: SseReader,
        id: &RequestId,
        abort: &Abort,
    ) -> Result<(), ErrorKind> {
        let mut resume = ResumeState::default();
        let mut pacer = self.pacer();
        loop {
            let ended = loop {
                match events.next_event().await {
                    Ok(Some(event)) => {
                        resume.saw_event(event.id.as_deref(), events.retry_ms());
                        if !event.data.trim().is_empty() {
                            self.dispatch_in_steps("SSE", event.data, Some(id)).await;
                        }
                        // Answered: the caller goes on at once. (Pacing first made every answer
                        // that came 8 ms or more after its stream opened wait for a timer task
                        // before its caller saw it, the connect's lists and a tool call too.)
                        if !self.0.pending.borrow().contains(id) {
                            // The rest of the stream is dropped a task later: cancelling a fetch
                            // costs the page a little, not worth making the answer wait for.
                            let turn = self.yield_now();
                            self.spawn(async move {
                                turn.await;
                                events.cancel();
                            });
                            return Ok(());
                        }
                        self.pace(&mut pacer).await;
                    }
                    Ok(None) => break ErrorKind::StreamEnded,
                    Err(ErrorKind::Cancelled) => return Err(ErrorKind::Cancelled),
                    Err(kind) => break kind,
                }
            };
            let Next::Resume {
                after_ms,
                last_event_id,
            } = resume.stream_ended()
            else {
                return Err(ended);
            };
            self.sleep(after_ms.min(u64::from(u32::MAX)) as u32).await;
            if !self.0.pending.borrow().contains(id) {
                return Ok(()); // answered meanwhile on another stream
            }
            let response = self
                .get_event_stream(Some(&last_event_id), Some(abort))
                .await?;
            let status = response.status();
            let content_type = response.header("content-type").unwrap_or_default();
            // The body is taken only for a stream, so an error answer's body can be quoted.
            let body = if (200..300).contains(&status)
                && media_type(&content_type) == "text/event-stream"
            {
                response.body()
            } else {
                None
            };
            match body {
                Some(body) => events = SseReader::new(body, self.0.config.max_message_bytes),
                None => {
                    let body = self.error_body(&response).await;
                    let error = if (200..300).contains(&status) {
                        AnswerError::UnexpectedContent(content_type)
                    } else {
                        AnswerError::HttpStatus(status)
                    };
                    return Err(error.with_body(&body));
                }
            }
        }
    }

    /// Opens a GET event stream on the session, resuming after `last_event_id` if given.
    pub(crate) async fn get_event_stream(
        &self,
        last_event_id: Option<&str>,
        abort: Option<&Abort>,
    ) -> Result<HttpResponse, ErrorKind> {
        let mut headers = vec![("accept", "text/event-stream".to_owned())];
        headers.extend(self.0.session.borrow().session_headers());
        if let Some(id) = last_event_id {
            headers.push(("last-event-id", id.to_owned()));
        }
        self.send_http(HttpRequest {
            method: "GET",
            url: &self.0.config.url,
            headers: self.headers(headers),
            body: None,
            abort,
            refuse_redirects: false,
        })
        .await
    }
}
