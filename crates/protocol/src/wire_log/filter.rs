//! Which entries to show: by server, direction, traffic and method.

use super::entry::{Direction, Via, WireEntry};

/// Which entries to show.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    pub server: Option<String>,
    pub direction: Option<Direction>,
    /// A substring of the method column ([`WireEntry::method_text`]), case-insensitive.
    pub method: String,
    /// `Some(true)`: only host <-> MCP App messages ([`Via::App`]); `Some(false)`: none of them.
    pub app: Option<bool>,
    /// `Some(true)`: only the chat's model requests ([`Via::Model`]); `Some(false)`: none of them.
    pub model: Option<bool>,
}

impl Filter {
    pub fn matches(&self, entry: &WireEntry) -> bool {
        self.server.as_ref().is_none_or(|s| s == &entry.server)
            && self.direction.is_none_or(|d| d == entry.direction)
            && self.app.is_none_or(|app| app == (entry.via == Via::App))
            && self
                .model
                .is_none_or(|model| model == (entry.via == Via::Model))
            && (self.method.is_empty()
                || entry.method_text().is_some_and(|m| {
                    m.to_ascii_lowercase()
                        .contains(&self.method.to_ascii_lowercase())
                }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire_log::entry::sample as entry;
    use crate::wire_log::log::WireLog;

    #[test]
    fn filters_by_server_direction_and_method() {
        let mut log = WireLog::default();
        log.push(entry(
            Direction::Sent,
            r#"{"id":1,"method":"tools/call"}"#,
            0.0,
        ));
        log.push(entry(Direction::Received, r#"{"id":1,"result":{}}"#, 1.0));
        let mut other = entry(Direction::Sent, r#"{"id":1,"method":"tools/list"}"#, 2.0);
        other.server = "python".into();
        log.push(other);
        let count = |filter: Filter| log.entries(&filter).count();
        assert_eq!(count(Filter::default()), 3);
        assert_eq!(
            count(Filter {
                direction: Some(Direction::Sent),
                ..Filter::default()
            }),
            2
        );
        assert_eq!(
            count(Filter {
                method: "CALL".into(),
                ..Filter::default()
            }),
            1
        );
        assert_eq!(
            count(Filter {
                server: Some("python".into()),
                ..Filter::default()
            }),
            1
        );
    }
}
