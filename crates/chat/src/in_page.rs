//! A model run inside the page (llama.cpp compiled to WebAssembly, npm `@wllama/wllama`): what
//! the page accepts and says about it, as pure functions. The page's side (`src/ui/chat/in_page.rs`
//! and `src/ui/wllama_host.js`) loads the GGUF file and answers the OpenAI dialect's requests
//! with llama.cpp's own OpenAI-shaped chat completions, so the conversation loop, tool calls,
//! approvals and sampling are the same as for any OpenAI-compatible provider.

/// The base URL a provider "in this page" has: never fetched (the page's model answers its
/// requests), but a valid address, so the OpenAI dialect builds its requests as for any other.
pub const IN_PAGE_BASE_URL: &str = "http://in-page.invalid/v1";

/// The largest GGUF file the page loads: 1.5 GB. llama.cpp in wasm keeps the whole model in
/// the page's WebAssembly memory (4 GB at most, and one file at most 2 GB) beside its context
/// and its own code; a bigger model would run out of memory or crash the tab, and would be too
/// slow on a CPU to be worth waiting for.
pub const MAX_MODEL_BYTES: u64 = 1536 * 1024 * 1024;

/// The context the page's model gets (tokens): room for the tools of a few servers and a short
/// conversation, at a small model's memory cost.
pub const CONTEXT_TOKENS: u32 = 4096;

/// Whether a GGUF file of `bytes` may be loaded; if not, the sentence that says why.
pub fn check_model_size(bytes: u64) -> Result<(), String> {
    if bytes == 0 {
        return Err("The file is empty: choose a GGUF model file.".to_owned());
    }
    if bytes > MAX_MODEL_BYTES {
        return Err(format!(
            "The model is {}, more than the {} this page loads: llama.cpp in WebAssembly keeps the \
             whole model in the page's memory (at most 4 GB, beside its context), so a bigger file \
             would likely crash the tab. Choose a smaller or more quantized GGUF (a model under \
             1 B parameters is what runs at a usable speed on a CPU).",
            human_bytes(bytes),
            human_bytes(MAX_MODEL_BYTES)
        ));
    }
    Ok(())
}

/// How many threads the page's model uses, and the line the page shows about it.
///
/// More than one thread needs `SharedArrayBuffer`, which the browser gives only to a page that
/// is cross-origin isolated (served with `Cross-Origin-Opener-Policy: same-origin` and
/// `Cross-Origin-Embedder-Policy: require-corp`). Two threads at most: the machine's other
/// work (and the page itself) keeps the rest, and more brought little on a small model.
pub fn threads(cross_origin_isolated: bool, hardware_concurrency: u32) -> (u32, String) {
    if !cross_origin_isolated {
        return (
            1,
            "One thread: this page is not cross-origin isolated (its server sends no \
             Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy headers), so the browser \
             allows no shared memory between threads. Served with them, the model runs on two \
             threads, about twice as fast."
                .to_owned(),
        );
    }
    let threads = hardware_concurrency.clamp(1, 2);
    let line = if threads == 1 {
        "One thread: the browser reports a single processor.".to_owned()
    } else {
        "Two threads: this page is cross-origin isolated.".to_owned()
    };
    (threads, line)
}

/// The model's name as the conversation and the wire log show it: the file name without its
/// folder, query or `.gguf` (`SmolLM2-135M-Instruct.Q4_1`), or "in-page model".
pub fn model_name(source: &str) -> String {
    let path = source.split(['?', '#']).next().unwrap_or_default();
    let file = path.rsplit(['/', '\\']).next().unwrap_or_default();
    let stem = file
        .strip_suffix(".gguf")
        .or_else(|| file.strip_suffix(".GGUF"))
        .unwrap_or(file);
    let stem: String = stem.chars().filter(|c| !c.is_control()).take(120).collect();
    if stem.trim().is_empty() {
        "in-page model".to_owned()
    } else {
        stem
    }
}

/// "12.3 tokens/s": generation speed from `tokens` made in `ms` milliseconds (None without
/// both).
pub fn speed(tokens: u64, ms: f64) -> Option<String> {
    (tokens > 0 && ms.is_finite() && ms > 0.0)
        .then(|| format!("{:.1} tokens/s", tokens as f64 * 1000.0 / ms))
}

/// What the last answer of the page's model measured, as the page says it: "First token after
/// 2.4 s (37 prompt tokens at 15.8 tokens/s); 60 tokens at 14.7 tokens/s."
pub fn answer_line(
    first_token_ms: Option<f64>,
    tokens: u64,
    generation_ms: f64,
    prompt_tokens: u64,
    prompt_ms: f64,
) -> String {
    let mut line = String::new();
    if let Some(ms) = first_token_ms.filter(|ms| ms.is_finite() && *ms >= 0.0) {
        line.push_str(&format!("First token after {:.1} s", ms / 1000.0));
        if let Some(rate) = speed(prompt_tokens, prompt_ms) {
            line.push_str(&format!(" ({prompt_tokens} prompt tokens at {rate})"));
        }
        line.push_str("; ");
    }
    match speed(tokens, generation_ms) {
        Some(rate) => line.push_str(&format!("{tokens} tokens at {rate}.")),
        None => line.push_str("no tokens generated."),
    }
    line
}

/// "98.0 MB of 98.0 MB": a download's progress (of an unknown total: "12.0 MB").
pub fn progress(loaded: u64, total: Option<u64>) -> String {
    match total {
        Some(total) if total > 0 => format!("{} of {}", human_bytes(loaded), human_bytes(total)),
        _ => human_bytes(loaded),
    }
}

/// Bytes in MB or GB (decimal, as browsers and file managers show sizes), one decimal.
pub fn human_bytes(bytes: u64) -> String {
    const MB: f64 = 1_000_000.0;
    let value = bytes as f64;
    if value >= 1000.0 * MB {
        format!("{:.1} GB", value / (1000.0 * MB))
    } else {
        format!("{:.1} MB", value / MB)
    }
}

/// What a tiny model can do, said before the person tries.
pub const HONEST_LINE: &str = "A model this small (about 100 million to 1 billion parameters) \
    runs on your CPU with no key and nothing installed, but it is far weaker than a hosted model: \
    it follows simple requests, often misreads a tool's arguments, and calls a tool reliably only \
    when the chat asks for a tool call first and the small-model tool template is on. It reads \
    every offered tool's description before answering, at some 20 tokens a second on one thread \
    (a server with a dozen tools: about two minutes), so leave out the servers you do not need. \
    Use it to see how tool calls, approvals and results flow, not for real answers.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_within_the_bound_is_accepted_and_a_bigger_or_empty_one_refused_with_why() {
        assert_eq!(check_model_size(98_000_000), Ok(()));
        assert_eq!(check_model_size(MAX_MODEL_BYTES), Ok(()));
        let refused = check_model_size(MAX_MODEL_BYTES + 1).unwrap_err();
        assert!(
            refused.contains("1.6 GB, more than the 1.6 GB"),
            "{refused}"
        );
        assert!(refused.contains("memory"), "{refused}");
        let big = check_model_size(4_000_000_000).unwrap_err();
        assert!(big.starts_with("The model is 4.0 GB"), "{big}");
        assert!(check_model_size(0).unwrap_err().contains("empty"));
    }

    #[test]
    fn one_thread_without_cross_origin_isolation_and_at_most_two_with_it() {
        let (n, line) = threads(false, 8);
        assert_eq!(n, 1);
        assert!(line.contains("not cross-origin isolated"), "{line}");
        assert_eq!(threads(true, 8).0, 2);
        assert_eq!(threads(true, 2).0, 2);
        assert_eq!(threads(true, 1).0, 1);
        assert_eq!(threads(true, 0).0, 1);
    }

    #[test]
    fn a_models_name_is_its_file_name_without_folder_query_or_extension() {
        assert_eq!(
            model_name("http://127.0.0.1:8000/m/SmolLM2-135M-Instruct.Q4_1.gguf?download=1"),
            "SmolLM2-135M-Instruct.Q4_1"
        );
        assert_eq!(model_name("C:\\models\\qwen.GGUF"), "qwen");
        assert_eq!(model_name("tiny"), "tiny");
        assert_eq!(model_name("https://host/models/"), "in-page model");
        assert_eq!(model_name(""), "in-page model");
        assert_eq!(model_name("a\u{7}b.gguf"), "ab");
        assert_eq!(model_name(&"x".repeat(500)).len(), 120);
    }

    #[test]
    fn speed_and_progress_read_as_a_person_reads_them() {
        assert_eq!(speed(60, 4000.0).as_deref(), Some("15.0 tokens/s"));
        assert_eq!(speed(0, 4000.0), None);
        assert_eq!(speed(10, 0.0), None);
        assert_eq!(speed(10, f64::NAN), None);
        assert_eq!(progress(49_000_000, Some(98_000_000)), "49.0 MB of 98.0 MB");
        assert_eq!(progress(12_000_000, None), "12.0 MB");
        assert_eq!(progress(5, Some(0)), "0.0 MB");
        assert_eq!(human_bytes(1_610_612_736), "1.6 GB");
    }

    #[test]
    fn the_last_answers_numbers_read_as_one_line() {
        assert_eq!(
            answer_line(Some(2400.0), 60, 4000.0, 37, 2348.5),
            "First token after 2.4 s (37 prompt tokens at 15.8 tokens/s); 60 tokens at 15.0 tokens/s."
        );
        assert_eq!(answer_line(None, 0, 0.0, 0, 0.0), "no tokens generated.");
        assert_eq!(
            answer_line(Some(f64::NAN), 10, 1000.0, 0, 0.0),
            "10 tokens at 10.0 tokens/s."
        );
        assert_eq!(
            answer_line(Some(500.0), 10, 1000.0, 0, 0.0),
            "First token after 0.5 s; 10 tokens at 10.0 tokens/s."
        );
    }
}
