//! The tools of many servers: tagged with their server, `server:tool` names resolved, and
//! the tools meant only for MCP Apps told apart.

use super::error::ManagerError;
use rmcp::model::Tool;
use serde_json::Value;

/// A tool, tagged with the server that offers it.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerTool {
    pub server: String,
    pub tool: Tool,
}

/// Whether a tool is meant only for MCP Apps, not for a model (SEP-1865:
/// `_meta.ui.visibility` lists `"app"` and not `"model"`).
pub fn is_app_only(tool: &Tool) -> bool {
    let visibility = tool
        .meta
        .as_ref()
        .and_then(|meta| meta.0.get("ui"))
        .and_then(|ui| ui.get("visibility"))
        .and_then(Value::as_array);
    visibility.is_some_and(|list| {
        let has = |name: &str| list.iter().any(|v| v.as_str() == Some(name));
        has("app") && !has("model")
    })
}

/// Resolves `server:tool`, or a bare tool name offered by exactly one server, against
/// `offered` (server, tool) pairs. A server id may itself contain `:`, so the longest server
/// id that prefixes the name wins; a tool whose own name contains `:` is found as a bare name.
pub fn resolve_tool_name(
    name: &str,
    offered: &[(String, String)],
) -> Result<(String, String), ManagerError> {
    let exact: Vec<&(String, String)> = offered
        .iter()
        .filter(|(server, tool)| {
            name.strip_prefix(server.as_str())
                .and_then(|rest| rest.strip_prefix(':'))
                == Some(tool.as_str())
        })
        .collect();
    if let Some(best) = exact.iter().max_by_key(|(server, _)| server.len()) {
        return Ok((*best).clone());
    }
    let bare: Vec<&(String, String)> = offered.iter().filter(|(_, tool)| tool == name).collect();
    match bare.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(ManagerError::UnresolvedTool {
            name: name.to_owned(),
            why: "no connected server offers it".to_owned(),
        }),
        several => Err(ManagerError::UnresolvedTool {
            name: name.to_owned(),
            why: format!(
                "{} servers offer it ({}); name one as server:tool",
                several.len(),
                several
                    .iter()
                    .map(|(s, _)| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(s, t)| (s.to_string(), t.to_string()))
            .collect()
    }

    #[test]
    fn tool_names_resolve_to_their_server() {
        let offered = pairs(&[("a", "echo"), ("b", "echo"), ("b", "sum"), ("x:y", "z")]);
        let ok = |s: &str, t: &str| Ok((s.to_owned(), t.to_owned()));
        assert_eq!(resolve_tool_name("b:echo", &offered), ok("b", "echo"));
        assert_eq!(resolve_tool_name("sum", &offered), ok("b", "sum"));
        assert_eq!(resolve_tool_name("x:y:z", &offered), ok("x:y", "z"));
        let ambiguous = resolve_tool_name("echo", &offered).unwrap_err();
        assert_eq!(
            ambiguous.to_string(),
            "the tool \"echo\" cannot be called: 2 servers offer it (a, b); name one as server:tool."
        );
        assert!(matches!(
            resolve_tool_name("c:echo", &offered),
            Err(ManagerError::UnresolvedTool { .. })
        ));
    }

    #[test]
    fn app_only_tools_are_recognised_by_their_visibility() {
        let tool = |meta: Value| -> Tool {
            serde_json::from_value(
                json!({"name": "t", "inputSchema": {"type": "object"}, "_meta": meta}),
            )
            .unwrap()
        };
        assert!(is_app_only(&tool(json!({"ui": {"visibility": ["app"]}}))));
        assert!(!is_app_only(&tool(
            json!({"ui": {"visibility": ["model", "app"]}})
        )));
        assert!(!is_app_only(&tool(
            json!({"ui": {"resourceUri": "ui://x"}})
        )));
        assert!(!is_app_only(&tool(json!({"ui": {"visibility": "app"}}))));
    }
}
