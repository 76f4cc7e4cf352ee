//! What a manager call failed on: which server, and why.

use mcp_lens_protocol::error::McpError;
use std::fmt;

/// What a manager call failed on: which server, and why.
#[derive(Debug, Clone, PartialEq)]
pub enum ManagerError {
    /// No server has this id.
    UnknownServer(String),
    /// `connect` was given an id that is already in use (disconnect or remove it first).
    AlreadyExists(String),
    /// The server is known but not connected.
    NotConnected(String),
    /// A `server:tool` name named no server, or a bare tool name was offered by several.
    UnresolvedTool { name: String, why: String },
    /// The server's answer (or the request) failed.
    Mcp { server: String, error: McpError },
}

impl fmt::Display for ManagerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ManagerError::UnknownServer(id) => write!(f, "there is no server \"{id}\"."),
            ManagerError::AlreadyExists(id) => write!(
                f,
                "a server \"{id}\" exists already; disconnect or remove it first."
            ),
            ManagerError::NotConnected(id) => write!(f, "the server \"{id}\" is not connected."),
            ManagerError::UnresolvedTool { name, why } => {
                write!(f, "the tool \"{name}\" cannot be called: {why}.")
            }
            ManagerError::Mcp { server, error } => write!(f, "{server}: {error}"),
        }
    }
}

impl std::error::Error for ManagerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ManagerError::Mcp { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// A server's MCP failure.
pub(super) fn mcp(server: &str, error: McpError) -> ManagerError {
    ManagerError::Mcp {
        server: server.to_owned(),
        error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_std_errors_with_their_cause() {
        use mcp_lens_protocol::error::{ErrorKind, Step};
        let error = mcp("a", McpError::new(Step::Ping, ErrorKind::NotConnected));
        let dynamic: &dyn std::error::Error = &error;
        assert!(dynamic.source().is_some());
        assert_eq!(
            error.to_string(),
            "a: Ping failed: there is no connection; connect first."
        );
    }
}
