//! The log as JSON: the entries a filter shows, each with the keys and strings the export
//! always had (`via` as `POST` or `app`, `method` as the column shows it).

use super::entry::WireEntry;
use serde::ser::{Serialize, SerializeStruct, Serializer};

impl Serialize for WireEntry {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut entry = serializer.serialize_struct("WireEntry", 18)?;
        entry.serialize_field("seq", &self.seq)?;
        entry.serialize_field("server", &self.server)?;
        entry.serialize_field("at_ms", &self.at_ms)?;
        entry.serialize_field("direction", &self.direction)?;
        entry.serialize_field("via", &self.via)?;
        entry.serialize_field("url", &self.url)?;
        entry.serialize_field("method", &self.method_text())?;
        entry.serialize_field("id", &self.id)?;
        entry.serialize_field("duration_ms", &self.duration_ms)?;
        entry.serialize_field("http_status", &self.http_status)?;
        entry.serialize_field("headers", &self.headers)?;
        entry.serialize_field("body", &self.body)?;
        entry.serialize_field("exchange", &self.exchange)?;
        entry.serialize_field("pending", &self.pending)?;
        entry.serialize_field("failure", &self.failure)?;
        entry.serialize_field("response_headers", &self.response_headers)?;
        entry.serialize_field("response_body", &self.response_body)?;
        entry.serialize_field("body_cut", &self.body_cut)?;
        entry.end()
    }
}

/// `entries` as pretty JSON (already redacted).
pub(super) fn export<'a>(entries: impl Iterator<Item = &'a WireEntry>) -> String {
    let shown: Vec<&WireEntry> = entries.collect();
    serde_json::to_string_pretty(&shown).unwrap_or_else(|_| "[]".to_owned())
}

#[cfg(test)]
mod tests {
    use crate::wire_log::entry::{sample as entry, Direction};
    use crate::wire_log::filter::Filter;
    use crate::wire_log::log::WireLog;
    use crate::wire_log::redact::redact_headers;
    use serde_json::Value;

    #[test]
    fn export_is_json_of_the_shown_entries() {
        let mut log = WireLog::default();
        let mut sent = entry(Direction::Sent, r#"{"id":1,"method":"ping"}"#, 0.0);
        sent.headers = redact_headers(&[("authorization".into(), "Bearer s3cret".into())]);
        log.push(sent);
        let exported = log.export(&Filter::default());
        let parsed: Value = serde_json::from_str(&exported).unwrap();
        assert_eq!(parsed[0]["method"], "ping");
        assert_eq!(parsed[0]["direction"], "sent");
        assert!(!exported.contains("s3cret"));
    }

    /// The export of every kind of entry, byte for byte as the log exported it when `via`
    /// and the method column were strings (`testdata/export.json`, written by that code).
    #[test]
    fn the_export_keeps_its_keys_and_strings() {
        use crate::wire_log::entry::{Via, WireAnswer, WireEntry};
        use crate::wire_log::summary::summarize;
        const URL: &str = "http://127.0.0.1:3001/mcp";
        let server = || "everything".to_owned();
        let received = |via, body: &str, at| {
            WireEntry::received(server(), at, via, body.to_owned(), summarize(body))
        };
        let mut log = WireLog::with_budget(100, 100_000);
        let headers = [
            ("authorization".to_owned(), "Bearer x".to_owned()),
            ("content-type".to_owned(), "application/json".to_owned()),
        ];
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#;
        log.push(WireEntry::sent(
            server(),
            1.0,
            Via::Post,
            URL,
            &headers,
            Some(call),
            0,
        ));
        log.answer(WireAnswer {
            server: server(),
            exchange: 0,
            at_ms: 3.5,
            http_status: Some(200),
            response_headers: vec![("content-type".into(), "text/event-stream".into())],
            failure: None,
            response_body: None,
        });
        log.push(received(
            Via::Sse,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            4.0,
        ));
        let batch = r#"[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":2,"error":{}}]"#;
        log.push(WireEntry {
            url: URL.into(),
            ..received(Via::Json, batch, 5.0)
        });
        log.push(WireEntry::app(
            server(),
            6.0,
            Direction::Received,
            "ui://a".into(),
            "{\"x\":1}",
            Some("refused".into()),
        ));
        log.push(WireEntry {
            http_status: Some(404),
            response_body: Some("nope".into()),
            ..WireEntry::auth(server(), 7.0, URL.into(), "GET metadata".into())
        });
        log.push(WireEntry {
            pending: false,
            exchange: None,
            ..WireEntry::sent(server(), 8.0, Via::Delete, URL, &[], None, 1)
        });
        let mut exported = log.export(&Filter::default());
        let mut small = WireLog::with_budget(10, 1_400);
        small.push(WireEntry {
            url: URL.into(),
            ..received(Via::Json, &"z".repeat(1000), 9.0)
        });
        let message = r#"{"jsonrpc":"2.0","method":"notifications/message"}"#;
        small.push(WireEntry {
            url: URL.into(),
            ..received(Via::Sse, message, 10.0)
        });
        exported.push_str(&small.export(&Filter::default()));
        assert_eq!(exported, include_str!("testdata/export.json"));
    }
}
