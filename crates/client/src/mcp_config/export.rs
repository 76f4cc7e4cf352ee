//! Writing the sidebar's servers back out, in the format a person picks (Claude Desktop /
//! Cursor, VS Code, MCP Inspector): no secret values, unique names.

use serde_json::{Map, Value};

/// The formats written by [`export`] (any of them is read by [`parse`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `{"mcpServers": {name: {"url", "type"?, "headers"?}}}`: Claude Desktop, Cursor, Claude Code.
    McpServers,
    /// `{"servers": {name: {"type": "http" | "sse", "url", "headers"?}}}`: VS Code's `mcp.json`.
    Vscode,
    /// `{"mcpServers": {name: {"type": "streamable-http" | "sse", "url"}}}`: the MCP Inspector.
    Inspector,
}

impl Format {
    pub const ALL: [Format; 3] = [Format::McpServers, Format::Vscode, Format::Inspector];

    pub fn key(self) -> &'static str {
        match self {
            Format::McpServers => "mcpServers",
            Format::Vscode => "vscode",
            Format::Inspector => "inspector",
        }
    }

    pub fn from_key(key: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.key() == key)
    }

    pub fn label(self) -> &'static str {
        match self {
            Format::McpServers => "Claude Desktop / Cursor (mcpServers)",
            Format::Vscode => "VS Code (.vscode/mcp.json)",
            Format::Inspector => "MCP Inspector (--config)",
        }
    }

    /// A file name for the download.
    pub fn file_name(self) -> &'static str {
        match self {
            Format::McpServers => "mcp.json",
            Format::Vscode => "mcp.vscode.json",
            Format::Inspector => "mcp-inspector.json",
        }
    }
}

/// One sidebar entry as written by [`export`]: no secrets by construction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportServer {
    pub name: String,
    /// Already redacted (see `saved::saved_url`).
    pub url: String,
    pub transport: String,
    /// Written with empty values.
    pub header_names: Vec<String>,
}

/// Writes the servers in `format`, pretty-printed. Header values are written empty; entries
/// without a URL are left out; names are made unique.
pub fn export(format: Format, servers: &[ExportServer]) -> String {
    let mut list = Map::new();
    for server in servers.iter().filter(|s| !s.url.trim().is_empty()) {
        let mut entry = Map::new();
        let sse = server.transport == "sse";
        let kind = match format {
            Format::McpServers => match server.transport.as_str() {
                "sse" => Some("sse"),
                "streamable-http" => Some("http"),
                _ => None,
            },
            Format::Vscode => Some(if sse { "sse" } else { "http" }),
            Format::Inspector => Some(
                if sse || server.transport == "auto" && server.url.trim_end().ends_with("/sse") {
                    "sse"
                } else {
                    "streamable-http"
                },
            ),
        };
        if let Some(kind) = kind {
            entry.insert("type".into(), Value::String(kind.into()));
        }
        entry.insert("url".into(), Value::String(server.url.trim().to_owned()));
        if !server.header_names.is_empty() && format != Format::Inspector {
            let headers: Map<String, Value> = server
                .header_names
                .iter()
                .map(|name| (name.clone(), Value::String(String::new())))
                .collect();
            entry.insert("headers".into(), Value::Object(headers));
        }
        let base = if server.name.trim().is_empty() {
            "server".to_owned()
        } else {
            server.name.clone()
        };
        let mut name = base.clone();
        let mut n = 2;
        while list.contains_key(&name) {
            name = format!("{base} ({n})");
            n += 1;
        }
        list.insert(name, Value::Object(entry));
    }
    let key = match format {
        Format::Vscode => "servers",
        Format::McpServers | Format::Inspector => "mcpServers",
    };
    let mut root = Map::new();
    root.insert(key.into(), Value::Object(list));
    serde_json::to_string_pretty(&Value::Object(root)).unwrap_or_default() + "\n"
}
