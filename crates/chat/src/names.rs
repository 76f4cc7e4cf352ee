//! Tool names as each provider accepts them.
//!
//! OpenAI: `^[a-zA-Z0-9_-]{1,64}$`. Anthropic: `^[a-zA-Z0-9_-]{1,64}$` in its tool reference
//! (some of its pages say 128; 64 is what every version accepts). Gemini: letters, digits,
//! `_`, `-` (and `.`, `:`), at most 64, starting with a letter or an underscore. One rule
//! serves all three, with Gemini's first character: the same server gives the same names to
//! every model, which keeps side-by-side comparisons readable.

use crate::provider::Dialect;

/// The longest name every dialect accepts.
pub const MAX_NAME_CHARS: usize = 64;

/// The name as `dialect` accepts it: other characters become `_`, a leading digit or dash gets
/// a `_` before it where the dialect wants a letter first, and it is cut to
/// [`MAX_NAME_CHARS`]. Never empty.
pub fn provider_name(name: &str, dialect: Dialect) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() {
        out.push_str("tool");
    }
    let needs_letter_first = dialect == Dialect::Gemini;
    if needs_letter_first && !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    out.truncate(MAX_NAME_CHARS);
    out
}

/// `name` with `_2`, `_3`, ... until `taken` says it is free, still within the limit.
pub fn unique_name(name: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(name) {
        return name.to_owned();
    }
    for n in 2usize.. {
        let suffix = format!("_{n}");
        let mut base = name.to_owned();
        base.truncate(MAX_NAME_CHARS.saturating_sub(suffix.len()));
        let candidate = format!("{base}{suffix}");
        if !taken(&candidate) {
            return candidate;
        }
    }
    name.to_owned()
}

/// A server's id as a name prefix: valid characters, at most 24 of them (the tool's name
/// keeps the rest of the room).
pub fn server_prefix(server_id: &str) -> String {
    let mut prefix = provider_name(server_id, Dialect::OpenAiCompatible);
    prefix.truncate(24);
    prefix
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_keep_valid_characters_and_replace_the_others() {
        assert_eq!(
            provider_name("get_weather", Dialect::OpenAiCompatible),
            "get_weather"
        );
        assert_eq!(
            provider_name("admin.tools.list", Dialect::Anthropic),
            "admin_tools_list"
        );
        assert_eq!(provider_name("météo", Dialect::OpenAiCompatible), "m_t_o");
        assert_eq!(provider_name("", Dialect::Gemini), "tool");
    }

    #[test]
    fn gemini_names_start_with_a_letter_or_underscore() {
        assert_eq!(provider_name("2fa-check", Dialect::Gemini), "_2fa-check");
        assert_eq!(
            provider_name("2fa-check", Dialect::OpenAiCompatible),
            "2fa-check"
        );
        assert_eq!(provider_name("-x", Dialect::Gemini), "_-x");
    }

    #[test]
    fn long_names_are_cut_and_duplicates_numbered_within_the_limit() {
        let long = "a".repeat(100);
        assert_eq!(
            provider_name(&long, Dialect::Anthropic).len(),
            MAX_NAME_CHARS
        );
        let taken = [provider_name(&long, Dialect::Anthropic)];
        let next = unique_name(&taken[0], |n| taken.iter().any(|t| t == n));
        assert_eq!(next.len(), MAX_NAME_CHARS);
        assert!(next.ends_with("_2"));
        assert_eq!(unique_name("free", |_| false), "free");
    }
}
