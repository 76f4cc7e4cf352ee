//! The page's chat: its lanes (one provider and one conversation each, side by side on the same
//! prompts), the servers chosen for it, its settings and the tools' approval policies. Made once
//! per page under the app's owner, so it outlives the Chat tab being hidden and the sampling
//! cards that also use its provider.

use crate::protocol::jsonrpc::RequestId;
use futures::channel::oneshot;
use leptos::prelude::*;
use mcp_lens_chat::chat_loop::{Approval, ApprovalPolicy, ApprovalRequest};
use mcp_lens_chat::conversation::{MessageId, Part, ToolResult, ToolUse};
use mcp_lens_chat::in_page::IN_PAGE_BASE_URL;
use mcp_lens_chat::{ApiKey, ChatError, ChatLoop, Conversation, Dialect, ProviderConfig};
use std::collections::HashMap;
use std::rc::Rc;

/// sessionStorage key of a lane's provider, when the person ticks "Remember in this tab".
pub const PROVIDER_KEY: &str = "mcp-lens.chat.provider.";

/// At most this many lanes side by side.
pub const MAX_LANES: usize = 3;

/// A provider as the person typed it. The key is in memory (and, on "Remember in this tab",
/// in sessionStorage): never shown back once typed, except in its own password field.
#[derive(Clone, Copy)]
pub struct ProviderFields {
    pub dialect: RwSignal<Dialect>,
    pub base_url: RwSignal<String>,
    pub model: RwSignal<String>,
    pub key: RwSignal<String>,
    pub remember: RwSignal<bool>,
    /// The page's own model answers (`in_page.rs`); `model` is then the loaded model's name.
    pub in_page: RwSignal<bool>,
}

/// What the tab remembers of a provider (sessionStorage only).
#[derive(serde::Serialize, serde::Deserialize)]
struct Remembered {
    dialect: Dialect,
    base_url: String,
    model: String,
    key: String,
}

impl ProviderFields {
    fn new(index: usize) -> Self {
        let remembered = crate::ui::storage::session_storage()
            .and_then(|storage| storage.get_item(&format!("{PROVIDER_KEY}{index}")).ok()?)
            .and_then(|text| serde_json::from_str::<Remembered>(&text).ok());
        let fields = Self {
            dialect: RwSignal::new(Dialect::OpenAiCompatible),
            base_url: RwSignal::new(String::new()),
            model: RwSignal::new(String::new()),
            key: RwSignal::new(String::new()),
            remember: RwSignal::new(remembered.is_some()),
            in_page: RwSignal::new(false),
        };
        if let Some(remembered) = remembered {
            fields.dialect.set(remembered.dialect);
            fields.base_url.set(remembered.base_url);
            fields.model.set(remembered.model);
            fields.key.set(remembered.key);
        }
        fields
    }

    /// The provider to send to (the dialect's official address when no base URL is typed).
    pub fn config(&self) -> ProviderConfig {
        if self.in_page.get_untracked() {
            return ProviderConfig::new(
                Dialect::OpenAiCompatible,
                IN_PAGE_BASE_URL,
                &self.model.get_untracked(),
                None,
            );
        }
        let key = self.key.get_untracked();
        let key = (!key.trim().is_empty()).then(|| ApiKey::new(key.trim()));
        ProviderConfig::new(
            self.dialect.get_untracked(),
            &self.base_url.get_untracked(),
            &self.model.get_untracked(),
            key,
        )
    }

    /// Whether a model is chosen (enough to try a request).
    pub fn ready(&self) -> bool {
        !self.model.with(|m| m.trim().is_empty())
    }

    /// Keeps the provider in this tab's sessionStorage while "Remember in this tab" is ticked,
    /// and removes it when it is not (never localStorage).
    fn remember_in_tab(self, index: usize) {
        Effect::new(move |_| {
            let Some(storage) = crate::ui::storage::session_storage() else {
                return;
            };
            let name = format!("{PROVIDER_KEY}{index}");
            // The page's model is not remembered: its file is gone with the page.
            if self.remember.get() && !self.in_page.get() {
                let remembered = Remembered {
                    dialect: self.dialect.get(),
                    base_url: self.base_url.get(),
                    model: self.model.get(),
                    key: self.key.get(),
                };
                if let Ok(text) = serde_json::to_string(&remembered) {
                    let _ = storage.set_item(&name, &text);
                }
            } else {
                let _ = storage.remove_item(&name);
            }
        });
    }
}

/// A model turn being streamed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LiveTurn {
    pub id: MessageId,
    pub text: String,
    pub reasoning: String,
    /// The tools the model started to call (names as it wrote them).
    pub calls: Vec<String>,
}

/// Where a tool call of the current run stands.
#[derive(Debug, Clone, PartialEq)]
pub enum CallState {
    /// Waiting for the person's yes or no.
    Waiting(ApprovalRequest),
    Running,
    /// Done (or not run), its result not yet in the conversation.
    Finished(ToolResult),
}

/// One provider and its conversation.
#[derive(Clone, Copy)]
pub struct Lane {
    pub key: u64,
    pub index: usize,
    pub provider: ProviderFields,
    pub conversation: RwSignal<Conversation>,
    /// Bumped whenever messages are replaced rather than added (edit, retry, import, clear), so
    /// the message views are drawn anew.
    pub revision: RwSignal<u64>,
    pub live: RwSignal<Option<LiveTurn>>,
    pub calls: RwSignal<HashMap<String, CallState>>,
    pub running: RwSignal<bool>,
    /// How the last run ended badly (its sentence carries the CORS advice, if any).
    pub error: RwSignal<Option<ChatError>>,
    /// What the last requests' conversion to the dialect could not keep.
    pub dropped: RwSignal<Vec<String>>,
    /// The MCP request of the call running now: (the server's connection id, request id), for
    /// its progress.
    pub running_call: RwSignal<Option<(String, RequestId)>>,
    pub approvals: StoredValue<HashMap<String, oneshot::Sender<Approval>>, LocalStorage>,
    pub chat_loop: StoredValue<Option<Rc<ChatLoop>>, LocalStorage>,
}

impl Lane {
    fn new(key: u64, index: usize) -> Self {
        let provider = ProviderFields::new(index);
        provider.remember_in_tab(index);
        Self {
            key,
            index,
            provider,
            conversation: RwSignal::new(Conversation::new()),
            revision: RwSignal::new(0),
            live: RwSignal::new(None),
            calls: RwSignal::new(HashMap::new()),
            running: RwSignal::new(false),
            error: RwSignal::new(None),
            dropped: RwSignal::new(Vec::new()),
            running_call: RwSignal::new(None),
            approvals: StoredValue::new_local(HashMap::new()),
            chat_loop: StoredValue::new_local(None),
        }
    }

    /// Answers a waiting call.
    pub fn decide(&self, call_id: &str, approval: Approval) {
        let sender = self
            .approvals
            .try_update_value(|waiting| waiting.remove(call_id))
            .flatten();
        if let Some(sender) = sender {
            let _ = sender.send(approval);
        }
    }

    /// Stops the run: its request, its stream, a waiting approval or a running tool.
    pub fn stop(&self) {
        if let Some(chat_loop) = self.chat_loop.try_get_value().flatten() {
            chat_loop.stop();
        }
    }
}

/// Context a person adds to their next message: a resource's contents.
#[derive(Debug, Clone, PartialEq)]
pub struct Attachment {
    /// The server's name and the resource's URI, as shown.
    pub label: String,
    pub parts: Vec<Part>,
}

/// The page's chat.
#[derive(Clone, Copy)]
pub struct ChatState {
    pub lanes: RwSignal<Vec<Lane>>,
    next_lane: StoredValue<u64>,
    /// The app's owner: lanes added later are made under it.
    owner: StoredValue<Owner>,
    pub system_prompt: RwSignal<String>,
    pub temperature: RwSignal<String>,
    pub max_tokens: RwSignal<String>,
    pub tool_use: RwSignal<ToolUse>,
    /// Connected servers left out of the chat (by connection id); the others are in.
    pub excluded: RwSignal<Vec<String>>,
    /// Each tool's approval policy as the person set it, by (server name, tool name); the
    /// others are "ask", or "always allow" for tools marked read-only.
    pub policies: RwSignal<HashMap<(String, String), ApprovalPolicy>>,
    /// Resources attached to the next message.
    pub attachments: RwSignal<Vec<Attachment>>,
    /// What the person is writing.
    pub draft: RwSignal<String>,
    /// The page's own model, for the lanes that pick "In this page".
    pub in_page: InPageModel,
}

thread_local! {
    static CHAT: std::cell::Cell<Option<ChatState>> = const { std::cell::Cell::new(None) };
}

impl ChatState {
    /// The page's chat, made at its first use under the app's owner.
    pub fn get() -> Self {
        if let Some(state) = CHAT.with(std::cell::Cell::get) {
            return state;
        }
        let owner = use_context::<super::super::servers::Servers>()
            .map(|servers| servers.owner.get_value())
            .unwrap_or_default();
        let state = owner.clone().with(|| {
            let state = Self {
                lanes: RwSignal::new(Vec::new()),
                next_lane: StoredValue::new(0),
                owner: StoredValue::new(owner.clone()),
                system_prompt: RwSignal::new(String::new()),
                temperature: RwSignal::new(String::new()),
                max_tokens: RwSignal::new(String::new()),
                tool_use: RwSignal::new(ToolUse::Auto),
                excluded: RwSignal::new(Vec::new()),
                policies: RwSignal::new(HashMap::new()),
                attachments: RwSignal::new(Vec::new()),
                draft: RwSignal::new(String::new()),
                in_page: InPageModel::new(),
            };
            state.add_lane();
            // A second lane the tab remembered comes back too.
            let remembered = |index: usize| {
                crate::ui::storage::session_storage()
                    .and_then(|s| s.get_item(&format!("{PROVIDER_KEY}{index}")).ok()?)
                    .is_some()
            };
            for index in 1..MAX_LANES {
                if remembered(index) {
                    state.add_lane();
                }
            }
            state
        });
        CHAT.with(|chat| chat.set(Some(state)));
        state
    }

    pub fn add_lane(&self) {
        let count = self.lanes.with_untracked(Vec::len);
        if count >= MAX_LANES {
            return;
        }
        let key = self.next_lane.get_value();
        self.next_lane.set_value(key + 1);
        let lane = self.owner.get_value().with(|| Lane::new(key, count));
        self.lanes.update(|lanes| lanes.push(lane));
    }

    pub fn remove_lane(&self, key: u64) {
        let gone = self
            .lanes
            .with_untracked(|lanes| lanes.iter().find(|l| l.key == key).copied());
        if let Some(lane) = gone {
            lane.stop();
            lane.provider.remember.set(false);
        }
        self.lanes.update(|lanes| {
            if lanes.len() > 1 {
                lanes.retain(|lane| lane.key != key);
            }
        });
    }

    /// The lane whose provider answers sampling requests: the first one with a model.
    pub fn sampling_lane(&self) -> Option<Lane> {
        self.lanes.with(|lanes| {
            lanes
                .iter()
                .find(|lane| lane.provider.ready())
                .or(lanes.first())
                .copied()
        })
    }

    /// The conversation settings, applied to a lane's conversation before a run.
    pub fn apply_settings(&self, conversation: &mut Conversation) -> Result<(), String> {
        conversation.tool_use = self.tool_use.get_untracked();
        let system = self.system_prompt.get_untracked();
        conversation.system_prompt = (!system.trim().is_empty()).then_some(system);
        let temperature = self.temperature.get_untracked();
        conversation.temperature = match temperature.trim() {
            "" => None,
            text => match text.parse::<f64>() {
                Ok(t) if (0.0..=2.0).contains(&t) => Some(t),
                _ => {
                    return Err(format!(
                        "The temperature {text:?} is not a number from 0 to 2."
                    ))
                }
            },
        };
        let max_tokens = self.max_tokens.get_untracked();
        conversation.max_tokens = match max_tokens.trim() {
            "" => None,
            text => match text.parse::<u32>() {
                Ok(n) if n > 0 => Some(n),
                _ => {
                    return Err(format!(
                        "The maximum number of tokens {text:?} is not a whole number above 0."
                    ))
                }
            },
        };
        Ok(())
    }
}

/// Where the page's model stands.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum ModelStatus {
    #[default]
    Empty,
    /// The host script being fetched, the file being read or downloaded ("12.0 MB of 98.0 MB"),
    /// or llama.cpp starting.
    Loading(String),
    Ready {
        name: String,
        bytes: u64,
    },
    Failed(String),
}

/// The page's one in-page model, shared by the lanes that pick it.
#[derive(Clone, Copy)]
pub struct InPageModel {
    pub status: RwSignal<ModelStatus>,
    /// The last run's answers' numbers, a line each.
    pub last_answers: RwSignal<Vec<String>>,
    /// Whether the small-model tool template is used (read at load time).
    pub template: RwSignal<bool>,
    pub url: RwSignal<String>,
}

impl InPageModel {
    pub fn new() -> Self {
        Self {
            status: RwSignal::new(ModelStatus::Empty),
            last_answers: RwSignal::new(Vec::new()),
            template: RwSignal::new(true),
            url: RwSignal::new(String::new()),
        }
    }

    /// The loaded model's name, if one is ready.
    pub fn ready_name(&self) -> Option<String> {
        match self.status.get_untracked() {
            ModelStatus::Ready { name, .. } => Some(name),
            _ => None,
        }
    }
}
