//! The page's Web Storage: localStorage (settings, the theme), sessionStorage (what this tab
//! remembers: secrets a person asked it to keep, signed-in tokens). No reader of a key's value
//! here: each key's owner reads it.

/// A signed-in server's tokens, by entry id (written by `auth/tokens.rs`, only on "Remember").
pub(super) const TOKENS_KEY: &str = "mcp-lens.tokens.";

pub(super) fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

pub(super) fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

/// Whether this tab remembers signed-in tokens for the entry `id` (what they are for is the
/// sign-in's to check, when it reads them).
pub(super) fn has_remembered_tokens(id: &str) -> bool {
    session_storage()
        .and_then(|storage| {
            storage
                .get_item(&format!("{TOKENS_KEY}{id}"))
                .ok()
                .flatten()
        })
        .is_some()
}
