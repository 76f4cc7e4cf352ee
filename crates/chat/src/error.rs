//! Errors as values: the step that failed, what went wrong, and a sentence a person can act on
//! (`Display`), as `mcp_lens_protocol::error::McpError` does for the MCP side.
//!
//! Invariant: no error holds a key or a header value; provider messages are cut to
//! [`MESSAGE_CHARS`] (a provider's error page can be megabytes).

use std::fmt;

/// How much of a provider's error message an error keeps.
pub const MESSAGE_CHARS: usize = 2_000;

/// The step of the chat's work that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatStep {
    /// Turning the conversation into the provider's request.
    BuildRequest,
    /// Sending the request (network, CORS, redirects).
    SendRequest,
    /// Reading the provider's answer (status, body, event stream).
    ReadAnswer,
    /// Reading a server's `sampling/createMessage` request.
    ReadSamplingRequest,
    /// Changing the conversation (edit, retry).
    EditConversation,
    /// Reading an exported conversation.
    ImportConversation,
}

impl ChatStep {
    pub fn describe(self) -> &'static str {
        match self {
            ChatStep::BuildRequest => "Preparing the model request",
            ChatStep::SendRequest => "Sending the request to the model provider",
            ChatStep::ReadAnswer => "Reading the model's answer",
            ChatStep::ReadSamplingRequest => "Reading the server's sampling request",
            ChatStep::EditConversation => "Changing the conversation",
            ChatStep::ImportConversation => "Importing the conversation",
        }
    }
}

/// What went wrong, with the facts needed to explain it.
#[derive(Debug, Clone, PartialEq)]
pub enum ChatErrorKind {
    /// The provider settings cannot make a request (address, missing key, model).
    InvalidSettings { detail: String },
    /// `fetch` rejected: the provider is unreachable or refused this page's origin (CORS);
    /// the browser does not say which. `advice` says what to do for this provider.
    Unreachable { detail: String, advice: String },
    /// The provider answered with a redirect, which is never followed.
    Redirected,
    /// The key was refused (missing, wrong, revoked, or not allowed this model).
    Unauthorized {
        status: Option<u16>,
        message: String,
    },
    /// Too many requests for now; `retry_after_ms` when the provider said how long to wait.
    RateLimited {
        retry_after_ms: Option<u64>,
        message: String,
    },
    /// The account has no quota or credit left: waiting does not help.
    QuotaExhausted { message: String },
    /// The provider is overloaded (Anthropic 529, 503s); trying later may work.
    Overloaded {
        retry_after_ms: Option<u64>,
        message: String,
    },
    /// The conversation is longer than the model's context (or the request than the
    /// provider accepts).
    ContextTooLong { message: String },
    /// The model or the endpoint does not exist at this address.
    NotFound { message: String },
    /// The provider refused the request as invalid (other 4xx).
    Rejected { status: u16, message: String },
    /// The provider failed (5xx), or reported an error inside the answer stream.
    ProviderFailed {
        status: Option<u16>,
        message: String,
    },
    /// The provider refused to answer the prompt at all (a safety block before any output).
    Refused { detail: String },
    /// The answer could not be read as the dialect's answer.
    Malformed { detail: String },
    /// The answer stream ended before the model said it had finished.
    Incomplete,
    /// More bytes than the page accepts for this (wasm memory is finite); the request was
    /// stopped.
    TooLarge { what: &'static str, limit: u64 },
    /// The person (or a new request) stopped it.
    Stopped,
    /// A conversation operation that does not apply (no such message, not the person's).
    CannotEdit { detail: String },
    /// The exported conversation cannot be read.
    InvalidExport { detail: String },
    /// The server's sampling request cannot be turned into a model request.
    InvalidSamplingRequest { detail: String },
}

#[derive(Debug, Clone, PartialEq)]
pub struct ChatError {
    pub step: ChatStep,
    pub kind: ChatErrorKind,
}

impl ChatError {
    pub fn new(step: ChatStep, kind: ChatErrorKind) -> Self {
        Self { step, kind }
    }

    /// How long the provider asked to wait before trying again, when it said.
    pub fn retry_after_ms(&self) -> Option<u64> {
        match &self.kind {
            ChatErrorKind::RateLimited { retry_after_ms, .. }
            | ChatErrorKind::Overloaded { retry_after_ms, .. } => *retry_after_ms,
            _ => None,
        }
    }

    /// Whether sending the same request again later may work (rate limits, overload, network,
    /// provider failures, a cut stream).
    pub fn is_transient(&self) -> bool {
        matches!(
            self.kind,
            ChatErrorKind::RateLimited { .. }
                | ChatErrorKind::Overloaded { .. }
                | ChatErrorKind::Unreachable { .. }
                | ChatErrorKind::ProviderFailed { .. }
                | ChatErrorKind::Incomplete
        )
    }
}

impl fmt::Display for ChatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} failed: {}", self.step.describe(), self.kind)
    }
}

impl std::error::Error for ChatError {}

/// What went wrong, as the end of a sentence that starts with the failing step.
impl fmt::Display for ChatErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let wait = |ms: &Option<u64>| match ms {
            Some(ms) => format!(" Try again in {}.", seconds(*ms)),
            None => " Try again later.".to_owned(),
        };
        match self {
            ChatErrorKind::InvalidSettings { detail } => write!(f, "{detail}"),
            ChatErrorKind::Unreachable { detail, advice } => write!(
                f,
                "the provider could not be reached ({detail}). It may be down or at another \
                 address, or it may refuse calls from this page (CORS); the browser does not \
                 say which. {advice}"
            ),
            ChatErrorKind::Redirected => write!(
                f,
                "the provider answered with a redirect, which is not followed: the request \
                 (and the key) goes to the provider's own address only. Check the base URL."
            ),
            ChatErrorKind::Unauthorized { status, message } => {
                write!(f, "the provider refused the key")?;
                if let Some(status) = status {
                    write!(f, " (HTTP {status})")?;
                }
                write!(
                    f,
                    ": {message}. Check the key and that it may use this model."
                )
            }
            ChatErrorKind::RateLimited {
                retry_after_ms,
                message,
            } => write!(
                f,
                "the provider's rate limit was reached: {message}.{}",
                wait(retry_after_ms)
            ),
            ChatErrorKind::QuotaExhausted { message } => write!(
                f,
                "the account has no quota or credit left: {message}. Waiting will not help; \
                 check the provider's billing page."
            ),
            ChatErrorKind::Overloaded {
                retry_after_ms,
                message,
            } => write!(
                f,
                "the provider is overloaded: {message}.{}",
                wait(retry_after_ms)
            ),
            ChatErrorKind::ContextTooLong { message } => write!(
                f,
                "the conversation is too long for this model: {message}. Start a new \
                 conversation, remove messages, or choose a model with a longer context."
            ),
            ChatErrorKind::NotFound { message } => write!(
                f,
                "the provider does not know this model or address: {message}. Check the model \
                 name and the base URL."
            ),
            ChatErrorKind::Rejected { status, message } => write!(
                f,
                "the provider refused the request (HTTP {status}): {message}"
            ),
            ChatErrorKind::ProviderFailed { status, message } => {
                write!(f, "the provider failed")?;
                if let Some(status) = status {
                    write!(f, " (HTTP {status})")?;
                }
                write!(f, ": {message}")
            }
            ChatErrorKind::Refused { detail } => {
                write!(f, "the provider refused to answer this prompt: {detail}")
            }
            ChatErrorKind::Malformed { detail } => {
                write!(
                    f,
                    "the answer is not what the provider's API describes: {detail}"
                )
            }
            ChatErrorKind::Incomplete => write!(
                f,
                "the answer stopped before the model said it had finished (the connection \
                 was cut or the provider gave up). Try again."
            ),
            ChatErrorKind::TooLarge { what, limit } => write!(
                f,
                "{what} is larger than the page accepts ({limit} bytes); it was stopped so \
                 the page stays usable."
            ),
            ChatErrorKind::Stopped => write!(f, "stopped."),
            ChatErrorKind::CannotEdit { detail } => write!(f, "{detail}"),
            ChatErrorKind::InvalidExport { detail } => {
                write!(
                    f,
                    "this is not a conversation exported by mcp-lens: {detail}"
                )
            }
            ChatErrorKind::InvalidSamplingRequest { detail } => write!(f, "{detail}"),
        }
    }
}

fn seconds(ms: u64) -> String {
    if ms < 1_000 {
        format!("{ms} ms")
    } else if ms.is_multiple_of(1_000) {
        format!("{} s", ms / 1_000)
    } else {
        format!("{:.1} s", ms as f64 / 1_000.0)
    }
}

/// `text` cut to at most `chars` characters, with an ellipsis when cut.
pub(crate) fn excerpt(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_reads_as_a_sentence_that_starts_with_its_step() {
        let error = ChatError::new(
            ChatStep::ReadAnswer,
            ChatErrorKind::RateLimited {
                retry_after_ms: Some(1_500),
                message: "Rate limit reached".into(),
            },
        );
        assert_eq!(
            error.to_string(),
            "Reading the model's answer failed: the provider's rate limit was reached: Rate \
             limit reached. Try again in 1.5 s."
        );
        assert_eq!(error.retry_after_ms(), Some(1_500));
        assert!(error.is_transient());
    }

    #[test]
    fn an_excerpt_cuts_at_a_character_not_a_byte() {
        assert_eq!(excerpt("ééé", 2), "éé…");
        assert_eq!(excerpt("ab", 2), "ab");
    }
}
