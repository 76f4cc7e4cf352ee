//! What the log may hold: the most one body keeps, the most all entries hold, and the note a
//! row carries when its body is not whole ([`BodyCut`]).

use serde::Serialize;

/// The most one message's body keeps: the client's default limit on a message, so every
/// message it accepts is logged whole unless the person raised that limit.
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// The most all entries hold together: four messages of the largest size, or a thousand of
/// 64 KB, before the oldest bodies go.
pub const DEFAULT_BYTE_BUDGET: usize = 64 * 1024 * 1024;

/// Why an entry's body is not whole: the row says so, the export carries it, and curl is not
/// offered (it would send something else).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "why")]
pub enum BodyCut {
    /// Longer than [`MAX_BODY_BYTES`]: its first part is kept; `bytes` is its whole length.
    Truncated { bytes: usize },
    /// Dropped when the log went over its byte budget (oldest bodies first); `bytes` is the
    /// length it had.
    Dropped { bytes: usize },
}

impl std::fmt::Display for BodyCut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BodyCut::Truncated { bytes } => write!(
                f,
                "Only the first {} of this message's {} are kept: the wire log keeps at most that of one message.",
                size_text(MAX_BODY_BYTES),
                size_text(*bytes)
            ),
            BodyCut::Dropped { bytes } => write!(
                f,
                "Its body ({}) was dropped to bound memory: the wire log keeps the newest bodies, at most {} in all.",
                size_text(*bytes),
                size_text(DEFAULT_BYTE_BUDGET)
            ),
        }
    }
}

/// A byte count as a person reads it (`812 bytes`, `16.0 MB`).
///
/// ```
/// use mcp_lens_protocol::wire_log::size_text;
/// assert_eq!(size_text(812), "812 bytes");
/// assert_eq!(size_text(16 * 1024 * 1024), "16.0 MB");
/// ```
pub fn size_text(bytes: usize) -> String {
    const KB: usize = 1024;
    match bytes {
        b if b < KB => format!("{b} bytes"),
        b if b < KB * KB => format!("{:.1} KB", b as f64 / KB as f64),
        b => format!("{:.1} MB", b as f64 / (KB * KB) as f64),
    }
}

/// Cuts `text` to at most `max` bytes, on a character boundary, and gives back the memory of
/// the rest. Returns the length it had, if it was cut.
pub(super) fn clip(text: &mut String, max: usize) -> Option<usize> {
    if text.len() <= max {
        return None;
    }
    let whole = text.len();
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.shrink_to_fit();
    Some(whole)
}
