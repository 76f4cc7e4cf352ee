//! The encodings OAuth requests use: `application/x-www-form-urlencoded` (bodies and query
//! strings, as the browser's `URLSearchParams` writes them), query decoding (the redirect),
//! and base64 (standard for HTTP Basic, URL-safe without padding for PKCE).
//!
//! ```
//! use mcp_lens_protocol::auth::encode::{base64, base64url, decode_query, form_encode, with_query};
//! assert_eq!(form_encode(&[("scope", "a b"), ("x", "é&=")]), "scope=a+b&x=%C3%A9%26%3D");
//! assert_eq!(decode_query("code=a%2Bb&state=x+y"), [("code".to_owned(), "a+b".to_owned()), ("state".to_owned(), "x y".to_owned())]);
//! assert_eq!(with_query("https://as.example.com/authorize?tenant=1", "a=b"), "https://as.example.com/authorize?tenant=1&a=b");
//! assert_eq!(base64(b"client:secret"), "Y2xpZW50OnNlY3JldA==");
//! assert_eq!(base64url(&[0xfb, 0xff]), "-_8");
//! ```

/// Percent-encodes one component the way `URLSearchParams` does: ASCII letters, digits and
/// `*-._` stay, a space becomes `+`, every other byte becomes `%XX`.
pub fn form_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => {
                out.push(byte as char)
            }
            b' ' => out.push('+'),
            _ => {
                out.push('%');
                out.push(HEX[usize::from(byte >> 4)] as char);
                out.push(HEX[usize::from(byte & 15)] as char);
            }
        }
    }
    out
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// `name=value&...`, each side encoded with [`form_component`].
pub fn form_encode(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(name, value)| format!("{}={}", form_component(name), form_component(value)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Adds an encoded query to a URL that may already have one (an authorization endpoint may,
/// RFC 6749 §3.1), before any fragment (which is dropped: it is never sent).
pub fn with_query(url: &str, query: &str) -> String {
    let base = url.split('#').next().unwrap_or(url);
    if query.is_empty() {
        return base.to_owned();
    }
    let joiner = if !base.contains('?') {
        "?"
    } else if base.ends_with('?') || base.ends_with('&') {
        ""
    } else {
        "&"
    };
    format!("{base}{joiner}{query}")
}

/// Decodes a query string (with or without its `?`), or a whole URL's query: `+` is a
/// space, `%XX` a byte; invalid escapes stay as written, invalid UTF-8 is replaced.
pub fn decode_query(text: &str) -> Vec<(String, String)> {
    let query = match text.find('?') {
        Some(at) => &text[at + 1..],
        None => text,
    };
    let query = query.split('#').next().unwrap_or(query);
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode_component(name), decode_component(value))
        })
        .collect()
}

fn decode_component(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = match bytes.get(i + 1..i + 3) {
            Some(&[high, low]) if bytes[i] == b'%' => hex_value(high).zip(hex_value(low)),
            _ => None,
        };
        match (bytes[i], escaped) {
            (_, Some((high, low))) => {
                out.push(high << 4 | low);
                i += 2;
            }
            (b'+', None) => out.push(b' '),
            (byte, None) => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex_value(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64_with(bytes: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..4 {
            if i < chars {
                out.push(alphabet[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

/// Standard base64 with padding (RFC 4648 §4), as HTTP Basic uses.
pub fn base64(bytes: &[u8]) -> String {
    base64_with(bytes, STANDARD, true)
}

/// URL-safe base64 without padding (RFC 4648 §5), as PKCE uses.
pub fn base64url(bytes: &[u8]) -> String {
    base64_with(bytes, URL_SAFE, false)
}

/// Decodes base64, standard or URL-safe, with or without padding; whitespace (as in PEM's
/// line breaks) is skipped. `None` for any other character or a dangling final character.
///
/// ```
/// use mcp_lens_protocol::auth::encode::base64_decode;
/// assert_eq!(base64_decode("Zm9v\nYmE=").as_deref(), Some(&b"fooba"[..]));
/// assert_eq!(base64_decode("-_8").as_deref(), Some(&[0xfb, 0xff][..]));
/// assert_eq!(base64_decode("Z"), None);
/// ```
pub fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut buffer = 0u32;
    let mut bits = 0u32;
    let mut count = 0usize;
    for byte in text.bytes() {
        let value = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' | b' ' | b'\t' | b'\r' | b'\n' => continue,
            _ => return None,
        };
        count += 1;
        buffer = (buffer << 6 | u32::from(value)) & 0xff_ffff;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
        }
    }
    (count % 4 != 1).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(base64(plain.as_bytes()), encoded);
            assert_eq!(base64url(plain.as_bytes()), encoded.trim_end_matches('='));
        }
    }

    #[test]
    fn base64_decoding_inverts_both_encodings() {
        for length in 0..70u8 {
            let bytes: Vec<u8> = (0..length).map(|i| i.wrapping_mul(37) ^ 0xa5).collect();
            assert_eq!(base64_decode(&base64(&bytes)), Some(bytes.clone()));
            assert_eq!(base64_decode(&base64url(&bytes)), Some(bytes));
        }
        assert_eq!(base64_decode("Zm9v!"), None);
    }

    #[test]
    fn queries_decode_leniently() {
        assert_eq!(
            decode_query(
                "https://app.example/callback?code=abc&state=s%20t&iss=https%3A%2F%2Fas#frag"
            ),
            [
                ("code".to_owned(), "abc".to_owned()),
                ("state".to_owned(), "s t".to_owned()),
                ("iss".to_owned(), "https://as".to_owned())
            ]
        );
        assert_eq!(
            decode_query("a=%zz&b=%E2%82&c&=d&e=%4"),
            [
                ("a".to_owned(), "%zz".to_owned()),
                ("b".to_owned(), "\u{fffd}".to_owned()),
                ("c".to_owned(), String::new()),
                (String::new(), "d".to_owned()),
                ("e".to_owned(), "%4".to_owned())
            ]
        );
    }

    #[test]
    fn form_encoding_round_trips_through_decoding() {
        let text = "a b+c&d=e/é~*";
        let encoded = form_encode(&[(text, text)]);
        assert_eq!(decode_query(&encoded), [(text.to_owned(), text.to_owned())]);
        assert_eq!(with_query("https://x/a#f", ""), "https://x/a");
        assert_eq!(with_query("https://x/a?", "b=c"), "https://x/a?b=c");
    }
}
