//! The Streamable HTTP transport: every message is POSTed to the server URL; an answer comes
//! as JSON or as an event stream (resumed with GET and `Last-Event-ID` when it ends early),
//! or later on the standalone GET stream (202). It keeps the session id the server gave with
//! its `initialize` answer, and ends the session with DELETE.

use super::{
    acknowledged, error_body, Endpoint, Inbox, OutgoingRequest, ServerStream, StreamEnd, Transport,
};
use crate::runtime::{Abort, HttpRequest, HttpResponse, Pacer, Runtime, SseReader};
use futures::future::LocalBoxFuture;
use mcp_lens_protocol::error::{excerpt, ErrorKind};
use mcp_lens_protocol::jsonrpc::RequestId;
use mcp_lens_protocol::resume::{Next, ResumeState};
use mcp_lens_protocol::streamable::{
    adopted_session_id, classify_answer, media_type, session_gone, AnswerError, AnswerForm, Sent,
    Session, SESSION_ID_HEADER,
};
use mcp_lens_protocol::wire_log::Via;
use std::cell::RefCell;

pub(crate) struct StreamableHttp {
    endpoint: Endpoint,
    /// HTTP (the session's layers), the clock, spawning.
    runtime: Runtime,
    /// The session id and the protocol version every request carries.
    session: RefCell<Session>,
    /// The stream of the server's own messages being read (GET or a request's), stopped on
    /// close.
    server_stream: RefCell<Option<Abort>>,
    /// Where the GET stream resumes: the last event id it gave.
    last_event_id: RefCell<Option<String>>,
}

impl StreamableHttp {
    pub(crate) fn new(endpoint: Endpoint, runtime: Runtime) -> Self {
        Self {
            endpoint,
            runtime,
            session: RefCell::default(),
            server_stream: RefCell::default(),
            last_event_id: RefCell::default(),
        }
    }

    /// POSTs a message with the session's headers. Boxed: awaited from several places, one
    /// copy of it in the wasm.
    fn post<'a>(
        &'a self,
        body: &'a str,
        abort: Option<&'a Abort>,
        routing: &'a [(&'static str, String)],
        mirrored: &'a [(String, String)],
    ) -> LocalBoxFuture<'a, Result<HttpResponse, ErrorKind>> {
        let mut protocol_headers = self.session.borrow().post_headers();
        protocol_headers.extend(routing.iter().cloned());
        self.runtime.http.send(HttpRequest {
            method: "POST",
            url: &self.endpoint.url,
            headers: self.endpoint.headers(protocol_headers, mirrored),
            body: Some(body),
            abort,
            refuse_redirects: false,
        })
    }

    /// POSTs one request and reads its answer stream until the answer has arrived.
    async fn exchange(
        &self,
        request: OutgoingRequest<'_>,
        inbox: &dyn Inbox,
    ) -> Result<(), ErrorKind> {
        let OutgoingRequest {
            method,
            body,
            id,
            abort,
            routing,
            mirrored,
        } = request;
        let response = self.post(body, Some(abort), routing, mirrored).await?;
        // Only a successful `initialize` answer starts a session: a refused `server/discover`
        // may carry a fresh session id too (Python SDK 1.x), which must not be kept.
        if let Some(session_id) = adopted_session_id(
            method,
            response.status(),
            response.header(SESSION_ID_HEADER),
        ) {
            self.session.borrow_mut().session_id = Some(session_id);
        }
        let content_type = response.header("content-type");
        match classify_answer(response.status(), content_type.as_deref(), Sent::Request) {
            AnswerForm::Json => {
                let text = response.text(self.endpoint.max_message_bytes).await?;
                inbox.deliver(Via::Json, text, Some(id)).await;
            }
            AnswerForm::EventStream => {
                let Some(body) = response.body() else {
                    return Err(ErrorKind::StreamEnded);
                };
                let events = SseReader::new(body, self.endpoint.max_message_bytes);
                return self.read_answer_stream(events, id, abort, inbox).await;
            }
            // The answer will come on the standalone GET stream.
            AnswerForm::Accepted => return Ok(()),
            AnswerForm::Error(error) => {
                let body = error_body(&response).await;
                return Err(error.with_body(&body));
            }
        }
        if inbox.waiting(id) {
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
        inbox: &dyn Inbox,
    ) -> Result<(), ErrorKind> {
        let mut resume = ResumeState::default();
        let mut pacer = Pacer::new(self.runtime.clock.clone());
        loop {
            let ended = loop {
                match events.next_event().await {
                    Ok(Some(event)) => {
                        resume.saw_event(event.id.as_deref(), events.retry_ms());
                        if !event.data.trim().is_empty() {
                            inbox.deliver(Via::Sse, event.data, Some(id)).await;
                        }
                        // Answered: the caller goes on at once. (Pacing first made every answer
                        // that came 8 ms or more after its stream opened wait for a timer task
                        // before its caller saw it, the connect's lists and a tool call too.)
                        if !inbox.waiting(id) {
                            // The rest of the stream is dropped a task later: cancelling a fetch
                            // costs the page a little, not worth making the answer wait for.
                            let turn = self.runtime.clock.yield_now();
                            self.runtime.spawner.spawn(Box::pin(async move {
                                turn.await;
                                events.cancel();
                            }));
                            return Ok(());
                        }
                        pacer.pace().await;
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
            self.runtime
                .clock
                .sleep(after_ms.min(u64::from(u32::MAX)) as u32)
                .await;
            if !inbox.waiting(id) {
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
                Some(body) => events = SseReader::new(body, self.endpoint.max_message_bytes),
                None => {
                    let body = error_body(&response).await;
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
    async fn get_event_stream(
        &self,
        last_event_id: Option<&str>,
        abort: Option<&Abort>,
    ) -> Result<HttpResponse, ErrorKind> {
        let mut headers = vec![("accept", "text/event-stream".to_owned())];
        headers.extend(self.session.borrow().session_headers());
        if let Some(id) = last_event_id {
            headers.push(("last-event-id", id.to_owned()));
        }
        self.runtime
            .http
            .send(HttpRequest {
                method: "GET",
                url: &self.endpoint.url,
                headers: self.endpoint.headers(headers, &[]),
                body: None,
                abort,
                refuse_redirects: false,
            })
            .await
    }

    /// One attempt at the standalone GET stream, resuming after the last event seen.
    async fn get_stream_once(&self, inbox: &dyn Inbox) -> StreamEnd {
        let abort = Abort::new();
        *self.server_stream.borrow_mut() = Some(abort.clone());
        let mut last_event_id = self.last_event_id.borrow().clone();
        let end = self
            .read_get_stream(&mut last_event_id, &abort, inbox)
            .await;
        *self.last_event_id.borrow_mut() = last_event_id;
        end
    }

    async fn read_get_stream(
        &self,
        last_event_id: &mut Option<String>,
        abort: &Abort,
        inbox: &dyn Inbox,
    ) -> StreamEnd {
        let response = match self
            .get_event_stream(last_event_id.as_deref(), Some(abort))
            .await
        {
            Ok(response) => response,
            Err(_) => return StreamEnd::Ended { retry_ms: None },
        };
        let status = response.status();
        let content_type = response.header("content-type").unwrap_or_default();
        let has_session = self.session.borrow().session_id.is_some();
        if (status == 404 || status == 400) && has_session {
            // Most likely the session was lost; a renewal gives the next attempt a new one.
            return StreamEnd::Ended { retry_ms: None };
        }
        if status == 405 {
            return StreamEnd::Refused(
                "no standalone GET stream (405): the server's own requests and notifications come only with answers".to_owned(),
            );
        }
        if !(200..300).contains(&status) || media_type(&content_type) != "text/event-stream" {
            return StreamEnd::Refused(format!(
                "the standalone GET stream was refused (HTTP {status}, \"{content_type}\"), so it is not retried; the server's own messages come only with answers"
            ));
        }
        let Some(body) = response.body() else {
            return StreamEnd::Ended { retry_ms: None };
        };
        let mut events = SseReader::new(body, self.endpoint.max_message_bytes);
        let mut pacer = Pacer::new(self.runtime.clock.clone());
        while let Ok(Some(event)) = events.next_event().await {
            if event.id.is_some() {
                last_event_id.clone_from(&event.id);
            }
            if !event.data.trim().is_empty() {
                inbox.deliver(Via::Sse, event.data, None).await;
            }
            pacer.pace().await;
        }
        StreamEnd::Ended {
            retry_ms: events.retry_ms(),
        }
    }

    /// One attempt at a request whose answer is a long-lived stream of the server's
    /// notifications (`subscriptions/listen`).
    async fn request_stream_once(
        &self,
        request: OutgoingRequest<'_>,
        inbox: &dyn Inbox,
    ) -> StreamEnd {
        let OutgoingRequest {
            method,
            body,
            id,
            abort,
            routing,
            mirrored,
        } = request;
        *self.server_stream.borrow_mut() = Some(abort.clone());
        let response = match self.post(body, Some(abort), routing, mirrored).await {
            Ok(response) => response,
            Err(_) => return StreamEnd::Ended { retry_ms: None },
        };
        let content_type = response.header("content-type");
        match classify_answer(response.status(), content_type.as_deref(), Sent::Request) {
            AnswerForm::EventStream => {
                if let Some(body) = response.body() {
                    let mut events = SseReader::new(body, self.endpoint.max_message_bytes);
                    let mut pacer = Pacer::new(self.runtime.clock.clone());
                    while let Ok(Some(event)) = events.next_event().await {
                        if !event.data.trim().is_empty() {
                            inbox.deliver(Via::Sse, event.data, Some(id)).await;
                        }
                        pacer.pace().await;
                    }
                }
                StreamEnd::Ended { retry_ms: None }
            }
            AnswerForm::Json => match response.text(self.endpoint.max_message_bytes).await {
                Ok(text) => {
                    let refused = format!(
                        "{method} was answered at once ({}): the server sends no notifications outside answers",
                        excerpt(&text, 200)
                    );
                    inbox.deliver(Via::Json, text, Some(id)).await;
                    StreamEnd::Refused(refused)
                }
                Err(_) => StreamEnd::Ended { retry_ms: None },
            },
            AnswerForm::Accepted => StreamEnd::Ended { retry_ms: None },
            AnswerForm::Error(error) => {
                let body = error_body(&response).await;
                StreamEnd::Refused(match response.status() {
                    // The method is not implemented: a fact about the server.
                    404 | 405 | 501 => format!(
                        "no {method} (HTTP {}): the server's notifications come only with answers",
                        response.status()
                    ),
                    _ => format!(
                        "{method} was refused, so it is not retried: {}",
                        error.with_body(&body)
                    ),
                })
            }
        }
    }

    /// DELETE: ends the session on the server, when it gave one.
    async fn end_session(&self) -> Result<(), ErrorKind> {
        let session = self.session.borrow().clone();
        if session.session_id.is_none() {
            return Ok(());
        }
        let response = self
            .runtime
            .http
            .send(HttpRequest {
                method: "DELETE",
                url: &self.endpoint.url,
                headers: self.endpoint.headers(session.session_headers(), &[]),
                body: None,
                abort: None,
                refuse_redirects: false,
            })
            .await
            .map_err(|kind| match kind {
                // The session worked, so the server was reachable a moment ago.
                ErrorKind::Network { detail } => ErrorKind::DeleteBlocked { detail },
                other => other,
            })?;
        // 405: the server does not let clients end sessions; that is allowed. A session the
        // server already forgot (404, or 400 naming the session: it may end a session when its
        // GET stream closes, just before the DELETE arrives) is ended too.
        match response.status() {
            200..=299 | 405 => Ok(()),
            status => {
                let body = error_body(&response).await;
                let kind = AnswerError::HttpStatus(status).with_body(&body);
                if session_gone(&kind, true) {
                    return Ok(());
                }
                Err(kind)
            }
        }
    }
}

impl Transport for StreamableHttp {
    fn send_request<'a>(
        &'a self,
        request: OutgoingRequest<'a>,
        inbox: &'a dyn Inbox,
    ) -> LocalBoxFuture<'a, Result<(), ErrorKind>> {
        Box::pin(self.exchange(request, inbox))
    }

    fn send_message<'a>(&'a self, body: &'a str) -> LocalBoxFuture<'a, Result<(), ErrorKind>> {
        Box::pin(async move { acknowledged(self.post(body, None, &[], &[]).await?).await })
    }

    fn server_stream<'a>(
        &'a self,
        stream: ServerStream<'a>,
        inbox: &'a dyn Inbox,
    ) -> LocalBoxFuture<'a, StreamEnd> {
        match stream {
            ServerStream::Get => Box::pin(self.get_stream_once(inbox)),
            ServerStream::Request(request) => Box::pin(self.request_stream_once(request, inbox)),
        }
    }

    fn session_id(&self) -> Option<String> {
        self.session.borrow().session_id.clone()
    }

    fn set_protocol_version(&self, version: Option<String>) {
        self.session.borrow_mut().protocol_version = version;
    }

    fn forget_session(&self) {
        self.session.borrow_mut().session_id = None;
    }

    fn is_legacy(&self) -> bool {
        false
    }

    fn close(&self) -> LocalBoxFuture<'_, Result<(), ErrorKind>> {
        if let Some(stream) = self.server_stream.borrow_mut().take() {
            stream.abort();
        }
        Box::pin(self.end_session())
    }
}
