//! Which scope to ask for (MCP 2025-11-25 "Scope Selection Strategy"): the challenge's
//! `scope`, else every scope of the PRM's `scopes_supported`, else none (the parameter is
//! omitted). `offline_access` is added only when the authorization server lists it and the
//! client asks for refresh tokens (SEP-2207). A step-up after `403 insufficient_scope` asks
//! for what was asked before plus what the challenge names, so nothing granted is lost.
//!
//! ```
//! use mcp_lens_protocol::auth::scope::{choose_scope, step_up_scope};
//! let prm = vec!["mcp:read".to_owned(), "mcp:write".to_owned()];
//! assert_eq!(choose_scope(Some("mcp:basic"), Some(&prm), None, true).as_deref(), Some("mcp:basic"));
//! assert_eq!(choose_scope(None, Some(&prm), None, true).as_deref(), Some("mcp:read mcp:write"));
//! assert_eq!(choose_scope(None, None, None, true), None);
//! assert_eq!(step_up_scope(Some("mcp:basic"), Some("mcp:basic mcp:write")).as_deref(), Some("mcp:basic mcp:write"));
//! ```

/// The scope that asks for a refresh token.
pub const OFFLINE_ACCESS: &str = "offline_access";

fn tokens(scope: &str) -> impl Iterator<Item = &str> {
    scope.split_ascii_whitespace()
}

/// The scope of the first authorization request. `as_scopes` is the authorization server's
/// `scopes_supported`; `wants_refresh` whether the client registered the `refresh_token`
/// grant. `None`: send no `scope`.
pub fn choose_scope(
    challenge: Option<&str>,
    prm_scopes: Option<&[String]>,
    as_scopes: Option<&[String]>,
    wants_refresh: bool,
) -> Option<String> {
    let chosen = challenge
        .map(str::to_owned)
        .filter(|s| tokens(s).next().is_some())
        .or_else(|| {
            let joined = prm_scopes?.join(" ");
            Some(joined).filter(|s| tokens(s).next().is_some())
        })?;
    let chosen = union(&[&chosen]);
    let offers_offline = as_scopes.is_some_and(|s| s.iter().any(|s| s == OFFLINE_ACCESS));
    if wants_refresh && offers_offline && !tokens(&chosen).any(|s| s == OFFLINE_ACCESS) {
        Some(format!("{chosen} {OFFLINE_ACCESS}"))
    } else {
        Some(chosen)
    }
}

/// Each distinct scope of the given lists once, first-seen order, single spaces.
pub fn union(scopes: &[&str]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for scope in scopes.iter().flat_map(|s| tokens(s)) {
        if !seen.contains(&scope) {
            seen.push(scope);
        }
    }
    seen.join(" ")
}

/// The scope of a step-up authorization: what was asked before plus what the challenge
/// names. `None` when both are empty.
pub fn step_up_scope(previous: Option<&str>, challenge: Option<&str>) -> Option<String> {
    let scope = union(&[previous.unwrap_or(""), challenge.unwrap_or("")]);
    Some(scope).filter(|s| !s.is_empty())
}

/// Whether `granted` holds every scope of `wanted` (a refresh cannot widen a grant, RFC
/// 6749 §6, so a step-up to more than was granted needs a new authorization). An absent
/// grant counts as empty.
///
/// ```
/// use mcp_lens_protocol::auth::scope::covers;
/// assert!(covers(Some("a b c"), "c a"));
/// assert!(!covers(Some("a"), "a b"));
/// assert!(!covers(None, "a"));
/// ```
pub fn covers(granted: Option<&str>, wanted: &str) -> bool {
    let granted: Vec<&str> = granted.map(|g| tokens(g).collect()).unwrap_or_default();
    tokens(wanted).all(|scope| granted.contains(&scope))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn offline_access_only_when_the_server_lists_it_and_refresh_is_wanted() {
        let prm = list(&["mcp:basic"]);
        let with_offline = list(&["mcp:basic", "offline_access"]);
        assert_eq!(
            choose_scope(None, Some(&prm), Some(&with_offline), true).as_deref(),
            Some("mcp:basic offline_access")
        );
        assert_eq!(
            choose_scope(None, Some(&prm), Some(&prm), true).as_deref(),
            Some("mcp:basic")
        );
        assert_eq!(
            choose_scope(None, Some(&prm), Some(&with_offline), false).as_deref(),
            Some("mcp:basic")
        );
        // Already asked for: not twice. Nothing to ask for: still nothing.
        assert_eq!(
            choose_scope(Some("offline_access  a"), None, Some(&with_offline), true).as_deref(),
            Some("offline_access a")
        );
        assert_eq!(choose_scope(None, None, Some(&with_offline), true), None);
    }

    #[test]
    fn empty_sources_fall_through() {
        let prm = list(&["x", "y"]);
        assert_eq!(
            choose_scope(Some("  "), Some(&prm), None, false).as_deref(),
            Some("x y")
        );
        assert_eq!(choose_scope(None, Some(&[]), None, false), None);
        assert_eq!(step_up_scope(None, None), None);
        assert_eq!(
            step_up_scope(Some("a b"), Some("b c")).as_deref(),
            Some("a b c")
        );
    }
}
