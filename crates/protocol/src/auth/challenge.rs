//! `WWW-Authenticate` (RFC 9110 §11.6.1): a list of challenges, each a scheme followed by a
//! token68 or comma-separated `name=value` parameters (values are tokens or quoted strings
//! with `\` escapes). Several headers arrive joined by `, `, so a list may mix schemes.
//! Parsing never fails: what cannot be read is skipped.
//!
//! ```
//! use mcp_lens_protocol::auth::challenge::{bearer_challenge, parse_challenges};
//! let header = r#"Basic realm="x", Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource""#;
//! assert_eq!(parse_challenges(header).len(), 2);
//! let bearer = bearer_challenge(header).unwrap();
//! assert!(bearer.is_insufficient_scope());
//! assert_eq!(bearer.scope.as_deref(), Some("files:read files:write"));
//! ```

/// One challenge as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub scheme: String,
    pub token68: Option<String>,
    /// Names lowercased, in order.
    pub params: Vec<(String, String)>,
}

impl Challenge {
    /// The first parameter of that name (case-insensitive).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What MCP reads from a Bearer challenge. Empty values count as absent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BearerChallenge {
    /// Where the Protected Resource Metadata is (RFC 9728 §5.1).
    pub resource_metadata: Option<String>,
    /// The scopes the request needs.
    pub scope: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
}

impl BearerChallenge {
    /// A 403 asking for more scopes (step-up).
    pub fn is_insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }
}

/// The most challenges and parameters read from one header (the rest is ignored).
const MAX_ITEMS: usize = 64;

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

fn is_token68_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~+/".contains(c)
}

struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.at += c.len_utf8();
        }
    }

    fn skip(&mut self, what: impl Fn(char) -> bool) {
        while self.peek().is_some_and(&what) {
            self.bump();
        }
    }

    fn take(&mut self, what: impl Fn(char) -> bool) -> &str {
        let start = self.at;
        self.skip(what);
        &self.text[start..self.at]
    }

    fn quoted(&mut self) -> String {
        self.bump(); // the opening quote
        let mut value = String::new();
        while let Some(c) = self.peek() {
            self.bump();
            match c {
                '"' => break,
                '\\' => {
                    if let Some(escaped) = self.peek() {
                        value.push(escaped);
                        self.bump();
                    }
                }
                c => value.push(c),
            }
        }
        value
    }
}

/// Every challenge in the header, in order.
pub fn parse_challenges(header: &str) -> Vec<Challenge> {
    let mut cursor = Cursor {
        text: header,
        at: 0,
    };
    let mut challenges = Vec::new();
    while cursor.peek().is_some() && challenges.len() < MAX_ITEMS {
        cursor.skip(|c| c == ',' || c.is_whitespace());
        let scheme = cursor.take(is_token_char).to_owned();
        if scheme.is_empty() {
            cursor.bump(); // not a challenge: skip the character
            continue;
        }
        let mut challenge = Challenge {
            scheme,
            token68: None,
            params: Vec::new(),
        };
        let spaced = cursor.peek().is_some_and(|c| c == ' ' || c == '\t');
        cursor.skip(|c| c == ' ' || c == '\t');
        // token68 right after the scheme: `Basic dXNlcjpwYXNz==`.
        let rest = &cursor.text[cursor.at..];
        if spaced && !looks_like_param(rest) {
            let body = rest.trim_start_matches(is_token68_char);
            let after = body.trim_start_matches('=');
            let tail = after.trim_start_matches([' ', '\t']);
            if body.len() < rest.len() && (tail.is_empty() || tail.starts_with(',')) {
                let length = rest.len() - after.len();
                challenge.token68 = Some(rest[..length].to_owned());
                cursor.at += length;
            }
        }
        read_params(&mut cursor, &mut challenge);
        challenges.push(challenge);
    }
    challenges
}

/// Whether `text` starts with `name=value` (a parameter) rather than a token68.
fn looks_like_param(text: &str) -> bool {
    let name = text.trim_start_matches(is_token_char);
    if name.len() == text.len() {
        return false;
    }
    let after_name = name.trim_start_matches([' ', '\t']);
    let Some(value) = after_name.strip_prefix('=') else {
        return false;
    };
    // `abc==` followed by the end or a comma is a token68.
    let value = value.trim_start_matches([' ', '\t']);
    !(value.is_empty() || value.starts_with([',', '=']))
}

fn read_params(cursor: &mut Cursor<'_>, challenge: &mut Challenge) {
    loop {
        let before = cursor.at;
        cursor.skip(|c| c == ',' || c.is_whitespace());
        let name = cursor.take(is_token_char).to_owned();
        if name.is_empty() {
            return;
        }
        cursor.skip(|c| c == ' ' || c == '\t');
        if cursor.peek() != Some('=') {
            // A token that is no parameter starts the next challenge.
            cursor.at = before;
            return;
        }
        cursor.bump();
        cursor.skip(|c| c == ' ' || c == '\t');
        let value = if cursor.peek() == Some('"') {
            cursor.quoted()
        } else {
            // Leniently to the next space or comma: servers write `scope=files:read`.
            cursor.take(|c| c != ',' && !c.is_whitespace()).to_owned()
        };
        if challenge.params.len() < MAX_ITEMS {
            challenge.params.push((name.to_ascii_lowercase(), value));
        }
    }
}

/// The first Bearer challenge in the header, if any.
pub fn bearer_challenge(header: &str) -> Option<BearerChallenge> {
    scheme_challenge(header, "Bearer")
}

/// The parameters of the first challenge of `scheme` (case-insensitive) in the header. A
/// `DPoP` challenge (RFC 9449 §7.1) carries the same ones as a Bearer challenge.
pub fn scheme_challenge(header: &str, scheme: &str) -> Option<BearerChallenge> {
    let challenge = parse_challenges(header)
        .into_iter()
        .find(|c| c.scheme.eq_ignore_ascii_case(scheme))?;
    let get = |name| {
        challenge
            .param(name)
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    Some(BearerChallenge {
        resource_metadata: get("resource_metadata"),
        scope: get("scope"),
        error: get("error"),
        error_description: get("error_description"),
    })
}

/// The challenge a 401 or 403 from an MCP server answers with: Bearer, else DPoP (a server
/// that takes only DPoP-bound tokens challenges with `DPoP` alone, and its
/// `resource_metadata` starts discovery just the same).
pub fn resource_challenge(header: &str) -> Option<BearerChallenge> {
    bearer_challenge(header).or_else(|| scheme_challenge(header, "DPoP"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(challenge: &Challenge) -> Vec<(&str, &str)> {
        challenge
            .params
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect()
    }

    #[test]
    fn bearer_parameters_quoted_or_not() {
        let header = r#"Bearer realm="mcp", resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/mcp", scope=files:read, error=invalid_token, error_description="The access token expired, \"really\"""#;
        let bearer = bearer_challenge(header).unwrap();
        assert_eq!(
            bearer.resource_metadata.as_deref(),
            Some("http://localhost:3000/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(bearer.scope.as_deref(), Some("files:read"));
        assert_eq!(bearer.error.as_deref(), Some("invalid_token"));
        assert_eq!(
            bearer.error_description.as_deref(),
            Some(r#"The access token expired, "really""#)
        );
        assert!(!bearer.is_insufficient_scope());
    }

    #[test]
    fn several_challenges_and_token68() {
        let all = parse_challenges(
            r#"Negotiate, Basic dXNlcjpwYXNz==, bearer scope="a b",error="insufficient_scope" , DPoP algs="ES256""#,
        );
        let schemes: Vec<&str> = all.iter().map(|c| c.scheme.as_str()).collect();
        assert_eq!(schemes, ["Negotiate", "Basic", "bearer", "DPoP"]);
        assert_eq!(all[0].token68, None);
        assert_eq!(all[1].token68.as_deref(), Some("dXNlcjpwYXNz=="));
        assert_eq!(
            params(&all[2]),
            [("scope", "a b"), ("error", "insufficient_scope")]
        );
        assert_eq!(params(&all[3]), [("algs", "ES256")]);
        // A DPoP-only server (the conformance suite's auth/dpop): discovery starts from it.
        let dpop = resource_challenge(r#"DPoP resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/mcp""#).unwrap();
        assert_eq!(
            dpop.resource_metadata.as_deref(),
            Some("http://localhost:3000/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(bearer_challenge(r#"DPoP resource_metadata="x""#), None);
        assert_eq!(
            resource_challenge(r#"DPoP error="a", Bearer error="b""#)
                .unwrap()
                .error
                .as_deref(),
            Some("b")
        );
        assert!(
            bearer_challenge(r#"Basic realm="x", Bearer error="insufficient_scope""#)
                .unwrap()
                .is_insufficient_scope()
        );
    }

    #[test]
    fn a_bare_bearer_and_garbage() {
        assert_eq!(bearer_challenge("Bearer"), Some(BearerChallenge::default()));
        assert_eq!(bearer_challenge("Basic realm=x"), None);
        assert_eq!(bearer_challenge(""), None);
        assert_eq!(
            bearer_challenge(r#"Bearer scope="", error="#),
            Some(BearerChallenge::default())
        );
        // Unterminated quotes take the rest; stray characters are skipped.
        let bearer = bearer_challenge("\u{0}é Bearer scope=\"a b").unwrap();
        assert_eq!(bearer.scope.as_deref(), Some("a b"));
        assert_eq!(parse_challenges("=,=,\"").len(), 0);
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_header_parses_without_panicking(header in ".{0,200}") {
            let _ = bearer_challenge(&header);
        }

        #[test]
        fn header_shaped_text_parses_without_panicking(
            header in r#"(Bearer|Basic|,| |=|"|\\|[a-z_]{1,8}|[A-Za-z0-9+/]{1,6}|é){0,40}"#
        ) {
            let all = parse_challenges(&header);
            prop_assert!(all.len() <= MAX_ITEMS);
            let _ = bearer_challenge(&header);
        }

        #[test]
        fn quoted_values_round_trip(value in "[ -~]{0,30}") {
            let quoted = value.replace('\\', "\\\\").replace('"', "\\\"");
            let header = format!("Bearer scope=\"{quoted}\", error=x");
            let all = parse_challenges(&header);
            prop_assert_eq!(all[0].param("scope"), Some(value.as_str()));
            prop_assert_eq!(all[0].param("error"), Some("x"));
        }
    }
}
