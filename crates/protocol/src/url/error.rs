//! Why a text is not an http(s) URL this client will use, as the sentence the page shows.

use std::fmt;

/// Why a text is not an http(s) URL this client will use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlError {
    /// Nothing there (or only spaces and control characters).
    Empty,
    /// No scheme and no base URL to resolve it against.
    Relative,
    /// A scheme other than http or https.
    NotHttp { scheme: String },
    /// No host where one must be (`http://`, `http://user@/`).
    MissingHost,
    /// A host the standard refuses (a forbidden character, a bad IP address, bad escapes).
    InvalidHost { host: String },
    /// A host that needs IDNA processing, which only the browser does.
    InternationalHost { host: String },
    /// A host with characters the standard allows but browsers write differently (Chromium
    /// escapes `*` in a host, the standard does not): refused rather than guessed at.
    UnusualHost { host: String },
    /// A reference that implementations resolve differently.
    Ambiguous { what: &'static str },
    /// A port that is not a number below 65536.
    InvalidPort,
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlError::Empty => f.write_str("the address is empty"),
            UrlError::Relative => f.write_str(
                "the address has no http:// or https:// at its start, so it is not a full URL",
            ),
            UrlError::NotHttp { scheme } => write!(
                f,
                "the address's scheme is \"{}\", not http or https",
                shorten(scheme, 40)
            ),
            UrlError::MissingHost => f.write_str("the address has no host"),
            UrlError::InvalidHost { host } => write!(
                f,
                "the host \"{}\" is not a valid host name or IP address",
                shorten(host, 80)
            ),
            UrlError::InternationalHost { host } => write!(
                f,
                "the host \"{}\" is an internationalized name; write it in its ASCII form (xn--…)",
                shorten(host, 80)
            ),
            UrlError::UnusualHost { host } => write!(
                f,
                "the host \"{}\" has characters browsers read differently; a host name is letters, digits, dots, hyphens and underscores",
                shorten(host, 80)
            ),
            UrlError::Ambiguous { what } => {
                write!(f, "the address {what}, which programs read differently")
            }
            UrlError::InvalidPort => {
                f.write_str("the address's port is not a number from 0 to 65535")
            }
        }
    }
}

/// At most `max` characters of `text` for a sentence, controls shown as U+FFFD. (Here rather
/// than `error::excerpt` so that this module depends on no other of the crate.)
fn shorten(text: &str, max: usize) -> String {
    let mut out: String = text
        .chars()
        .take(max)
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}
