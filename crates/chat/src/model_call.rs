//! One model turn over HTTP, through the client crate's [`Http`] seam (the page's `fetch`, a
//! scripted fake in tests): the request built for the dialect, sent to the provider's origin
//! only and never redirected, the answer read as an event stream (or whole, when the provider
//! answers JSON), bounded by bytes, every delta handed to the caller as it arrives.

use crate::conversation::{MessageId, Part, TurnInfo};
use crate::cors::cors_advice;
use crate::dialect::{build_request, classify_error, decode_answer, stream_decoder, ModelRequest};
use crate::error::{ChatError, ChatErrorKind, ChatStep};
use crate::provider::ProviderConfig;
use crate::stream::{AssistantTurn, Delta, TurnBuilder};
use mcp_lens_client::protocol::error::ErrorKind;
use mcp_lens_client::runtime::{Abort, Clock, Http, HttpRequest, SseReader};

/// How much of an answer the page takes (wasm memory is finite).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnswerLimits {
    /// A whole answer, or the sum of a stream's event data.
    pub max_answer_bytes: usize,
    /// One event of a stream.
    pub max_event_bytes: usize,
    /// What is read of an error answer.
    pub max_error_bytes: usize,
}

impl Default for AnswerLimits {
    fn default() -> Self {
        Self {
            max_answer_bytes: 8 * 1024 * 1024,
            max_event_bytes: 1024 * 1024,
            max_error_bytes: 64 * 1024,
        }
    }
}

/// Where and how a turn is sent.
pub struct ModelCall<'a> {
    pub http: &'a dyn Http,
    pub clock: &'a dyn Clock,
    pub config: &'a ProviderConfig,
    pub limits: AnswerLimits,
    /// Cancels the request and its body.
    pub abort: &'a Abort,
    /// The page's origin, for what to do when the provider refuses it.
    pub page_origin: &'a str,
}

/// A turn's outcome: what arrived (possibly partial), how it went, and the error if it failed.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelAnswer {
    pub turn: AssistantTurn,
    pub info: TurnInfo,
    pub error: Option<ChatError>,
}

/// Runs one model turn; `on_delta` sees each piece as it arrives.
pub async fn call_model(
    call: &ModelCall<'_>,
    request: &ModelRequest<'_>,
    on_delta: &mut dyn FnMut(&Delta),
) -> ModelAnswer {
    let started = call.clock.now_ms();
    let mut info = TurnInfo {
        model: call.config.model.clone(),
        provider: call.config.label(),
        ..TurnInfo::default()
    };
    let mut builder = TurnBuilder::new();
    let mut first_output: Option<f64> = None;
    let outcome = match build_request(call.config, request) {
        Ok(http_call) => {
            info.dropped = http_call.dropped.clone();
            let mut on_delta = |delta: &Delta| {
                builder.apply(delta);
                if first_output.is_none() && builder.has_output() {
                    first_output = Some(call.clock.now_ms());
                }
                on_delta(delta);
            };
            exchange(
                call,
                &http_call.url,
                &http_call.headers,
                &http_call.body,
                request.stream,
                &mut on_delta,
            )
            .await
        }
        Err(error) => Err(error),
    };
    let error = outcome.err();
    let complete = error.is_none();
    let mut turn = builder.finish(complete);
    let error = error.or_else(|| {
        turn.error
            .take()
            .map(|kind| ChatError::new(ChatStep::ReadAnswer, kind))
    });
    let error = error.or_else(|| {
        turn.stop
            .is_none()
            .then(|| ChatError::new(ChatStep::ReadAnswer, ChatErrorKind::Incomplete))
    });
    if error.is_some() {
        // A cut answer's calls are not run: their arguments may be incomplete, and without
        // results the conversation could not be sent again.
        turn.parts.retain(|part| !matches!(part, Part::ToolCall(_)));
    }
    if let Some(model) = &turn.model {
        info.model = model.clone();
    }
    info.usage = turn.usage;
    info.stop = turn.stop.clone();
    info.time_to_first_token_ms = first_output.map(|at| at - started);
    info.duration_ms = call.clock.now_ms() - started;
    info.interrupted = error.is_some();
    ModelAnswer { turn, info, error }
}

/// Sends the request and reads the answer into `on_delta`.
async fn exchange(
    call: &ModelCall<'_>,
    url: &str,
    headers: &[(String, String)],
    body: &str,
    stream: bool,
    on_delta: &mut dyn FnMut(&Delta),
) -> Result<(), ChatError> {
    let send_error = |kind| ChatError::new(ChatStep::SendRequest, kind);
    let read_error = |kind| ChatError::new(ChatStep::ReadAnswer, kind);
    let response = call
        .http
        .send(HttpRequest {
            method: "POST",
            url,
            headers: headers.to_vec(),
            body: Some(body),
            abort: Some(call.abort),
            refuse_redirects: true,
        })
        .await
        .map_err(|error| send_error(from_http_error(error, call)))?;
    let status = response.status();
    if (300..400).contains(&status) || status == 0 {
        return Err(send_error(ChatErrorKind::Redirected));
    }
    if !(200..300).contains(&status) {
        let body = match response.text(call.limits.max_error_bytes).await {
            Ok(text) => text,
            Err(ErrorKind::Cancelled) => return Err(read_error(ChatErrorKind::Stopped)),
            Err(_) => String::new(),
        };
        let retry_after = response.header("retry-after");
        return Err(read_error(classify_error(
            Some(status),
            retry_after.as_deref(),
            &body,
        )));
    }
    let is_stream = response
        .header("content-type")
        .is_some_and(|t| t.to_ascii_lowercase().contains("text/event-stream"));
    let mut deltas = Vec::new();
    if stream && is_stream {
        let Some(body) = response.body() else {
            return Err(read_error(ChatErrorKind::Incomplete));
        };
        let mut reader = SseReader::new(body, call.limits.max_event_bytes);
        let mut decoder = stream_decoder(call.config.dialect);
        let mut total = 0usize;
        loop {
            let event = match reader.next_event().await {
                Ok(Some(event)) => event,
                Ok(None) => break,
                Err(error) => return Err(read_error(from_body_error(error))),
            };
            total = total.saturating_add(event.data.len());
            if total > call.limits.max_answer_bytes {
                reader.cancel();
                return Err(read_error(too_large(call.limits.max_answer_bytes)));
            }
            decoder.event(&event, &mut deltas);
            let failed = deliver(&mut deltas, on_delta);
            if failed {
                reader.cancel();
                return Ok(());
            }
        }
        decoder.end(&mut deltas);
        deliver(&mut deltas, on_delta);
        Ok(())
    } else {
        // Asked for a stream and got JSON (a server that ignores `stream`, or an error it
        // reports with 200): read it whole.
        let text = response
            .text(call.limits.max_answer_bytes)
            .await
            .map_err(|error| read_error(from_body_error(error)))?;
        for delta in decode_answer(call.config.dialect, &text)? {
            on_delta(&delta);
        }
        Ok(())
    }
}

/// Hands the deltas over; true when one was an error (the rest of the stream is not read).
fn deliver(deltas: &mut Vec<Delta>, on_delta: &mut dyn FnMut(&Delta)) -> bool {
    let mut failed = false;
    for delta in deltas.drain(..) {
        failed |= matches!(delta, Delta::Error(_));
        on_delta(&delta);
    }
    failed
}

fn too_large(limit: usize) -> ChatErrorKind {
    ChatErrorKind::TooLarge {
        what: "the model's answer",
        limit: limit as u64,
    }
}

fn from_http_error(error: ErrorKind, call: &ModelCall<'_>) -> ChatErrorKind {
    match error {
        ErrorKind::Network { detail } => ChatErrorKind::Unreachable {
            detail,
            advice: cors_advice(call.config, call.page_origin),
        },
        ErrorKind::Cancelled => ChatErrorKind::Stopped,
        ErrorKind::Redirected => ChatErrorKind::Redirected,
        // Never the header's value: it may be the key.
        ErrorKind::InvalidHeader { name } => ChatErrorKind::InvalidSettings {
            detail: format!("The {name} header cannot be sent: the key holds characters a header may not (a line break, a non-ASCII character?)."),
        },
        other => ChatErrorKind::ProviderFailed {
            status: None,
            message: other.to_string(),
        },
    }
}

fn from_body_error(error: ErrorKind) -> ChatErrorKind {
    match error {
        ErrorKind::Cancelled => ChatErrorKind::Stopped,
        ErrorKind::TooLarge { limit, .. } => ChatErrorKind::TooLarge {
            what: "an event of the model's answer",
            limit,
        },
        _ => ChatErrorKind::Incomplete,
    }
}

/// Makes the ids a provider did not give unique in the conversation (they restart with each
/// answer): the message's id goes into them.
pub fn number_generated_call_ids(turn: &mut AssistantTurn, message_id: MessageId) {
    use crate::conversation::GENERATED_CALL_ID_PREFIX;
    for part in &mut turn.parts {
        if let Part::ToolCall(call) = part {
            if let Some(rest) = call.id.strip_prefix(GENERATED_CALL_ID_PREFIX) {
                call.id = format!("{GENERATED_CALL_ID_PREFIX}{message_id}-{rest}");
            }
        }
    }
}
