//! Secrets out of everything the log keeps: URLs (userinfo, parameters named like
//! credentials), request headers (all but the protocol's own), answer headers (all but those
//! that help to debug), and URLs quoted in free text.

use crate::url::WebUrl;

/// Headers whose values are shown as they are; every other value (authorization, the
/// person's custom headers) may be a secret and is redacted.
const PLAIN_HEADERS: [&str; 7] = [
    "mcp-name",
    "content-type",
    "accept",
    "mcp-session-id",
    "mcp-protocol-version",
    "last-event-id",
    "mcp-method",
];

pub const REDACTED: &str = "[redacted]";

/// Query parameter names that usually carry a credential.
const CREDENTIAL_PARAMETERS: [&str; 14] = [
    "key",
    "apikey",
    "api_key",
    "api-key",
    "token",
    "access_token",
    "auth",
    "authorization",
    "secret",
    "client_secret",
    "password",
    "pass",
    "sig",
    "signature",
];

fn is_credential_parameter(name: &str) -> bool {
    // `X-Api-Key`, `x_api_key` and `xApiKey` are one name written three ways.
    let name = name.to_ascii_lowercase().replace('-', "_");
    CREDENTIAL_PARAMETERS.contains(&name.as_str())
        || name.ends_with("key")
        || name.contains("token")
        || name.contains("secret")
        || name.contains("password")
        || name.ends_with("credential")
        || name.ends_with("credentials")
}

/// The URL with its credentials replaced by `[redacted]`: a user name and password before
/// the host, and the values of query and fragment parameters named like credentials
/// (`api_key`, `token`, `secret`, ...). Other parts are kept, so the URL still says where it
/// goes. An http(s) URL is read as a browser reads it (see [`crate::url`]), so userinfo a
/// browser would see is what is cut; any other text is cut at the same places by hand.
///
/// ```
/// use mcp_lens_protocol::wire_log::redact_url;
/// assert_eq!(
///     redact_url("http://user:PASSW0RD@host/mcp?api_key=SECRET&x=1"),
///     "http://[redacted]@host/mcp?api_key=[redacted]&x=1"
/// );
/// ```
pub fn redact_url(url: &str) -> String {
    let Ok(parsed) = WebUrl::parse(url) else {
        return redact_unparsed_url(url);
    };
    let mut out = format!("{}://", parsed.scheme());
    if parsed.has_credentials() {
        out.push_str(REDACTED);
        out.push('@');
    }
    let host_onwards = parsed.without_credentials();
    let host_onwards = &host_onwards.href()[parsed.scheme().len() + 3..];
    let query_start = host_onwards.find(['?', '#']).unwrap_or(host_onwards.len());
    out.push_str(&host_onwards[..query_start]);
    if let Some(query) = parsed.query() {
        out.push('?');
        out.push_str(&redact_parameters(query));
    }
    if let Some(fragment) = parsed.fragment() {
        out.push('#');
        out.push_str(&redact_parameters(fragment));
    }
    out
}

/// Text that is no http(s) URL, redacted at the places a browser would cut an http URL
/// (authority up to `/`, `\`, `?` or `#`; userinfo up to its last `@`).
fn redact_unparsed_url(url: &str) -> String {
    let (before_fragment, fragment) = match url.find('#') {
        Some(i) => (&url[..i], Some(&url[i + 1..])),
        None => (url, None),
    };
    let (base, query) = match before_fragment.find('?') {
        Some(i) => (&before_fragment[..i], Some(&before_fragment[i + 1..])),
        None => (before_fragment, None),
    };
    let mut out = match base.find("://") {
        Some(scheme_end) => {
            let rest = &base[scheme_end + 3..];
            let authority_end = rest.find(['/', '\\']).unwrap_or(rest.len());
            match rest[..authority_end].rfind('@') {
                Some(at) => format!("{}{REDACTED}@{}", &base[..scheme_end + 3], &rest[at + 1..]),
                None => base.to_owned(),
            }
        }
        None => base.to_owned(),
    };
    if let Some(query) = query {
        out.push('?');
        out.push_str(&redact_parameters(query));
    }
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(&redact_parameters(fragment));
    }
    out
}

/// `a=1&token=x` -> `a=1&token=[redacted]`.
fn redact_parameters(parameters: &str) -> String {
    parameters
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, _)) if is_credential_parameter(&percent_decoded_name(name)) => {
                format!("{name}={REDACTED}")
            }
            _ => pair.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// A parameter's name with its escapes undone (`api%5Fkey` is `api_key`), for the check only.
fn percent_decoded_name(name: &str) -> String {
    let name = name.replace('+', " ");
    String::from_utf8_lossy(&crate::url::percent_decode(&name)).into_owned()
}

/// Whether a URL carries a credential (see [`redact_url`]): userinfo before its host (cut
/// where a browser cuts it, so without the URL parser, which the page's first paint does not
/// carry), or a parameter named like one.
pub fn url_has_credentials(url: &str) -> bool {
    redact_unparsed_url(url) != url
}

/// Free text (an error message, a title, a name) with every http(s) URL in it redacted as
/// [`redact_url`] does: a browser's error quotes the URL it refused, credentials and all.
///
/// ```
/// use mcp_lens_protocol::wire_log::redact_urls_in;
/// assert_eq!(
///     redact_urls_in("Failed to fetch 'http://u:pw@h/mcp?token=t'."),
///     "Failed to fetch 'http://[redacted]@h/mcp?token=[redacted]'."
/// );
/// ```
pub fn redact_urls_in(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut from = 0;
    while let Some(found) = lower[from..].find("http").map(|i| from + i) {
        let rest = &lower[found..];
        if !(rest.starts_with("http://")
            || rest.starts_with("https://")
            || rest.starts_with("http:\\")
            || rest.starts_with("https:\\"))
        {
            from = found + 4;
            continue;
        }
        // A URL in text ends at whitespace, a quote, or a bracket that closes around it
        // (not the `]` of its own IPv6 host).
        let mut depth = 0usize;
        let end = text[found..]
            .find(|c: char| match c {
                '[' | '(' => {
                    depth += 1;
                    false
                }
                ']' | ')' if depth > 0 => {
                    depth -= 1;
                    false
                }
                ']' | ')' => true,
                _ => c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '`'),
            })
            .map_or(text.len(), |i| found + i);
        // A sentence's closing punctuation is not part of the URL.
        let end = found
            + text[found..end]
                .trim_end_matches(['.', ',', ';', '!'])
                .len();
        out.push_str(&text[copied..found]);
        out.push_str(&redact_url(&text[found..end]));
        copied = end;
        from = end.max(found + 4);
    }
    out.push_str(&text[copied..]);
    out
}

/// Whether a request header is one of the protocol's own (never a secret): anything else
/// is the person's (their token, their custom headers). A tool call's `Mcp-Param-*` headers
/// (SEP-2243) are shown too: each mirrors an argument that the request's body carries and the
/// log shows anyway, and seeing them is how a person checks the mirroring. (A custom header
/// the person names `Mcp-Param-…` is refused by the connection form for that reason.)
pub fn is_protocol_header(name: &str) -> bool {
    PLAIN_HEADERS
        .iter()
        .any(|plain| name.eq_ignore_ascii_case(plain))
        || is_param_header(name)
}

/// `Mcp-Param-*`, in any case.
pub fn is_param_header(name: &str) -> bool {
    name.len() > crate::PARAM_HEADER_PREFIX.len()
        && name
            .get(..crate::PARAM_HEADER_PREFIX.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(crate::PARAM_HEADER_PREFIX))
}

pub fn redact_headers(headers: &[(String, String)]) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            let plain = is_protocol_header(name);
            let value = if plain {
                value.clone()
            } else {
                REDACTED.to_owned()
            };
            (name.to_ascii_lowercase(), value)
        })
        .collect()
}

/// Answer headers that are never secret and help to debug (authentication challenges,
/// redirects, CORS). Cookies and anything unknown are redacted.
const PLAIN_RESPONSE_HEADERS: [&str; 12] = [
    "dpop-nonce",
    "content-type",
    "content-length",
    "mcp-session-id",
    "mcp-protocol-version",
    "www-authenticate",
    "location",
    "retry-after",
    "allow",
    "date",
    "server",
    "cache-control",
];

pub fn redact_response_headers(headers: &[(String, String)]) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            let name = name.to_ascii_lowercase();
            let plain = PLAIN_RESPONSE_HEADERS.contains(&name.as_str())
                || name.starts_with("access-control-");
            let value = if plain {
                value.clone()
            } else {
                REDACTED.to_owned()
            };
            (name, value)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrored_parameters_are_shown_dpop_proofs_are_not() {
        let headers = [
            ("Mcp-Param-Region", "us-west1"),
            ("mcp-param-", "no name: not a mirrored parameter"),
            ("DPoP", "eyJ.proof.sig"),
            ("Authorization", "DPoP tok"),
        ]
        .map(|(n, v)| (n.to_owned(), v.to_owned()));
        let shown: Vec<String> = redact_headers(&headers)
            .into_iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        assert_eq!(
            shown,
            [
                "mcp-param-region=us-west1",
                "mcp-param-=[redacted]",
                "dpop=[redacted]",
                "authorization=[redacted]"
            ]
        );
        let answer = redact_response_headers(&[("DPoP-Nonce".to_owned(), "n-1".to_owned())]);
        assert_eq!(answer[0].1, "n-1");
    }

    #[test]
    fn answer_headers_keep_debugging_facts_and_hide_cookies() {
        let headers = vec![
            (
                "WWW-Authenticate".to_owned(),
                "Bearer resource_metadata=\"x\"".to_owned(),
            ),
            ("Set-Cookie".to_owned(), "sid=s3cret".to_owned()),
            ("Access-Control-Allow-Origin".to_owned(), "*".to_owned()),
        ];
        assert_eq!(
            redact_response_headers(&headers),
            vec![
                (
                    "www-authenticate".to_owned(),
                    "Bearer resource_metadata=\"x\"".to_owned()
                ),
                ("set-cookie".to_owned(), REDACTED.to_owned()),
                ("access-control-allow-origin".to_owned(), "*".to_owned()),
            ]
        );
    }

    #[test]
    fn credentials_in_urls_are_redacted_and_the_rest_kept() {
        assert_eq!(
            redact_url("https://user:pa55@api.example/mcp?api_key=k3y&team=a&x_token=t0k#top"),
            "https://[redacted]@api.example/mcp?api_key=[redacted]&team=a&x_token=[redacted]#top"
        );
        assert_eq!(
            redact_url("http://127.0.0.1:3001/mcp"),
            "http://127.0.0.1:3001/mcp"
        );
        assert_eq!(
            redact_url("http://h/message?sessionId=abc"),
            "http://h/message?sessionId=abc"
        );
        assert!(url_has_credentials("https://h/mcp?token=x"));
        assert!(url_has_credentials("https://a:b@h/mcp"));
        assert!(!url_has_credentials("https://h/mcp?mode=fast"));
        // Not a URL at all: nothing to find, nothing lost.
        assert_eq!(redact_url("not a url"), "not a url");
        assert_eq!(redact_url("http://h/p@x"), "http://h/p@x");
    }

    #[test]
    fn secrets_are_redacted_and_protocol_headers_kept() {
        let headers = vec![
            ("content-type".to_owned(), "application/json".to_owned()),
            ("Mcp-Session-Id".to_owned(), "abc".to_owned()),
            ("authorization".to_owned(), "Bearer s3cret".to_owned()),
            ("X-Api-Key".to_owned(), "k3y".to_owned()),
        ];
        let redacted = redact_headers(&headers);
        assert_eq!(
            redacted,
            vec![
                ("content-type".to_owned(), "application/json".to_owned()),
                ("mcp-session-id".to_owned(), "abc".to_owned()),
                ("authorization".to_owned(), REDACTED.to_owned()),
                ("x-api-key".to_owned(), REDACTED.to_owned()),
            ]
        );
    }
}
