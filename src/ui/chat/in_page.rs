//! The provider "In this page": a GGUF model run by llama.cpp compiled to WebAssembly (npm
//! `@wllama/wllama`), with no key and nothing installed. The person loads a file or an address;
//! the chat then sends its OpenAI-compatible requests to [`InPageHttp`] instead of `fetch`, and
//! `src/ui/wllama_host.js` answers them with llama.cpp's own OpenAI-shaped stream, so the
//! conversation loop, tool calls, approvals and sampling work as with any provider.
//!
//! Nothing of it is fetched before the person picks the provider: the stub below imports the
//! host script (and with it wllama's, about 70 KB gzip) on its first call, and wllama fetches its
//! wasm (about 2.6 MB gzip) when a model is loaded. One model per page, shared by the lanes
//! that pick it. What it accepts and says is `mcp_lens_chat::in_page` (pure, tested natively).

use super::state::{ChatState, InPageModel, ModelStatus};
use crate::client::browser::http::answer_of;
use crate::client::runtime::{Http, HttpRequest, HttpResponse};
use crate::protocol::error::ErrorKind;
use futures::future::LocalBoxFuture;
use leptos::prelude::*;
use mcp_lens_chat::in_page::{
    answer_line, check_model_size, human_bytes, model_name, progress, threads, CONTEXT_TOKENS,
    HONEST_LINE, MAX_MODEL_BYTES,
};
use wasm_bindgen::prelude::{wasm_bindgen, Closure};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

// One import for every operation (each JavaScript function the wasm imports lives in the first
// paint's module); the host script is imported on the first call, from beside the loader (two
// folders above the snippets), and a failed import is tried again by the next call.
#[wasm_bindgen(inline_js = "let host = null;
export function wllama_host(op, arg, extra, text) {
  if (!host) host = import(new URL('../../wllama_host.js', import.meta.url)).catch((e) => { host = null; throw e; });
  return host.then((m) => m.wllama_host(op, arg, extra, text));
}")]
extern "C" {
    fn wllama_host(op: &str, arg: &JsValue, extra: &JsValue, text: &str) -> js_sys::Promise;
}

/// The chat's requests to the page's model: the body the OpenAI dialect built goes to the host
/// script, whose `Response` is read as `fetch`'s would be.
pub struct InPageHttp;

impl Http for InPageHttp {
    fn send<'a>(
        &'a self,
        request: HttpRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<HttpResponse, ErrorKind>> {
        let signal = match web_sys::AbortController::new() {
            Ok(controller) => {
                let signal: JsValue = controller.signal().into();
                if let Some(abort) = request.abort {
                    abort.on_abort(move || controller.abort());
                }
                signal
            }
            Err(_) => JsValue::NULL,
        };
        answer_of(wllama_host(
            "chat",
            &signal,
            &JsValue::NULL,
            request.body.unwrap_or_default(),
        ))
    }
}

/// Whether the page is cross-origin isolated, and how many processors the browser reports.
fn page_threads() -> (u32, String) {
    let window: JsValue = web_sys::window().map(Into::into).unwrap_or(JsValue::NULL);
    let isolated = js_sys::Reflect::get(&window, &JsValue::from_str("crossOriginIsolated"))
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let processors = web_sys::window()
        .map(|w| w.navigator().hardware_concurrency())
        .unwrap_or(1.0);
    threads(isolated, processors as u32)
}

/// "Name: message" of a JS error, without trusting its shape.
fn describe(error: &JsValue) -> String {
    let field = |name: &str| {
        js_sys::Reflect::get(error, &JsValue::from_str(name))
            .ok()
            .and_then(|v| v.as_string())
    };
    field("message")
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}

/// Fetches the host script (and wllama's) when the person picks the provider, so loading a
/// model starts at once; a failure shows on the panel.
pub fn prepare(model: InPageModel) {
    leptos::task::spawn_local(async move {
        if let Err(error) =
            JsFuture::from(wllama_host("stats", &JsValue::NULL, &JsValue::NULL, "")).await
        {
            model.status.try_set(ModelStatus::Failed(format!(
                "The in-page model's code could not be fetched ({}); picking the provider again tries again.",
                describe(&error)
            )));
        }
    });
}

/// The model's file or its address.
enum Source {
    File(web_sys::File),
    Url(String),
}

/// Loads a model (the one loaded before is let go first); the lanes that picked the provider
/// get its name as their model once it is ready.
fn load(state: ChatState, source: Source) {
    let model = state.in_page;
    let (threads, _) = page_threads();
    let (name, file, url) = match &source {
        Source::File(file) => (
            model_name(&file.name()),
            JsValue::from(file.clone()),
            String::new(),
        ),
        Source::Url(url) => (model_name(url), JsValue::NULL, url.trim().to_owned()),
    };
    if let Source::File(file) = &source {
        if let Err(why) = check_model_size(file.size() as u64) {
            model.status.set(ModelStatus::Failed(why));
            return;
        }
    }
    if matches!(source, Source::Url(_)) && url.is_empty() {
        model.status.set(ModelStatus::Failed(
            "Type the address of a GGUF file first.".to_owned(),
        ));
        return;
    }
    set_lane_models(state, "");
    model.last_answers.set(Vec::new());
    model
        .status
        .set(ModelStatus::Loading("starting…".to_owned()));
    let options = serde_json::json!({
        "url": url,
        "maxBytes": MAX_MODEL_BYTES,
        "threads": threads,
        "contextTokens": CONTEXT_TOKENS,
        "template": model.template.get_untracked(),
    })
    .to_string();
    leptos::task::spawn_local(async move {
        let on_progress = Closure::<dyn FnMut(f64, f64)>::new(move |loaded: f64, total: f64| {
            let total = (total > 0.0).then_some(total as u64);
            let done = total.is_some_and(|t| loaded as u64 >= t);
            let line = if done {
                format!(
                    "{} read; starting llama.cpp…",
                    progress(loaded as u64, total)
                )
            } else {
                progress(loaded as u64, total)
            };
            model.status.try_set(ModelStatus::Loading(line));
        });
        let outcome = JsFuture::from(wllama_host(
            "load",
            &file,
            on_progress.as_ref().unchecked_ref(),
            &options,
        ))
        .await;
        drop(on_progress);
        let status = match outcome {
            Ok(answer) => {
                let answer: serde_json::Value = answer
                    .as_string()
                    .and_then(|text| serde_json::from_str(&text).ok())
                    .unwrap_or_default();
                if let Some(bytes) = answer.get("tooBig").and_then(serde_json::Value::as_u64) {
                    ModelStatus::Failed(check_model_size(bytes).err().unwrap_or_default())
                } else {
                    let bytes = answer
                        .get("bytes")
                        .and_then(serde_json::Value::as_u64)
                        .unwrap_or(0);
                    set_lane_models(state, &name);
                    ModelStatus::Ready { name, bytes }
                }
            }
            Err(error) => ModelStatus::Failed(format!(
                "The model could not be loaded: {}.",
                describe(&error).trim_end_matches('.')
            )),
        };
        model.status.try_set(status);
    });
}

/// Gives every lane that picked the page's model its name (empty while none is ready).
fn set_lane_models(state: ChatState, name: &str) {
    for lane in state.lanes.get_untracked() {
        if lane.provider.in_page.get_untracked() {
            lane.provider.model.set(name.to_owned());
        }
    }
}

/// Reads the numbers of the run's answers from the host script (after a run of a lane that
/// uses it: a tool call and the answer after it are two).
pub fn refresh_numbers(model: InPageModel) {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Numbers {
        first_token_ms: Option<f64>,
        tokens: u64,
        generation_ms: f64,
        prompt_tokens: u64,
        prompt_ms: f64,
    }
    leptos::task::spawn_local(async move {
        let Ok(answer) =
            JsFuture::from(wllama_host("stats", &JsValue::NULL, &JsValue::NULL, "")).await
        else {
            return;
        };
        let Some(answers) = answer
            .as_string()
            .and_then(|text| serde_json::from_str::<Vec<Numbers>>(&text).ok())
        else {
            return;
        };
        let lines: Vec<String> = answers
            .iter()
            .map(|n| {
                answer_line(
                    n.first_token_ms,
                    n.tokens,
                    n.generation_ms,
                    n.prompt_tokens,
                    n.prompt_ms,
                )
            })
            .collect();
        if !lines.is_empty() {
            model.last_answers.try_set(lines);
        }
    });
}

/// The provider form's panel for the page's model: file or address, progress, name, speed,
/// and what such a model can do.
#[component]
pub fn InPagePanel() -> impl IntoView {
    let state = ChatState::get();
    let model = state.in_page;
    let (threads, threads_line) = page_threads();
    let choose_file = move |ev: leptos::ev::Event| {
        if let Some(file) = crate::ui::import::chosen_file(&ev) {
            load(state, Source::File(file));
        }
    };
    let load_url = move |_| load(state, Source::Url(model.url.get_untracked()));
    let loading = move || matches!(model.status.get(), ModelStatus::Loading(_));
    view! {
        <div class="in-page-model" data-threads=threads>
            <p class="muted in-page-honest">{HONEST_LINE}</p>
            <label class="field">
                <span class="field-label">"GGUF file"</span>
                <input class="in-page-file" type="file" accept=".gguf" disabled=loading on:change=choose_file/>
            </label>
            <label class="field">
                <span class="field-label">"or its address"</span>
                <input class="in-page-url" type="url" spellcheck="false"
                    placeholder="https://…/SmolLM2-135M-Instruct.Q4_1.gguf"
                    prop:value=move || model.url.get()
                    on:input=move |ev| model.url.set(event_target_value(&ev))/>
            </label>
            <button class="in-page-load" disabled=loading on:click=load_url>"Load"</button>
            <label class="check">
                <input class="in-page-template" type="checkbox" prop:checked=move || model.template.get()
                    on:change=move |ev| model.template.set(event_target_checked(&ev))/>
                " Small-model tool template (ChatML: SmolLM2, Qwen): lists the tools as JSON and asks for one call"
            </label>
            <p class="muted in-page-limits">
                {format!(
                    "Up to {} of model, {} tokens of context. {}",
                    human_bytes(MAX_MODEL_BYTES),
                    CONTEXT_TOKENS,
                    threads_line
                )}
            </p>
            <p class="in-page-status" role="status">
                {move || match model.status.get() {
                    ModelStatus::Empty => "No model loaded.".to_owned(),
                    ModelStatus::Loading(line) => format!("Loading: {line}"),
                    ModelStatus::Ready { name, bytes } => format!(
                        "Ready: {name} ({}, {} thread{}).",
                        human_bytes(bytes),
                        threads,
                        if threads == 1 { "" } else { "s" }
                    ),
                    ModelStatus::Failed(_) => "No model loaded.".to_owned(),
                }}
            </p>
            {move || match model.status.get() {
                ModelStatus::Failed(why) => Some(view! { <p class="error in-page-error" role="alert">{why}</p> }),
                _ => None,
            }}
            {move || model.last_answers.get().into_iter().enumerate().map(|(n, line)| view! {
                <p class="muted in-page-speed">{format!("Answer {}: {line}", n + 1)}</p>
            }).collect_view()}
        </div>
    }
}
