//! One declared source, checked: parsed as a CSP host-source, rewritten canonically, or
//! refused with the reason; which list it came from, and the limits per list.

use std::fmt;

use crate::error::{excerpt, reveal_controls};

/// Most sources kept per list; the rest are dropped (and reported once).
pub const MAX_SOURCES: usize = 64;

/// Longest source accepted.
pub const MAX_SOURCE_CHARS: usize = 512;

/// Which declared list a source came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CspList {
    Connect,
    Resource,
    Frame,
    BaseUri,
}

impl CspList {
    /// The member of `_meta.ui.csp`.
    pub fn key(self) -> &'static str {
        match self {
            CspList::Connect => "connectDomains",
            CspList::Resource => "resourceDomains",
            CspList::Frame => "frameDomains",
            CspList::BaseUri => "baseUriDomains",
        }
    }

    pub(super) const ALL: [CspList; 4] = [
        CspList::Connect,
        CspList::Resource,
        CspList::Frame,
        CspList::BaseUri,
    ];
}

/// Why a declared source was dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceRefusal {
    /// `_meta.ui.csp` is not an object, or a list is not an array.
    NotAList,
    NotAString,
    TooLong,
    /// Whitespace, control or non-ASCII characters (a punycode `xn--` host is fine).
    Characters,
    /// A character that means something in a policy or an HTML attribute (`;` `,` quotes…).
    Forbidden(char),
    /// Not http(s) (or ws(s) for connections).
    Scheme(String),
    /// `data:`, `blob:`, `https:`…: a whole scheme, not an origin.
    SchemeOnly,
    UserInfo,
    /// A query or fragment, which a source cannot have.
    QueryOrFragment,
    Host,
    /// `*` anywhere but as the leftmost label over two or more labels.
    Wildcard,
    /// A single-label host other than `localhost` (this also catches `self`, `none`…).
    SingleLabel,
    Port,
    Path,
    /// More than [`MAX_SOURCES`] in one list: how many were dropped.
    TooMany(usize),
}

impl fmt::Display for SourceRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceRefusal::NotAList => write!(f, "not an array of strings"),
            SourceRefusal::NotAString => write!(f, "not a string"),
            SourceRefusal::TooLong => write!(f, "longer than {MAX_SOURCE_CHARS} characters"),
            SourceRefusal::Characters => write!(
                f,
                "contains whitespace, control or non-ASCII characters (write hosts in punycode)"
            ),
            SourceRefusal::Forbidden(c) => {
                write!(f, "contains '{c}', which could change the policy")
            }
            SourceRefusal::Scheme(s) => write!(
                f,
                "the scheme \"{s}\" is not allowed (http and https; ws and wss for connections)"
            ),
            SourceRefusal::SchemeOnly => {
                write!(f, "a whole scheme, not an origin (data:, blob:, https: …)")
            }
            SourceRefusal::UserInfo => write!(f, "contains user information (@)"),
            SourceRefusal::QueryOrFragment => write!(f, "has a query or fragment"),
            SourceRefusal::Host => write!(f, "the host is not a valid host name or address"),
            SourceRefusal::Wildcard => write!(
                f,
                "a wildcard is only allowed as the leftmost label over two or more labels (https://*.example.com)"
            ),
            SourceRefusal::SingleLabel => write!(
                f,
                "a single-label host (only localhost is; keywords must not be smuggled in)"
            ),
            SourceRefusal::Port => write!(f, "the port is not a number from 1 to 65535"),
            SourceRefusal::Path => write!(f, "the path has characters a source cannot have"),
            SourceRefusal::TooMany(n) => {
                write!(f, "more than {MAX_SOURCES} sources; {n} dropped")
            }
        }
    }
}

pub(super) fn shown(text: &str) -> String {
    excerpt(&reveal_controls(text), 120)
}

/// Validates one declared source for `list` and returns its canonical form.
///
/// ```
/// use mcp_lens_protocol::apps::csp::{check_source, CspList, SourceRefusal};
/// assert_eq!(check_source("https://*.Cloudflare.com", CspList::Resource).unwrap(),
///            "https://*.cloudflare.com");
/// assert_eq!(check_source("'unsafe-eval'", CspList::Resource), Err(SourceRefusal::Forbidden('\'')));
/// assert_eq!(check_source("*", CspList::Connect), Err(SourceRefusal::Wildcard));
/// ```
pub fn check_source(text: &str, list: CspList) -> Result<String, SourceRefusal> {
    if text.chars().count() > MAX_SOURCE_CHARS {
        return Err(SourceRefusal::TooLong);
    }
    if let Some(c) = text
        .chars()
        .find(|c| matches!(c, ';' | ',' | '\'' | '"' | '\\' | '<' | '>' | '&' | '`'))
    {
        return Err(SourceRefusal::Forbidden(c));
    }
    if text.is_empty() || text.chars().any(|c| !c.is_ascii_graphic()) {
        return Err(SourceRefusal::Characters);
    }
    let (scheme, rest) = match text.split_once("://") {
        Some((scheme, rest)) => {
            let scheme = scheme.to_ascii_lowercase();
            let allowed = match list {
                CspList::Connect => matches!(scheme.as_str(), "http" | "https" | "ws" | "wss"),
                _ => matches!(scheme.as_str(), "http" | "https"),
            };
            if !allowed {
                return Err(SourceRefusal::Scheme(excerpt(&scheme, 20)));
            }
            (scheme, rest)
        }
        None => {
            // `data:`, `blob:`, `https:`, `javascript:x`: a scheme, not a host and port.
            let authority = text.split('/').next().unwrap_or("");
            if let Some((_, port)) = authority.rsplit_once(':') {
                if !authority.starts_with('[')
                    && (port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()))
                {
                    return Err(SourceRefusal::SchemeOnly);
                }
            }
            ("https".to_owned(), text)
        }
    };
    if rest.contains('?') || rest.contains('#') {
        return Err(SourceRefusal::QueryOrFragment);
    }
    let (authority, path) = match rest.find('/') {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    if authority.contains('@') {
        return Err(SourceRefusal::UserInfo);
    }
    let (host, port) = split_host_port(authority)?;
    let host = check_host(host)?;
    if !path
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-._~/%!$()+=:@".contains(&b))
    {
        return Err(SourceRefusal::Path);
    }
    if !percent_escapes_ok(path) {
        return Err(SourceRefusal::Path);
    }
    let mut out = format!("{scheme}://{host}");
    if let Some(port) = port {
        out.push(':');
        out.push_str(&port.to_string());
    }
    out.push_str(path);
    Ok(out)
}

fn split_host_port(authority: &str) -> Result<(&str, Option<u16>), SourceRefusal> {
    let (host, port) = if authority.starts_with('[') {
        match authority.find(']') {
            Some(end) => {
                let (host, after) = authority.split_at(end + 1);
                match after {
                    "" => (host, None),
                    _ => match after.strip_prefix(':') {
                        Some(port) => (host, Some(port)),
                        None => return Err(SourceRefusal::Host),
                    },
                }
            }
            None => return Err(SourceRefusal::Host),
        }
    } else {
        match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    let port = match port {
        None => None,
        Some(digits) => {
            if digits.is_empty() || digits.len() > 5 || !digits.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(SourceRefusal::Port);
            }
            match digits.parse::<u16>() {
                Ok(0) | Err(_) => return Err(SourceRefusal::Port),
                Ok(port) => Some(port),
            }
        }
    };
    Ok((host, port))
}

fn check_host(host: &str) -> Result<String, SourceRefusal> {
    if let Some(inner) = host.strip_prefix('[') {
        let inner = inner.strip_suffix(']').ok_or(SourceRefusal::Host)?;
        let ok = !inner.is_empty()
            && inner.len() <= 45
            && inner.contains(':')
            && inner
                .bytes()
                .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.');
        return if ok {
            Ok(format!("[{}]", inner.to_ascii_lowercase()))
        } else {
            Err(SourceRefusal::Host)
        };
    }
    let (wildcard, name) = match host.strip_prefix("*.") {
        Some(name) => (true, name),
        None => (false, host),
    };
    if name.contains('*') {
        return Err(SourceRefusal::Wildcard);
    }
    if name.is_empty() || name.len() > 253 {
        return Err(SourceRefusal::Host);
    }
    let labels: Vec<&str> = name.split('.').collect();
    for label in &labels {
        let ok = !label.is_empty()
            && label.len() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-');
        if !ok {
            return Err(SourceRefusal::Host);
        }
    }
    let name = name.to_ascii_lowercase();
    if labels.len() < 2 {
        if wildcard {
            return Err(SourceRefusal::Wildcard);
        }
        if name != "localhost" {
            return Err(SourceRefusal::SingleLabel);
        }
    }
    Ok(if wildcard { format!("*.{name}") } else { name })
}

fn percent_escapes_ok(path: &str) -> bool {
    let bytes = path.as_bytes();
    bytes.iter().enumerate().all(|(i, &b)| {
        b != b'%'
            || (bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
    })
}
