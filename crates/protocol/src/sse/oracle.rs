//! The event-stream parser as it was first written, a byte at a time: the oracle the chunked
//! parser ([`super::SseParser`]) is property-tested against (tests only). Kept verbatim but for
//! its name, so any difference between the two is a change of behaviour.

use super::SseEvent;

/// Parser state. Feed it with [`SseParser::push`]; call [`SseParser::finish`] when the stream ends.
#[derive(Debug, Default)]
pub struct OldParser {
    line: Vec<u8>,
    /// The previous chunk ended with CR: a LF at the start of the next chunk belongs to it.
    skip_lf: bool,
    /// Whether the start of the stream has been checked for a byte-order mark.
    bom_checked: bool,
    data: String,
    has_data: bool,
    event: String,
    last_event_id: Option<String>,
    retry_ms: Option<u64>,
    /// The most bytes one event (its unfinished line plus its data) may hold; 0 = no limit.
    limit: usize,
    /// Set once an event went over the limit: nothing more is parsed.
    overflowed: bool,
}

impl OldParser {
    /// A parser that stops at the first event over `limit` bytes (see [`Self::overflowed`]).
    pub fn with_limit(limit: usize) -> Self {
        Self {
            limit,
            ..Self::default()
        }
    }

    /// Whether an event went over the limit; the stream must then be abandoned.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// The reconnection time the server asked for with `retry:`, in milliseconds.
    pub fn retry_ms(&self) -> Option<u64> {
        self.retry_ms
    }

    /// The last `id:` seen, to send as `Last-Event-ID` when resuming.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref()
    }

    /// Feeds a chunk of bytes; returns the events it completed, in order.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        for &byte in chunk {
            if self.overflowed {
                break;
            }
            if self.limit > 0 && self.line.len() + self.data.len() >= self.limit {
                self.overflowed = true;
                self.line = Vec::new();
                self.data = String::new();
                break;
            }
            if self.skip_lf {
                self.skip_lf = false;
                if byte == b'\n' {
                    continue;
                }
            }
            match byte {
                b'\n' => self.end_line(&mut events),
                b'\r' => {
                    self.skip_lf = true;
                    self.end_line(&mut events);
                }
                _ => {
                    self.line.push(byte);
                    // A byte-order mark is allowed only at the very start of the stream, and
                    // may arrive split across chunks: check once the first three bytes are in.
                    if !self.bom_checked && self.line.len() == 3 {
                        self.bom_checked = true;
                        if self.line == [0xEF, 0xBB, 0xBF] {
                            self.line.clear();
                        }
                    }
                }
            }
        }
        events
    }

    /// Ends the stream. Per the standard, an event without its terminating blank line is
    /// discarded; a final line without its line break is still processed as a field.
    pub fn finish(&mut self) {
        if !self.line.is_empty() {
            let mut ignored = Vec::new();
            self.end_line(&mut ignored);
        }
        self.data.clear();
        self.has_data = false;
        self.event.clear();
    }

    fn end_line(&mut self, events: &mut Vec<SseEvent>) {
        self.bom_checked = true;
        let line = std::mem::take(&mut self.line);
        if line.is_empty() {
            self.dispatch(events);
            return;
        }
        let line = String::from_utf8_lossy(&line);
        if line.starts_with(':') {
            return; // comment
        }
        let (field, value) = match line.find(':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(' ').unwrap_or(value))
            }
            None => (&line[..], ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.event = value.to_owned(),
            "id" if !value.contains('\0') => self.last_event_id = Some(value.to_owned()),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                self.retry_ms = value.parse().ok();
            }
            _ => {}
        }
    }

    fn dispatch(&mut self, events: &mut Vec<SseEvent>) {
        let event = std::mem::take(&mut self.event);
        if !self.has_data {
            return;
        }
        self.has_data = false;
        events.push(SseEvent {
            event: if event.is_empty() {
                "message".to_owned()
            } else {
                event
            },
            data: std::mem::take(&mut self.data),
            id: self.last_event_id.clone(),
        });
    }
}
