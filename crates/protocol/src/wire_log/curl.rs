//! A request we sent as a curl command, safe to paste into a shell.

use super::entry::{Direction, WireEntry};
use super::redact::REDACTED;

/// A curl command that repeats a request we sent, safe to paste into a shell: every literal
/// (URL, header values the server chose such as `Mcp-Session-Id`, the body) is single-quoted,
/// so nothing in it expands (`$HOME`, `` ` ``, `!!`). Redacted headers become shell variables
/// (`$MCP_TOKEN` for the bearer token), the only live parts, outside the quotes, so the
/// command works once they are set and never contains the secret itself. `--globoff`: curl
/// would otherwise expand `[1-100000]` or `{a,b}` in a server-chosen URL into as many
/// requests.
pub fn curl_command(entry: &WireEntry) -> String {
    let mut parts = vec![
        "curl".to_owned(),
        "--globoff".to_owned(),
        "-X".to_owned(),
        shell_quote(entry.via.as_str()),
        shell_quote(&entry.url),
    ];
    for (name, value) in &entry.headers {
        parts.push("-H".to_owned());
        if value == REDACTED {
            let (prefix, variable) = if name == "authorization" {
                ("Bearer ", "MCP_TOKEN".to_owned())
            } else {
                ("", variable_name(name))
            };
            parts.push(format!(
                "{}\"${variable}\"",
                shell_quote(&format!("{name}: {prefix}"))
            ));
        } else {
            parts.push(shell_quote(&format!("{name}: {value}")));
        }
    }
    if !entry.body.is_empty() && entry.direction == Direction::Sent {
        parts.push("--data-raw".to_owned());
        parts.push(shell_quote(&entry.body));
    }
    parts.join(" ")
}

/// The shell variable a redacted header's value is read from.
fn variable_name(header: &str) -> String {
    header
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// Single quotes: the shell takes everything inside literally (a `'` is closed, escaped and
/// reopened).
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire_log::entry::sample as entry;
    use crate::wire_log::redact::redact_headers;

    #[test]
    fn curl_commands_use_placeholders_for_secrets_and_quote_the_body() {
        let mut sent = entry(
            Direction::Sent,
            r#"{"id":1,"method":"tools/call","params":{"q":"it's"}}"#,
            0.0,
        );
        sent.headers = redact_headers(&[
            ("content-type".into(), "application/json".into()),
            ("authorization".into(), "Bearer s3cret".into()),
            ("x-api-key".into(), "k3y".into()),
        ]);
        let curl = curl_command(&sent);
        assert_eq!(
            curl,
            r#"curl --globoff -X 'POST' 'http://127.0.0.1:3001/mcp' -H 'content-type: application/json' -H 'authorization: Bearer '"$MCP_TOKEN" -H 'x-api-key: '"$X_API_KEY" --data-raw '{"id":1,"method":"tools/call","params":{"q":"it'\''s"}}'"#
        );
        assert!(!curl.contains("s3cret") && !curl.contains("k3y"));
    }

    #[test]
    fn curl_does_not_expand_globs_in_a_server_chosen_url() {
        // A legacy server's `endpoint` (or any URL the server chose) with curl's globbing
        // syntax: without --globoff, pasting the command sends 100,000 requests.
        let mut sent = entry(Direction::Sent, r#"{"id":1,"method":"ping"}"#, 0.0);
        sent.url = "http://127.0.0.1:3001/messages?session=[1-100000]&x={a,b}".into();
        let curl = curl_command(&sent);
        let words: Vec<&str> = curl.split(' ').collect();
        let url_at = words
            .iter()
            .position(|w| w.contains("[1-100000]"))
            .expect("the URL is in the command");
        let globoff_at = words.iter().position(|w| *w == "--globoff");
        assert!(
            globoff_at.is_some_and(|at| at < url_at),
            "no --globoff before the URL: {curl}"
        );
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use proptest::prelude::*;

        /// The words bash makes of a command line (NUL-separated by printf), with the
        /// placeholders set.
        fn bash_words(command: &str) -> Vec<String> {
            let line = command.replacen("curl", "printf '%s\\0'", 1);
            let output = std::process::Command::new("bash")
                .args(["--norc", "--noprofile", "-c", &line])
                .env("MCP_TOKEN", "the-token")
                .env("X_API_KEY", "the-key")
                .env("HOME", "/home/someone")
                .output()
                .expect("bash runs");
            assert!(output.status.success(), "{line}");
            String::from_utf8_lossy(&output.stdout)
                .split('\0')
                .filter(|w| !w.is_empty())
                .map(str::to_owned)
                .collect()
        }

        #[test]
        fn server_values_do_not_expand_in_a_shell() {
            let mut sent = entry(Direction::Sent, r#"{"q":"$(id) `id` !!"}"#, 0.0);
            sent.url = "http://h/mcp?a=$HOME&b=`id`".into();
            sent.headers = vec![
                ("mcp-session-id".into(), "$HOME".into()),
                ("last-event-id".into(), "!! $(touch /tmp/x) \\\" '".into()),
                ("authorization".into(), REDACTED.into()),
                ("x-api-key".into(), REDACTED.into()),
            ];
            assert_eq!(
                bash_words(&curl_command(&sent)),
                vec![
                    "--globoff",
                    "-X",
                    "POST",
                    "http://h/mcp?a=$HOME&b=`id`",
                    "-H",
                    "mcp-session-id: $HOME",
                    "-H",
                    "last-event-id: !! $(touch /tmp/x) \\\" '",
                    "-H",
                    "authorization: Bearer the-token",
                    "-H",
                    "x-api-key: the-key",
                    "--data-raw",
                    r#"{"q":"$(id) `id` !!"}"#,
                ]
            );
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]
            /// Any header value (no NUL: HTTP forbids it and bash cannot carry it), pasted
            /// into bash, reaches curl unchanged.
            #[test]
            fn any_header_value_reaches_curl_unchanged(value in "[^\\x00]{0,40}", url in "[^\\x00]{0,30}") {
                let mut sent = entry(Direction::Sent, &value, 0.0);
                sent.url = url.clone();
                sent.headers = vec![("mcp-session-id".into(), value.clone())];
                let words = bash_words(&curl_command(&sent));
                let mut expected = vec!["--globoff".to_owned(), "-X".to_owned(), "POST".to_owned()];
                if !url.is_empty() { expected.push(url.clone()); }
                expected.extend(["-H".to_owned(), format!("mcp-session-id: {value}")]);
                if !value.is_empty() { expected.extend(["--data-raw".to_owned(), value.clone()]); }
                prop_assert_eq!(words, expected);
            }
        }
    }
}
