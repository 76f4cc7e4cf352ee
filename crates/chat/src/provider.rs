//! Who answers: the dialect, the provider's address, the model, the key; and which known
//! provider an address is (for its quirks and for what to do when it refuses the page).
//!
//! Invariant: the key has no `Debug`, `Display` or `Serialize` output; it is only ever put in
//! the headers of a request whose URL is built from `base_url` and checked to stay on its
//! origin (`dialect::build_request`), never in a URL, an error, an export or a log.

use crate::error::{ChatError, ChatErrorKind, ChatStep};
use mcp_lens_client::protocol::url::WebUrl;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The three wire formats the chat speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    /// `POST {base_url}/chat/completions`: OpenAI, OpenRouter, Groq, Mistral, DeepSeek, xAI,
    /// Together, Ollama, llama.cpp's server, LM Studio, vLLM.
    OpenAiCompatible,
    /// `POST {base_url}/v1/messages` (Anthropic Messages).
    Anthropic,
    /// `POST {base_url}/models/{model}:generateContent` (Google Gemini API).
    Gemini,
}

impl Dialect {
    pub fn label(self) -> &'static str {
        match self {
            Dialect::OpenAiCompatible => "OpenAI-compatible",
            Dialect::Anthropic => "Anthropic",
            Dialect::Gemini => "Gemini",
        }
    }

    /// The official address, used when the person gives none.
    pub fn default_base_url(self) -> &'static str {
        match self {
            Dialect::OpenAiCompatible => "https://api.openai.com/v1",
            Dialect::Anthropic => "https://api.anthropic.com",
            Dialect::Gemini => "https://generativelanguage.googleapis.com/v1beta",
        }
    }
}

/// A provider key. Its text is reachable only inside this crate, to write a header.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        Self(key.into())
    }

    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey([redacted])")
    }
}

/// Where a chat's model requests go.
#[derive(Clone, PartialEq)]
pub struct ProviderConfig {
    pub dialect: Dialect,
    /// The API's base address (`https://api.openai.com/v1`, `http://localhost:11434/v1`,
    /// `https://api.anthropic.com`, `https://generativelanguage.googleapis.com/v1beta`).
    pub base_url: String,
    pub model: String,
    /// None for local servers that need none.
    pub key: Option<ApiKey>,
}

impl fmt::Debug for ProviderConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProviderConfig")
            .field("dialect", &self.dialect)
            .field("base_url", &redacted_url(&self.base_url))
            .field("model", &self.model)
            .field("key", &self.key.as_ref().map(|_| "[redacted]"))
            .finish()
    }
}

impl ProviderConfig {
    /// A provider at `base_url` (the dialect's official address when empty).
    pub fn new(dialect: Dialect, base_url: &str, model: &str, key: Option<ApiKey>) -> Self {
        let base_url = base_url.trim();
        let base_url = if base_url.is_empty() {
            dialect.default_base_url()
        } else {
            base_url
        };
        Self {
            dialect,
            base_url: base_url.trim_end_matches('/').to_owned(),
            model: model.trim().to_owned(),
            key,
        }
    }

    /// The base URL as the browser reads it (the protocol crate's WHATWG reader, the one every
    /// URL of the workspace is read with); its [`WebUrl::origin`] is where every request (and
    /// the key) goes. A user name or password in it is refused: the key has its own field.
    pub fn origin(&self) -> Result<WebUrl, ChatError> {
        let url = WebUrl::parse(&self.base_url)
            .map_err(|detail| invalid(format!("The base URL is not usable: {detail}.")))?;
        if url.has_credentials() {
            return Err(invalid(
                "The base URL is not usable: it contains a user name or password (before @); \
                 put the key in the key field instead."
                    .to_owned(),
            ));
        }
        Ok(url)
    }

    /// Which provider the address belongs to, for its quirks and its CORS advice.
    pub fn known(&self) -> KnownProvider {
        match self.origin() {
            Ok(origin) => KnownProvider::recognise(self.dialect, &origin),
            Err(_) => KnownProvider::Other,
        }
    }

    /// "gpt-4o (OpenAI-compatible, https://api.openai.com)": what a conversation records of
    /// the provider (no key; the address with any credential in it redacted).
    pub fn label(&self) -> String {
        if self.is_in_page() {
            return format!("{} (in this page, llama.cpp in WebAssembly)", self.model);
        }
        format!(
            "{} ({}, {})",
            self.model,
            self.dialect.label(),
            redacted_url(&self.base_url)
        )
    }

    /// Whether the page's own model answers (see [`crate::in_page`]), not a provider's address.
    pub fn is_in_page(&self) -> bool {
        self.dialect == Dialect::OpenAiCompatible
            && self.base_url == crate::in_page::IN_PAGE_BASE_URL
    }

    pub(crate) fn require_key(&self) -> Result<&ApiKey, ChatError> {
        match &self.key {
            Some(key) if !key.expose().trim().is_empty() => Ok(key),
            _ => Err(invalid(format!(
                "{} needs a key: type it in the provider settings.",
                self.dialect.label()
            ))),
        }
    }
}

fn invalid(detail: String) -> ChatError {
    ChatError::new(
        ChatStep::BuildRequest,
        ChatErrorKind::InvalidSettings { detail },
    )
}

pub(crate) fn redacted_url(url: &str) -> String {
    mcp_lens_client::protocol::wire_log::redact_url(url)
}

/// Providers recognised by their address (their quirks and CORS rules are known).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KnownProvider {
    OpenAi,
    OpenRouter,
    Groq,
    Mistral,
    DeepSeek,
    XAi,
    Together,
    Anthropic,
    Gemini,
    /// Loopback port 11434.
    Ollama,
    /// Loopback port 1234.
    LmStudio,
    /// Loopback port 8080 (llama.cpp's `llama-server` default).
    LlamaCppServer,
    /// Loopback port 8000 (vLLM's default).
    Vllm,
    /// Another server on this computer.
    OtherLocal,
    Other,
}

impl KnownProvider {
    pub fn recognise(dialect: Dialect, origin: &WebUrl) -> Self {
        if origin.is_loopback() {
            return match origin.port_or_default() {
                11434 => KnownProvider::Ollama,
                1234 => KnownProvider::LmStudio,
                8080 => KnownProvider::LlamaCppServer,
                8000 => KnownProvider::Vllm,
                _ => KnownProvider::OtherLocal,
            };
        }
        let host = origin.host_str();
        let is = |domain: &str| host == domain || host.ends_with(&format!(".{domain}"));
        match dialect {
            Dialect::Anthropic if is("anthropic.com") => KnownProvider::Anthropic,
            Dialect::Gemini if is("googleapis.com") => KnownProvider::Gemini,
            _ if host == "api.openai.com" => KnownProvider::OpenAi,
            _ if is("openrouter.ai") => KnownProvider::OpenRouter,
            _ if is("groq.com") => KnownProvider::Groq,
            _ if is("mistral.ai") => KnownProvider::Mistral,
            _ if is("deepseek.com") => KnownProvider::DeepSeek,
            _ if is("x.ai") => KnownProvider::XAi,
            _ if is("together.xyz") || is("together.ai") => KnownProvider::Together,
            _ => KnownProvider::Other,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            KnownProvider::OpenAi => "OpenAI",
            KnownProvider::OpenRouter => "OpenRouter",
            KnownProvider::Groq => "Groq",
            KnownProvider::Mistral => "Mistral",
            KnownProvider::DeepSeek => "DeepSeek",
            KnownProvider::XAi => "xAI",
            KnownProvider::Together => "Together",
            KnownProvider::Anthropic => "Anthropic",
            KnownProvider::Gemini => "Google Gemini",
            KnownProvider::Ollama => "Ollama",
            KnownProvider::LmStudio => "LM Studio",
            KnownProvider::LlamaCppServer => "llama.cpp's llama-server",
            KnownProvider::Vllm => "vLLM",
            KnownProvider::OtherLocal => "the server on this computer",
            KnownProvider::Other => "this provider",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pages_own_model_is_known_by_its_address_and_labelled_as_in_the_page() {
        let base = crate::in_page::IN_PAGE_BASE_URL;
        let page = ProviderConfig::new(Dialect::OpenAiCompatible, base, "SmolLM2", None);
        assert!(page.is_in_page());
        assert_eq!(
            page.label(),
            "SmolLM2 (in this page, llama.cpp in WebAssembly)"
        );
        assert!(page.origin().is_ok());
        assert!(!ProviderConfig::new(Dialect::Anthropic, base, "m", None).is_in_page());
        let local = ProviderConfig::new(
            Dialect::OpenAiCompatible,
            "http://127.0.0.1:8080/v1",
            "m",
            None,
        );
        assert!(!local.is_in_page());
    }

    #[test]
    fn a_provider_configs_debug_never_shows_its_key() {
        let config = ProviderConfig::new(
            Dialect::OpenAiCompatible,
            "https://api.openai.com/v1/",
            "gpt-4o",
            Some(ApiKey::new("sk-secret-123")),
        );
        let shown = format!("{config:?} {:?}", config.key);
        assert!(!shown.contains("sk-secret-123"), "{shown}");
        assert!(shown.contains("[redacted]"));
        assert_eq!(config.base_url, "https://api.openai.com/v1");
        assert!(!config.label().contains("sk-secret"));
    }

    #[test]
    fn a_credential_in_the_base_url_is_redacted_from_labels() {
        let config = ProviderConfig::new(
            Dialect::Gemini,
            "https://proxy.example/v1beta?key=AIza-secret",
            "gemini-2.5-flash",
            None,
        );
        assert!(
            !config.label().contains("AIza-secret"),
            "{}",
            config.label()
        );
        assert!(!format!("{config:?}").contains("AIza-secret"));
    }

    #[test]
    fn providers_are_recognised_by_their_address() {
        use Dialect::{Anthropic, Gemini, OpenAiCompatible as Compatible};
        for (dialect, url, expected) in [
            (
                Compatible,
                "http://localhost:11434/v1",
                KnownProvider::Ollama,
            ),
            (
                Compatible,
                "http://127.0.0.1:1234/v1",
                KnownProvider::LmStudio,
            ),
            (
                Compatible,
                "http://127.0.0.1:8080/v1",
                KnownProvider::LlamaCppServer,
            ),
            (
                Compatible,
                "http://localhost:9999/v1",
                KnownProvider::OtherLocal,
            ),
            (Compatible, "", KnownProvider::OpenAi),
            (
                Compatible,
                "https://openrouter.ai/api/v1",
                KnownProvider::OpenRouter,
            ),
            (Anthropic, "", KnownProvider::Anthropic),
            (Gemini, "", KnownProvider::Gemini),
            (
                Compatible,
                "https://api.openai.com.evil.example/v1",
                KnownProvider::Other,
            ),
        ] {
            let known = ProviderConfig::new(dialect, url, "m", None).known();
            assert_eq!(known, expected, "{url}");
        }
    }
}
