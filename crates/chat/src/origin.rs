//! The origin (scheme, host, port) of an http(s) URL, read strictly: the key may only go to the
//! origin the person typed, so anything that could read two ways is refused rather than
//! guessed (user info before `@`, backslashes, spaces, controls, a bad port).
//!
//! No URL library: the browser has one but this crate is tested natively, and `url` adds
//! 75 KB gzip to the wasm (measured for the app); the rules here are the few a base URL needs.

use std::fmt;

/// Scheme, lower-cased host and port; `Display` is the origin as the browser writes it
/// (default ports left out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub scheme: &'static str,
    pub host: String,
    pub port: Option<u16>,
}

impl Origin {
    /// Whether the host is this computer (loopback), where local model servers listen.
    pub fn is_loopback(&self) -> bool {
        self.host == "localhost"
            || self.host.ends_with(".localhost")
            || self.host == "[::1]"
            || self.host.starts_with("127.")
    }

    /// The port, the scheme's default when none is written.
    pub fn effective_port(&self) -> u16 {
        self.port
            .unwrap_or(if self.scheme == "https" { 443 } else { 80 })
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme, self.host)?;
        match self.port {
            Some(port) if port != self.effective_default() => write!(f, ":{port}"),
            _ => Ok(()),
        }
    }
}

impl Origin {
    fn effective_default(&self) -> u16 {
        if self.scheme == "https" {
            443
        } else {
            80
        }
    }
}

/// The origin of `url`, or why it has none a request may go to.
pub fn origin_of(url: &str) -> Result<Origin, String> {
    if url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || c == '\\')
    {
        return Err("the address contains spaces, control characters or backslashes".into());
    }
    let (scheme, rest) = match url.split_once("://") {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("https") => ("https", rest),
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("http") => ("http", rest),
        _ => return Err("the address must start with http:// or https://".into()),
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.contains('@') {
        return Err(
            "the address contains a user name or password (before @); put the key in the key \
             field instead"
                .into(),
        );
    }
    let (host, port) = if let Some(bracketed) = authority.strip_prefix('[') {
        let Some((inside, after)) = bracketed.split_once(']') else {
            return Err("the address has an unclosed [ in its host".into());
        };
        if inside.is_empty()
            || !inside
                .chars()
                .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
        {
            return Err("the address has an invalid IPv6 host".into());
        }
        let port = match after {
            "" => None,
            _ => Some(
                after
                    .strip_prefix(':')
                    .ok_or("the address has text after its host")?,
            ),
        };
        (format!("[{}]", inside.to_ascii_lowercase()), port)
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host.to_ascii_lowercase(), Some(port)),
            None => (authority.to_ascii_lowercase(), None),
        }
    };
    if host.is_empty() || host == "[]" {
        return Err("the address has no host".into());
    }
    if !host.starts_with('[')
        && !host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_')
    {
        return Err(
            "the host may only contain letters, digits, dots and dashes (write an \
             internationalized name in its xn-- form)"
                .into(),
        );
    }
    let port = match port {
        None => None,
        Some(digits)
            if !digits.is_empty()
                && digits.len() <= 5
                && digits.bytes().all(|b| b.is_ascii_digit()) =>
        {
            match digits.parse::<u16>() {
                Ok(port) if port > 0 => Some(port),
                _ => return Err("the address has a port out of range".into()),
            }
        }
        Some(_) => return Err("the address has an invalid port".into()),
    };
    Ok(Origin { scheme, host, port })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(url: &str) -> String {
        origin_of(url)
            .map(|o| o.to_string())
            .unwrap_or_else(|e| format!("error: {e}"))
    }

    #[test]
    fn an_origin_is_scheme_host_and_a_port_other_than_the_default() {
        assert_eq!(
            origin("https://API.openai.com/v1"),
            "https://api.openai.com"
        );
        assert_eq!(
            origin("http://localhost:11434/v1"),
            "http://localhost:11434"
        );
        assert_eq!(origin("https://example.com:443/x"), "https://example.com");
        assert_eq!(origin("http://[::1]:8080"), "http://[::1]:8080");
        assert_eq!(origin("HTTP://127.0.0.1:1234?x#y"), "http://127.0.0.1:1234");
    }

    #[test]
    fn an_address_that_could_read_two_ways_has_no_origin() {
        for url in [
            "https://user:pw@evil.example/v1",
            "https://api.openai.com@evil.example",
            "https://evil.example\\@api.openai.com",
            " https://api.openai.com",
            "https://api.openai.com:99999",
            "https://api.openai.com:",
            "https://:80",
            "ftp://example.com",
            "api.openai.com/v1",
            "https://exa mple.com",
            "https://[::1",
            "https://é.example",
        ] {
            assert!(origin_of(url).is_err(), "{url} was accepted");
        }
    }

    #[test]
    fn loopback_hosts_are_recognised() {
        for url in [
            "http://localhost:1",
            "http://127.0.0.1",
            "http://[::1]:2",
            "http://a.localhost",
        ] {
            assert!(origin_of(url).unwrap().is_loopback(), "{url}");
        }
        assert!(!origin_of("https://api.openai.com").unwrap().is_loopback());
    }
}
