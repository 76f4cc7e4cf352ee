//! The Streamable HTTP transport's rules, as data: which headers each request carries and
//! what each answer means. The browser I/O that follows these rules lives in `transport/`.

use super::error::{excerpt, ErrorKind};

/// The protocol version this client asks for in `initialize`.
pub const PROTOCOL_VERSION: &str = "2025-11-25";
/// Every POST accepts both answer forms; servers may pick either.
pub const ACCEPT: &str = "application/json, text/event-stream";
pub const SESSION_ID_HEADER: &str = "mcp-session-id";
pub const PROTOCOL_VERSION_HEADER: &str = "mcp-protocol-version";
/// How much of an unexpected body is quoted in an error message.
pub const BODY_EXCERPT_CHARS: usize = 200;

/// What the client knows about its session with one server.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Session {
    /// Set from the `Mcp-Session-Id` header of the answer to `initialize`, if the server uses
    /// sessions (and exposes the header to the page).
    pub session_id: Option<String>,
    /// Set from the `initialize` result; sent on every request after it.
    pub protocol_version: Option<String>,
}

impl Session {
    /// Headers for a POST, before the user's own (auth, custom) headers are added.
    pub fn post_headers(&self) -> Vec<(&'static str, String)> {
        let mut headers = vec![
            ("content-type", "application/json".to_owned()),
            ("accept", ACCEPT.to_owned()),
        ];
        headers.extend(self.session_headers());
        headers
    }

    /// Headers for the DELETE that ends a session.
    pub fn session_headers(&self) -> Vec<(&'static str, String)> {
        let mut headers = Vec::new();
        if let Some(id) = &self.session_id {
            headers.push((SESSION_ID_HEADER, id.clone()));
        }
        if let Some(version) = &self.protocol_version {
            headers.push((PROTOCOL_VERSION_HEADER, version.clone()));
        }
        headers
    }
}

/// What kind of message a POST carried: requests expect an answer, the others only an ack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    Request,
    NotificationOrResponse,
}

/// How to read an answer, decided from its status line and content type alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnswerForm {
    /// 202 Accepted (or any 2xx to a notification): nothing to read.
    Accepted,
    /// A JSON body: one message or a batch.
    Json,
    /// An SSE stream carrying messages; the answer is among them.
    EventStream,
    /// Not usable; the body should be read (its start) to build the error.
    Error(AnswerError),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnswerError {
    HttpStatus(u16),
    UnexpectedContent(String),
}

impl AnswerError {
    /// Builds the error value once the body's start has been read.
    pub fn with_body(self, body: &str) -> ErrorKind {
        let body_start = excerpt(body, BODY_EXCERPT_CHARS);
        match self {
            AnswerError::HttpStatus(status) => ErrorKind::HttpStatus { status, body_start },
            AnswerError::UnexpectedContent(content_type) => ErrorKind::UnexpectedContent {
                content_type,
                first_bytes: if body_start.is_empty() {
                    "(an empty body)".to_owned()
                } else {
                    body_start
                },
            },
        }
    }
}

/// Whether an error answer means the server no longer knows our session (it restarted, or
/// expired the session): 404 per the specification, or a 400 that says so (the TypeScript
/// SDK answers "Bad Request: No valid session ID provided"). Only a request that carried a
/// session id can have lost it.
pub fn session_gone(kind: &ErrorKind, carried_session: bool) -> bool {
    match kind {
        ErrorKind::HttpStatus { status: 404, .. } => carried_session,
        ErrorKind::HttpStatus {
            status: 400,
            body_start,
        } => carried_session && body_start.to_ascii_lowercase().contains("session"),
        _ => false,
    }
}

/// The session id to keep from the answer to a POST of `method`: only a successful
/// `initialize` answer starts a session. Some servers (Python SDK 1.x, fastmcp 2.x) attach a
/// fresh `Mcp-Session-Id` to any answer, even a 400 refusing an unknown method such as
/// `server/discover`; keeping that id would make the following `initialize` fail with 404.
pub fn adopted_session_id(method: &str, status: u16, header: Option<String>) -> Option<String> {
    let id = header?;
    let id = id.trim();
    let adopt = method == "initialize" && (200..300).contains(&status) && !id.is_empty();
    adopt.then(|| id.to_owned())
}

/// The media type without parameters, lower-cased: `Text/Event-Stream; charset=utf-8` -> `text/event-stream`.
pub fn media_type(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Decides how to read the answer to a POST.
pub fn classify_answer(status: u16, content_type: Option<&str>, sent: Sent) -> AnswerForm {
    if !(200..300).contains(&status) {
        return AnswerForm::Error(AnswerError::HttpStatus(status));
    }
    if status == 202 || sent == Sent::NotificationOrResponse {
        return AnswerForm::Accepted;
    }
    let media = content_type.map(media_type).unwrap_or_default();
    match media.as_str() {
        "application/json" => AnswerForm::Json,
        "text/event-stream" => AnswerForm::EventStream,
        "" => AnswerForm::Error(AnswerError::UnexpectedContent("none".to_owned())),
        _ => AnswerForm::Error(AnswerError::UnexpectedContent(
            content_type.unwrap_or_default().to_owned(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_successful_initialize_answer_starts_a_session() {
        let id = || Some("f3a9".to_owned());
        assert_eq!(adopted_session_id("initialize", 200, id()), id());
        // Recorded from mcp 1.x FastMCP: the refused server/discover carries a fresh id.
        assert_eq!(adopted_session_id("server/discover", 400, id()), None);
        assert_eq!(adopted_session_id("initialize", 400, id()), None);
        assert_eq!(adopted_session_id("tools/list", 200, id()), None);
        assert_eq!(adopted_session_id("initialize", 200, None), None);
        assert_eq!(
            adopted_session_id("initialize", 200, Some("  ".into())),
            None
        );
    }

    #[test]
    fn first_post_has_no_session_headers_later_posts_do() {
        let mut session = Session::default();
        let names: Vec<_> = session.post_headers().into_iter().map(|h| h.0).collect();
        assert_eq!(names, vec!["content-type", "accept"]);
        session.session_id = Some("abc".into());
        session.protocol_version = Some(PROTOCOL_VERSION.into());
        assert_eq!(
            session.post_headers(),
            vec![
                ("content-type", "application/json".to_owned()),
                ("accept", ACCEPT.to_owned()),
                (SESSION_ID_HEADER, "abc".to_owned()),
                (PROTOCOL_VERSION_HEADER, "2025-11-25".to_owned()),
            ]
        );
    }

    #[test]
    fn answers_are_classified_by_status_and_media_type() {
        use AnswerForm::*;
        let req = Sent::Request;
        assert_eq!(classify_answer(200, Some("application/json"), req), Json);
        assert_eq!(
            classify_answer(200, Some("text/event-stream; charset=utf-8"), req),
            EventStream
        );
        assert_eq!(
            classify_answer(200, Some("Application/JSON;charset=UTF-8"), req),
            Json
        );
        assert_eq!(
            classify_answer(202, None, Sent::NotificationOrResponse),
            Accepted
        );
        assert_eq!(
            classify_answer(200, Some("text/plain"), Sent::NotificationOrResponse),
            Accepted
        );
        assert_eq!(
            classify_answer(200, Some("text/html"), req),
            Error(AnswerError::UnexpectedContent("text/html".into()))
        );
        assert_eq!(
            classify_answer(200, None, req),
            Error(AnswerError::UnexpectedContent("none".into()))
        );
        assert_eq!(
            classify_answer(404, Some("application/json"), req),
            Error(AnswerError::HttpStatus(404))
        );
        assert_eq!(
            classify_answer(500, None, Sent::NotificationOrResponse),
            Error(AnswerError::HttpStatus(500))
        );
    }

    #[test]
    fn a_lost_session_is_recognised_only_on_requests_that_carried_one() {
        let status = |status: u16, body: &str| ErrorKind::HttpStatus {
            status,
            body_start: body.into(),
        };
        assert!(session_gone(&status(404, "Session not found"), true));
        assert!(session_gone(
            &status(
                400,
                r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}"#
            ),
            true
        ));
        assert!(!session_gone(&status(404, "Not Found"), false));
        assert!(!session_gone(
            &status(400, "Bad Request: invalid params"),
            true
        ));
        assert!(!session_gone(&status(500, "session"), true));
        assert!(!session_gone(&ErrorKind::StreamEnded, true));
    }

    #[test]
    fn errors_quote_the_start_of_the_body() {
        let kind = AnswerError::HttpStatus(400).with_body(&"x".repeat(1000));
        let ErrorKind::HttpStatus { status, body_start } = kind else {
            panic!("wrong kind");
        };
        assert_eq!(status, 400);
        assert_eq!(body_start.chars().count(), BODY_EXCERPT_CHARS + 1);
        let kind = AnswerError::UnexpectedContent("text/html".into())
            .with_body("<!doctype html><p>hi</p>");
        assert_eq!(
            kind,
            ErrorKind::UnexpectedContent {
                content_type: "text/html".into(),
                first_bytes: "<!doctype html><p>hi</p>".into()
            }
        );
    }
}
