//! Resuming an event stream that ended before its answer: the client comes back with GET and
//! `Last-Event-ID` after the delay the server asked for with `retry:` (servers that poll close
//! streams on purpose). Pure bookkeeping, so the rules are tested natively.

/// Used when the server did not say how long to wait.
pub const DEFAULT_RETRY_MS: u64 = 1_000;
/// Resumptions in a row that bring no event before the client gives up.
pub const MAX_FRUITLESS_RESUMES: u32 = 3;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResumeState {
    last_event_id: Option<String>,
    retry_ms: Option<u64>,
    fruitless: u32,
    events_since_resume: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// Wait `after_ms`, then GET with `Last-Event-ID: last_event_id`.
    Resume {
        after_ms: u64,
        last_event_id: String,
    },
    /// The stream cannot be resumed (no event id to resume from, or resuming stopped helping).
    GiveUp,
}

impl ResumeState {
    /// Records an event seen on the stream (its id, if any, and the server's `retry`).
    pub fn saw_event(&mut self, id: Option<&str>, retry_ms: Option<u64>) {
        if let Some(id) = id {
            self.last_event_id = Some(id.to_owned());
        }
        if retry_ms.is_some() {
            self.retry_ms = retry_ms;
        }
        self.events_since_resume += 1;
    }

    /// The stream ended before the answer: what to do next. The server's `retry` is obeyed,
    /// but never below [`MIN_RETRY_MS`]: `retry: 0` must not make a reconnect loop.
    pub fn stream_ended(&mut self) -> Next {
        if self.events_since_resume == 0 {
            self.fruitless += 1;
        } else {
            self.fruitless = 0;
        }
        self.events_since_resume = 0;
        match &self.last_event_id {
            Some(id) if self.fruitless < MAX_FRUITLESS_RESUMES => Next::Resume {
                after_ms: self.retry_ms.unwrap_or(DEFAULT_RETRY_MS).max(MIN_RETRY_MS),
                last_event_id: id.clone(),
            },
            _ => Next::GiveUp,
        }
    }
}

/// The shortest wait before reconnecting or resuming, whatever `retry` a server sends.
pub const MIN_RETRY_MS: u64 = 100;
/// The longest wait between attempts to re-open a long-lived stream.
pub const MAX_RETRY_MS: u64 = 30_000;

/// How long to wait before re-opening a long-lived stream (the GET stream, `subscriptions/
/// listen`): the server's `retry` if it sent one, else the client's backoff; always within
/// [`MIN_RETRY_MS`, `MAX_RETRY_MS`].
pub fn reconnect_delay(retry_ms: Option<u64>, backoff_ms: u64) -> u64 {
    retry_ms
        .unwrap_or(backoff_ms)
        .clamp(MIN_RETRY_MS, MAX_RETRY_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_retry_never_makes_a_tight_loop() {
        assert_eq!(reconnect_delay(Some(0), 1000), MIN_RETRY_MS);
        assert_eq!(reconnect_delay(None, 4000), 4000);
        assert_eq!(reconnect_delay(Some(u64::MAX), 1000), MAX_RETRY_MS);
        let mut state = ResumeState::default();
        for _ in 0..100 {
            state.saw_event(Some("1"), Some(0));
            match state.stream_ended() {
                Next::Resume { after_ms, .. } => assert!(after_ms >= MIN_RETRY_MS),
                Next::GiveUp => panic!("a stream that sends events is resumed"),
            }
        }
    }

    #[test]
    fn a_primed_stream_closed_with_retry_resumes_after_that_delay() {
        // Recorded from mcp 2.3.0 with an event store: `id: 3`, empty data, `retry: 500`, close.
        let mut state = ResumeState::default();
        state.saw_event(Some("3"), Some(500));
        assert_eq!(
            state.stream_ended(),
            Next::Resume {
                after_ms: 500,
                last_event_id: "3".into()
            }
        );
        // The resumed stream replays 4 and 5 (the answer); had it ended early, resume from 5.
        state.saw_event(Some("4"), None);
        state.saw_event(Some("5"), None);
        assert_eq!(
            state.stream_ended(),
            Next::Resume {
                after_ms: 500,
                last_event_id: "5".into()
            }
        );
    }

    #[test]
    fn a_stream_without_event_ids_cannot_be_resumed() {
        let mut state = ResumeState::default();
        state.saw_event(None, None);
        assert_eq!(state.stream_ended(), Next::GiveUp);
    }

    #[test]
    fn resuming_stops_when_it_brings_nothing() {
        let mut state = ResumeState::default();
        state.saw_event(Some("1"), None);
        let mut resumes = 0;
        while let Next::Resume { after_ms, .. } = state.stream_ended() {
            assert_eq!(after_ms, DEFAULT_RETRY_MS);
            resumes += 1;
        }
        // The first end follows an event; then MAX_FRUITLESS_RESUMES - 1 empty ones are tried.
        assert_eq!(resumes, MAX_FRUITLESS_RESUMES as usize);
    }

    #[test]
    fn progress_on_resumed_streams_keeps_resuming() {
        let mut state = ResumeState::default();
        for n in 0..20 {
            state.saw_event(Some(&n.to_string()), Some(200));
            assert!(matches!(
                state.stream_ended(),
                Next::Resume { after_ms: 200, .. }
            ));
        }
    }
}
