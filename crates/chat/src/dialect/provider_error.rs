//! An error answer (HTTP status, `retry-after`, body), or an error event inside a stream, as a
//! typed error. The three providers shape their bodies differently (OpenAI
//! `{"error":{"message","type","code"}}`, Anthropic `{"type":"error","error":{"type","message"}}`,
//! Gemini `{"error":{"code","message","status","details"}}`; Ollama `{"error":"..."}`); the
//! reading here is lenient and looks at all of them the same way.

use crate::error::{excerpt, ChatErrorKind, MESSAGE_CHARS};
use serde_json::Value;

/// The error an answer stands for. `status` is None for an error inside a stream.
pub fn classify_error(status: Option<u16>, retry_after: Option<&str>, body: &str) -> ChatErrorKind {
    let json: Option<Value> = match serde_json::from_str::<Value>(body.trim()) {
        Ok(Value::Array(items)) => items.into_iter().next(),
        Ok(value) => Some(value),
        Err(_) => None,
    };
    let error = json
        .as_ref()
        .map(|j| j.get("error").unwrap_or(j))
        .unwrap_or(&Value::Null);
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .or_else(|| error.as_str())
        .or_else(|| json.as_ref()?.get("message")?.as_str())
        .or_else(|| json.as_ref()?.get("detail")?.as_str())
        .map(str::to_owned)
        .unwrap_or_else(|| match body.trim() {
            "" => "no details".to_owned(),
            text => text.to_owned(),
        });
    let message = excerpt(message.trim().trim_end_matches('.'), MESSAGE_CHARS);

    // Every code-like word of the body, lower-cased, to match on.
    let mut codes: Vec<String> = Vec::new();
    for field in ["type", "code", "status"] {
        if let Some(value) = error.get(field) {
            codes.push(value_text(value));
        }
    }
    if let Some(details) = error.get("details") {
        collect_codes(details, &mut codes);
    }
    let codes = codes.join(" ").to_lowercase();
    let lower = message.to_lowercase();
    let has = |word: &str| codes.contains(word);
    let says = |words: &[&str]| words.iter().any(|w| lower.contains(w));

    let retry_after_ms = retry_after
        .and_then(parse_retry_after)
        .or_else(|| retry_delay_in_details(error))
        .or_else(|| retry_in_message(&lower));

    // Gemini words its per-minute limits "You exceeded your current quota" too (with a
    // RetryInfo): only codes and Anthropic's credit sentence mean no quota is left.
    if has("insufficient_quota")
        || has("enforced_spend_limit")
        || says(&["credit balance is too low"])
    {
        return ChatErrorKind::QuotaExhausted { message };
    }
    if status == Some(401)
        || status == Some(403)
        || has("authentication")
        || has("invalid_api_key")
        || has("unauthenticated")
        || has("api_key_invalid")
        || has("permission")
        || says(&[
            "api key not valid",
            "invalid api key",
            "incorrect api key",
            "invalid x-api-key",
        ])
    {
        return ChatErrorKind::Unauthorized { status, message };
    }
    if status == Some(429) || has("rate_limit") || has("resource_exhausted") {
        return ChatErrorKind::RateLimited {
            retry_after_ms,
            message,
        };
    }
    if status == Some(529)
        || status == Some(503)
        || has("overloaded")
        || has("unavailable")
        || says(&["overloaded"])
    {
        return ChatErrorKind::Overloaded {
            retry_after_ms,
            message,
        };
    }
    if status == Some(413)
        || has("context_length")
        || has("request_too_large")
        || has("exceed_context_size")
        || says(&[
            "context length",
            "context window",
            "context size",
            "prompt is too long",
            "maximum context",
            "too many tokens",
            "exceeds the maximum number of tokens",
            "input token count",
        ])
    {
        return ChatErrorKind::ContextTooLong { message };
    }
    match status {
        Some(404) => ChatErrorKind::NotFound { message },
        _ if has("not_found") => ChatErrorKind::NotFound { message },
        Some(status @ 400..=499) => ChatErrorKind::Rejected { status, message },
        status => ChatErrorKind::ProviderFailed { status, message },
    }
}

fn value_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// `reason`, `error_code` and `@type` words of Gemini's and Anthropic's details.
fn collect_codes(details: &Value, codes: &mut Vec<String>) {
    let items: Vec<&Value> = match details {
        Value::Array(items) => items.iter().take(16).collect(),
        other => vec![other],
    };
    for item in items {
        for field in ["reason", "error_code", "@type"] {
            if let Some(value) = item.get(field) {
                codes.push(value_text(value));
            }
        }
    }
}

/// `retry-after`: seconds (an HTTP date is not read: the page's clock may be off).
fn parse_retry_after(value: &str) -> Option<u64> {
    let seconds: f64 = value.trim().parse().ok()?;
    (seconds.is_finite() && seconds >= 0.0).then(|| (seconds * 1_000.0).min(86_400_000.0) as u64)
}

/// Gemini's `RetryInfo.retryDelay` ("37s", "1.5s").
fn retry_delay_in_details(error: &Value) -> Option<u64> {
    let details = error.get("details")?.as_array()?;
    details.iter().find_map(|detail| {
        let delay = detail.get("retryDelay")?.as_str()?;
        parse_retry_after(delay.strip_suffix('s')?)
    })
}

/// "Please try again in 20s" / "in 1.2s" / "in 350ms" (OpenAI's rate-limit messages).
fn retry_in_message(lower: &str) -> Option<u64> {
    let after = &lower[lower.find("try again in ")? + "try again in ".len()..];
    let number: String = after
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let value: f64 = number.parse().ok()?;
    let unit = &after[number.len()..];
    let ms = if unit.starts_with("ms") {
        value
    } else if unit.starts_with('s') {
        value * 1_000.0
    } else if unit.starts_with('m') {
        value * 60_000.0
    } else {
        return None;
    };
    (ms.is_finite() && ms >= 0.0).then(|| ms.min(86_400_000.0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anthropic_overload_and_rate_limit_are_told_apart() {
        let overloaded = r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_1"}"#;
        assert_eq!(
            classify_error(Some(529), None, overloaded),
            ChatErrorKind::Overloaded {
                retry_after_ms: None,
                message: "Overloaded".into()
            }
        );
        let limited = r#"{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}"#;
        assert!(matches!(
            classify_error(Some(429), Some("12"), limited),
            ChatErrorKind::RateLimited {
                retry_after_ms: Some(12_000),
                ..
            }
        ));
        // The same error as a stream event.
        assert!(matches!(
            classify_error(None, None, overloaded),
            ChatErrorKind::Overloaded { .. }
        ));
    }

    #[test]
    fn openai_quota_is_not_a_rate_limit_and_its_wait_is_read_from_the_message() {
        let quota = r#"{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}"#;
        assert!(matches!(
            classify_error(Some(429), None, quota),
            ChatErrorKind::QuotaExhausted { .. }
        ));
        let limited = r#"{"error":{"message":"Rate limit reached for gpt-4o. Please try again in 1.2s.","type":"requests","code":"rate_limit_exceeded"}}"#;
        assert!(matches!(
            classify_error(Some(429), None, limited),
            ChatErrorKind::RateLimited {
                retry_after_ms: Some(1_200),
                ..
            }
        ));
    }

    #[test]
    fn context_length_auth_and_not_found_are_recognised_across_providers() {
        let openai = r#"{"error":{"message":"This model's maximum context length is 128000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#;
        assert!(matches!(
            classify_error(Some(400), None, openai),
            ChatErrorKind::ContextTooLong { .. }
        ));
        let anthropic = r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#;
        assert!(matches!(
            classify_error(Some(400), None, anthropic),
            ChatErrorKind::ContextTooLong { .. }
        ));
        let gemini_key = r#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID"}]}}"#;
        assert!(matches!(
            classify_error(Some(400), None, gemini_key),
            ChatErrorKind::Unauthorized { .. }
        ));
        let ollama = r#"{"error":"model \"llama9\" not found, try pulling it first"}"#;
        assert_eq!(
            classify_error(Some(404), None, ollama),
            ChatErrorKind::NotFound {
                message: "model \"llama9\" not found, try pulling it first".into()
            }
        );
    }

    #[test]
    fn gemini_retry_info_gives_the_wait() {
        let body = r#"{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"37s"}]}}"#;
        assert!(matches!(
            classify_error(Some(429), None, body),
            ChatErrorKind::RateLimited {
                retry_after_ms: Some(37_000),
                ..
            }
        ));
    }

    #[test]
    fn a_body_that_is_not_json_is_quoted_and_cut() {
        let html = format!("<html>{}</html>", "x".repeat(10_000));
        match classify_error(Some(502), None, &html) {
            ChatErrorKind::ProviderFailed {
                status: Some(502),
                message,
            } => {
                assert!(
                    message.starts_with("<html>") && message.chars().count() <= MESSAGE_CHARS + 1
                )
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            classify_error(Some(418), None, ""),
            ChatErrorKind::Rejected { status: 418, .. }
        ));
    }
}
