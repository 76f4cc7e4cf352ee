//! Errors as values: which step failed, what went wrong, and a sentence a person can act on.

use serde_json::Value;
use std::fmt;

/// The step of the client's work that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Reading the server's address before anything is sent.
    CheckAddress,
    Discover,
    Initialize,
    Initialized,
    ListTools,
    ListPrompts,
    ListResources,
    ListResourceTemplates,
    ListSkills,
    ReadSkill,
    CallTool,
    GetPrompt,
    ReadResource,
    SubscribeResource,
    UnsubscribeResource,
    AnswerServer,
    Cancel,
    Ping,
    SetLogLevel,
    Complete,
    GetTask,
    TaskResult,
    ListTasks,
    CancelTask,
    UpdateTask,
    Disconnect,
}

impl Step {
    pub fn describe(self) -> &'static str {
        match self {
            Step::CheckAddress => "Checking the server address",
            Step::Discover => "Discovering the server (server/discover)",
            Step::Initialize => "Initialize",
            Step::Initialized => "Sending notifications/initialized",
            Step::ListTools => "Listing tools",
            Step::ListPrompts => "Listing prompts",
            Step::ListResources => "Listing resources",
            Step::ListResourceTemplates => "Listing resource templates",
            Step::CallTool => "Calling the tool",
            Step::GetPrompt => "Getting the prompt",
            Step::ReadResource => "Reading the resource",
            Step::ListSkills => "Listing skills",
            Step::ReadSkill => "Reading the skill's file",
            Step::SubscribeResource => "Subscribing to the resource",
            Step::UnsubscribeResource => "Unsubscribing from the resource",
            Step::AnswerServer => "Answering the server's request",
            Step::Cancel => "Sending notifications/cancelled",
            Step::Ping => "Ping",
            Step::SetLogLevel => "Setting the log level",
            Step::Complete => "Completing the argument",
            Step::GetTask => "Getting the task (tasks/get)",
            Step::TaskResult => "Getting the task's result (tasks/result)",
            Step::ListTasks => "Listing tasks",
            Step::CancelTask => "Cancelling the task (tasks/cancel)",
            Step::UpdateTask => "Answering the task's requests (tasks/update)",
            Step::Disconnect => "Disconnecting",
        }
    }
}

/// The headers a server must send for a page on another origin to talk to it.
pub const CORS_REQUIREMENTS: &str = "Access-Control-Allow-Origin (this page's origin or *); \
Access-Control-Allow-Methods: GET, POST, DELETE; \
Access-Control-Allow-Headers: content-type, authorization, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name \
(and the mcp-param-* headers of tools that mirror parameters, dpop when tokens are DPoP-bound); \
Access-Control-Expose-Headers: mcp-session-id, mcp-protocol-version (and dpop-nonce, www-authenticate)";

/// What went wrong, with the facts needed to explain it.
#[derive(Debug, Clone, PartialEq)]
pub enum ErrorKind {
    /// `fetch` rejected: the server is down, the address is wrong, or CORS blocked the answer
    /// (the browser deliberately does not say which).
    Network { detail: String },
    /// The server answered with an HTTP error status.
    HttpStatus { status: u16, body_start: String },
    /// The server answered with a JSON-RPC error.
    JsonRpc { code: i32, message: String },
    /// The answer was neither JSON nor an event stream.
    UnexpectedContent {
        content_type: String,
        first_bytes: String,
    },
    /// The answer was JSON-RPC but not the shape the request expects.
    InvalidAnswer { detail: String },
    /// The stream ended before the answer arrived.
    StreamEnded,
    /// No answer and no progress within the time limit.
    Timeout { after_ms: u64 },
    /// Still running at the maximum total time.
    TimeLimit { after_ms: u64 },
    /// The user (or a new connection) cancelled the request.
    Cancelled,
    /// The request was made without a connection.
    NotConnected,
    /// A header the user entered cannot be sent (invalid name or value).
    InvalidHeader { name: String },
    /// The person declined a request the server needed answered to finish this one.
    Declined { what: String },
    /// The server needs the person to visit pages first (-32042); the request can be sent
    /// again once they have.
    UrlElicitationRequired {
        message: String,
        elicitations: Vec<UrlElicitation>,
    },
    /// The server answered a request that carried the person's token or headers with a
    /// redirect, which is not followed (it could lead to another site).
    Redirected,
    /// The server sent more than the page accepts in one message (settable); the request
    /// was stopped so the page stays usable.
    TooLarge { what: &'static str, limit: u64 },
    /// The browser refused the DELETE that ends a session that worked until then: the
    /// server's CORS settings most likely do not allow the DELETE method.
    DeleteBlocked { detail: String },
    /// On Auto, Streamable HTTP was refused and the legacy HTTP+SSE fallback failed too.
    /// `streamable` is the first failure (what Auto reacted to); `legacy` the fallback's.
    FallbackFailed {
        streamable: Box<ErrorKind>,
        legacy: Box<McpError>,
    },
    /// The server address cannot be used as it is (why, as a sentence that repeats no
    /// credential).
    InvalidAddress { detail: String },
    /// The client refused to send the request, for the reason given (a tool whose
    /// `x-mcp-header` annotations are invalid, an argument a header cannot carry).
    NotSent { detail: String },
    /// "Unsupported protocol version" (-32022) with no version to retry with, or again after
    /// the one retry: the sentence says which versions each side speaks.
    VersionRefused { detail: String },
}

#[derive(Debug, Clone, PartialEq)]
pub struct McpError {
    pub step: Step,
    pub kind: ErrorKind,
}

impl McpError {
    pub fn new(step: Step, kind: ErrorKind) -> Self {
        Self { step, kind }
    }

    /// Whether the failure is the browser's opaque "could not fetch", for which the page
    /// should show what a server needs for cross-origin requests.
    pub fn is_network(&self) -> bool {
        matches!(self.kind, ErrorKind::Network { .. })
    }

    /// Whether the server said it does not implement the method: JSON-RPC "Method not found"
    /// (-32601), however it came: as an answer, or as the body of an HTTP error status (a
    /// 404 with that body, as some servers send).
    pub fn is_method_not_found(&self) -> bool {
        match &self.kind {
            ErrorKind::JsonRpc { code, .. } => *code == crate::jsonrpc::METHOD_NOT_FOUND,
            ErrorKind::HttpStatus { body_start, .. } => {
                let compact: String = body_start.chars().filter(|c| !c.is_whitespace()).collect();
                compact.contains(&format!("\"code\":{}", crate::jsonrpc::METHOD_NOT_FOUND))
            }
            _ => false,
        }
    }

    /// The HTTP status the server answered, if that is what failed (for a failed Auto
    /// fallback: the Streamable HTTP answer, which is what the person's URL got).
    pub fn http_status(&self) -> Option<u16> {
        match &self.kind {
            ErrorKind::HttpStatus { status, .. } => Some(*status),
            ErrorKind::FallbackFailed { streamable, .. } => match **streamable {
                ErrorKind::HttpStatus { status, .. } => Some(status),
                _ => None,
            },
            _ => None,
        }
    }
}

impl fmt::Display for McpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} failed: {}", self.step.describe(), self.kind)
    }
}

impl std::error::Error for McpError {}

/// How much of a server's error message an error keeps.
pub const MESSAGE_CHARS: usize = 4_000;

impl ErrorKind {
    /// A network failure as the browser words it. Its message may quote the URL it refused,
    /// credentials and all: every URL in it is redacted, since the page shows and exports it.
    pub fn network(detail: &str) -> Self {
        ErrorKind::Network {
            detail: crate::wire_log::redact_urls_in(detail),
        }
    }

    /// The error a JSON-RPC error object stands for: -32042 with its pages becomes
    /// [`ErrorKind::UrlElicitationRequired`], anything else [`ErrorKind::JsonRpc`].
    pub fn from_jsonrpc(code: i32, message: String, data: Option<&Value>) -> Self {
        // Shown to a person, who cannot read megabytes of it (and laying it out would freeze
        // the page); decisions use the code, never the message.
        let message = if message.len() > MESSAGE_CHARS {
            excerpt(&message, MESSAGE_CHARS)
        } else {
            message
        };
        if code == URL_ELICITATION_REQUIRED {
            let elicitations = url_elicitations(data);
            if !elicitations.is_empty() {
                return ErrorKind::UrlElicitationRequired {
                    message,
                    elicitations,
                };
            }
        }
        ErrorKind::JsonRpc { code, message }
    }
}

/// What went wrong, as the end of a sentence that starts with the failing step.
impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Network { detail } => write!(
                f,
                "the server could not be reached ({detail}). It may be down or at another address, \
                 or it may not allow cross-origin requests from this page; the browser does not say which. \
                 To allow this page, the server must send {CORS_REQUIREMENTS}."
            ),
            ErrorKind::HttpStatus { status, body_start } => {
                write!(f, "the server answered HTTP {status}")?;
                if body_start.is_empty() {
                    write!(f, " with an empty body.")
                } else {
                    write!(f, ": {body_start}")
                }
            }
            ErrorKind::JsonRpc { code, message } => {
                write!(f, "the server returned JSON-RPC error {code}: {message}")
            }
            ErrorKind::UnexpectedContent {
                content_type,
                first_bytes,
            } => write!(
                f,
                "the answer is neither JSON nor an event stream (content type \"{content_type}\"; it starts with: {first_bytes}). \
                 Check that the URL points at the server's MCP endpoint."
            ),
            ErrorKind::InvalidAnswer { detail } => {
                write!(f, "the server's answer is not valid MCP: {detail}")
            }
            ErrorKind::StreamEnded => write!(
                f,
                "the server closed the event stream before sending the answer."
            ),
            ErrorKind::Timeout { after_ms } => write!(
                f,
                "no answer and no progress for {} seconds; the request was cancelled.",
                after_ms / 1000
            ),
            ErrorKind::TimeLimit { after_ms } => write!(
                f,
                "still running after the maximum of {} seconds; the request was cancelled.",
                after_ms / 1000
            ),
            ErrorKind::Cancelled => write!(f, "the request was cancelled."),
            ErrorKind::NotConnected => write!(f, "there is no connection; connect first."),
            ErrorKind::Declined { what } => write!(
                f,
                "you declined the server's {what}, which it needed to finish."
            ),
            ErrorKind::UrlElicitationRequired {
                message,
                elicitations,
            } => {
                write!(f, "the server needs you to open ")?;
                match elicitations.as_slice() {
                    [one] => write!(f, "a page first ({})", excerpt(&one.url, 200))?,
                    many => write!(f, "{} pages first", many.len())?,
                }
                write!(
                    f,
                    ": {}. Open it, then send the request again.",
                    excerpt(message, 300).trim_end_matches('.')
                )
            }
            ErrorKind::Redirected => write!(
                f,
                "the server answered with a redirect. mcp-lens does not follow a redirect with your token or \
                 custom headers (it could lead to another site), and the browser does not tell the page where it \
                 points. Connect to the address it redirects to instead (often the same URL with or without a \
                 trailing slash)."
            ),
            ErrorKind::TooLarge { what, limit } => {
                let size = if *limit >= 1_048_576 {
                    format!("{:.0} MB", *limit as f64 / 1_048_576.0)
                } else {
                    format!("{:.0} KB", (*limit as f64 / 1024.0).ceil())
                };
                write!(
                    f,
                    "the server sent {what} larger than {size}, the most one message may be (set in the settings); \
                     reading stopped there so the page stays usable."
                )
            }
            ErrorKind::DeleteBlocked { detail } => write!(
                f,
                "the browser blocked the DELETE that ends the session ({detail}). The session worked until now, \
                 so the server's CORS settings most likely do not allow the DELETE method \
                 (Access-Control-Allow-Methods must include DELETE). The session was closed here; the server will expire it."
            ),
            ErrorKind::FallbackFailed { streamable, legacy } => write!(
                f,
                "over Streamable HTTP, {}; Auto then tried the legacy HTTP+SSE transport, which failed too: {legacy}",
                streamable.to_string().trim_end_matches('.')
            ),
            ErrorKind::InvalidAddress { detail } => f.write_str(detail),
            ErrorKind::NotSent { detail } => write!(f, "nothing was sent: {detail}."),
            ErrorKind::VersionRefused { detail } => write!(f, "{detail}."),
            ErrorKind::InvalidHeader { name } => write!(
                f,
                "the header \"{name}\" is not a valid HTTP header name or value; check the custom headers."
            ),
        }
    }
}

/// One page a server needs the person to visit before a request can succeed: an entry of
/// the `elicitations` list of a URL-elicitation-required error (-32042, 2025-11-25).
#[derive(Debug, Clone, PartialEq)]
pub struct UrlElicitation {
    pub id: Option<String>,
    pub url: String,
    pub message: String,
}

/// The JSON-RPC error code of "URL elicitation required".
pub const URL_ELICITATION_REQUIRED: i32 = -32042;

/// The pages a -32042 error's `data` asks for, read leniently: entries without a URL are
/// skipped (the error still says what the server wrote).
pub fn url_elicitations(data: Option<&Value>) -> Vec<UrlElicitation> {
    data.and_then(|d| d.get("elicitations"))
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|item| {
                    let text =
                        |name: &str| item.get(name).and_then(Value::as_str).map(str::to_owned);
                    Some(UrlElicitation {
                        id: text("elicitationId"),
                        url: text("url")?,
                        message: text("message").unwrap_or_default(),
                    })
                })
                .take(16)
                .collect()
        })
        .unwrap_or_default()
}

/// Whether a character changes how the text around it is displayed without showing itself:
/// bidirectional controls (which can make `read_file\u{202E}exe.txt` read "read_filetxt.exe"),
/// zero-width characters, and other control characters.
pub fn is_invisible_control(c: char) -> bool {
    matches!(c,
        '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}'
        | '\u{061C}' | '\u{FEFF}' | '\u{180E}' | '\u{00AD}')
        || c.is_control()
}

/// An identifier (tool name, URI, server name) with every invisible control made visible as
/// `⟦U+202E⟧`, so a server cannot make one name look like another.
pub fn reveal_controls(text: &str) -> String {
    reveal(text, is_invisible_control)
}

/// Server prose (a title, a description) with what could reorder or hide its text made
/// visible as `⟦U+202E⟧`: bidirectional controls and control characters other than line
/// breaks and tabs. Zero-width joiners and the like stay (emoji sequences need them).
pub fn reveal_in_prose(text: &str) -> String {
    reveal(text, |c| {
        matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{061C}')
            || (c.is_control() && !matches!(c, '\n' | '\t' | '\r'))
    })
}

/// `text` with each character `hidden` says is hidden written as `⟦U+XXXX⟧`.
fn reveal(text: &str, hidden: impl Fn(char) -> bool) -> String {
    if !text.chars().any(&hidden) {
        return text.to_owned();
    }
    text.chars()
        .map(|c| {
            if hidden(c) {
                format!("⟦U+{:04X}⟧", u32::from(c))
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Shortens server text for display: at most `max` characters, on a character boundary,
/// with control characters other than newlines and tabs replaced.
pub fn excerpt(text: &str, max: usize) -> String {
    let mut out: String = text
        .chars()
        .take(max)
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                '\u{fffd}'
            } else {
                c
            }
        })
        .collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out.trim().to_owned()
}

#[cfg(test)]
mod tests {

    #[test]
    fn method_not_found_as_an_answer_or_in_an_http_error() {
        let as_answer = McpError::new(
            Step::ListTools,
            ErrorKind::JsonRpc {
                code: -32601,
                message: "Method not found".into(),
            },
        );
        assert!(as_answer.is_method_not_found());
        let in_404 = McpError::new(
            Step::ListTools,
            ErrorKind::HttpStatus {
                status: 404,
                body_start: r#"{"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "Method not found"}}"#.into(),
            },
        );
        assert!(in_404.is_method_not_found());
        let plain_404 = McpError::new(
            Step::ListTools,
            ErrorKind::HttpStatus {
                status: 404,
                body_start: "Not Found".into(),
            },
        );
        assert!(!plain_404.is_method_not_found());
        let other_code = McpError::new(
            Step::ListTools,
            ErrorKind::JsonRpc {
                code: -32600,
                message: "Invalid request".into(),
            },
        );
        assert!(!other_code.is_method_not_found());
    }

    #[test]
    fn prose_shows_its_bidi_controls_and_keeps_its_lines() {
        assert_eq!(reveal_in_prose("safe\u{202E}eteled"), "safe⟦U+202E⟧eteled");
        assert_eq!(
            reveal_in_prose("Which \u{2067}folder\u{2069}"),
            "Which ⟦U+2067⟧folder⟦U+2069⟧"
        );
        assert_eq!(
            reveal_in_prose("two\nlines\tand a tab"),
            "two\nlines\tand a tab"
        );
        assert_eq!(reveal_in_prose("bell\u{7}"), "bell⟦U+0007⟧");
        // A family emoji keeps its zero-width joiners.
        assert_eq!(
            reveal_in_prose("👨\u{200D}👩\u{200D}👧"),
            "👨\u{200D}👩\u{200D}👧"
        );
    }

    use super::*;
    use serde_json::json;

    #[test]
    fn a_url_elicitation_required_error_lists_its_pages() {
        // Recorded from server-everything's trigger-url-elicitation with errorPath=true.
        let data = json!({"elicitations": [{"mode": "url", "url": "https://modelcontextprotocol.io",
            "message": "Open this link to satisfy the prerequisite, then retry the request.",
            "elicitationId": "7f1c"}, {"mode": "url"}, 5]});
        assert_eq!(
            url_elicitations(Some(&data)),
            vec![UrlElicitation {
                id: Some("7f1c".into()),
                url: "https://modelcontextprotocol.io".into(),
                message: "Open this link to satisfy the prerequisite, then retry the request."
                    .into(),
            }]
        );
        assert!(url_elicitations(None).is_empty());
        assert!(url_elicitations(Some(&json!({"elicitations": "x"}))).is_empty());
    }

    #[test]
    fn network_error_explains_cors_and_what_to_send() {
        let error = McpError::new(
            Step::Initialize,
            ErrorKind::Network {
                detail: "TypeError: Failed to fetch".into(),
            },
        );
        let text = error.to_string();
        assert!(text.starts_with("Initialize failed: the server could not be reached"));
        assert!(text.contains("cross-origin"));
        for header in [
            "Access-Control-Allow-Origin",
            "Access-Control-Allow-Methods: GET, POST, DELETE",
            "mcp-method",
            "mcp-name",
            "authorization",
            "mcp-session-id",
            "mcp-protocol-version",
            "last-event-id",
            "Access-Control-Expose-Headers",
        ] {
            assert!(text.contains(header), "{header} missing from: {text}");
        }
    }

    #[test]
    fn each_kind_reads_as_a_sentence_naming_the_step() {
        let cases = [
            (
                ErrorKind::HttpStatus {
                    status: 401,
                    body_start: "Unauthorized".into(),
                },
                "Listing tools failed: the server answered HTTP 401: Unauthorized",
            ),
            (
                ErrorKind::JsonRpc {
                    code: -32601,
                    message: "Method not found".into(),
                },
                "Listing tools failed: the server returned JSON-RPC error -32601: Method not found",
            ),
            (
                ErrorKind::UnexpectedContent {
                    content_type: "text/html".into(),
                    first_bytes: "<!doctype html>".into(),
                },
                "Listing tools failed: the answer is neither JSON nor an event stream (content type \"text/html\"",
            ),
        ];
        for (kind, start) in cases {
            let text = McpError::new(Step::ListTools, kind).to_string();
            assert!(text.starts_with(start), "{text}");
        }
    }

    #[test]
    fn a_failed_fallback_names_both_transports_in_order() {
        let error = McpError::new(
            Step::Initialize,
            ErrorKind::FallbackFailed {
                streamable: Box::new(ErrorKind::HttpStatus {
                    status: 404,
                    body_start: "Not Found".into(),
                }),
                legacy: Box::new(McpError::new(
                    Step::Initialize,
                    ErrorKind::HttpStatus {
                        status: 400,
                        body_start: String::new(),
                    },
                )),
            },
        );
        assert_eq!(
            error.to_string(),
            "Initialize failed: over Streamable HTTP, the server answered HTTP 404: Not Found; Auto then tried \
             the legacy HTTP+SSE transport, which failed too: Initialize failed: the server answered HTTP 400 with an empty body."
        );
        assert_eq!(error.http_status(), Some(404));
    }

    #[test]
    fn a_url_elicitation_required_error_says_what_to_open() {
        let data = serde_json::json!({"elicitations": [{"mode": "url", "url": "https://modelcontextprotocol.io",
            "message": "Open this link.", "elicitationId": "1"}]});
        let kind = ErrorKind::from_jsonrpc(
            -32042,
            "This request requires browser-based authorization.".into(),
            Some(&data),
        );
        assert_eq!(
            McpError::new(Step::CallTool, kind).to_string(),
            "Calling the tool failed: the server needs you to open a page first (https://modelcontextprotocol.io): \
             This request requires browser-based authorization. Open it, then send the request again."
        );
        // Without pages it stays a plain JSON-RPC error.
        assert_eq!(
            ErrorKind::from_jsonrpc(-32042, "x".into(), None),
            ErrorKind::JsonRpc {
                code: -32042,
                message: "x".into()
            }
        );
    }

    #[test]
    fn a_blocked_delete_blames_cors_for_delete() {
        let text = McpError::new(
            Step::Disconnect,
            ErrorKind::DeleteBlocked {
                detail: "TypeError: Failed to fetch".into(),
            },
        )
        .to_string();
        assert!(text.starts_with("Disconnecting failed: the browser blocked the DELETE"));
        assert!(text.contains("Access-Control-Allow-Methods must include DELETE"));
    }

    #[test]
    fn invisible_controls_in_identifiers_are_shown() {
        assert_eq!(
            reveal_controls("read_file\u{202E}exe.txt"),
            "read_file⟦U+202E⟧exe.txt"
        );
        assert_eq!(
            reveal_controls("a\u{200B}b\u{2067}c\nd"),
            "a⟦U+200B⟧b⟦U+2067⟧c⟦U+000A⟧d"
        );
        assert_eq!(
            reveal_controls("plain-name_1 ünïcode 名前"),
            "plain-name_1 ünïcode 名前"
        );
    }

    #[test]
    fn excerpt_cuts_on_char_boundaries_and_marks_the_cut() {
        assert_eq!(excerpt("héllo wörld", 5), "héllo…");
        assert_eq!(excerpt("short", 50), "short");
        assert_eq!(excerpt("a\u{0}b", 10), "a\u{fffd}b");
    }
}
