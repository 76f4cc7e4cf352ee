//! The tools a model sees, for a set of servers, in one dialect (the seed's
//! `MCPClientManager.getToolsForAiSdk`): app-only tools hidden, a `server__` prefix where
//! names collide across servers, names made valid for the provider, schemas converted
//! ([`crate::schema_convert`]), and the way back from a provider-visible name to (server, tool).
//!
//! Tools are read from their MCP JSON (`tools/list` entries), leniently: a malformed tool is
//! hidden with a reason rather than failing the set.

use crate::names::{provider_name, server_prefix, unique_name};
use crate::provider::Dialect;
use crate::schema_convert::{convert_input_schema, restore_json_text, Dropped};
use mcp_lens_client::protocol::apps::tool::Visibility;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// A description longer than this is cut (a server's text is sent with every request).
pub const MAX_DESCRIPTION_CHARS: usize = 10_000;

/// One server's tools, as `tools/list` gave them.
#[derive(Debug, Clone, Copy)]
pub struct ServerTools<'a> {
    /// The id the page knows the server by (what [`ToolDefinition::server_id`] gives back).
    pub server_id: &'a str,
    pub tools: &'a [Value],
}

/// A tool as one dialect's model sees it, and the MCP tool it stands for.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDefinition {
    /// The name the model uses (unique in the set, valid for the dialect).
    pub provider_name: String,
    pub server_id: String,
    /// The MCP tool's own name, for `tools/call`.
    pub tool_name: String,
    pub title: Option<String>,
    pub description: String,
    /// The converted input schema; None when the dialect is told the tool takes no arguments.
    pub parameters: Option<Value>,
    /// `annotations.readOnlyHint == true`.
    pub read_only: bool,
    /// The tool's `annotations` as the server sent them (for the approval prompt: hints such
    /// as `destructiveHint` and `openWorldHint`); never sent to the model.
    pub annotations: Option<Value>,
    /// What the conversion could not keep.
    pub dropped: Vec<Dropped>,
    /// Arguments asked for as JSON text (see [`crate::schema_convert::restore_json_text`]).
    pub json_text_paths: Vec<Vec<String>>,
}

impl ToolDefinition {
    /// The model's arguments as the tool's schema wants them (values asked for as JSON text
    /// decoded back).
    pub fn arguments_for_tool(&self, mut arguments: Value) -> Value {
        restore_json_text(&mut arguments, &self.json_text_paths);
        arguments
    }
}

/// A tool the model does not see, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct HiddenTool {
    pub server_id: String,
    pub tool_name: String,
    pub why: String,
}

/// The tools of a set of servers in one dialect.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSet {
    pub dialect: Dialect,
    pub definitions: Vec<ToolDefinition>,
    pub hidden: Vec<HiddenTool>,
}

impl ToolSet {
    pub fn empty(dialect: Dialect) -> Self {
        Self {
            dialect,
            definitions: Vec::new(),
            hidden: Vec::new(),
        }
    }

    /// The model-visible tools of `servers` (in their order) for `dialect`.
    pub fn build(dialect: Dialect, servers: &[ServerTools<'_>]) -> Self {
        let mut hidden = Vec::new();
        let mut visible: Vec<(&str, &str, &Value)> = Vec::new();
        for server in servers {
            let mut seen_here = HashSet::new();
            for tool in server.tools {
                let hide = |why: &str, name: &str| HiddenTool {
                    server_id: server.server_id.to_owned(),
                    tool_name: name.to_owned(),
                    why: why.to_owned(),
                };
                let Some(name) = tool.get("name").and_then(Value::as_str) else {
                    hidden.push(hide("it has no name", ""));
                    continue;
                };
                if !seen_here.insert(name) {
                    hidden.push(hide(
                        "the server lists this name twice; the first is used",
                        name,
                    ));
                    continue;
                }
                let visibility = Visibility::from_value(tool.pointer("/_meta/ui/visibility"));
                if !visibility.model_may_see() {
                    hidden.push(hide(
                        "it is for the server's app only (_meta.ui.visibility has no \"model\")",
                        name,
                    ));
                    continue;
                }
                visible.push((server.server_id, name, tool));
            }
        }

        // Names shared by several servers get the server's prefix.
        let mut servers_per_name: HashMap<&str, HashSet<&str>> = HashMap::new();
        for (server, name, _) in &visible {
            servers_per_name.entry(name).or_default().insert(server);
        }
        let mut taken: HashSet<String> = HashSet::new();
        let mut definitions = Vec::with_capacity(visible.len());
        for (server, name, tool) in visible {
            let collides = servers_per_name.get(name).is_some_and(|s| s.len() > 1);
            let wanted = if collides {
                format!("{}__{name}", server_prefix(server))
            } else {
                name.to_owned()
            };
            let valid = provider_name(&wanted, dialect);
            let unique = unique_name(&valid, |n| taken.contains(n));
            taken.insert(unique.clone());
            definitions.push(definition(dialect, server, name, tool, &wanted, unique));
        }
        Self {
            dialect,
            definitions,
            hidden,
        }
    }

    /// The tool a provider-visible name stands for.
    pub fn resolve(&self, provider_name: &str) -> Option<&ToolDefinition> {
        self.definitions
            .iter()
            .find(|d| d.provider_name == provider_name)
    }

    /// The definition of a server's tool, if the model sees it.
    pub fn find(&self, server_id: &str, tool_name: &str) -> Option<&ToolDefinition> {
        self.definitions
            .iter()
            .find(|d| d.server_id == server_id && d.tool_name == tool_name)
    }

    /// Every conversion note, with the tool it belongs to.
    pub fn dropped(&self) -> impl Iterator<Item = (&ToolDefinition, &Dropped)> {
        self.definitions
            .iter()
            .flat_map(|d| d.dropped.iter().map(move |note| (d, note)))
    }
}

fn definition(
    dialect: Dialect,
    server: &str,
    name: &str,
    tool: &Value,
    wanted: &str,
    provider_name: String,
) -> ToolDefinition {
    let converted = convert_input_schema(tool.get("inputSchema").unwrap_or(&Value::Null), dialect);
    let mut dropped = Vec::new();
    if provider_name != wanted {
        dropped.push(Dropped::new(
            "/name",
            format!("the name {wanted:?}"),
            format!(
                "{} accepts at most 64 letters, digits, _ and -{}; sent as {provider_name:?}",
                dialect.label(),
                if dialect == Dialect::Gemini {
                    ", starting with a letter or _"
                } else {
                    ""
                }
            ),
        ));
    }
    dropped.extend(converted.dropped);
    let title = tool
        .get("title")
        .and_then(Value::as_str)
        .or_else(|| tool.pointer("/annotations/title").and_then(Value::as_str))
        .map(str::to_owned);
    let mut description = tool
        .get("description")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .or_else(|| title.clone())
        .unwrap_or_default();
    if let Some((cut, _)) = description.char_indices().nth(MAX_DESCRIPTION_CHARS) {
        description.truncate(cut);
        dropped.push(Dropped::new(
            "/description",
            format!("the description after {MAX_DESCRIPTION_CHARS} characters"),
            "it is sent with every request",
        ));
    }
    ToolDefinition {
        provider_name,
        server_id: server.to_owned(),
        tool_name: name.to_owned(),
        title,
        description,
        parameters: converted.parameters,
        read_only: tool.pointer("/annotations/readOnlyHint") == Some(&Value::Bool(true)),
        annotations: tool.get("annotations").filter(|a| a.is_object()).cloned(),
        dropped,
        json_text_paths: converted.json_text_paths,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str) -> Value {
        json!({ "name": name, "inputSchema": { "type": "object" } })
    }

    fn one_server(dialect: Dialect, tools: &[Value]) -> ToolSet {
        ToolSet::build(
            dialect,
            &[ServerTools {
                server_id: "s",
                tools,
            }],
        )
    }

    fn names(set: &ToolSet) -> Vec<&str> {
        set.definitions
            .iter()
            .map(|d| d.provider_name.as_str())
            .collect()
    }

    #[test]
    fn app_only_tools_are_hidden_from_the_model_and_said_why() {
        let tools = [
            tool("echo"),
            json!({ "name": "refresh", "inputSchema": {}, "_meta": { "ui": { "visibility": ["app"] } } }),
            json!({ "name": "both", "inputSchema": {}, "_meta": { "ui": { "visibility": ["app", "model"] } } }),
        ];
        let set = one_server(Dialect::OpenAiCompatible, &tools);
        assert_eq!(names(&set), ["echo", "both"]);
        assert_eq!(set.hidden.len(), 1);
        assert_eq!(set.hidden[0].tool_name, "refresh");
        assert!(set.hidden[0].why.contains("app only"));
    }

    #[test]
    fn names_that_collide_across_servers_get_the_servers_prefix_and_resolve_back() {
        let everything = [tool("echo"), tool("add")];
        let other = [tool("echo")];
        let set = ToolSet::build(
            Dialect::Anthropic,
            &[
                ServerTools {
                    server_id: "everything",
                    tools: &everything,
                },
                ServerTools {
                    server_id: "my server",
                    tools: &other,
                },
            ],
        );
        assert_eq!(names(&set), ["everything__echo", "add", "my_server__echo"]);
        let echo = set.resolve("my_server__echo").unwrap();
        assert_eq!(
            (echo.server_id.as_str(), echo.tool_name.as_str()),
            ("my server", "echo")
        );
        assert_eq!(set.find("everything", "add").unwrap().provider_name, "add");
        assert!(set.resolve("echo").is_none());
    }

    #[test]
    fn names_made_equal_by_cleaning_are_numbered_and_the_change_noted() {
        let tools = [tool("a.b"), tool("a_b"), tool("a b")];
        let set = one_server(Dialect::OpenAiCompatible, &tools);
        assert_eq!(names(&set), ["a_b", "a_b_2", "a_b_3"]);
        assert_eq!(set.definitions[0].dropped[0].path, "/name");
        assert!(set.definitions[1].dropped[0].why.contains("a_b_2"));
        assert_eq!(set.resolve("a_b_3").unwrap().tool_name, "a b");
    }

    #[test]
    fn malformed_and_repeated_tools_are_hidden_not_fatal() {
        let tools = [
            json!({ "description": "no name" }),
            tool("x"),
            tool("x"),
            json!(42),
        ];
        let set = one_server(Dialect::Gemini, &tools);
        assert_eq!(set.definitions.len(), 1);
        assert_eq!(set.hidden.len(), 3);
    }

    #[test]
    fn read_only_tools_title_and_description_are_read() {
        let tools = [json!({
            "name": "get", "title": "Get a thing",
            "inputSchema": { "type": "object", "properties": { "id": { "type": "string" } } },
            "annotations": { "readOnlyHint": true }
        })];
        let set = one_server(Dialect::OpenAiCompatible, &tools);
        let get = &set.definitions[0];
        assert!(get.read_only);
        assert_eq!(get.title.as_deref(), Some("Get a thing"));
        assert_eq!(get.description, "Get a thing");
    }
}
