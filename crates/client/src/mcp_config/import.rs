//! Reading a config file into sidebar entries: remote servers (secrets kept in memory only),
//! stdio servers with their bridge command, and each skipped entry with its key, line and
//! reason; bounded in bytes and entries.

use super::bridge::{bridge_command, shell_word, BRIDGE_PORT};
use super::text::{key_lines, strip_bom, strip_jsonc};
use serde_json::Value;

/// A server the page can connect to. `headers` and `token` are secrets: memory only.
#[derive(Clone, PartialEq, Eq)]
pub struct RemoteServer {
    pub name: String,
    pub url: String,
    /// `auto`, `streamable-http` or `sse` (the sidebar's keys).
    pub transport: String,
    /// Header names and values, in file order, `Authorization: Bearer` excepted.
    pub headers: Vec<(String, String)>,
    /// The bearer token of an `Authorization: Bearer ...` header.
    pub token: String,
    /// Values the file did not hold (VS Code `${input:...}`, `${env:...}`): names of headers
    /// imported empty, for the person to fill in.
    pub placeholders: Vec<String>,
}

impl std::fmt::Debug for RemoteServer {
    // Never the values: they are secrets.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("RemoteServer")
            .field("name", &self.name)
            .field("url", &self.url)
            .field("transport", &self.transport)
            .field("header_names", &names)
            .field("has_token", &!self.token.is_empty())
            .field("placeholders", &self.placeholders)
            .finish()
    }
}

/// A `command` server: listed with why it cannot be opened here and how to bridge it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StdioServer {
    pub name: String,
    /// The command line as the file gives it (shell-quoted), without environment values.
    pub command_line: String,
    /// The names of its `env` variables (their values are not repeated anywhere).
    pub env_names: Vec<String>,
    /// A shell command that serves it over Streamable HTTP with CORS (supergateway).
    pub bridge: String,
    /// Where the bridge listens.
    pub bridge_url: String,
}

/// An entry that was skipped, with the key at fault and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// e.g. `mcpServers.weather.url`.
    pub key: String,
    /// The line of the file where the entry starts, when found.
    pub line: Option<usize>,
    pub reason: String,
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "Line {line}, key {}: {}", self.key, self.reason),
            None => write!(f, "Key {}: {}", self.key, self.reason),
        }
    }
}

/// What a file held.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Imported {
    pub remote: Vec<RemoteServer>,
    pub stdio: Vec<StdioServer>,
    pub skipped: Vec<Skipped>,
    /// How many entries the file's server list has in all; only the first [`MAX_ENTRIES`]
    /// are read.
    pub listed: usize,
}

impl Imported {
    /// The sentence saying that entries were left out, when the list was longer than
    /// [`MAX_ENTRIES`].
    ///
    /// ```
    /// use mcp_lens_client::mcp_config::parse;
    /// let entries: Vec<String> = (0..1_500).map(|n| format!(r#""s{n}": {{"url": "https://h/{n}"}}"#)).collect();
    /// let imported = parse(&format!(r#"{{"mcpServers": {{{}}}}}"#, entries.join(","))).unwrap();
    /// assert_eq!(imported.remote.len(), 1_000);
    /// assert_eq!(imported.left_out().as_deref(), Some(
    ///     "The file lists 1,500 servers; the first 1,000 were read and 500 were left out \
    ///      (at most 1,000 are imported at once)."));
    /// ```
    pub fn left_out(&self) -> Option<String> {
        let read = self.listed.min(MAX_ENTRIES);
        (self.listed > read).then(|| {
            format!(
                "The file lists {} servers; the first {} were read and {} were left out (at most {} are imported at once).",
                thousands(self.listed),
                thousands(read),
                thousands(self.listed - read),
                thousands(MAX_ENTRIES)
            )
        })
    }
}

/// `80000` as `80,000`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A file that could not be read at all. Its `Display` is the sentence to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// The key at fault, when there is one.
    pub key: Option<String>,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, self.column, &self.key) {
            (Some(line), Some(column), _) => {
                write!(f, "Line {line}, column {column}: {}", self.message)
            }
            (Some(line), None, Some(key)) => write!(f, "Line {line}, key {key}: {}", self.message),
            (None, _, Some(key)) => write!(f, "Key {key}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

/// Files larger than this are refused (a server list is a few KB).
pub const MAX_FILE_BYTES: usize = 1 << 20;

/// The most entries one import reads (each becomes a sidebar entry); a longer list is read
/// up to here and the rest reported ([`Imported::left_out`]).
pub const MAX_ENTRIES: usize = 1_000;

/// Reads a config file. A file that is not JSON, or holds no server list, is an error naming
/// the line (and column) or key at fault; a bad entry is skipped and reported in
/// [`Imported::skipped`], the others are still read.
pub fn parse(text: &str) -> Result<Imported, ConfigError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(ConfigError {
            line: None,
            column: None,
            key: None,
            message: format!(
                "The file is {} KB; a server list is expected to be under {} KB.",
                text.len() / 1024,
                MAX_FILE_BYTES / 1024
            ),
        });
    }
    let text_for_json = strip_bom(text);
    let value: Value = match serde_json::from_str(text_for_json) {
        Ok(value) => value,
        Err(error) => {
            // VS Code's files allow comments and trailing commas (JSONC): try again without.
            let cleaned = strip_jsonc(text_for_json);
            match serde_json::from_str(&cleaned) {
                Ok(value) => value,
                Err(_) => return Err(json_error(&error)),
            }
        }
    };
    let Value::Object(root) = value else {
        return Err(ConfigError {
            line: Some(1),
            column: None,
            key: None,
            message: format!(
                "The file holds {}, not an object with \"mcpServers\" or \"servers\".",
                kind_of(&value)
            ),
        });
    };
    let (list_key, list) = if let Some(list) = root.get("mcpServers") {
        ("mcpServers".to_owned(), list)
    } else if let Some(list) = root.get("servers") {
        ("servers".to_owned(), list)
    } else if let Some(list) = root.get("mcp").and_then(|mcp| mcp.get("servers")) {
        ("mcp.servers".to_owned(), list)
    } else {
        return Err(ConfigError {
            line: None,
            column: None,
            key: None,
            message:
                "No server list found: expected a key \"mcpServers\" (Claude Desktop, Cursor, \
                      MCP Inspector) or \"servers\" (VS Code) at the top level."
                    .to_owned(),
        });
    };
    let Value::Object(list) = list else {
        let (parent, last) = match list_key.rsplit_once('.') {
            Some((parent, last)) => (vec![parent], last),
            None => (Vec::new(), list_key.as_str()),
        };
        return Err(ConfigError {
            line: key_lines(text, &parent).get(last).copied(),
            column: None,
            key: Some(list_key),
            message: format!(
                "expected an object of servers by name, found {}.",
                kind_of(list)
            ),
        });
    };
    let mut imported = Imported {
        listed: list.len(),
        ..Imported::default()
    };
    // Every entry's line in one pass over the text (finding each name anew was quadratic).
    let path: Vec<&str> = list_key.split('.').collect();
    let lines = key_lines(text, &path);
    for (name, entry) in list.iter().take(MAX_ENTRIES) {
        let key = format!("{list_key}.{}", key_part(name));
        let line = lines.get(name).copied();
        match read_entry(name, entry, &key) {
            Ok(Entry::Remote(server)) => imported.remote.push(server),
            Ok(Entry::Stdio(mut server)) => {
                let port = BRIDGE_PORT.saturating_add(imported.stdio.len().min(1000) as u16);
                let (bridge, url) = bridge_command(&server.command_line, &server.env_names, port);
                server.bridge = bridge;
                server.bridge_url = url;
                imported.stdio.push(server);
            }
            Err((key, reason)) => imported.skipped.push(Skipped { key, line, reason }),
        }
    }
    Ok(imported)
}

enum Entry {
    Remote(RemoteServer),
    Stdio(StdioServer),
}

fn read_entry(name: &str, entry: &Value, key: &str) -> Result<Entry, (String, String)> {
    let Value::Object(entry) = entry else {
        return Err((
            key.to_owned(),
            format!("expected an object, found {}.", kind_of(entry)),
        ));
    };
    let kind = match entry.get("type") {
        None | Some(Value::Null) => None,
        Some(Value::String(kind)) => Some(kind.as_str()),
        Some(other) => {
            return Err((
                format!("{key}.type"),
                format!("expected a string, found {}.", kind_of(other)),
            ))
        }
    };
    let url = match entry.get("url").or_else(|| entry.get("serverUrl")) {
        None | Some(Value::Null) => None,
        Some(Value::String(url)) => Some(url.trim()),
        Some(other) => {
            return Err((
                format!("{key}.url"),
                format!("expected a string, found {}.", kind_of(other)),
            ))
        }
    };
    let command = entry.get("command");
    let transport = match kind {
        Some("stdio") => None,
        Some("sse") => Some("sse"),
        Some("http" | "streamable-http" | "streamableHttp" | "streamable_http") => {
            Some("streamable-http")
        }
        Some(other) => {
            return Err((
                format!("{key}.type"),
                format!(
                "\"{}\" is not a transport a browser page can use (http, streamable-http or sse).",
                clip(other)
            ),
            ))
        }
        None if url.is_some() => Some("auto"),
        None if command.is_some() => None,
        None => {
            return Err((
                key.to_owned(),
                "has neither \"url\" nor \"command\".".to_owned(),
            ))
        }
    };
    match transport {
        Some(transport) => {
            let Some(url) = url.filter(|u| !u.is_empty()) else {
                return Err((
                    format!("{key}.url"),
                    "a remote server needs a \"url\".".to_owned(),
                ));
            };
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err((
                    format!("{key}.url"),
                    format!("\"{}\" is not an http(s) address.", clip(url)),
                ));
            }
            let (headers, token, placeholders) = read_headers(entry.get("headers"), key)?;
            Ok(Entry::Remote(RemoteServer {
                name: name.to_owned(),
                url: url.to_owned(),
                transport: transport.to_owned(),
                headers,
                token,
                placeholders,
            }))
        }
        None => {
            let command = match command {
                Some(Value::String(command)) if !command.trim().is_empty() => command.trim(),
                Some(Value::String(_)) | None => {
                    return Err((
                        format!("{key}.command"),
                        "a stdio server needs a \"command\".".to_owned(),
                    ))
                }
                Some(other) => {
                    return Err((
                        format!("{key}.command"),
                        format!("expected a string, found {}.", kind_of(other)),
                    ))
                }
            };
            let mut words = vec![shell_word(command)];
            match entry.get("args") {
                None | Some(Value::Null) => {}
                Some(Value::Array(args)) => {
                    for (i, arg) in args.iter().enumerate() {
                        match arg {
                            Value::String(arg) => words.push(shell_word(arg)),
                            Value::Number(n) => words.push(n.to_string()),
                            other => {
                                return Err((
                                    format!("{key}.args[{i}]"),
                                    format!("expected a string, found {}.", kind_of(other)),
                                ))
                            }
                        }
                    }
                }
                Some(other) => {
                    return Err((
                        format!("{key}.args"),
                        format!("expected an array of strings, found {}.", kind_of(other)),
                    ))
                }
            }
            let env_names = match entry.get("env") {
                Some(Value::Object(env)) => {
                    env.keys().filter(|k| is_env_name(k)).cloned().collect()
                }
                _ => Vec::new(),
            };
            Ok(Entry::Stdio(StdioServer {
                name: name.to_owned(),
                command_line: words.join(" "),
                env_names,
                bridge: String::new(),
                bridge_url: String::new(),
            }))
        }
    }
}

type Headers = (Vec<(String, String)>, String, Vec<String>);

fn read_headers(headers: Option<&Value>, key: &str) -> Result<Headers, (String, String)> {
    let mut list = Vec::new();
    let mut token = String::new();
    let mut placeholders = Vec::new();
    let headers = match headers {
        None | Some(Value::Null) => return Ok((list, token, placeholders)),
        Some(Value::Object(headers)) => headers,
        Some(other) => {
            return Err((
                format!("{key}.headers"),
                format!(
                    "expected an object of header names and values, found {}.",
                    kind_of(other)
                ),
            ))
        }
    };
    for (name, value) in headers {
        let value = match value {
            Value::String(value) => value.trim().to_owned(),
            Value::Number(n) => n.to_string(),
            other => {
                return Err((
                    format!("{key}.headers.{}", key_part(name)),
                    format!("expected a string, found {}.", kind_of(other)),
                ))
            }
        };
        if !is_header_name(name) {
            return Err((
                format!("{key}.headers.{}", key_part(name)),
                "is not a valid HTTP header name.".to_owned(),
            ));
        }
        let value = if value.contains("${") {
            placeholders.push(name.clone());
            String::new()
        } else {
            value
        };
        if name.eq_ignore_ascii_case("authorization") {
            if let Some(bearer) = value
                .get(..7)
                .filter(|p| p.eq_ignore_ascii_case("bearer "))
                .map(|_| value[7..].trim().to_owned())
            {
                token = bearer;
                continue;
            }
        }
        list.push((name.clone(), value));
    }
    Ok((list, token, placeholders))
}

fn is_env_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn is_header_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A name as part of a dotted key; clipped so a hostile file cannot flood the message.
fn key_part(name: &str) -> String {
    let clipped = clip(name);
    if clipped.is_empty() || clipped.contains(['.', ' ', '"']) {
        format!("{clipped:?}")
    } else {
        clipped
    }
}

fn clip(text: &str) -> String {
    let mut out: String = text.chars().take(80).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

fn json_error(error: &serde_json::Error) -> ConfigError {
    use serde_json::error::Category;
    let what = match error.classify() {
        Category::Eof => "the file ends too early (a bracket, brace or quote is not closed)",
        Category::Syntax => "this is not valid JSON here",
        Category::Data | Category::Io => "the file could not be read as JSON",
    };
    // serde_json's own wording, without its " at line N column M" tail.
    let detail = error.to_string();
    let detail = detail.split(" at line ").next().unwrap_or_default();
    let line = error.line();
    ConfigError {
        line: (line > 0).then_some(line),
        column: (line > 0).then_some(error.column()),
        key: None,
        message: format!("{what} ({detail})."),
    }
}
