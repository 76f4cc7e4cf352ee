//! The conversation loop: a model turn, the tool calls it asks for (each approved or not by
//! its policy, dispatched to its server through [`ToolRunner`]), their results back to the
//! model, until the model stops, a limit is reached, or the person stops it. Events go out as
//! they happen ([`ChatEvent`]) so a UI can render streamed text, calls, results, usage and
//! errors; the conversation itself is left valid at every end (every call has a result), so a
//! run can be retried, continued or edited.
//!
//! Calls of one turn run one after another, in the model's order: approvals are asked one at
//! a time, and a stop leaves a clear line between what ran and what did not.

use crate::conversation::{
    Conversation, Message, MessageId, Part, Role, StopReason, ToolCall, ToolResult, ToolStatus,
    ToolUse,
};
use crate::dialect::{ModelRequest, ToolChoice, DEFAULT_MAX_TOOL_RESULT_CHARS};
use crate::error::{ChatError, ChatErrorKind, ChatStep};
use crate::model_call::{call_model, number_generated_call_ids, AnswerLimits, ModelCall};
use crate::provider::ProviderConfig;
use crate::schema_convert::Dropped;
use crate::stream::Delta;
use crate::tools::ToolSet;
use futures::channel::oneshot;
use futures::future::{select, Either, LocalBoxFuture};
use mcp_lens_client::runtime::{Abort, Clock, Http};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Calls a server's tool (the page's MCP client in the app, a fake in tests). Resolves with the
/// `CallToolResult` JSON, or a sentence saying why there is none (network, timeout, protocol).
/// Dropping the future means the call is no longer wanted.
pub trait ToolRunner {
    fn call(
        &self,
        server_id: &str,
        tool_name: &str,
        arguments: Value,
    ) -> LocalBoxFuture<'static, Result<Value, String>>;
}

/// Asks the person whether a call may run.
pub trait Approver {
    fn approve(&self, request: &ApprovalRequest) -> LocalBoxFuture<'static, Approval>;
}

/// A call waiting for the person's yes or no.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalRequest {
    pub call_id: String,
    pub server_id: String,
    pub tool_name: String,
    pub arguments: Value,
    pub read_only: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Approval {
    Allow,
    Deny { reason: Option<String> },
}

/// Whether a tool's calls need the person.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApprovalPolicy {
    Ask,
    AlwaysAllow,
    Never,
}

/// Where a run stops by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Model requests in one run.
    pub max_turns: u32,
    /// Tool calls in one run.
    pub max_tool_calls: u32,
    /// The conversation's size (as JSON) above which no model request is sent.
    pub max_conversation_bytes: usize,
    /// Each tool result's text sent to the model.
    pub max_tool_result_chars: usize,
    pub answer: AnswerLimits,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_turns: 16,
            max_tool_calls: 32,
            max_conversation_bytes: 4 * 1024 * 1024,
            max_tool_result_chars: DEFAULT_MAX_TOOL_RESULT_CHARS,
            answer: AnswerLimits::default(),
        }
    }
}

/// Which limit ended a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitReached {
    Turns(u32),
    ToolCalls(u32),
    ConversationBytes(usize),
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum RunEnd {
    /// The model stopped by itself (a refusal included).
    Finished {
        stop: StopReason,
    },
    Limit(LimitReached),
    Stopped,
    Failed(ChatError),
}

/// What happens, as it happens.
#[derive(Debug, Clone, PartialEq)]
pub enum ChatEvent {
    /// A model turn begins; its message will have this id.
    TurnStarted {
        message_id: MessageId,
    },
    /// What the request's conversion to the dialect could not keep (sent once per request
    /// that lost something).
    RequestDropped {
        message_id: MessageId,
        dropped: Vec<Dropped>,
    },
    /// A piece of the model's answer.
    Delta {
        message_id: MessageId,
        delta: Delta,
    },
    /// The model's message, whole (also when cut short by an error or a stop).
    TurnFinished {
        message: Message,
    },
    /// A call waits for the person.
    ApprovalNeeded {
        request: ApprovalRequest,
    },
    /// A call runs.
    ToolCallStarted {
        call: ToolCall,
    },
    /// A call's result (or why it did not run).
    ToolCallFinished {
        result: ToolResult,
    },
    /// The results went into the conversation as this message.
    ResultsAdded {
        message: Message,
    },
    Error {
        error: ChatError,
    },
    Ended {
        end: RunEnd,
    },
}

/// What a loop is made of.
pub struct ChatSetup {
    pub http: Rc<dyn Http>,
    pub clock: Rc<dyn Clock>,
    pub provider: ProviderConfig,
    pub tools: ToolSet,
    pub runner: Rc<dyn ToolRunner>,
    pub approver: Rc<dyn Approver>,
    pub limits: Limits,
    /// The page's origin (for what to do when the provider refuses it).
    pub page_origin: String,
    pub on_event: Rc<dyn Fn(&ChatEvent)>,
}

/// Runs conversations with one provider and one set of tools.
pub struct ChatLoop {
    setup: ChatSetup,
    policies: RefCell<HashMap<(String, String), ApprovalPolicy>>,
    /// The current run's stop handle (a new one per run: an aborted handle stays aborted).
    current: RefCell<Abort>,
}

impl ChatLoop {
    pub fn new(setup: ChatSetup) -> Self {
        Self {
            setup,
            policies: RefCell::default(),
            current: RefCell::new(Abort::new()),
        }
    }

    pub fn tools(&self) -> &ToolSet {
        &self.setup.tools
    }

    /// Sets a tool's policy (also during a run: "always allow" from an approval applies to the
    /// next call).
    pub fn set_policy(&self, server_id: &str, tool_name: &str, policy: ApprovalPolicy) {
        self.policies
            .borrow_mut()
            .insert((server_id.to_owned(), tool_name.to_owned()), policy);
    }

    /// A tool's policy: the one set, else "always allow" for read-only tools and "ask" for the
    /// others.
    pub fn policy(&self, server_id: &str, tool_name: &str) -> ApprovalPolicy {
        if let Some(policy) = self
            .policies
            .borrow()
            .get(&(server_id.to_owned(), tool_name.to_owned()))
        {
            return *policy;
        }
        match self.setup.tools.find(server_id, tool_name) {
            Some(definition) if definition.read_only => ApprovalPolicy::AlwaysAllow,
            _ => ApprovalPolicy::Ask,
        }
    }

    /// Stops the current run: its request, its stream, a waiting approval or a running tool.
    pub fn stop(&self) {
        self.current.borrow().abort();
    }

    /// Adds the person's text and runs.
    pub async fn send(&self, conversation: &mut Conversation, text: &str) -> RunEnd {
        conversation.push_user_text(text);
        self.run(conversation).await
    }

    /// Answers the person's last message again (what followed it is removed).
    pub async fn retry(&self, conversation: &mut Conversation) -> RunEnd {
        if let Err(error) = conversation.prepare_retry() {
            return self.end(RunEnd::Failed(error));
        }
        self.run(conversation).await
    }

    /// Changes the person's message `id`, removes what followed it, and runs.
    pub async fn edit_and_resend(
        &self,
        conversation: &mut Conversation,
        id: MessageId,
        text: &str,
    ) -> RunEnd {
        if let Err(error) = conversation.edit(id, text) {
            return self.end(RunEnd::Failed(error));
        }
        self.run(conversation).await
    }

    /// Runs from where the conversation is: pending calls first, then model turns.
    pub async fn run(&self, conversation: &mut Conversation) -> RunEnd {
        let abort = Abort::new();
        *self.current.borrow_mut() = abort.clone();
        let mut turns = 0u32;
        let mut tool_calls = 0u32;
        loop {
            let pending = conversation.pending_tool_calls();
            if !pending.is_empty() {
                let limit = self
                    .run_calls(conversation, pending, &mut tool_calls, &abort)
                    .await;
                if abort.is_aborted() {
                    return self.end(RunEnd::Stopped);
                }
                if let Some(limit) = limit {
                    return self.end(RunEnd::Limit(limit));
                }
                continue;
            }
            if abort.is_aborted() {
                return self.end(RunEnd::Stopped);
            }
            match conversation.messages.last() {
                None => {
                    return self.end(RunEnd::Failed(ChatError::new(
                        ChatStep::BuildRequest,
                        ChatErrorKind::InvalidSettings {
                            detail: "There is nothing to send yet: write a message first.".into(),
                        },
                    )))
                }
                Some(last) if last.role == Role::Assistant => {
                    let stop = last
                        .turn
                        .as_ref()
                        .and_then(|t| t.stop.clone())
                        .unwrap_or(StopReason::EndTurn);
                    return self.end(RunEnd::Finished { stop });
                }
                Some(_) => {}
            }
            if turns >= self.setup.limits.max_turns {
                return self.end(RunEnd::Limit(LimitReached::Turns(
                    self.setup.limits.max_turns,
                )));
            }
            let size = conversation.approximate_bytes();
            if size > self.setup.limits.max_conversation_bytes {
                return self.end(RunEnd::Limit(LimitReached::ConversationBytes(
                    self.setup.limits.max_conversation_bytes,
                )));
            }
            turns += 1;
            if let Some(end) = self.model_turn(conversation, &abort).await {
                return self.end(end);
            }
        }
    }

    fn emit(&self, event: ChatEvent) {
        (self.setup.on_event)(&event);
    }

    fn end(&self, end: RunEnd) -> RunEnd {
        if let RunEnd::Failed(error) = &end {
            self.emit(ChatEvent::Error {
                error: error.clone(),
            });
        }
        self.emit(ChatEvent::Ended { end: end.clone() });
        end
    }

    /// One model turn into the conversation. Some(end) when the run ends here.
    async fn model_turn(&self, conversation: &mut Conversation, abort: &Abort) -> Option<RunEnd> {
        let message_id = conversation.next_id();
        self.emit(ChatEvent::TurnStarted { message_id });
        let setup = &self.setup;
        let request = ModelRequest {
            system: conversation.system_prompt.as_deref(),
            messages: &conversation.messages,
            temperature: conversation.temperature,
            max_tokens: conversation.max_tokens,
            stop_sequences: &[],
            tools: &setup.tools,
            tool_choice: tool_choice(conversation),
            stream: true,
            max_tool_result_chars: setup.limits.max_tool_result_chars,
        };
        let call = ModelCall {
            http: setup.http.as_ref(),
            clock: setup.clock.as_ref(),
            config: &setup.provider,
            limits: setup.limits.answer,
            abort,
            page_origin: &setup.page_origin,
        };
        let mut on_delta = |delta: &Delta| {
            self.emit(ChatEvent::Delta {
                message_id,
                delta: delta.clone(),
            })
        };
        let mut answer = call_model(&call, &request, &mut on_delta).await;
        if !answer.info.dropped.is_empty() {
            self.emit(ChatEvent::RequestDropped {
                message_id,
                dropped: answer.info.dropped.clone(),
            });
        }
        number_generated_call_ids(&mut answer.turn, message_id);
        let mut parts = answer.turn.parts;
        for part in &mut parts {
            if let Part::ToolCall(call) = part {
                if let Some(definition) = setup.tools.resolve(&call.name) {
                    call.server_id = Some(definition.server_id.clone());
                    call.tool_name = Some(definition.tool_name.clone());
                }
            }
        }
        if !parts.is_empty() {
            let message = Message {
                id: message_id,
                role: Role::Assistant,
                parts,
                turn: Some(answer.info),
            };
            conversation.messages.push(message.clone());
            self.emit(ChatEvent::TurnFinished { message });
        }
        match answer.error {
            Some(error) if error.kind == ChatErrorKind::Stopped || abort.is_aborted() => {
                Some(RunEnd::Stopped)
            }
            Some(error) => Some(RunEnd::Failed(error)),
            None if conversation.pending_tool_calls().is_empty() => {
                // Nothing to run: the model is done (an empty answer ends the run too).
                let stop = answer.turn.stop.unwrap_or(StopReason::EndTurn);
                Some(RunEnd::Finished { stop })
            }
            None => None,
        }
    }

    /// Runs the pending calls in order and adds their results. Some(limit) when the limit of
    /// calls stopped some of them.
    async fn run_calls(
        &self,
        conversation: &mut Conversation,
        pending: Vec<ToolCall>,
        tool_calls: &mut u32,
        abort: &Abort,
    ) -> Option<LimitReached> {
        let mut results = Vec::with_capacity(pending.len());
        let mut limit = None;
        for call in &pending {
            let result = if abort.is_aborted() {
                ToolResult::not_run(
                    call,
                    ToolStatus::Skipped,
                    "Not run: the person stopped the chat first.",
                )
            } else if *tool_calls >= self.setup.limits.max_tool_calls {
                limit = Some(LimitReached::ToolCalls(self.setup.limits.max_tool_calls));
                let text = format!(
                    "Not run: the chat's limit of {} tool calls was reached.",
                    self.setup.limits.max_tool_calls
                );
                ToolResult::not_run(call, ToolStatus::Skipped, &text)
            } else {
                *tool_calls += 1;
                self.dispatch(call, abort).await
            };
            self.emit(ChatEvent::ToolCallFinished {
                result: result.clone(),
            });
            results.push(Part::ToolResult(result));
        }
        let id = conversation.push(Role::User, results, None);
        if let Some(message) = conversation.message(id) {
            self.emit(ChatEvent::ResultsAdded {
                message: message.clone(),
            });
        }
        limit
    }

    /// One call: checked, approved, run (or the reason it was not).
    async fn dispatch(&self, call: &ToolCall, abort: &Abort) -> ToolResult {
        let definition = match (&call.server_id, &call.tool_name) {
            (Some(server), Some(tool)) => self.setup.tools.find(server, tool),
            _ => self.setup.tools.resolve(&call.name),
        };
        let Some(definition) = definition else {
            let available: Vec<&str> = self
                .setup
                .tools
                .definitions
                .iter()
                .take(50)
                .map(|d| d.provider_name.as_str())
                .collect();
            let text = format!(
                "There is no tool named {:?}. The tools are: {}.",
                call.name,
                available.join(", ")
            );
            return ToolResult::not_run(call, ToolStatus::UnknownTool, &text);
        };
        if let Some(why) = &call.invalid_arguments {
            let text =
                format!("The call was not made: {why}. Send the arguments as one JSON object.");
            return ToolResult::not_run(call, ToolStatus::InvalidArguments, &text);
        }
        let (server, tool) = (definition.server_id.clone(), definition.tool_name.clone());
        match self.policy(&server, &tool) {
            ApprovalPolicy::Never => {
                return ToolResult::not_run(
                    call,
                    ToolStatus::NotAllowed,
                    "The person does not allow this tool to be called from the chat.",
                );
            }
            ApprovalPolicy::AlwaysAllow => {}
            ApprovalPolicy::Ask => {
                let request = ApprovalRequest {
                    call_id: call.id.clone(),
                    server_id: server.clone(),
                    tool_name: tool.clone(),
                    arguments: call.arguments.clone(),
                    read_only: definition.read_only,
                };
                self.emit(ChatEvent::ApprovalNeeded {
                    request: request.clone(),
                });
                match until_aborted(self.setup.approver.approve(&request), abort).await {
                    None => {
                        return ToolResult::not_run(
                            call,
                            ToolStatus::Skipped,
                            "Not run: the person stopped the chat first.",
                        )
                    }
                    Some(Approval::Deny { reason }) => {
                        let text = match reason {
                            Some(reason) if !reason.trim().is_empty() => {
                                format!("The person declined this call: {reason}")
                            }
                            _ => "The person declined this call.".to_owned(),
                        };
                        return ToolResult::not_run(call, ToolStatus::Declined, &text);
                    }
                    Some(Approval::Allow) => {}
                }
            }
        }
        self.emit(ChatEvent::ToolCallStarted { call: call.clone() });
        let arguments = definition.arguments_for_tool(call.arguments.clone());
        let started = self.setup.clock.now_ms();
        let outcome = until_aborted(self.setup.runner.call(&server, &tool, arguments), abort).await;
        let duration_ms = Some(self.setup.clock.now_ms() - started);
        match outcome {
            None => ToolResult {
                duration_ms,
                ..ToolResult::not_run(call, ToolStatus::Skipped, "The person stopped the chat while the tool ran; its result was not waited for.")
            },
            Some(Ok(result)) => ToolResult {
                call_id: call.id.clone(),
                name: call.name.clone(),
                status: ToolStatus::Done,
                result,
                duration_ms,
            },
            Some(Err(why)) => ToolResult {
                duration_ms,
                ..ToolResult::not_run(call, ToolStatus::Failed, &format!("The call failed: {why}"))
            },
        }
    }
}

/// What the next model turn may do with the tools: the conversation's [`ToolUse`], "required"
/// applying only to an answer to the person (not after tool results, or the model could never
/// answer), and never without tools.
fn tool_choice(conversation: &Conversation) -> ToolChoice {
    let to_person = conversation
        .messages
        .last()
        .is_some_and(Message::is_from_person);
    match conversation.tool_use {
        ToolUse::Auto => ToolChoice::Auto,
        ToolUse::RequiredFirst if to_person => ToolChoice::Required,
        ToolUse::RequiredFirst => ToolChoice::Auto,
        ToolUse::None => ToolChoice::None,
    }
}

/// `work`'s output, or None once `abort` is aborted (then `work` is dropped).
async fn until_aborted<T>(work: LocalBoxFuture<'static, T>, abort: &Abort) -> Option<T> {
    if abort.is_aborted() {
        return None;
    }
    let (aborted, on_abort) = oneshot::channel::<()>();
    abort.on_abort(move || {
        let _ = aborted.send(());
    });
    match select(work, on_abort).await {
        Either::Left((output, _)) => Some(output),
        Either::Right(_) => None,
    }
}
