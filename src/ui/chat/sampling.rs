//! A server's sampling request (`sampling/createMessage`) answered by the chat's model, after
//! the person saw the request: the model's answer streams in, the person may edit it, then sends
//! it to the server or declines. Used by the sampling card (in the server's panel, and inline in
//! the chat). The model is the first lane's with a model chosen; its provider can be set here.

use super::lane::{page_origin, wire_name};
use super::model_http::ModelHttp;
use super::provider_form::ProviderForm;
use super::state::ChatState;
use crate::client::runtime::Abort;
use crate::ui::servers::use_servers;
use crate::ui::store::{Connection, ServerRequest};
use leptos::prelude::*;
use mcp_lens_chat::model_call::{AnswerLimits, ModelCall};
use mcp_lens_chat::sampling::{answer_sampling, plan_sampling};
use mcp_lens_chat::stream::Delta;
use serde_json::Value;

/// JSON-RPC error code for a declined sampling request (as the TypeScript SDK uses).
const DECLINED: i32 = -1;

/// What the model answered; the person edits its text (`edited`) before it is sent.
#[derive(Clone, PartialEq)]
enum Answer {
    /// A text answer: its text is edited, the rest of the result kept.
    Text(Value),
    /// Anything else (tool calls): the whole `CreateMessageResult` is edited as JSON text.
    Json,
}

#[component]
pub fn ModelAnswer(request: ServerRequest, connection: Connection) -> impl IntoView {
    let state = ChatState::get();
    let servers = use_servers();
    let params = request.params.clone().unwrap_or(Value::Null);
    let streamed = RwSignal::new(String::new());
    let answer = RwSignal::new(None::<Answer>);
    let edited = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let asking = RwSignal::new(false);
    let abort = StoredValue::new_local(None::<Abort>);
    let lane = state.sampling_lane();
    let notes = {
        let params = params.clone();
        move || {
            let lane = state.sampling_lane()?;
            let plan = plan_sampling(&params, lane.provider.dialect.get());
            Some(match plan {
                Ok(plan) => {
                    let mut notes: Vec<String> = plan
                        .dropped
                        .iter()
                        .map(|d| format!("{} ({}): {}", d.what, d.path, d.why))
                        .collect();
                    if !plan.model_hints.is_empty() {
                        notes.insert(
                            0,
                            format!("The server would like: {}.", plan.model_hints.join(", ")),
                        );
                    }
                    notes
                }
                Err(error) => vec![error.to_string()],
            })
        }
    };
    let ask = {
        let params = params.clone();
        move |_| {
            let Some(lane) = state.sampling_lane() else {
                return;
            };
            let config = lane.provider.config();
            let (http, clock) =
                ModelHttp::page(servers.wire, wire_name(&lane), config.is_in_page());
            let params = params.clone();
            let stop = Abort::new();
            abort.set_value(Some(stop.clone()));
            streamed.set(String::new());
            answer.set(None);
            error.set(None);
            asking.set(true);
            leptos::task::spawn_local(async move {
                let origin = page_origin();
                let call = ModelCall {
                    http: &*http,
                    clock: &*clock,
                    config: &config,
                    limits: AnswerLimits::default(),
                    abort: &stop,
                    page_origin: &origin,
                };
                let mut on_delta = |delta: &Delta| {
                    if let Delta::Text(text) = delta {
                        streamed.try_update(|s| s.push_str(text));
                    }
                };
                let outcome = answer_sampling(&call, &params, &mut on_delta).await;
                asking.try_set(false);
                match outcome {
                    Ok(result) => {
                        let text = result
                            .get("content")
                            .filter(|c| c.get("type").and_then(Value::as_str) == Some("text"))
                            .and_then(|c| c.get("text"))
                            .and_then(Value::as_str)
                            .map(str::to_owned);
                        match text {
                            Some(text) => {
                                edited.try_set(text);
                                answer.try_set(Some(Answer::Text(result)));
                            }
                            None => {
                                edited.try_set(
                                    serde_json::to_string_pretty(&result).unwrap_or_default(),
                                );
                                answer.try_set(Some(Answer::Json));
                            }
                        }
                    }
                    Err(e) => {
                        error.try_set(Some(e.to_string()));
                    }
                }
            });
        }
    };
    let id = request.id.clone();
    let send = {
        let id = id.clone();
        move |_| {
            let text = edited.get_untracked();
            let result = match answer.get_untracked() {
                Some(Answer::Text(mut result)) => {
                    result["content"]["text"] = Value::String(text);
                    result
                }
                Some(Answer::Json) => match serde_json::from_str::<Value>(&text) {
                    Ok(value) => value,
                    Err(e) => {
                        error.set(Some(format!(
                            "The answer is not valid JSON ({e}); fix it or decline."
                        )));
                        return;
                    }
                },
                None => return,
            };
            connection.answer(&id, Ok(result));
        }
    };
    let decline = move |_| {
        if let Some(stop) = abort.get_value() {
            stop.abort();
        }
        connection.answer(
            &id,
            Err((
                DECLINED,
                "The user declined the sampling request.".to_owned(),
            )),
        );
    };
    let stop = move |_| {
        if let Some(stop) = abort.get_value() {
            stop.abort();
        }
    };
    let ready = move || state.sampling_lane().is_some_and(|l| l.provider.ready());
    view! {
        <div class="model-answer">
            {move || (!ready()).then(|| lane.map(|lane| view! {
                <p class="muted">"Choose the model that answers (the chat's first model):"</p>
                <ProviderForm fields=lane.provider index=lane.index/>
            }))}
            {move || notes().filter(|n| !n.is_empty()).map(|notes| view! {
                <ul class="sampling-notes">{notes.into_iter().map(|n| view! { <li class="muted">{n}</li> }).collect_view()}</ul>
            })}
            <div class="actions">
                <button class="sampling-ask" disabled=move || asking.get() || !ready() on:click=ask>
                    {move || match state.sampling_lane().filter(|l| l.provider.ready()) {
                        Some(lane) => format!("Ask {}", lane.provider.model.get()),
                        None => "Ask the model".to_owned(),
                    }}
                </button>
                <Show when=move || asking.get()>
                    <button class="sampling-stop secondary" on:click=stop>"Stop"</button>
                </Show>
            </div>
            <Show when=move || asking.get()>
                <div class="message-text model-text sampling-streamed">{move || streamed.get()}</div>
            </Show>
            {move || error.get().map(|e| view! { <p class="error sampling-error" role="alert">{e}</p> })}
            {move || answer.with(|a| a.as_ref().map(|a| matches!(a, Answer::Json))).map(|json| {
                let (class, label, rows) = if json {
                    ("sampling-model-json", "The model's answer, as the server will get it (you may change it)", "8")
                } else {
                    ("sampling-model-text", "The model's answer (you may change it before it goes to the server)", "4")
                };
                let editor = view! {
                    <label class="field">
                        <span class="field-label">{label}</span>
                        <textarea class=class rows=rows prop:value=move || edited.get()
                            on:input=move |ev| edited.set(event_target_value(&ev))></textarea>
                    </label>
                };
                view! {
                    {editor}
                    <div class="actions">
                        <button class="sampling-send" on:click=send.clone()>"Send to the server"</button>
                        <button class="sampling-decline secondary" on:click=decline.clone()>"Decline"</button>
                    </div>
                }
            })}
        </div>
    }
}
