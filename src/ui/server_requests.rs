//! The server's requests that wait for a person: sampling (write the model's reply, let the
//! chat's model answer, or decline) and elicitation (fill the requested form, visit a URL, or
//! decline/cancel).

use super::form::{FormState, SchemaForm};
use super::store::{use_connection, ServerRequest};
use crate::protocol::error::reveal_controls;
use crate::protocol::mcp;
use crate::protocol::server_requests::{
    elicitation_request, elicitation_result, is_idn_host, is_web_url, sampling_request,
    sampling_result, Choice, Elicitation, UrlElicitation,
};
use leptos::prelude::*;

/// JSON-RPC error code for a declined sampling request (as the TypeScript SDK uses).
const DECLINED: i32 = -1;

/// The chat's answer to the sampling request in context, handed to the cards by whoever draws
/// them (`lazy::views` for the server's requests, the chat's own view for its own): the chat
/// draws these cards too, so this file does not import it.
#[derive(Clone, Copy)]
pub struct ModelAnswerView(pub fn() -> AnyView);

#[component]
pub fn ServerRequests() -> impl IntoView {
    let connection = use_connection();
    let requests = connection.server_requests();
    // A new request is said in a live region, and its card brought into view (with the focus
    // on its heading, unless the person is typing in a field: the focus stays there).
    let news = RwSignal::new(String::new());
    let seen = StoredValue::new(Vec::<String>::new());
    Effect::new(move |_| {
        let ids: Vec<(String, String)> = requests.with(|r| {
            r.iter()
                .map(|q| (q.id.to_string(), q.method.clone()))
                .collect()
        });
        let fresh: Vec<String> = seen.with_value(|seen| {
            ids.iter()
                .filter(|(id, _)| !seen.contains(id))
                .map(|(_, method)| method.clone())
                .collect()
        });
        seen.set_value(ids.into_iter().map(|(id, _)| id).collect());
        if fresh.is_empty() {
            return;
        }
        let text = format!("The server asks you: {}", fresh.join(", "));
        // A moment after the region is drawn, so that its change is heard.
        set_timeout(
            move || {
                let _ = news.try_set(text);
                reveal_last_card();
            },
            std::time::Duration::from_millis(50),
        );
    });
    view! {
        <p id="server-request-news" class="visually-hidden" role="status">{move || news.get()}</p>
        <Show when=move || requests.with(|r| !r.is_empty())>
            <section id="server-requests" class="server-requests">
                <h2>"The server asks"</h2>
                // Keyed by request id: a card stays mounted (with what is being typed into
                // it) when other requests arrive, are answered or expire.
                <For each=move || requests.get() key=|request| request.id.to_string() let:request>
                    <RequestCard request/>
                </For>
            </section>
        </Show>
    }
}

/// Brings the newest request's card into view; its heading takes the focus unless a field
/// has it (what is being typed stays where it is).
fn reveal_last_card() {
    use wasm_bindgen::JsCast;
    let document = document();
    let Some(card) = document
        .query_selector_all("#server-requests .server-request")
        .ok()
        .and_then(|all| all.get(all.length().checked_sub(1)?))
        .and_then(|node| node.dyn_into::<web_sys::Element>().ok())
    else {
        return;
    };
    let typing = document.active_element().is_some_and(|active| {
        matches!(active.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
            || active.has_attribute("contenteditable")
    });
    card.scroll_into_view_with_bool(true);
    if !typing {
        if let Some(heading) = card
            .query_selector("h3")
            .ok()
            .flatten()
            .and_then(|h| h.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = heading.focus();
        }
    }
}

/// One request's card (also drawn inline in the chat, `chat/view.rs`).
#[component]
pub(super) fn RequestCard(request: ServerRequest) -> impl IntoView {
    let body = if request.method == mcp::SAMPLING_CREATE_MESSAGE {
        view! { <Sampling request=request.clone()/> }.into_any()
    } else {
        view! { <Elicit request=request.clone()/> }.into_any()
    };
    view! {
        <div class="panel server-request" data-method=request.method.clone()>
            <h3 tabindex="-1">{request.method.clone()} <code class="muted">{format!(" id {}", request.id)}</code></h3>
            {body}
        </div>
    }
}

#[component]
fn Sampling(request: ServerRequest) -> impl IntoView {
    let connection = use_connection();
    let asked = sampling_request(request.params.as_ref());
    let reply = RwSignal::new(String::new());
    let model = RwSignal::new("mcp-lens (written by a person)".to_owned());
    let id = request.id.clone();
    // The chat's model answers instead of the person (its code comes with the chat's chunk).
    let by_model = RwSignal::new(false);
    let for_model = request.clone();
    let send = {
        let id = id.clone();
        move |_| {
            connection.answer(
                &id,
                Ok(sampling_result(
                    &reply.get_untracked(),
                    &model.get_untracked(),
                )),
            )
        }
    };
    let decline = move |_| {
        connection.answer(
            &id,
            Err((
                DECLINED,
                "The user declined the sampling request.".to_owned(),
            )),
        )
    };
    view! {
        {asked.system_prompt.map(|p| view! { <p class="muted">"System prompt: " {p}</p> })}
        <ol class="sampling-messages">
            {asked.messages.into_iter().map(|m| view! {
                <li><span class="role">{m.role}</span><pre class="content-text">{m.text}</pre></li>
            }).collect_view()}
        </ol>
        {asked.max_tokens.map(|t| view! { <p class="muted">{format!("At most {t} tokens.")}</p> })}
        <label class="field">
            <span class="field-label">"Reply as the model"</span>
            <textarea class="sampling-reply" rows="3" prop:value=move || reply.get()
                on:input=move |ev| reply.set(event_target_value(&ev))></textarea>
        </label>
        <label class="field">
            <span class="field-label">"Model name"</span>
            <input class="sampling-model" prop:value=move || model.get() on:input=move |ev| model.set(event_target_value(&ev))/>
        </label>
        <div class="actions">
            <button class="answer" on:click=send>"Send reply"</button>
            <button class="decline secondary" on:click=decline>"Decline"</button>
            <button class="let-model-answer secondary" disabled=move || by_model.get()
                on:click=move |_| by_model.set(true)>"Let the model answer"</button>
        </div>
        {move || by_model.get().then(|| {
            // The chat's view reads the request from context.
            provide_context(for_model.clone());
            use_context::<ModelAnswerView>().map(|answer| (answer.0)())
        })}
    }
}

#[component]
fn Elicit(request: ServerRequest) -> impl IntoView {
    let connection = use_connection();
    let id = request.id.clone();
    let answer = move |choice: Choice, content| {
        connection.answer(&id, Ok(elicitation_result(choice, content)));
    };
    let answer_decline = answer.clone();
    let answer_cancel = answer.clone();
    let buttons_tail = view! {
        <button class="decline secondary" on:click=move |_| answer_decline(Choice::Decline, None)>"Decline"</button>
        <button class="cancel secondary" on:click=move |_| answer_cancel(Choice::Cancel, None)>"Cancel"</button>
    };
    match elicitation_request(request.params.as_ref()) {
        Elicitation::Form { message, schema } => {
            let form = FormState::new(serde_json::Value::Object(schema));
            let accept = move |_| {
                if let Some(content) = form.arguments() {
                    answer(Choice::Accept, Some(content));
                }
            };
            view! {
                <p class="elicitation-message">{message}</p>
                <SchemaForm state=form/>
                <div class="actions">
                    <button class="answer" on:click=accept>"Submit"</button>
                    {buttons_tail}
                </div>
            }
            .into_any()
        }
        Elicitation::Url { message, url, .. } => {
            view! {
                <p class="elicitation-message">{message}</p>
                <PageLink url/>
                <div class="actions">
                    <button class="answer" on:click=move |_| answer(Choice::Accept, None)>"I have done it"</button>
                    {buttons_tail}
                </div>
            }
            .into_any()
        }
    }
}

/// The pages a server asked the person to visit before it can answer a request (error
/// -32042). Each is marked done when the server says so (`notifications/elicitation/complete`);
/// the request is then sent again with the panel's own button.
#[component]
pub fn UrlPages(pages: Vec<UrlElicitation>) -> impl IntoView {
    let connection = use_connection();
    view! {
        <ul class="url-pages">
            {pages.into_iter().map(|page| {
                let id = page.id.clone();
                let done = Signal::derive(move || {
                    id.as_ref().is_some_and(|id| connection.completed_elicitations().with(|ids| ids.contains(id)))
                });
                view! {
                    <li class="url-page" class:done=move || done.get()>
                        <p class="elicitation-message">{page.message}</p>
                        <PageLink url=page.url/>
                        <Show when=move || done.get()>
                            <p class="muted url-page-done">"The server says this step is done."</p>
                        </Show>
                    </li>
                }
            }).collect_view()}
        </ul>
        <p class="muted">"When you are done, send the request again."</p>
    }
}

/// A page a server asks the person to open, shown so it cannot be spoofed: the host it
/// really goes to (from the browser's own URL parser) in bold, a warning for
/// internationalised host names and for user names in the URL, the address as text with any
/// invisible control shown, and a link only for a plain http(s) URL.
#[component]
fn PageLink(url: String) -> impl IntoView {
    let parsed = web_sys::Url::new(&url)
        .ok()
        .filter(|parsed| matches!(parsed.protocol().as_str(), "http:" | "https:"))
        .filter(|_| is_web_url(&url));
    let shown = reveal_controls(&url);
    match parsed {
        Some(parsed) => {
            // With its port: another port on a host is another site.
            let host = parsed.host();
            let idn = is_idn_host(&parsed.hostname()).then(|| view! {
                <p class="warning idn-warning">"This host name is internationalised (punycode); it may imitate another site's name."</p>
            });
            let user = (!parsed.username().is_empty()).then(|| view! {
                <p class="warning userinfo-warning">"The address starts with a user name before \"@\": the page it opens is on the host above, not the name before the \"@\"."</p>
            });
            view! {
                <p class="page-host">"Opens a page on " <strong class="host">{host}</strong></p>
                {idn}
                {user}
                <p><code class="elicitation-url">{shown}</code> " "
                    <a class="elicitation-link" href=parsed.href() target="_blank" rel="noopener noreferrer">"Open the page"</a></p>
            }
            .into_any()
        }
        None => view! {
            <p><code class="elicitation-url">{shown}</code></p>
            <p class="warning">"This is not a plain http(s) address, so it is not offered as a link."</p>
        }
        .into_any(),
    }
}
