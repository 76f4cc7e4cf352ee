//! Incremental Server-Sent Events parser (WHATWG "event stream interpretation").
//!
//! Bytes go in as they arrive from the network, in chunks split anywhere (even inside a
//! UTF-8 sequence or between the CR and LF of a CRLF); complete events come out. The parser
//! never buffers more than the current unfinished line plus the current event's fields, so a
//! stream that never ends is parsed as it goes.

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, or `"message"` when the event did not name one.
    pub event: String,
    /// The `data:` lines joined with `\n`.
    pub data: String,
    /// The last event id in force when this event was dispatched (`id:` persists across events).
    pub id: Option<String>,
}

/// Parser state. Feed it with [`SseParser::push`]; call [`SseParser::finish`] when the stream ends.
#[derive(Debug, Default)]
pub struct SseParser {
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

/// The default largest event: big enough for a 10 MB tool result, small enough that a server
/// sending one endless line cannot exhaust the page's memory.
pub const DEFAULT_MAX_EVENT_BYTES: usize = 16 * 1024 * 1024;

impl SseParser {
    pub fn new() -> Self {
        Self::with_limit(DEFAULT_MAX_EVENT_BYTES)
    }

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
    ///
    /// The chunk is read a line at a time: the end of each line is found with a slice search
    /// and the run before it appended at once (an event of 10 MB is a few hundred appends, not
    /// ten million steps). The outcome is exactly that of reading it a byte at a time as the
    /// standard describes it, the limit included: the test oracle (`sse/oracle.rs`) does so.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        let mut rest = chunk;
        while !rest.is_empty() && !self.overflowed {
            // Before every byte: an event over the limit stops the parser.
            if self.full() {
                self.overflow();
                break;
            }
            if self.skip_lf {
                self.skip_lf = false;
                if rest[0] == b'\n' {
                    rest = &rest[1..];
                    continue;
                }
            }
            let end = line_end(rest);
            let run = &rest[..end.unwrap_or(rest.len())];
            if !self.append(run) {
                break;
            }
            let Some(end) = end else {
                break;
            };
            if self.full() {
                self.overflow();
                break;
            }
            self.skip_lf = rest[end] == b'\r';
            self.end_line(&mut events);
            rest = &rest[end + 1..];
        }
        events
    }

    /// Whether the current event holds as much as the limit allows.
    fn full(&self) -> bool {
        self.limit > 0 && self.line.len() + self.data.len() >= self.limit
    }

    /// The event went over the limit: nothing more is parsed, nothing more is held.
    fn overflow(&mut self) {
        self.overflowed = true;
        self.line = Vec::new();
        self.data = String::new();
    }

    /// Appends bytes of a line (no CR or LF among them) as far as the limit allows; false
    /// once the event went over it.
    fn append(&mut self, mut run: &[u8]) -> bool {
        while !run.is_empty() {
            let room = if self.limit > 0 {
                self.limit.saturating_sub(self.line.len() + self.data.len())
            } else {
                run.len()
            };
            if room == 0 {
                self.overflow();
                return false;
            }
            let mut take = run.len().min(room);
            // A byte-order mark is allowed only at the very start of the stream, and may
            // arrive split across chunks: check once the first three bytes are in.
            if !self.bom_checked && self.line.len() < 3 {
                take = take.min(3 - self.line.len());
            }
            self.line.extend_from_slice(&run[..take]);
            run = &run[take..];
            if !self.bom_checked && self.line.len() == 3 {
                self.bom_checked = true;
                if self.line == [0xEF, 0xBB, 0xBF] {
                    self.line.clear();
                }
            }
        }
        true
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

/// Where the first CR or LF of `bytes` is: eight bytes at a time, so a line of megabytes is
/// searched at about the speed of reading it.
fn line_end(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // Whether a byte of `word` is `byte` (the classic test for a zero byte, on word ^ byte).
    let holds = |word: u64, byte: u8| {
        let x = word ^ (ONES * u64::from(byte));
        x.wrapping_sub(ONES) & !x & HIGHS != 0
    };
    let mut at = 0;
    for word in bytes.chunks_exact(8) {
        let word = u64::from_le_bytes([
            word[0], word[1], word[2], word[3], word[4], word[5], word[6], word[7],
        ]);
        if holds(word, b'\n') || holds(word, b'\r') {
            break;
        }
        at += 8;
    }
    bytes[at..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map(|offset| at + offset)
}

// The property tests that use it run natively only (proptest does not build for wasm32).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod oracle;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_over_the_limit_stops_the_parser_without_growing() {
        let mut parser = SseParser::with_limit(64);
        assert_eq!(parser.push(b"data: small\n\n").len(), 1);
        // One endless line, in chunks: the parser keeps no more than the limit.
        for _ in 0..1000 {
            assert!(parser.push(&[b'x'; 100]).is_empty());
        }
        assert!(parser.overflowed());
        assert!(parser.line.capacity() <= 256 && parser.data.capacity() <= 256);
        assert!(parser.push(b"\n\ndata: after\n\n").is_empty());
        // Many data lines add up too.
        let mut parser = SseParser::with_limit(64);
        for _ in 0..20 {
            parser.push(b"data: 0123456789\n");
        }
        assert!(parser.overflowed());
    }

    fn parse_all(chunks: &[&[u8]]) -> (Vec<SseEvent>, SseParser) {
        let mut parser = SseParser::new();
        let mut events = Vec::new();
        for chunk in chunks {
            events.extend(parser.push(chunk));
        }
        parser.finish();
        (events, parser)
    }

    /// A stream recorded from server-everything's answer to `initialize` (priming event, then
    /// the result), followed by a notification, written with mixed line endings.
    const RECORDED: &[u8] = b"id: 0f1c/0\r\ndata: \r\n\r\n\
event: message\nid: 0f1c/1\ndata: {\"result\":{\"protocolVersion\":\"2025-11-25\",\"serverInfo\":{\"name\":\"mcp-servers/everything\",\"version\":\"2.0.0\"}},\"jsonrpc\":\"2.0\",\"id\":0}\n\n\
: keep-alive comment\r\n\r\n\
retry: 500\rdata: {\"jsonrpc\":\"2.0\",\r\ndata: \"method\":\"notifications/message\",\"params\":{\"text\":\"caf\xc3\xa9 \xe2\x9c\x93\"}}\r\rid: 0f1c/2\ndata: last\n\n";

    fn recorded_events() -> Vec<SseEvent> {
        vec![
            SseEvent {
                event: "message".into(),
                data: String::new(),
                id: Some("0f1c/0".into()),
            },
            SseEvent {
                event: "message".into(),
                data: "{\"result\":{\"protocolVersion\":\"2025-11-25\",\"serverInfo\":{\"name\":\"mcp-servers/everything\",\"version\":\"2.0.0\"}},\"jsonrpc\":\"2.0\",\"id\":0}".into(),
                id: Some("0f1c/1".into()),
            },
            SseEvent {
                event: "message".into(),
                data: "{\"jsonrpc\":\"2.0\",\n\"method\":\"notifications/message\",\"params\":{\"text\":\"café ✓\"}}".into(),
                id: Some("0f1c/1".into()),
            },
            SseEvent {
                event: "message".into(),
                data: "last".into(),
                id: Some("0f1c/2".into()),
            },
        ]
    }

    #[test]
    fn recorded_stream_in_one_chunk() {
        let (events, parser) = parse_all(&[RECORDED]);
        assert_eq!(events, recorded_events());
        assert_eq!(parser.retry_ms(), Some(500));
        assert_eq!(parser.last_event_id(), Some("0f1c/2"));
    }

    #[test]
    fn recorded_stream_split_at_every_byte_position() {
        for split in 0..=RECORDED.len() {
            let (events, parser) = parse_all(&[&RECORDED[..split], &RECORDED[split..]]);
            assert_eq!(events, recorded_events(), "split at byte {split}");
            assert_eq!(parser.retry_ms(), Some(500), "split at byte {split}");
        }
    }

    #[test]
    fn recorded_stream_one_byte_at_a_time() {
        let chunks: Vec<&[u8]> = RECORDED.chunks(1).collect();
        let (events, _) = parse_all(&chunks);
        assert_eq!(events, recorded_events());
    }

    #[test]
    fn line_ends_are_found_wherever_they_are() {
        for len in 0..40 {
            for at in 0..=len {
                for end in [b'\n', b'\r'] {
                    let mut bytes = vec![b'x'; len];
                    if at < len {
                        bytes[at] = end;
                    }
                    let expected = (at < len).then_some(at);
                    assert_eq!(line_end(&bytes), expected, "{len} {at}");
                }
            }
        }
        // Bytes next to CR and LF (0x0C, 0x0E, 0x8A, 0x8D) are not line ends.
        assert_eq!(
            line_end(&[0x0C, 0x0E, 0x8A, 0x8D, 0x09, 0x0B, 0xFF, 0x00, 0x0A]),
            Some(8)
        );
    }

    #[test]
    fn multi_line_data_and_named_events() {
        let (events, _) = parse_all(&[b"event: endpoint\ndata: a\ndata:b\ndata\n\n"]);
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].event, "endpoint");
        assert_eq!(events[0].data, "a\nb\n");
    }

    #[test]
    fn comments_and_unknown_fields_are_ignored() {
        let (events, _) = parse_all(&[b": hello\nfoo: bar\n\n:only comment\n\ndata: x\n\n"]);
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].data, "x");
    }

    #[test]
    fn retry_must_be_all_digits() {
        let (_, parser) = parse_all(&[b"retry: 12a\n\n"]);
        assert_eq!(parser.retry_ms(), None);
        let (_, parser) = parse_all(&[b"retry: 3000\n\nretry:\n\n"]);
        assert_eq!(parser.retry_ms(), Some(3000));
    }

    #[test]
    fn id_persists_and_null_ids_are_ignored() {
        let (events, parser) = parse_all(&[b"id: 7\ndata: a\n\ndata: b\n\nid: x\0y\ndata: c\n\n"]);
        let ids: Vec<_> = events.iter().map(|e| e.id.as_deref()).collect();
        assert_eq!(ids, vec![Some("7"), Some("7"), Some("7")]);
        assert_eq!(parser.last_event_id(), Some("7"));
    }

    #[test]
    fn unterminated_event_is_discarded_at_end() {
        let (events, parser) = parse_all(&[b"data: done\n\ndata: half\nid: 9"]);
        assert_eq!(events.len(), 1);
        assert_eq!(parser.last_event_id(), Some("9"));
    }

    #[test]
    fn leading_bom_is_stripped_even_when_split() {
        let stream: &[u8] = b"\xEF\xBB\xBFdata: x\n\n";
        for split in 0..=stream.len() {
            let (events, _) = parse_all(&[&stream[..split], &stream[split..]]);
            assert_eq!(events[0].data, "x", "split at byte {split}");
        }
    }

    #[test]
    fn invalid_utf8_is_replaced_not_panicking() {
        let (events, _) = parse_all(&[b"data: \xff\xfe\n\n"]);
        assert_eq!(events[0].data, "\u{fffd}\u{fffd}");
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::super::oracle::OldParser;
        use super::*;
        use proptest::prelude::*;

        /// Pieces of event streams: fields, comments, every kind of line end, a byte-order
        /// mark (at the start and elsewhere), characters of several bytes (cut anywhere by the
        /// chunks), invalid UTF-8, NUL, digits for `retry`, and any byte.
        fn stream() -> impl Strategy<Value = Vec<u8>> {
            let piece = prop_oneof![
                4 => proptest::sample::select(vec![
                    &b"data"[..], b"data:", b"data: ", b"event:", b"event: ", b"id:", b"id: ",
                    b"retry:", b"retry: ", b":", b": comment", b"foo: bar", b" ", b"\n", b"\r",
                    b"\r\n", b"\n\n", b"\r\r", b"\xEF\xBB\xBF", b"\xEF\xBB", b"\xBF",
                    "é".as_bytes(), "😀".as_bytes(), b"\xff", b"\0", b"12", b"7", b"x", b"{}",
                ]).prop_map(<[u8]>::to_vec),
                1 => proptest::collection::vec(any::<u8>(), 1..4),
                1 => "[a-z \"{}:]{1,40}".prop_map(String::into_bytes),
            ];
            proptest::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
        }

        /// `bytes` cut at `cuts` (sorted, clamped).
        fn chunks(bytes: &[u8], cuts: Vec<usize>) -> Vec<&[u8]> {
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(bytes.len())).collect();
            cuts.sort_unstable();
            let mut out = Vec::new();
            let mut from = 0;
            for cut in cuts.into_iter().chain([bytes.len()]) {
                out.push(&bytes[from..cut]);
                from = cut;
            }
            out
        }

        proptest! {
            #[test]
            fn any_bytes_any_split_never_panic_and_agree(bytes in proptest::collection::vec(any::<u8>(), 0..400), split in 0usize..400) {
                let split = split.min(bytes.len());
                let (whole, _) = parse_all(&[&bytes]);
                let (parts, _) = parse_all(&[&bytes[..split], &bytes[split..]]);
                prop_assert_eq!(whole, parts);
            }

            /// The chunked parser against the byte-at-a-time one: the same events from every
            /// push, the same overflow, `retry` and last id after each, and after the end,
            /// whatever the chunks and the limit (none, or small enough to be reached).
            #[test]
            fn the_same_as_a_byte_at_a_time(
                bytes in stream(),
                cuts in proptest::collection::vec(0usize..600, 0..12),
                limit in prop_oneof![Just(0usize), 1usize..120],
            ) {
                let mut new = SseParser::with_limit(limit);
                let mut old = OldParser::with_limit(limit);
                for chunk in chunks(&bytes, cuts) {
                    prop_assert_eq!(new.push(chunk), old.push(chunk));
                    prop_assert_eq!(new.overflowed(), old.overflowed());
                    prop_assert_eq!(new.retry_ms(), old.retry_ms());
                    prop_assert_eq!(new.last_event_id(), old.last_event_id());
                }
                new.finish();
                old.finish();
                prop_assert_eq!(new.last_event_id(), old.last_event_id());
                prop_assert_eq!(new.retry_ms(), old.retry_ms());
                // What comes after the end is read the same too.
                prop_assert_eq!(new.push(b"data: after\n\n"), old.push(b"data: after\n\n"));
            }
        }

        /// Not a test of speed (nothing is asserted about it): MB/s of the chunked parser and
        /// of the byte-at-a-time one on a 10 MB event in 64 KB chunks, and on small events.
        /// `cargo test --release -p mcp-lens-protocol sse_throughput -- --ignored --nocapture`
        #[test]
        #[ignore]
        fn sse_throughput() {
            let big = format!("event: message\ndata: {}\n\n", "x".repeat(10 << 20));
            let small = "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n"
                .repeat(200_000);
            for (what, stream) in [
                ("one 10 MB event", big.as_bytes()),
                ("200,000 small events", small.as_bytes()),
            ] {
                let mb = stream.len() as f64 / (1 << 20) as f64;
                // The best of three runs each, alternating (the allocator's memory, once
                // touched, favours whoever runs later).
                let (mut new_rate, mut old_rate) = (0f64, 0f64);
                for _ in 0..3 {
                    let start = std::time::Instant::now();
                    let mut new = SseParser::with_limit(0);
                    let new_events: usize =
                        stream.chunks(64 * 1024).map(|c| new.push(c).len()).sum();
                    new_rate = new_rate.max(mb / start.elapsed().as_secs_f64());
                    let start = std::time::Instant::now();
                    let mut old = OldParser::with_limit(0);
                    let old_events: usize =
                        stream.chunks(64 * 1024).map(|c| old.push(c).len()).sum();
                    old_rate = old_rate.max(mb / start.elapsed().as_secs_f64());
                    assert_eq!(new_events, old_events);
                }
                println!("{what}: {new_rate:.0} MB/s chunked, {old_rate:.0} MB/s a byte at a time ({:.1}x)", new_rate / old_rate);
            }
        }
    }
}
