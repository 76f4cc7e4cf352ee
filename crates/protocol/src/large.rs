//! Reading a large message in steps, so that no step is a long task in the page.
//!
//! Parsing a 10 MB message in one go cost the page 50 to 180 ms in one task (nearly all of it
//! reading its long strings: a text block of 10 MB, or a JSON document sent as text, full of
//! escapes). [`StepDecoder`] reads the payload a slice at a time: it copies the structure into
//! a skeleton, and reads every long string value (its escapes undone) on the side, leaving a
//! placeholder in the skeleton. [`StepDecoder::finish`] parses the skeleton (small) with
//! `serde_json` and puts the strings back in place. The caller decides when each step runs
//! (the client lets the page have a turn between steps).
//!
//! The outcome is exactly [`decode_incoming`]'s: whenever the stepped reading cannot be sure of
//! that (a malformed escape or string in a long string, a string in the payload that looks like
//! a placeholder, anything unexpected), it falls back to [`decode_incoming`] on the whole
//! payload, which also gives the reason a malformed payload is refused. Total on any input.

use crate::jsonrpc::{decode_incoming, decode_value, Incoming};
use serde_json::Value;

/// A string value longer than this (as sent, escapes included) is read on the side.
pub const LONG_STRING_BYTES: usize = 64 * 1024;
/// About how many bytes of the payload one [`StepDecoder::step`] reads, for callers that
/// have no better figure: a few milliseconds of work in the page.
pub const STEP_BYTES: usize = 1 << 20;
/// The first step of a caller that times its steps ([`next_step_bytes`]): small, because
/// the first use of the reading code in a page runs it unoptimized (V8's baseline wasm code:
/// a first step of 1 MB took 27 ms of CPU, 70 ms of a loaded machine's wall time, where
/// later ones take 4-6 ms).
pub const FIRST_STEP_BYTES: usize = 128 * 1024;
/// How long a timed step should take, in milliseconds.
pub const STEP_MS: f64 = 6.0;

/// The size of the next step after one of `bytes` took `took_ms`: about [`STEP_MS`] of work
/// at the pace just measured, growing at most fourfold per step, between
/// [`FIRST_STEP_BYTES`] / 2 and 4 × [`STEP_BYTES`].
///
/// ```
/// use mcp_lens_protocol::large::{next_step_bytes, STEP_BYTES};
/// assert_eq!(next_step_bytes(1 << 20, 6.0), 1 << 20);
/// assert_eq!(next_step_bytes(1 << 20, 12.0), 1 << 19);
/// assert_eq!(next_step_bytes(1 << 20, 0.0), 4 * STEP_BYTES);
/// ```
pub fn next_step_bytes(bytes: usize, took_ms: f64) -> usize {
    let most = bytes.saturating_mul(4).min(4 * STEP_BYTES);
    let paced = if took_ms > 0.0 {
        (bytes as f64 * STEP_MS / took_ms).min(most as f64) as usize
    } else {
        most
    };
    paced.clamp(FIRST_STEP_BYTES / 2, 4 * STEP_BYTES)
}

/// What a placeholder string in the skeleton starts with: a NUL, which a server's own text
/// rarely holds (and if it does, the count of placeholders tells, see [`StepDecoder::finish`]).
const MARK: &str = "\u{0}mcp-lens-long-string:";
/// [`MARK`] as the skeleton's JSON writes it.
const MARK_JSON: &str = "\\u0000mcp-lens-long-string:";

/// Reads a payload in steps; see the module documentation.
///
/// ```
/// use mcp_lens_protocol::jsonrpc::{decode_incoming, Incoming};
/// use mcp_lens_protocol::large::StepDecoder;
/// let text = "x".repeat(100_000);
/// let payload = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[{{"type":"text","text":"{text}"}}]}}}}"#);
/// let mut decoder = StepDecoder::new(payload.len());
/// while !decoder.step(&payload, 10_000) {}
/// let messages = decoder.finish(&payload);
/// assert_eq!(messages, decode_incoming(&payload));
/// ```
pub struct StepDecoder {
    /// Where the next step starts reading.
    pos: usize,
    /// The payload with long strings replaced by placeholders.
    skeleton: String,
    /// The long strings, in the order their placeholders were written.
    long: Vec<String>,
    /// Inside a string: where it starts (its opening quote), and, for a long one, its text so
    /// far and how far that was read.
    string: Option<Open>,
    /// Something the stepped reading does not handle: [`Self::finish`] parses the whole payload.
    failed: bool,
    /// Strings longer than this are read on the side.
    long_bytes: usize,
}

struct Open {
    start: usize,
    /// A long string's text so far, as UTF-8 bytes (whole characters: it is read between
    /// characters); a `String` once it ends.
    text: Option<Vec<u8>>,
    read_to: usize,
}

impl StepDecoder {
    /// A decoder for a payload of `len` bytes, reading strings over [`LONG_STRING_BYTES`] on
    /// the side.
    pub fn new(len: usize) -> Self {
        Self::with_long_bytes(len, LONG_STRING_BYTES)
    }

    /// A decoder that reads strings over `long_bytes` on the side (tests use small values).
    pub fn with_long_bytes(len: usize, long_bytes: usize) -> Self {
        Self {
            pos: 0,
            // The skeleton of a message made of long strings is small; of one made of many
            // small values, about as long as the payload.
            skeleton: String::with_capacity(len.min(64 * 1024)),
            long: Vec::new(),
            string: None,
            failed: false,
            long_bytes: long_bytes.max(1),
        }
    }

    /// Reads about `budget` more bytes of `payload` (always the same payload); true once all
    /// of it is read (then call [`Self::finish`]).
    pub fn step(&mut self, payload: &str, budget: usize) -> bool {
        let bytes = payload.as_bytes();
        let mut stop = self.pos.saturating_add(budget.max(1)).min(bytes.len());
        while !payload.is_char_boundary(stop) {
            stop += 1;
        }
        while !self.failed && self.pos < bytes.len() {
            match self.string.take() {
                None => {
                    // Outside strings: copy up to the next string, or to the stop.
                    let from = self.pos;
                    let to = bytes[from..stop.max(from)]
                        .iter()
                        .position(|&b| b == b'"')
                        .map_or(stop.max(from), |at| from + at);
                    self.skeleton.push_str(&payload[from..to]);
                    self.pos = to;
                    if to < bytes.len() && bytes[to] == b'"' {
                        self.string = Some(Open {
                            start: to,
                            text: None,
                            read_to: to + 1,
                        });
                        self.pos = to + 1;
                    }
                }
                Some(mut open) if open.text.is_some() => {
                    // Inside a long string: its text is read as it is scanned.
                    let text = open.text.get_or_insert_with(Vec::new);
                    match unescape(text, payload, self.pos, stop) {
                        Ok(Stop::End(end)) => {
                            self.pos = end + 1;
                            self.close(payload, open, end);
                        }
                        Ok(Stop::Paused(at)) => {
                            self.pos = at;
                            open.read_to = at;
                            self.string = Some(open);
                            break;
                        }
                        Err(()) => self.failed = true,
                    }
                }
                Some(mut open) => {
                    // Inside a string: find its end, an escape at a time; pause only between
                    // characters, never inside an escape nor between the halves of a
                    // surrogate pair.
                    let mut end = None;
                    let mut after_high_surrogate = false;
                    while self.pos < bytes.len() {
                        let at = self.pos;
                        if at >= stop && !after_high_surrogate {
                            if payload.is_char_boundary(at) {
                                break;
                            }
                            self.pos += 1;
                            continue;
                        }
                        // Plain text up to the next quote or backslash, within the budget
                        // (one tight loop: this is most of the work on a long string).
                        let window = if at < stop { stop } else { bytes.len() };
                        let Some(offset) = bytes[at..window]
                            .iter()
                            .position(|&b| b == b'"' || b == b'\\')
                        else {
                            after_high_surrogate = false;
                            self.pos = window;
                            continue;
                        };
                        let at = at + offset;
                        if bytes[at] == b'"' {
                            end = Some(at);
                            break;
                        }
                        let unicode = bytes.get(at + 1) == Some(&b'u');
                        after_high_surrogate =
                            unicode && matches!(hex4(bytes, at + 2), Ok(0xD800..=0xDBFF));
                        self.pos = (at + if unicode { 6 } else { 2 }).min(bytes.len());
                    }
                    if open.text.is_none() && self.pos - open.start > self.long_bytes {
                        // Room for the rest of the payload at once (and the few bytes
                        // `unescape` asks for past its end): its text is at most that long,
                        // and growing a string of megabytes by doubling copies it again
                        // and again (a third of the reading, measured in the page).
                        open.text = Some(Vec::with_capacity(bytes.len() - open.start + 4));
                    }
                    let read_to = end.unwrap_or(self.pos);
                    if let Some(text) = open.text.as_mut() {
                        // Long from now on: its text so far (`read_to` is a character
                        // boundary, a quote or where a pause fell, outside any escape).
                        if unescape(text, payload, open.read_to, read_to).is_err() {
                            self.failed = true;
                        }
                        open.read_to = read_to;
                    }
                    match end {
                        None => {
                            self.string = Some(open);
                            if self.pos >= stop {
                                break;
                            }
                        }
                        Some(end) => {
                            self.pos = end + 1;
                            self.close(payload, open, end);
                        }
                    }
                }
            }
            if self.pos >= stop && self.string.is_none() {
                break;
            }
        }
        self.failed || self.pos >= bytes.len()
    }

    /// A string ended at `end` (its closing quote): a long value goes on the side, anything
    /// else into the skeleton as it was sent.
    fn close(&mut self, payload: &str, open: Open, end: usize) {
        let is_key = || {
            payload[end + 1..]
                .trim_start_matches([' ', '\t', '\n', '\r'])
                .starts_with(':')
        };
        match open.text.map(String::from_utf8) {
            // Never invalid (whole characters of a `str` and escapes as UTF-8), but if it were,
            // the whole parse decides.
            Some(Err(_)) => self.failed = true,
            Some(Ok(mut text)) if !is_key() => {
                text.shrink_to_fit();
                self.skeleton.push('"');
                self.skeleton.push_str(MARK_JSON);
                self.skeleton.push_str(&self.long.len().to_string());
                self.skeleton.push('"');
                self.long.push(text);
            }
            _ => self.skeleton.push_str(&payload[open.start..=end]),
        }
    }

    /// The messages of the payload, exactly as [`decode_incoming`] reads them. Call after
    /// [`Self::step`] said it was done (earlier, it reads the whole payload at once).
    pub fn finish(self, payload: &str) -> Vec<Incoming> {
        if self.failed || self.string.is_some() || self.pos < payload.len() {
            return decode_incoming(payload);
        }
        if self.long.is_empty() {
            return decode_incoming(payload);
        }
        let mut value = match serde_json::from_str::<Value>(&self.skeleton) {
            Ok(value) => value,
            Err(_) => return decode_incoming(payload),
        };
        let mut long: Vec<Option<String>> = self.long.into_iter().map(Some).collect();
        if !put_back(&mut value, &mut long) || long.iter().any(Option::is_some) {
            return decode_incoming(payload);
        }
        decode_value(Ok(value))
    }
}

/// Replaces every placeholder in `value` by its long string; false if a placeholder names no
/// string or one already placed (a string of the server's own that looks like one).
fn put_back(value: &mut Value, long: &mut [Option<String>]) -> bool {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::String(text) => {
                let Some(index) = text.strip_prefix(MARK) else {
                    continue;
                };
                match index
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| long.get_mut(i))
                    .and_then(Option::take)
                {
                    Some(original) => *text = original,
                    None => return false,
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => stack.extend(map.values_mut()),
            _ => {}
        }
    }
    true
}

/// Where [`unescape`] stopped.
enum Stop {
    /// At the string's closing quote.
    End(usize),
    /// Between two characters (never inside an escape nor a surrogate pair), past its stop.
    Paused(usize),
}

/// Appends the text of a JSON string's body from `from` (between two characters) to `out`
/// (UTF-8), escapes undone, until its closing quote or until past `stop` (a character boundary).
/// `Err` for what JSON does not allow in a string: a bad escape, a lone surrogate, a control
/// character.
fn unescape(out: &mut Vec<u8>, payload: &str, from: usize, stop: usize) -> Result<Stop, ()> {
    let bytes = payload.as_bytes();
    // Written in place, a byte at a time, into room made once: the text is at most as long as
    // what it is read from (an escape is never shorter than what it stands for), and an escape
    // begun before the stop may end past it (by at most a surrogate pair, 12 bytes for 4).
    // A JSON document sent as text has an escape every few bytes, so copying its runs of
    // plain text one call at a time cost more than the copying itself (measured in the page).
    let mut written = out.len();
    out.resize(written + stop.saturating_sub(from) + 4, 0);
    let mut at = from;
    let outcome = loop {
        if at >= stop {
            break Ok(Stop::Paused(at));
        }
        let byte = bytes[at];
        if byte >= 0x20 && byte != b'"' && byte != b'\\' {
            out[written] = byte;
            written += 1;
            at += 1;
            continue;
        }
        if byte == b'"' {
            break Ok(Stop::End(at));
        }
        if byte != b'\\' {
            break Err(());
        }
        match escape(bytes, at) {
            Ok((c, len)) => {
                at += len;
                if c.is_ascii() {
                    // `\"` and its like: one byte (`encode_utf8` is a call per escape).
                    out[written] = c as u8;
                    written += 1;
                } else {
                    written += c.encode_utf8(&mut out[written..written + 4]).len();
                }
            }
            Err(()) => break Err(()),
        }
    };
    out.truncate(written);
    outcome
}

/// The character of the escape at `at` (a backslash) and the bytes it takes.
fn escape(bytes: &[u8], at: usize) -> Result<(char, usize), ()> {
    let c = match *bytes.get(at + 1).ok_or(())? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let first = hex4(bytes, at + 2)?;
            return match first {
                0xD800..=0xDBFF => {
                    if bytes.get(at + 6) != Some(&b'\\') || bytes.get(at + 7) != Some(&b'u') {
                        return Err(());
                    }
                    let second = hex4(bytes, at + 8)?;
                    if !(0xDC00..=0xDFFF).contains(&second) {
                        return Err(());
                    }
                    let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                    Ok((char::from_u32(code).ok_or(())?, 12))
                }
                0xDC00..=0xDFFF => Err(()),
                code => Ok((char::from_u32(code).ok_or(())?, 6)),
            };
        }
        _ => return Err(()),
    };
    Ok((c, 2))
}

/// The four hex digits at `at`, as a number.
fn hex4(bytes: &[u8], at: usize) -> Result<u32, ()> {
    let digits = bytes.get(at..at + 4).ok_or(())?;
    digits.iter().try_fold(0u32, |n, &d| {
        let v = (d as char).to_digit(16).ok_or(())?;
        Ok(n * 16 + v)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn timed_steps_aim_at_a_few_milliseconds_within_bounds() {
        // Slow (unoptimized code, a loaded machine): smaller, never below half the first.
        assert_eq!(
            next_step_bytes(FIRST_STEP_BYTES, 24.0),
            FIRST_STEP_BYTES / 2
        );
        assert_eq!(next_step_bytes(1 << 20, 60.0), (1 << 20) / 10);
        assert_eq!(next_step_bytes(1 << 20, 600.0), FIRST_STEP_BYTES / 2);
        // Fast: larger, at most fourfold per step and never past 4 MB.
        assert_eq!(next_step_bytes(FIRST_STEP_BYTES, 0.5), 4 * FIRST_STEP_BYTES);
        assert_eq!(next_step_bytes(FIRST_STEP_BYTES, 3.0), 2 * FIRST_STEP_BYTES);
        assert_eq!(next_step_bytes(4 * STEP_BYTES, 0.1), 4 * STEP_BYTES);
        assert_eq!(next_step_bytes(4 * STEP_BYTES, f64::NAN), 4 * STEP_BYTES);
    }

    /// Decodes `payload` in steps of `budget` bytes, reading strings over `long` on the side.
    fn stepped(payload: &str, long: usize, budget: usize) -> Vec<Incoming> {
        let mut decoder = StepDecoder::with_long_bytes(payload.len(), long);
        let mut steps = 0;
        while !decoder.step(payload, budget) {
            steps += 1;
            assert!(steps <= payload.len() + 1, "no progress");
        }
        decoder.finish(payload)
    }

    fn same(payload: &str) {
        let whole = decode_incoming(payload);
        for long in [1, 3, 16, 1000] {
            for budget in [1, 2, 7, 64, usize::MAX] {
                assert_eq!(
                    stepped(payload, long, budget),
                    whole,
                    "{payload:?} {long} {budget}"
                );
            }
        }
    }

    #[test]
    fn long_strings_come_back_in_place_with_their_escapes_undone() {
        let text = "line 1\nline \"2\"\t\\ é 😀 \u{1}".repeat(50);
        let message = json!({"jsonrpc": "2.0", "id": 7, "result": {
            "content": [{"type": "text", "text": text}, {"type": "text", "text": "short"}],
            "structuredContent": {"long key ".repeat(20): text.clone(), "list": [text.clone(), 1, null]}
        }});
        let payload = serde_json::to_string(&message).unwrap();
        same(&payload);
        let pretty = serde_json::to_string_pretty(&message).unwrap();
        same(&pretty);
        // Escapes written differently read the same.
        same(r#"{"jsonrpc":"2.0","id":1,"result":{"t":"\u00e9\ud83d\ude00\/\b\f\r","k" : "v"}}"#);
        assert!(matches!(
            &stepped(&payload, 100, 1000)[..],
            [Incoming::Result { result, .. }] if result["content"][0]["text"] == text
        ));
    }

    #[test]
    fn malformed_payloads_are_refused_as_a_whole_parse_refuses_them() {
        for payload in [
            r#"{"jsonrpc":"2.0","id":1,"result":{"t":"abc\q"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"t":"\ud800 lone"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"t":"\udc00 lone"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"t":"\ud800\u0041"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"t":"\u12"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"t":"\u12g4 more"}}"#,
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"t\":\"raw\ncontrol\"}}",
            r#"{"jsonrpc":"2.0","id":1,"result":{"t":"never ends"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"t":"ends in a backslash\"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"t":"fine"}} trailing"#,
            r#""just a long string""#,
            r#"["a long string in a batch", {"jsonrpc":"2.0","method":"x"}]"#,
            "",
            "\"",
            "\\",
        ] {
            same(payload);
        }
    }

    #[test]
    fn a_string_of_the_server_that_looks_like_a_placeholder_changes_nothing() {
        let fake = format!("{MARK}0");
        let message =
            json!({"jsonrpc": "2.0", "id": 1, "result": {"a": "x".repeat(40), "b": fake}});
        same(&serde_json::to_string(&message).unwrap());
        let message = json!({"jsonrpc": "2.0", "id": 1, "result": {"b": format!("{MARK}9")}});
        same(&serde_json::to_string(&message).unwrap());
        let message = json!({"jsonrpc": "2.0", "id": 1, "result": {"b": format!("{MARK}x")}});
        same(&serde_json::to_string(&message).unwrap());
    }

    #[test]
    fn steps_read_about_their_budget_whatever_the_string_holds() {
        // Plain text with escapes, escapes only, and characters of several bytes.
        for text in ["ab\\\"c", "\"\n\t", "é😀\n"] {
            let payload = serde_json::to_string(&json!({"jsonrpc": "2.0", "id": 1,
                "result": {"text": text.repeat(10_000)}}))
            .unwrap();
            let mut decoder = StepDecoder::with_long_bytes(payload.len(), 100);
            let mut steps = 0;
            while !decoder.step(&payload, 1000) {
                steps += 1;
            }
            let expected = payload.len() / 1000;
            assert!(
                (expected - 1..=expected + 1).contains(&steps),
                "{text}: {steps}"
            );
            assert_eq!(decoder.finish(&payload), decode_incoming(&payload));
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// Any JSON, written compact or pretty, with any budget: what a whole parse reads.
        #[test]
        fn the_same_as_a_whole_parse(value in crate::arbitrary::json(), long in 0usize..40, budget in 1usize..50, pretty: bool) {
            let payload = if pretty { serde_json::to_string_pretty(&value) } else { serde_json::to_string(&value) }.unwrap();
            proptest::prop_assert_eq!(stepped(&payload, long, budget), decode_incoming(&payload));
        }

        /// Any text at all (cut anywhere): the same outcome as a whole parse, never a panic.
        #[test]
        fn any_text_as_a_whole_parse(text in "(\\PC|[\"\\\\{}\\[\\]:,u0-9a-fA-F])*", long in 0usize..8, budget in 1usize..9) {
            proptest::prop_assert_eq!(stepped(&text, long, budget), decode_incoming(&text));
        }
    }
}
