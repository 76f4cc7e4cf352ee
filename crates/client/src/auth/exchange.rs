//! One request of a flow: held for the stepper, sent over the flow's own HTTP (not the wire
//! log), and written to the step log with its answer, both redacted.

use super::log::AuthLogEntry;
use super::{fail, NextStep, OAuth};
use crate::runtime::HttpRequest;
use mcp_lens_protocol::auth::dpop::NONCE_HEADER;
use mcp_lens_protocol::auth::redact::redact_answer;
use mcp_lens_protocol::auth::{AuthError, AuthErrorKind, AuthStep};
use mcp_lens_protocol::error::ErrorKind;

/// The most an authorization answer (metadata, registration, token) may be.
const ANSWER_BYTES: usize = 1024 * 1024;

impl OAuth {
    /// Sends one authorization request and reads its answer, logging both redacted.
    /// `logged` is what the log shows of the request; `why`, what led to it (told to a
    /// stepper first, which may hold it).
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn exchange(
        &self,
        step: AuthStep,
        method: &'static str,
        url: &str,
        headers: Vec<(String, String)>,
        body: Option<&str>,
        logged: Option<String>,
        why: String,
    ) -> Result<(u16, String), AuthError> {
        self.pass(NextStep {
            step,
            method,
            url: url.to_owned(),
            sent: logged.clone(),
            why,
        })
        .await?;
        let at_ms = self.now();
        let outcome = self
            .0
            .http
            .send(HttpRequest {
                method,
                url,
                headers,
                body,
                abort: None,
                // Registration and token requests: codes, verifiers, refresh tokens,
                // secrets and assertions must not follow a redirect to wherever it points.
                refuse_redirects: method == "POST",
            })
            .await;
        let mut entry = AuthLogEntry {
            at_ms,
            step,
            method: Some(method),
            url: Some(url.to_owned()),
            sent: logged,
            status: None,
            received: None,
            note: String::new(),
            failed: false,
        };
        let answer = match outcome {
            Ok(response) => {
                let status = response.status();
                entry.status = Some(status);
                // A `DPoP-Nonce` is kept for the next proof to that server.
                self.remember_nonce(url, response.header(NONCE_HEADER).as_deref());
                match response.text(ANSWER_BYTES).await {
                    Ok(text) => Ok((status, text)),
                    Err(kind) => Err(AuthErrorKind::Invalid {
                        what: format!("the answer of {url}"),
                        detail: kind.to_string(),
                    }),
                }
            }
            Err(ErrorKind::Network { detail }) => Err(AuthErrorKind::Network {
                url: url.to_owned(),
                detail,
            }),
            Err(ErrorKind::Redirected) => Err(AuthErrorKind::Invalid {
                what: format!("the answer of {url}"),
                detail: "it is a redirect, which is not followed".to_owned(),
            }),
            Err(other) => Err(AuthErrorKind::Invalid {
                what: format!("the request to {url}"),
                detail: other.to_string(),
            }),
        };
        match &answer {
            Ok((_, text)) => entry.received = Some(redact_answer(text)),
            Err(kind) => {
                entry.note = kind.to_string();
                entry.failed = true;
            }
        }
        self.push_log(entry);
        answer.map_err(fail(step))
    }
}
