//! What to do when the browser refuses the page's request to a provider (CORS), per provider:
//! a sentence the UI shows beside the failure. The browser reports a refusal and an
//! unreachable server the same way, so each sentence covers both.

use crate::provider::{KnownProvider, ProviderConfig};

/// What the person can do about a request the browser would not complete, for this provider,
/// from a page at `page_origin` (for example `https://mcp-lens.example`).
pub fn cors_advice(config: &ProviderConfig, page_origin: &str) -> String {
    let known = config.known();
    let base = &config.base_url;
    match known {
        KnownProvider::Ollama => format!(
            "Ollama answers only the origins it is told to: start it with \
             OLLAMA_ORIGINS={page_origin} (for example `OLLAMA_ORIGINS={page_origin} ollama serve`, \
             or set the variable for the Ollama app or service and restart it), and check that it \
             runs at {base}."
        ),
        KnownProvider::LmStudio => format!(
            "LM Studio refuses web pages until CORS is on: in its Developer tab, open the server \
             settings and turn on \"Enable CORS\" (or start it with `lms server start --cors`), \
             and check that the server runs at {base}."
        ),
        KnownProvider::LlamaCppServer => format!(
            "llama.cpp's llama-server answers any origin, so it is most likely not running at \
             {base}: start it with `llama-server -m <model.gguf> --host 127.0.0.1 --port 8080` \
             (add `--jinja` for tool calls)."
        ),
        KnownProvider::Vllm => format!(
            "vLLM allows every origin unless started with --allowed-origins; start it with \
             `--allowed-origins '[\"{page_origin}\"]'` if it was limited, and check that it runs \
             at {base}."
        ),
        KnownProvider::OtherLocal => format!(
            "A server on this computer must allow this page's origin ({page_origin}) with CORS \
             headers: Ollama reads OLLAMA_ORIGINS, LM Studio has an \"Enable CORS\" switch, \
             llama-server allows any origin, vLLM has --allowed-origins. Check also that it \
             runs at {base}; the browser may also ask whether this page may reach local \
             network devices."
        ),
        KnownProvider::Anthropic => "Anthropic accepts calls from web pages with the header \
             anthropic-dangerous-direct-browser-access, which this page sends; a refusal means \
             the network (a proxy, an extension) blocked the request, or the address is wrong."
            .to_owned(),
        KnownProvider::Gemini => "The Gemini API accepts calls from web pages with the key in \
             the x-goog-api-key header, which this page uses; a refusal means the network (a \
             proxy, an extension) blocked the request, or the address is wrong."
            .to_owned(),
        KnownProvider::OpenAi | KnownProvider::OpenRouter => format!(
            "{} accepts calls from web pages; a refusal means the network (a proxy, an \
             extension) blocked the request, or the address is wrong.",
            known.name()
        ),
        KnownProvider::Groq
        | KnownProvider::Mistral
        | KnownProvider::DeepSeek
        | KnownProvider::XAi
        | KnownProvider::Together
        | KnownProvider::Other => format!(
            "If {} does not accept calls from web pages, the browser refuses every request to \
             it and no setting on this page can change that: run a proxy you trust that adds \
             CORS headers for {page_origin} (LiteLLM does), or use a provider that allows \
             browsers (OpenAI, OpenRouter, Anthropic, Gemini, or a local server). Check also \
             the address, {base}.",
            known.name()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::Dialect;

    fn advice(dialect: Dialect, url: &str) -> String {
        cors_advice(
            &ProviderConfig::new(dialect, url, "m", None),
            "https://lens.example",
        )
    }

    #[test]
    fn each_local_server_gets_its_own_switch() {
        assert!(
            advice(Dialect::OpenAiCompatible, "http://localhost:11434/v1")
                .contains("OLLAMA_ORIGINS=https://lens.example")
        );
        assert!(
            advice(Dialect::OpenAiCompatible, "http://127.0.0.1:1234/v1").contains("Enable CORS")
        );
        assert!(
            advice(Dialect::OpenAiCompatible, "http://127.0.0.1:8080/v1").contains("llama-server")
        );
        assert!(
            advice(Dialect::OpenAiCompatible, "http://127.0.0.1:8000/v1")
                .contains("--allowed-origins")
        );
        assert!(
            advice(Dialect::OpenAiCompatible, "http://127.0.0.1:5555/v1")
                .contains("OLLAMA_ORIGINS")
        );
    }

    #[test]
    fn hosted_providers_say_whether_browsers_are_allowed() {
        assert!(
            advice(Dialect::Anthropic, "").contains("anthropic-dangerous-direct-browser-access")
        );
        assert!(advice(Dialect::Gemini, "").contains("x-goog-api-key"));
        assert!(advice(Dialect::OpenAiCompatible, "").contains("accepts calls from web pages"));
        assert!(advice(Dialect::OpenAiCompatible, "https://api.mistral.ai/v1").contains("proxy"));
    }
}
