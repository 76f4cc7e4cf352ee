//! `ui/open-link`: the URL an app asks the host to open, checked before the person is asked.
//!
//! The reference host (`basic-host`) passes `params.url` straight to
//! `window.open(url, "_blank", "noopener,noreferrer")`. Here only an `http:` or `https:` URL
//! that reads exactly as it will be opened is accepted: the browser's URL parser silently
//! strips leading and trailing spaces and control characters, removes tabs and newlines
//! anywhere, and treats `\` as `/`; bidirectional controls and invisible characters make one
//! address look like another; user information (`https://bank.com@evil.example`) hides the
//! real host. Each of these is refused with a reason instead of being "fixed".

use std::fmt;

use crate::error::is_invisible_control;

/// Longest URL accepted.
pub const MAX_LINK_CHARS: usize = 4_096;

/// Why a link is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkRefusal {
    Empty,
    TooLong,
    /// Leading or trailing whitespace (the browser would strip it).
    SurroundingSpace,
    /// A control character (tabs and newlines included, which the browser would remove).
    Control,
    /// Bidirectional controls, zero-width or other invisible characters.
    Invisible,
    /// Whitespace inside the URL (percent-encode it).
    Space,
    Backslash,
    /// No `scheme:`.
    NoScheme,
    /// `javascript:`, `data:`, `file:`…: only http and https are opened.
    Scheme(String),
    /// `http:` without `//`.
    NoAuthority,
    UserInfo,
    /// Empty, non-ASCII (homograph risk; punycode is accepted) or malformed host.
    Host,
    Port,
}

impl fmt::Display for LinkRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkRefusal::Empty => write!(f, "the URL is empty"),
            LinkRefusal::TooLong => write!(f, "the URL is longer than {MAX_LINK_CHARS} characters"),
            LinkRefusal::SurroundingSpace => write!(f, "the URL starts or ends with whitespace"),
            LinkRefusal::Control => write!(f, "the URL contains control characters"),
            LinkRefusal::Invisible => write!(
                f,
                "the URL contains invisible or text-direction characters that can disguise it"
            ),
            LinkRefusal::Space => write!(f, "the URL contains whitespace"),
            LinkRefusal::Backslash => write!(f, "the URL contains a backslash"),
            LinkRefusal::NoScheme => write!(f, "the URL has no scheme (https://…)"),
            LinkRefusal::Scheme(s) => {
                write!(f, "only http and https links are opened, not \"{s}:\"")
            }
            LinkRefusal::NoAuthority => write!(f, "the URL has no host (expected //host)"),
            LinkRefusal::UserInfo => write!(
                f,
                "the URL contains user information (@), which can hide the real host"
            ),
            LinkRefusal::Host => write!(
                f,
                "the host is missing, malformed or not ASCII (international names must be in punycode)"
            ),
            LinkRefusal::Port => write!(f, "the port is not a number from 1 to 65535"),
        }
    }
}

/// A link that may be shown to the person and, if they agree, opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebLink {
    /// Exactly the text the app sent (it reads as it will be opened).
    pub url: String,
    /// `http` or `https`, lowercased.
    pub scheme: String,
    /// The host, lowercased: what to show most prominently.
    pub host: String,
}

/// Checks a `ui/open-link` URL.
///
/// ```
/// use mcp_lens_protocol::apps::{check_link, LinkRefusal};
/// let link = check_link("https://Example.com/docs?q=1#top").unwrap();
/// assert_eq!(link.host, "example.com");
/// assert_eq!(check_link("javascript:alert(1)"), Err(LinkRefusal::Scheme("javascript".into())));
/// assert_eq!(check_link(" https://example.com"), Err(LinkRefusal::SurroundingSpace));
/// assert_eq!(check_link("https://example.com\u{202E}moc.evil"), Err(LinkRefusal::Invisible));
/// ```
pub fn check_link(url: &str) -> Result<WebLink, LinkRefusal> {
    if url.is_empty() {
        return Err(LinkRefusal::Empty);
    }
    if url.chars().count() > MAX_LINK_CHARS {
        return Err(LinkRefusal::TooLong);
    }
    let first = url.chars().next();
    let last = url.chars().next_back();
    if first.is_some_and(|c| c.is_whitespace() || c.is_control())
        || last.is_some_and(|c| c.is_whitespace() || c.is_control())
    {
        return Err(LinkRefusal::SurroundingSpace);
    }
    if url.chars().any(char::is_control) {
        return Err(LinkRefusal::Control);
    }
    if url.chars().any(is_invisible_control) {
        return Err(LinkRefusal::Invisible);
    }
    if url.chars().any(char::is_whitespace) {
        return Err(LinkRefusal::Space);
    }
    if url.contains('\\') {
        return Err(LinkRefusal::Backslash);
    }
    let (scheme, rest) = url.split_once(':').ok_or(LinkRefusal::NoScheme)?;
    if scheme.is_empty()
        || !scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        || !scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    {
        return Err(LinkRefusal::NoScheme);
    }
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Err(LinkRefusal::Scheme(crate::error::excerpt(&scheme, 20)));
    }
    let rest = rest.strip_prefix("//").ok_or(LinkRefusal::NoAuthority)?;
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    if authority.contains('@') {
        return Err(LinkRefusal::UserInfo);
    }
    let (host, port) = if authority.starts_with('[') {
        let end = authority.find(']').ok_or(LinkRefusal::Host)?;
        let after = &authority[end + 1..];
        let port = match after {
            "" => None,
            _ => Some(after.strip_prefix(':').ok_or(LinkRefusal::Host)?),
        };
        let inner = &authority[1..end];
        if inner.is_empty()
            || !inner.contains(':')
            || !inner
                .bytes()
                .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.')
        {
            return Err(LinkRefusal::Host);
        }
        (&authority[..=end], port)
    } else {
        match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if let Some(port) = port {
        // An empty port is the default port to the URL parser; allow it.
        if !port.is_empty()
            && (port.len() > 5
                || !port.bytes().all(|b| b.is_ascii_digit())
                || !matches!(port.parse::<u32>(), Ok(1..=65535)))
        {
            return Err(LinkRefusal::Port);
        }
    }
    // One trailing dot is a valid fully qualified name.
    let name = host.strip_suffix('.').unwrap_or(host);
    let host_ok = !name.is_empty()
        && host.len() <= 253
        && (host.starts_with('[')
            || name.split('.').all(|label| {
                !label.is_empty()
                    && label.len() <= 63
                    && label
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            }));
    if !host_ok {
        return Err(LinkRefusal::Host);
    }
    Ok(WebLink {
        url: url.to_owned(),
        scheme,
        host: host.to_ascii_lowercase(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_links_are_accepted() {
        for (url, host) in [
            ("https://example.com", "example.com"),
            ("http://localhost:3000/path?q=a%20b#frag", "localhost"),
            ("https://EXAMPLE.com./", "example.com."),
            ("https://[::1]:8443/x", "[::1]"),
            ("https://xn--bcher-kva.example/ü", "xn--bcher-kva.example"),
            ("HTTPS://sub_domain.example.com:/", "sub_domain.example.com"),
            ("https://example.com?q", "example.com"),
        ] {
            let link = check_link(url).unwrap_or_else(|r| panic!("{url}: {r}"));
            assert_eq!(link.host, host);
            assert_eq!(link.url, url);
        }
    }

    #[test]
    fn disguised_or_dangerous_links_are_refused() {
        use LinkRefusal as R;
        for (url, reason) in [
            ("", R::Empty),
            (" https://example.com", R::SurroundingSpace),
            ("https://example.com\n", R::SurroundingSpace),
            ("\u{0}https://example.com", R::SurroundingSpace),
            ("https://exa\tmple.com", R::Control),
            ("https://example.com/\u{85}x", R::Control),
            ("https://a..b.", R::Host),
            ("https://example.com/\u{202E}gnp.exe", R::Invisible),
            ("https://exam\u{200B}ple.com", R::Invisible),
            ("https://example.com/\u{2066}x", R::Invisible),
            ("https://example.com/a b", R::Space),
            ("https://example.com/a\u{3000}b", R::Space),
            ("https:\\\\evil.example", R::Backslash),
            ("javascript:alert(1)", R::Scheme("javascript".into())),
            ("JavaScript:alert(1)", R::Scheme("javascript".into())),
            ("data:text/html,<script>", R::Scheme("data".into())),
            ("file:///etc/passwd", R::Scheme("file".into())),
            ("blob:https://example.com/uuid", R::Scheme("blob".into())),
            ("vbscript:x", R::Scheme("vbscript".into())),
            ("//example.com", R::NoScheme),
            ("example.com", R::NoScheme),
            ("1http://example.com", R::NoScheme),
            ("https:example.com", R::NoAuthority),
            ("https:/example.com", R::NoAuthority),
            ("https://bank.com@evil.example", R::UserInfo),
            ("https://:pw@evil.example", R::UserInfo),
            ("https://", R::Host),
            ("https:///path", R::Host),
            ("https://exämple.com", R::Host),
            ("https://.example.com", R::Host),
            ("https://a..b", R::Host),
            ("https://[::1", R::Host),
            ("https://[xyz]", R::Host),
            ("https://example.com:99999", R::Port),
            ("https://example.com:0", R::Port),
            ("https://example.com:8o", R::Port),
        ] {
            assert_eq!(check_link(url), Err(reason), "{url:?}");
        }
        assert_eq!(
            check_link(&format!(
                "https://example.com/{}",
                "a".repeat(MAX_LINK_CHARS)
            )),
            Err(LinkRefusal::TooLong)
        );
    }
}
