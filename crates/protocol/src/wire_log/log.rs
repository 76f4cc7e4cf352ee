//! The log itself: a ring buffer of entries bounded by count and by bytes, which numbers
//! each entry, times answers against their requests, and completes a pending request with
//! its answer.

use super::budget::{clip, BodyCut, DEFAULT_BYTE_BUDGET, MAX_BODY_BYTES};
use super::entry::{Direction, Via, WireAnswer, WireEntry};
use super::export::export;
use super::filter::Filter;
use super::summary::MessageKind;
use std::collections::{HashMap, VecDeque};

#[derive(Debug, Clone)]
pub struct WireLog {
    entries: VecDeque<WireEntry>,
    capacity: usize,
    next_seq: u64,
    /// When each request (server, id) was sent, to time its answer. Bounded like the log.
    sent_at: HashMap<(String, String, u8), f64>,
    /// What the entries hold ([`weight`] of each), and the most they may.
    bytes: usize,
    byte_budget: usize,
    /// Entries before this index have had their bodies dropped: trimming starts here, so a
    /// log over its budget costs each new entry a step or two, not a walk over every row.
    first_body: usize,
}

pub const DEFAULT_CAPACITY: usize = 1000;

/// The longest request id whose answer is timed (ids are numbers or short strings).
const MAX_TIMED_ID_BYTES: usize = 256;

/// What an entry costs the log besides its strings (the struct, the deque slot, the
/// allocations' own bookkeeping), so a flood of empty entries is counted too.
const ENTRY_OVERHEAD: usize = 256;

/// The bytes an entry holds: its strings and a fixed overhead.
fn weight(entry: &WireEntry) -> usize {
    let headers = |list: &[(String, String)]| {
        list.iter()
            .map(|(name, value)| name.len() + value.len())
            .sum::<usize>()
    };
    ENTRY_OVERHEAD
        + entry.server.len()
        + entry.url.len()
        + entry.method.as_ref().map_or(0, String::len)
        + entry.id.as_ref().map_or(0, String::len)
        + headers(&entry.headers)
        + entry.body.len()
        + entry.failure.as_ref().map_or(0, String::len)
        + headers(&entry.response_headers)
        + entry.response_body.as_ref().map_or(0, String::len)
}

impl Default for WireLog {
    fn default() -> Self {
        Self::new(DEFAULT_CAPACITY)
    }
}

impl WireLog {
    pub fn new(capacity: usize) -> Self {
        Self::with_budget(capacity, DEFAULT_BYTE_BUDGET)
    }

    /// A log of at most `capacity` entries holding at most `byte_budget` bytes.
    pub fn with_budget(capacity: usize, byte_budget: usize) -> Self {
        Self {
            entries: VecDeque::new(),
            capacity: capacity.max(1),
            next_seq: 0,
            sent_at: HashMap::new(),
            bytes: 0,
            byte_budget,
            first_body: 0,
        }
    }

    /// The bytes the entries hold now (within the budget once an entry is added, unless the
    /// newest entry's own columns exceed it).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Changes the cap; the oldest entries go first.
    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity.max(1);
        self.trim();
    }

    /// Adds an entry (its `seq` and, for answers, `duration_ms` are filled in here).
    pub fn push(&mut self, mut entry: WireEntry) {
        entry.seq = self.next_seq;
        self.next_seq += 1;
        entry.body_cut =
            clip(&mut entry.body, MAX_BODY_BYTES).map(|bytes| BodyCut::Truncated { bytes });
        if let Some(response) = entry.response_body.as_mut() {
            clip(response, MAX_BODY_BYTES);
        }
        // Requests and answers are timed (by their id), nothing else. An id longer than any
        // real one is not timed: the table that times answers keeps a copy of each id,
        // outside the byte budget.
        let is_answer = match entry.kind {
            Some(MessageKind::Request) => Some(false),
            Some(MessageKind::Answer | MessageKind::Error) => Some(true),
            Some(MessageKind::Notification) | None => None,
        };
        let timed = entry
            .id
            .as_ref()
            .filter(|id| id.len() <= MAX_TIMED_ID_BYTES);
        if let (Some(id), Some(is_answer)) = (timed, is_answer) {
            // Who asked: the page asked the server (0), the page asked an app (1), an app
            // asked the page (2). App messages are timed apart from the server's (another
            // numbering of ids) and both ways.
            let app = entry.via == Via::App;
            let asker = match (app, entry.direction, is_answer) {
                (false, Direction::Sent, false) | (false, Direction::Received, true) => Some(0),
                (true, Direction::Sent, false) | (true, Direction::Received, true) => Some(1),
                (true, Direction::Received, false) | (true, Direction::Sent, true) => Some(2),
                (false, _, _) => None,
            };
            if let Some(asker) = asker {
                let key = (entry.server.clone(), id.clone(), asker);
                if is_answer {
                    entry.duration_ms = self.sent_at.remove(&key).map(|at| entry.at_ms - at);
                } else {
                    self.sent_at.insert(key, entry.at_ms);
                }
            }
        }
        self.bytes += weight(&entry);
        self.entries.push_back(entry);
        self.trim();
    }

    /// Completes the entry of a request logged as pending: status, headers, time taken,
    /// failure, and later the error body. An answer whose entry left the log is dropped.
    pub fn answer(&mut self, answer: WireAnswer) {
        let entry = self.entries.iter_mut().rev().find(|e| {
            e.exchange == Some(answer.exchange)
                && e.server == answer.server
                && e.direction == Direction::Sent
        });
        let Some(entry) = entry else {
            return;
        };
        let before = weight(entry);
        if entry.pending {
            entry.pending = false;
            entry.duration_ms = Some(answer.at_ms - entry.at_ms);
        }
        if answer.http_status.is_some() {
            entry.http_status = answer.http_status;
        }
        if !answer.response_headers.is_empty() {
            entry.response_headers = answer.response_headers;
        }
        if answer.failure.is_some() {
            entry.failure = answer.failure;
        }
        if let Some(mut body) = answer.response_body {
            clip(&mut body, MAX_BODY_BYTES);
            entry.response_body = Some(body);
        }
        let after = weight(entry);
        self.bytes = self.bytes + after - before;
        self.trim();
    }

    /// Back under both bounds: the oldest entries go past the count; past the byte budget the
    /// oldest bodies go first (their rows stay, saying so), then, if the rows alone are still
    /// too much, the oldest rows (never the newest).
    fn trim(&mut self) {
        while self.entries.len() > self.capacity {
            self.pop_oldest();
        }
        while self.bytes > self.byte_budget && self.first_body < self.entries.len() {
            let entry = &mut self.entries[self.first_body];
            self.first_body += 1;
            let held = entry.body.len() + entry.response_body.as_ref().map_or(0, String::len);
            if held == 0 {
                continue;
            }
            let whole = match entry.body_cut {
                Some(BodyCut::Truncated { bytes }) => bytes,
                _ => entry.body.len(),
            };
            entry.body = String::new();
            if entry.response_body.is_some() {
                entry.response_body = Some(String::new());
            }
            entry.body_cut = Some(BodyCut::Dropped { bytes: whole });
            self.bytes -= held;
        }
        while self.bytes > self.byte_budget && self.entries.len() > 1 {
            self.pop_oldest();
        }
        if self.sent_at.len() > self.capacity {
            self.sent_at.clear(); // unanswered requests this old no longer need timing
        }
    }

    fn pop_oldest(&mut self) {
        if let Some(gone) = self.entries.pop_front() {
            self.bytes -= weight(&gone);
            self.first_body = self.first_body.saturating_sub(1);
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.sent_at.clear();
        self.bytes = 0;
        self.first_body = 0;
    }

    pub fn entries<'a>(&'a self, filter: &'a Filter) -> impl Iterator<Item = &'a WireEntry> + 'a {
        self.entries.iter().filter(move |e| filter.matches(e))
    }

    /// The entries the filter shows, as pretty JSON (already redacted).
    pub fn export(&self, filter: &Filter) -> String {
        export(self.entries(filter))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire_log::entry::sample as entry;

    #[test]
    fn a_request_is_logged_when_sent_and_completed_by_its_answer() {
        let mut log = WireLog::new(10);
        let mut first = entry(
            Direction::Sent,
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#,
            10.0,
        );
        first.exchange = Some(0);
        first.pending = true;
        first.http_status = None;
        let mut second = entry(
            Direction::Sent,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
            12.0,
        );
        second.exchange = Some(1);
        second.pending = true;
        second.http_status = None;
        log.push(first);
        log.push(second);
        let answer = |exchange, at_ms, status, body: Option<&str>| WireAnswer {
            server: "everything".into(),
            exchange,
            at_ms,
            http_status: status,
            response_headers: vec![("www-authenticate".into(), "Bearer".into())],
            failure: None,
            response_body: body.map(str::to_owned),
        };
        // The second request is answered first; rows stay in send order.
        log.answer(answer(1, 20.0, Some(400), None));
        log.answer(answer(1, 25.0, Some(400), Some("{\"error\":\"x\"}")));
        let all = Filter::default();
        let rows: Vec<_> = log.entries(&all).collect();
        assert_eq!(rows[0].method.as_deref(), Some("initialize"));
        assert!(rows[0].pending, "the unanswered request stays pending");
        assert!(!rows[1].pending);
        assert_eq!(rows[1].http_status, Some(400));
        assert_eq!(rows[1].duration_ms, Some(8.0), "timed by the first answer");
        assert_eq!(rows[1].response_body.as_deref(), Some("{\"error\":\"x\"}"));
        // Another server's exchange 0 is not ours.
        let mut other = answer(0, 30.0, None, None);
        other.server = "other".into();
        other.failure = Some("Failed to fetch".into());
        log.answer(other);
        assert!(log.entries(&all).next().unwrap().pending);
    }

    #[test]
    fn answers_are_timed_against_their_requests_per_server() {
        let mut log = WireLog::new(10);
        log.push(entry(
            Direction::Sent,
            r#"{"jsonrpc":"2.0","id":0,"method":"tools/list"}"#,
            100.0,
        ));
        log.push(entry(
            Direction::Received,
            r#"{"jsonrpc":"2.0","method":"notifications/message"}"#,
            110.0,
        ));
        log.push(entry(
            Direction::Received,
            r#"{"jsonrpc":"2.0","id":0,"result":{}}"#,
            142.5,
        ));
        let everything = Filter::default();
        let all: Vec<_> = log.entries(&everything).collect();
        assert_eq!(all[2].method_text().as_deref(), Some("(result)"));
        assert_eq!(all[2].duration_ms, Some(42.5));
        assert_eq!(all[1].duration_ms, None);
        assert_eq!(all.iter().map(|e| e.seq).collect::<Vec<_>>(), vec![0, 1, 2]);
    }

    #[test]
    fn app_messages_are_timed_both_ways_apart_from_the_servers_and_filtered() {
        let mut log = WireLog::new(10);
        let app = |direction, body: &str, at| {
            let mut e = entry(direction, body, at);
            e.via = Via::App;
            e
        };
        // The server's request 1 and the app's request 1 do not mix.
        log.push(entry(
            Direction::Sent,
            r#"{"id":1,"method":"tools/call"}"#,
            0.0,
        ));
        log.push(app(
            Direction::Received,
            r#"{"id":1,"method":"tools/call"}"#,
            10.0,
        ));
        log.push(app(
            Direction::Sent,
            r#"{"id":0,"method":"ui/resource-teardown"}"#,
            20.0,
        ));
        log.push(entry(Direction::Received, r#"{"id":1,"result":{}}"#, 30.0));
        log.push(app(Direction::Sent, r#"{"id":1,"result":{}}"#, 35.0));
        log.push(app(Direction::Received, r#"{"id":0,"result":{}}"#, 45.0));
        let durations: Vec<_> = log
            .entries(&Filter::default())
            .map(|e| e.duration_ms)
            .collect();
        assert_eq!(
            durations,
            vec![None, None, None, Some(30.0), Some(25.0), Some(25.0)]
        );
        let only = |app| {
            log.entries(&Filter {
                app: Some(app),
                ..Filter::default()
            })
            .count()
        };
        assert_eq!((only(true), only(false)), (4, 2));
        // An app's request with an id of megabytes is logged, not timed (no copy of its id
        // is kept outside the budget).
        let huge = format!(
            r#"{{"id":"{}","method":"tools/call"}}"#,
            "i".repeat(1 << 20)
        );
        log.push(app(Direction::Received, &huge, 50.0));
        assert!(log
            .sent_at
            .keys()
            .all(|(_, id, _)| id.len() <= MAX_TIMED_ID_BYTES));
    }

    #[test]
    fn the_ring_buffer_keeps_the_newest_entries() {
        let mut log = WireLog::new(3);
        for n in 0..10 {
            log.push(entry(
                Direction::Sent,
                &format!(r#"{{"id":{n},"method":"ping"}}"#),
                n as f64,
            ));
        }
        let ids: Vec<_> = log
            .entries(&Filter::default())
            .map(|e| e.id.clone().unwrap())
            .collect();
        assert_eq!(ids, vec!["7", "8", "9"]);
        log.set_capacity(1);
        assert_eq!(log.len(), 1);
    }

    /// What the log should count: every entry's weight, recomputed.
    fn recount(log: &WireLog) -> usize {
        log.entries.iter().map(weight).sum()
    }

    #[test]
    fn the_byte_budget_drops_the_oldest_bodies_first_and_keeps_their_rows() {
        let mut log = WireLog::with_budget(1000, 20_000);
        for n in 0..40 {
            let body = format!(
                r#"{{"id":{n},"method":"notifications/message","data":"{}"}}"#,
                "x".repeat(2_000)
            );
            log.push(entry(Direction::Received, &body, n as f64));
            assert!(log.bytes() <= 20_000, "{} bytes after {n}", log.bytes());
            assert_eq!(log.bytes(), recount(&log));
        }
        let rows: Vec<&WireEntry> = log.entries.iter().collect();
        // Every row stays, with its method and id.
        assert_eq!(rows.len(), 40);
        assert!(rows
            .iter()
            .all(|row| row.method.as_deref() == Some("notifications/message")));
        let kept: Vec<bool> = rows.iter().map(|row| !row.body.is_empty()).collect();
        let first_kept = kept
            .iter()
            .position(|k| *k)
            .expect("the newest bodies are kept");
        // Oldest dropped first: no gap among the kept ones.
        assert!(kept[first_kept..].iter().all(|k| *k), "{kept:?}");
        assert!(first_kept > 20 && first_kept < 39, "{first_kept}");
        for row in &rows[..first_kept] {
            let Some(BodyCut::Dropped { bytes }) = row.body_cut else {
                panic!("no note on a dropped body: {:?}", row.body_cut);
            };
            assert!(bytes > 2_000);
            assert!(BodyCut::Dropped { bytes }
                .to_string()
                .contains("dropped to bound memory"));
        }
        // The export says it too.
        let exported = log.export(&Filter::default());
        assert!(
            exported.contains(r#""why": "dropped""#),
            "{}",
            &exported[..400]
        );
        // Clearing gives every byte back.
        log.clear();
        assert_eq!(log.bytes(), 0);
    }

    #[test]
    fn a_body_over_the_message_limit_keeps_its_start_on_a_character_boundary() {
        let mut log = WireLog::default();
        // A two-byte character across the limit.
        let body = format!("{}é{}", "a".repeat(MAX_BODY_BYTES - 1), "b".repeat(10));
        log.push(entry(Direction::Received, &body, 0.0));
        let row = log.entries.iter().next().unwrap();
        assert_eq!(row.body.len(), MAX_BODY_BYTES - 1);
        assert_eq!(row.body_cut, Some(BodyCut::Truncated { bytes: body.len() }));
        assert!(row
            .body_cut
            .unwrap()
            .to_string()
            .starts_with("Only the first 16.0 MB of this message's 16.0 MB"));
        assert!(log.bytes() <= DEFAULT_BYTE_BUDGET);
        // Dropped later, it still says how long it was.
        let mut small = WireLog::with_budget(10, MAX_BODY_BYTES + 10_000);
        small.push(entry(Direction::Received, &body, 0.0));
        small.push(entry(Direction::Received, &"c".repeat(20_000), 1.0));
        let first = small.entries.iter().next().unwrap();
        assert_eq!(first.body_cut, Some(BodyCut::Dropped { bytes: body.len() }));
    }

    #[test]
    fn answers_that_grow_an_entry_count_against_the_budget() {
        let mut log = WireLog::with_budget(10, 10_000);
        let mut sent = entry(Direction::Sent, r#"{"id":1,"method":"tools/call"}"#, 0.0);
        sent.exchange = Some(1);
        sent.pending = true;
        log.push(sent);
        log.push(entry(Direction::Sent, &"y".repeat(5_000), 1.0));
        log.answer(WireAnswer {
            server: "everything".into(),
            exchange: 1,
            at_ms: 2.0,
            http_status: Some(500),
            response_headers: Vec::new(),
            failure: None,
            response_body: Some("z".repeat(6_000)),
        });
        assert_eq!(log.bytes(), recount(&log));
        assert!(log.bytes() <= 10_000);
        let first = log.entries.iter().next().unwrap();
        assert_eq!(
            first.response_body.as_deref(),
            Some(""),
            "the oldest body went first"
        );
        assert!(matches!(first.body_cut, Some(BodyCut::Dropped { .. })));
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use crate::arbitrary;
        use crate::wire_log::curl::curl_command;
        use crate::wire_log::redact::redact_headers;
        use proptest::prelude::*;

        proptest! {
            /// Whatever arrives, in whatever sizes, and whatever answers complete it: the log
            /// counts exactly what it holds and stays within its budget (its newest entry's
            /// columns aside), within its count, and in order.
            #[test]
            fn the_log_stays_within_its_bounds(
                steps in prop::collection::vec((0usize..6_000, any::<bool>(), 0u64..8, 0usize..3_000), 1..60),
                capacity in 1usize..30,
            ) {
                let mut log = WireLog::with_budget(capacity, 8_000);
                for (n, (size, sent, exchange, answer)) in steps.into_iter().enumerate() {
                    if sent && answer > 0 {
                        log.answer(WireAnswer {
                            server: "everything".into(),
                            exchange,
                            at_ms: n as f64,
                            http_status: Some(400),
                            response_headers: vec![("x".into(), "y".repeat(answer % 50))],
                            failure: None,
                            response_body: Some("e".repeat(answer)),
                        });
                    } else {
                        let mut e = entry(if sent { Direction::Sent } else { Direction::Received }, &"b".repeat(size), n as f64);
                        e.exchange = Some(exchange);
                        log.push(e);
                    }
                    prop_assert_eq!(log.bytes(), recount(&log));
                    prop_assert!(log.len() <= capacity);
                    let newest = log.entries.back().map_or(0, weight);
                    prop_assert!(log.bytes() <= 8_000usize.max(newest));
                    let seqs: Vec<u64> = log.entries(&Filter::default()).map(|e| e.seq).collect();
                    prop_assert!(seqs.windows(2).all(|w| w[0] < w[1]));
                }
            }

            #[test]
            fn any_payload_is_logged_and_quoted_without_panicking(payload in arbitrary::json(), text in ".{0,40}") {
                let mut log = WireLog::new(4);
                for body in [payload.to_string(), text.clone()] {
                    let mut sent = entry(Direction::Sent, &body, 0.0);
                    sent.headers = redact_headers(&[("authorization".into(), text.clone())]);
                    let curl = curl_command(&sent);
                    // Whatever the secret was, the command carries only the placeholder.
                    prop_assert!(curl.contains("-H 'authorization: Bearer '\"$MCP_TOKEN\""));
                    log.push(sent);
                }
                let _ = log.export(&Filter::default());
            }
        }
    }
}
