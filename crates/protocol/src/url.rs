//! http(s) URLs read exactly as a browser reads them: the WHATWG URL Standard's basic URL
//! parser for the two schemes the client speaks, and nothing looser.
//!
//! Why one parser: a URL the page reads one way and `fetch` another lets a crafted address
//! send the person's token to a host they never saw (`https://evil.example\@good.example/`
//! is `evil.example` to a browser, since a backslash ends the authority of an http URL;
//! a parser that ends it only at `/?#` and cuts userinfo at the last `@` reads
//! `good.example`). Every server, endpoint and metadata URL the client compares, stores or
//! sends a secret to is read here, and what is sent is the [`WebUrl::href`] this parser
//! wrote, which any WHATWG parser reads back unchanged.
//!
//! Checked against two other implementations on one corpus (backslashes, tabs, CR/LF,
//! percent-encoded delimiters, userinfo with several `@`, IPv4 in every base, IPv6, IDNA,
//! default ports, `..` segments): natively against the `url` crate, and in the page against
//! Chromium's own `URL` (`crates/client/tests/client_in_browser.rs`). Whatever this parser
//! accepts, they read the same way.
//!
//! What it refuses that a browser accepts: any scheme but http and https; hosts that need
//! IDNA processing (non-ASCII, or an `xn--` label), whose reading depends on Unicode tables
//! this crate does not carry ([`UrlError::InternationalHost`] asks for the host's ASCII
//! form); and hosts with characters beyond letters, digits, `-`, `_` and `.`, which browsers
//! write differently ([`UrlError::UnusualHost`]). Where browsers differ among themselves on
//! percent-encoding a character in the path, query or fragment (Chromium escapes `^` and `|`
//! in a path, the `url` crate neither), this parser follows the `url` crate: the server
//! receives the same text either way once it undoes the escapes, and the origin, where a
//! secret may go, never depends on it.
//!
//! ```
//! use mcp_lens_protocol::url::WebUrl;
//! let url = WebUrl::parse("https://evil.example\\@good.example/mcp").unwrap();
//! assert_eq!(url.origin(), "https://evil.example");
//! assert_eq!(url.href(), "https://evil.example/@good.example/mcp");
//! let url = WebUrl::parse(" HTTP://User:Pw@Example.COM:80/a/./b/../c?q=1#f").unwrap();
//! assert_eq!(url.href(), "http://User:Pw@example.com/a/c?q=1#f");
//! assert!(url.has_credentials());
//! assert_eq!(url.without_credentials().href(), "http://example.com/a/c?q=1#f");
//! ```

mod error;
mod host;

pub use error::UrlError;
pub use host::percent_decode;
use host::{parse_host, parse_ipv4, parse_ipv6};
use std::fmt;

/// A parsed http(s) URL. Its parts are slices of [`WebUrl::href`], the standard's
/// serialization, so the text sent and the parts checked can never disagree.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct WebUrl {
    href: String,
    /// `http` or `https`: `href[..scheme_end]`.
    scheme_end: usize,
    /// `href[scheme_end + 3..username_end]`.
    username_end: usize,
    /// `href[host_start..host_end]`; after `@` when there is userinfo.
    host_start: usize,
    host_end: usize,
    /// Absent when it is the scheme's default.
    port: Option<u16>,
    path_start: usize,
    /// Index of `?`, if any.
    query_start: Option<usize>,
    /// Index of `#`, if any.
    fragment_start: Option<usize>,
}

/// Shows the URL without its credentials, so a `{:?}` never leaks them.
impl fmt::Debug for WebUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WebUrl({:?})", self.without_credentials().href)
    }
}

/// The host as the standard serializes it: a domain (lowercase ASCII), dotted IPv4, or a
/// bracketed IPv6 address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Host<'a> {
    Domain(&'a str),
    Ipv4([u8; 4]),
    Ipv6([u16; 8]),
}

impl WebUrl {
    /// Reads an absolute http(s) URL.
    pub fn parse(input: &str) -> Result<WebUrl, UrlError> {
        parse(input, None)
    }

    /// Resolves a reference (absolute, scheme-relative, path-absolute, relative, query or
    /// fragment only) against this URL, as a browser resolves a link on this page.
    pub fn join(&self, reference: &str) -> Result<WebUrl, UrlError> {
        parse(reference, Some(self))
    }

    /// The URL as a browser serializes it (its `href`).
    pub fn href(&self) -> &str {
        &self.href
    }

    pub fn into_href(self) -> String {
        self.href
    }

    /// `http` or `https`.
    pub fn scheme(&self) -> &str {
        &self.href[..self.scheme_end]
    }

    pub fn is_https(&self) -> bool {
        self.scheme() == "https"
    }

    /// `scheme://host[:port]`, the origin requests are sent to.
    pub fn origin(&self) -> String {
        let mut origin = format!("{}://{}", self.scheme(), self.host_str());
        if let Some(port) = self.port {
            origin.push_str(&format!(":{port}"));
        }
        origin
    }

    /// The host as serialized (`example.com`, `127.0.0.1`, `[::1]`).
    pub fn host_str(&self) -> &str {
        &self.href[self.host_start..self.host_end]
    }

    pub fn host(&self) -> Host<'_> {
        let text = self.host_str();
        if let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            if let Some(pieces) = parse_ipv6(inner) {
                return Host::Ipv6(pieces);
            }
        }
        match parse_ipv4(text) {
            Ok(Some(address)) => Host::Ipv4(address.to_be_bytes()),
            _ => Host::Domain(text),
        }
    }

    /// The port when it is not the scheme's default.
    pub fn port(&self) -> Option<u16> {
        self.port
    }

    /// The port requests go to (the default one included).
    pub fn port_or_default(&self) -> u16 {
        self.port.unwrap_or(if self.is_https() { 443 } else { 80 })
    }

    /// The path, starting with `/`.
    pub fn path(&self) -> &str {
        let end = self
            .query_start
            .or(self.fragment_start)
            .unwrap_or(self.href.len());
        &self.href[self.path_start..end]
    }

    /// The query without its `?`.
    pub fn query(&self) -> Option<&str> {
        let start = self.query_start? + 1;
        let end = self.fragment_start.unwrap_or(self.href.len());
        Some(&self.href[start..end])
    }

    /// The fragment without its `#`.
    pub fn fragment(&self) -> Option<&str> {
        Some(&self.href[self.fragment_start? + 1..])
    }

    /// The URL up to its fragment (what a request line carries).
    pub fn without_fragment(&self) -> &str {
        &self.href[..self.fragment_start.unwrap_or(self.href.len())]
    }

    pub fn username(&self) -> &str {
        &self.href[self.scheme_end + 3..self.username_end]
    }

    pub fn password(&self) -> Option<&str> {
        let userinfo_end = self.host_start.checked_sub(1)?;
        (self.username_end < userinfo_end && self.href.as_bytes()[self.username_end] == b':')
            .then(|| &self.href[self.username_end + 1..userinfo_end])
    }

    /// Whether the URL carries a user name or password before its host.
    pub fn has_credentials(&self) -> bool {
        self.host_start > self.scheme_end + 3
    }

    /// The same URL with no user name or password.
    pub fn without_credentials(&self) -> WebUrl {
        if !self.has_credentials() {
            return self.clone();
        }
        let cut = self.host_start - (self.scheme_end + 3);
        let mut href = String::with_capacity(self.href.len() - cut);
        href.push_str(&self.href[..self.scheme_end + 3]);
        href.push_str(&self.href[self.host_start..]);
        WebUrl {
            href,
            scheme_end: self.scheme_end,
            username_end: self.scheme_end + 3,
            host_start: self.host_start - cut,
            host_end: self.host_end - cut,
            port: self.port,
            path_start: self.path_start - cut,
            query_start: self.query_start.map(|i| i - cut),
            fragment_start: self.fragment_start.map(|i| i - cut),
        }
    }

    /// Whether requests to this host stay on this machine: the literal loopback addresses
    /// (127.0.0.0/8, `::1`, an IPv4-mapped 127 address) and `localhost`. A name that merely
    /// starts with `127.` (`127.evil.example`) is a domain any DNS server may point anywhere.
    pub fn is_loopback(&self) -> bool {
        match self.host() {
            Host::Ipv4([a, ..]) => a == 127,
            Host::Ipv6(pieces) => {
                pieces == [0, 0, 0, 0, 0, 0, 0, 1]
                    || (pieces[..6] == [0, 0, 0, 0, 0, 0xffff] && pieces[6] >> 8 == 127)
            }
            Host::Domain(name) => name == "localhost" || name == "localhost.",
        }
    }

    /// Whether this host is on this machine or a private network, where a page from the
    /// internet should not reach without the person's say: loopback, RFC 1918 and
    /// link-local IPv4, shared address space, `0.0.0.0/8`, unique-local and link-local IPv6
    /// (and IPv4-mapped forms of all of these), `*.localhost`, `*.local`, `*.internal`,
    /// `*.lan`, `*.home.arpa`, and single-label names (`http://intranet/`), which only a
    /// local resolver answers.
    pub fn is_private_network(&self) -> bool {
        if self.is_loopback() {
            return true;
        }
        match self.host() {
            Host::Ipv4(address) => is_private_ipv4(address),
            Host::Ipv6(pieces) => {
                let first = pieces[0];
                first & 0xfe00 == 0xfc00
                    || first & 0xffc0 == 0xfe80
                    || pieces == [0; 8]
                    || (pieces[..6] == [0, 0, 0, 0, 0, 0xffff]
                        && is_private_ipv4([
                            (pieces[6] >> 8) as u8,
                            pieces[6] as u8,
                            (pieces[7] >> 8) as u8,
                            pieces[7] as u8,
                        ]))
            }
            Host::Domain(name) => {
                let name = name.trim_end_matches('.');
                !name.contains('.')
                    || [".localhost", ".local", ".internal", ".lan", ".home.arpa"]
                        .iter()
                        .any(|suffix| name.ends_with(suffix))
            }
        }
    }
}

fn is_private_ipv4([a, b, ..]: [u8; 4]) -> bool {
    a == 0
        || a == 10
        || a == 127
        || (a == 100 && (64..128).contains(&b))
        || (a == 169 && b == 254)
        || (a == 172 && (16..32).contains(&b))
        || (a == 192 && b == 168)
}

impl fmt::Display for WebUrl {
    /// Without credentials: what a person may be shown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.without_credentials().href())
    }
}

/// The origin of an absolute http(s) URL as a browser reads it (`None` for anything else).
pub fn origin_of(url: &str) -> Option<String> {
    WebUrl::parse(url).ok().map(|url| url.origin())
}

/// Whether two hrefs say the same thing: identical up to the path, and identical after it
/// once percent-escapes are undone (implementations differ on escaping `^` and `|` in a
/// path; a server undoes the escapes either way). For checking this parser against others.
pub fn same_reading(a: &str, b: &str) -> bool {
    let split = |href: &str| -> Option<(String, Vec<u8>)> {
        let url = WebUrl::parse(href).ok()?;
        let at = url.path_start;
        Some((url.href[..at].to_owned(), percent_decode(&url.href[at..])))
    };
    a == b || matches!((split(a), split(b)), (Some(x), Some(y)) if x == y)
}

/// A key for the origin of an http(s) URL, read from its text alone, without the parser: the
/// scheme and the authority after its userinfo (cut where a browser cuts them: the authority
/// ends at `/`, `\\`, `?` or `#`, userinfo at its last `@`), tabs and line breaks removed,
/// lower-cased. Two URLs with equal keys have the same origin; two with different keys may
/// still have the same one (`HTTP://h:80` and `http://h`). So it serves decisions that must
/// fail safe when unsure (keep a secret only for the same key) where the page has not the
/// parser at hand (its first paint does not carry it). `None` for anything but http(s).
///
/// ```
/// use mcp_lens_protocol::url::origin_key;
/// assert_eq!(origin_key(" HTTPS://u:p@Example.com/x").as_deref(), Some("https://example.com"));
/// assert_eq!(origin_key("https://evil.example\\@good.example/"), origin_key("https://evil.example/"));
/// assert_eq!(origin_key("ftp://h/"), None);
/// ```
pub fn origin_key(text: &str) -> Option<String> {
    let text: String = text
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect::<String>()
        .to_ascii_lowercase();
    let (scheme, rest) = text.split_once("://")?;
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let authority = &rest[..rest.find(['/', '\\', '?', '#']).unwrap_or(rest.len())];
    let host = authority.rsplit('@').next().unwrap_or(authority);
    (!host.is_empty()).then(|| format!("{scheme}://{host}"))
}

// ---- The parser: the WHATWG basic URL parser, special schemes http and https only. ----

fn default_port(scheme: &str) -> u16 {
    if scheme == "https" {
        443
    } else {
        80
    }
}

/// The percent-encode sets of the standard, as predicates on ASCII bytes (every byte over
/// 0x7E is encoded in all of them).
#[derive(Clone, Copy)]
enum EncodeSet {
    Fragment,
    SpecialQuery,
    Path,
    Userinfo,
}

fn must_encode(set: EncodeSet, byte: u8) -> bool {
    if !(0x20..=0x7e).contains(&byte) {
        return true;
    }
    let fragment = matches!(byte, b' ' | b'"' | b'<' | b'>' | b'`');
    let query = matches!(byte, b' ' | b'"' | b'#' | b'<' | b'>');
    // The standard added `^` to the path set in 2024; browsers and the `url` crate have not.
    let path = query || matches!(byte, b'?' | b'`' | b'{' | b'}');
    match set {
        EncodeSet::Fragment => fragment,
        EncodeSet::SpecialQuery => query || byte == b'\'',
        EncodeSet::Path => path,
        EncodeSet::Userinfo => {
            path || matches!(
                byte,
                b'/' | b':' | b';' | b'=' | b'@' | b'[' | b'\\' | b']' | b'^' | b'|'
            )
        }
    }
}

fn percent_encode_into(out: &mut String, text: &str, set: EncodeSet) {
    for &byte in text.as_bytes() {
        if must_encode(set, byte) {
            out.push('%');
            out.push(HEX[(byte >> 4) as usize] as char);
            out.push(HEX[(byte & 15) as usize] as char);
        } else {
            out.push(byte as char);
        }
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// The parts being built; serialized into a [`WebUrl`] at the end.
struct Parts {
    scheme: String,
    username: String,
    password: String,
    host: String,
    port: Option<u16>,
    path: Vec<String>,
    query: Option<String>,
    fragment: Option<String>,
}

impl Parts {
    fn from_base(base: &WebUrl) -> Parts {
        Parts {
            scheme: base.scheme().to_owned(),
            username: base.username().to_owned(),
            password: base.password().unwrap_or("").to_owned(),
            host: base.host_str().to_owned(),
            port: base.port,
            path: base.path()[1..].split('/').map(str::to_owned).collect(),
            query: base.query().map(str::to_owned),
            fragment: None,
        }
    }

    fn serialize(self) -> WebUrl {
        let mut href = String::with_capacity(
            self.scheme.len()
                + self.host.len()
                + 16
                + self.path.iter().map(|s| s.len() + 1).sum::<usize>(),
        );
        href.push_str(&self.scheme);
        let scheme_end = href.len();
        href.push_str("://");
        href.push_str(&self.username);
        let username_end = href.len();
        if !self.password.is_empty() {
            href.push(':');
            href.push_str(&self.password);
        }
        if !self.username.is_empty() || !self.password.is_empty() {
            href.push('@');
        }
        let host_start = href.len();
        href.push_str(&self.host);
        let host_end = href.len();
        if let Some(port) = self.port {
            href.push_str(&format!(":{port}"));
        }
        let path_start = href.len();
        for segment in &self.path {
            href.push('/');
            href.push_str(segment);
        }
        if self.path.is_empty() {
            href.push('/');
        }
        let query_start = self.query.as_ref().map(|query| {
            let start = href.len();
            href.push('?');
            href.push_str(query);
            start
        });
        let fragment_start = self.fragment.as_ref().map(|fragment| {
            let start = href.len();
            href.push('#');
            href.push_str(fragment);
            start
        });
        WebUrl {
            href,
            scheme_end,
            username_end,
            host_start,
            host_end,
            port: self.port,
            path_start,
            query_start,
            fragment_start,
        }
    }
}

fn is_slash(c: char) -> bool {
    c == '/' || c == '\\'
}

fn parse(input: &str, base: Option<&WebUrl>) -> Result<WebUrl, UrlError> {
    // Leading and trailing C0 controls and spaces go; tabs and newlines go from anywhere.
    let trimmed = input.trim_matches(|c: char| c <= ' ');
    let text: String = trimmed
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    if text.is_empty() && base.is_none() {
        return Err(UrlError::Empty);
    }
    match split_scheme(&text) {
        Some((scheme, rest)) => {
            let scheme = scheme.to_ascii_lowercase();
            if scheme != "http" && scheme != "https" {
                return Err(UrlError::NotHttp { scheme });
            }
            match base {
                // Same scheme as the base and no slashes: a relative reference ("http:x").
                Some(base) if base.scheme() == scheme && !rest.starts_with("//") => {
                    relative(base, rest)
                }
                _ => authority_onwards(scheme, rest.trim_start_matches(is_slash)),
            }
        }
        None => match base {
            Some(base) => relative(base, &text),
            None => Err(UrlError::Relative),
        },
    }
}

/// `scheme` and what follows its colon, when the text starts with a scheme.
fn split_scheme(text: &str) -> Option<(&str, &str)> {
    let first = text.chars().next()?;
    if !first.is_ascii_alphabetic() {
        return None;
    }
    let end = text.find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))?;
    (text.as_bytes()[end] == b':').then(|| (&text[..end], &text[end + 1..]))
}

/// The relative state: `rest` resolved against `base` (same scheme).
fn relative(base: &WebUrl, rest: &str) -> Result<WebUrl, UrlError> {
    // Three or more slashes: a new authority to the standard and to browsers, a failure to
    // the `url` crate. Refused: no server sends one meaning well.
    if rest.chars().take(3).filter(|&c| is_slash(c)).count() == 3 {
        return Err(UrlError::Ambiguous {
            what: "starts with three slashes",
        });
    }
    let mut chars = rest.chars();
    match chars.next() {
        Some(c) if is_slash(c) => {
            let after = chars.as_str();
            match after.chars().next() {
                // Scheme-relative: a new authority.
                Some(c) if is_slash(c) => {
                    authority_onwards(base.scheme().to_owned(), after.trim_start_matches(is_slash))
                }
                // Path-absolute: the base's authority, a new path.
                _ => {
                    let mut parts = Parts::from_base(base);
                    parts.path.clear();
                    parts.query = None;
                    path_onwards(parts, after)
                }
            }
        }
        None => {
            let mut parts = Parts::from_base(base);
            parts.fragment = None;
            Ok(parts.serialize())
        }
        Some('?') => {
            let mut parts = Parts::from_base(base);
            parts.query = None;
            query_onwards(parts, rest)
        }
        // Only a fragment: the base's query stays.
        Some('#') => query_onwards(Parts::from_base(base), rest),
        Some(_) => {
            let mut parts = Parts::from_base(base);
            parts.query = None;
            parts.path.pop();
            path_onwards(parts, rest)
        }
    }
}

/// The authority state onwards: `rest` starts right after the scheme's slashes.
fn authority_onwards(scheme: String, rest: &str) -> Result<WebUrl, UrlError> {
    // A special URL's authority ends at the first `/`, `\`, `?` or `#`.
    let authority_end = rest.find(['/', '\\', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    let mut parts = Parts {
        scheme,
        username: String::new(),
        password: String::new(),
        host: String::new(),
        port: None,
        path: Vec::new(),
        query: None,
        fragment: None,
    };
    // Userinfo runs to the authority's LAST `@`; earlier ones are part of it (as %40).
    let host_and_port = match authority.rfind('@') {
        Some(at) => {
            let userinfo = &authority[..at];
            let (username, password) = match userinfo.split_once(':') {
                Some((username, password)) => (username, Some(password)),
                None => (userinfo, None),
            };
            percent_encode_into(&mut parts.username, username, EncodeSet::Userinfo);
            if let Some(password) = password {
                percent_encode_into(&mut parts.password, password, EncodeSet::Userinfo);
            }
            let host_and_port = &authority[at + 1..];
            if host_and_port.is_empty() {
                return Err(UrlError::MissingHost);
            }
            host_and_port
        }
        None => authority,
    };
    // The port starts at a `:` outside brackets.
    let mut inside_brackets = false;
    let mut port_colon = None;
    for (i, c) in host_and_port.char_indices() {
        match c {
            '[' => inside_brackets = true,
            ']' => inside_brackets = false,
            ':' if !inside_brackets => {
                port_colon = Some(i);
                break;
            }
            _ => {}
        }
    }
    let (host, port) = match port_colon {
        Some(colon) => (&host_and_port[..colon], Some(&host_and_port[colon + 1..])),
        None => (host_and_port, None),
    };
    if host.is_empty() {
        return Err(UrlError::MissingHost);
    }
    parts.host = parse_host(host)?;
    if let Some(port) = port {
        if !port.is_empty() {
            if !port.bytes().all(|b| b.is_ascii_digit()) {
                return Err(UrlError::InvalidPort);
            }
            let digits = port.trim_start_matches('0');
            let value: u32 = if digits.is_empty() {
                0
            } else if digits.len() > 5 {
                return Err(UrlError::InvalidPort);
            } else {
                digits.parse().map_err(|_| UrlError::InvalidPort)?
            };
            let value = u16::try_from(value).map_err(|_| UrlError::InvalidPort)?;
            parts.port = (value != default_port(&parts.scheme)).then_some(value);
        }
    }
    path_onwards(parts, &rest[authority_end..])
}

/// The path start state onwards: `rest` is the path (maybe starting with a slash), query
/// and fragment.
fn path_onwards(mut parts: Parts, rest: &str) -> Result<WebUrl, UrlError> {
    let path_end = rest.find(['?', '#']).unwrap_or(rest.len());
    let mut path = &rest[..path_end];
    if let Some(first) = path.chars().next() {
        if is_slash(first) {
            path = &path[1..];
        }
    }
    let segments: Vec<&str> = path.split(is_slash).collect();
    let last = segments.len() - 1;
    for (i, segment) in segments.into_iter().enumerate() {
        let more = i < last;
        if is_double_dot(segment) {
            parts.path.pop();
            if !more {
                parts.path.push(String::new());
            }
        } else if is_single_dot(segment) {
            if !more {
                parts.path.push(String::new());
            }
        } else {
            let mut encoded = String::with_capacity(segment.len());
            percent_encode_into(&mut encoded, segment, EncodeSet::Path);
            parts.path.push(encoded);
        }
    }
    query_onwards(parts, &rest[path_end..])
}

/// `rest` is empty, or starts with `?` or `#`.
fn query_onwards(mut parts: Parts, rest: &str) -> Result<WebUrl, UrlError> {
    let (query, fragment) = match rest.find('#') {
        Some(hash) => (&rest[..hash], Some(&rest[hash + 1..])),
        None => (rest, None),
    };
    if let Some(query) = query.strip_prefix('?') {
        let mut encoded = String::with_capacity(query.len());
        percent_encode_into(&mut encoded, query, EncodeSet::SpecialQuery);
        parts.query = Some(encoded);
    }
    if let Some(fragment) = fragment {
        let mut encoded = String::with_capacity(fragment.len());
        percent_encode_into(&mut encoded, fragment, EncodeSet::Fragment);
        parts.fragment = Some(encoded);
    }
    Ok(parts.serialize())
}

fn is_single_dot(segment: &str) -> bool {
    segment == "." || segment.eq_ignore_ascii_case("%2e")
}

fn is_double_dot(segment: &str) -> bool {
    let lower = segment.to_ascii_lowercase();
    matches!(lower.as_str(), ".." | ".%2e" | "%2e." | "%2e%2e")
}

#[cfg(test)]
mod tests;
