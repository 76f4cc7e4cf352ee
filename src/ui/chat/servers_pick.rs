//! The servers the chat uses (among the connected ones) and each tool's approval policy: ask,
//! always allow, never (default: ask, or always allow for a tool marked read-only).

use super::lane::{chat_servers, ChatServer};
use super::state::ChatState;
use crate::ui::servers::use_servers;
use crate::ui::store::Status;
use leptos::prelude::*;
use mcp_lens_chat::chat_loop::ApprovalPolicy;
use mcp_lens_chat::tools::ServerTools;
use mcp_lens_chat::{Dialect, ToolSet};

fn policy_key(policy: ApprovalPolicy) -> &'static str {
    match policy {
        ApprovalPolicy::Ask => "ask",
        ApprovalPolicy::AlwaysAllow => "allow",
        ApprovalPolicy::Never => "never",
    }
}

#[component]
pub fn ServersPick() -> impl IntoView {
    let state = ChatState::get();
    let servers = use_servers();
    // Every connected server, ticked unless left out.
    let connected = move || {
        servers
            .list
            .get()
            .into_iter()
            .filter(|entry| entry.connection.status().get() == Status::Connected)
            .map(|entry| (entry.connection.id(), entry.settings.name.get()))
            .collect::<Vec<_>>()
    };
    // The tools the model sees (with the names it sees them by), redone when a server, its
    // tools or the choice change.
    let tool_set = Memo::new(move |_| {
        state.excluded.track();
        servers.list.with(|list| {
            for entry in list {
                entry.connection.status().track();
                entry.connection.server().track();
            }
        });
        let dialect = state
            .lanes
            .with(|lanes| lanes.first().map(|l| l.provider.dialect.get()))
            .unwrap_or(Dialect::OpenAiCompatible);
        let chosen: Vec<ChatServer> = chat_servers(servers, state);
        let lists: Vec<ServerTools<'_>> = chosen
            .iter()
            .map(|s| ServerTools {
                server_id: &s.name,
                tools: &s.tools,
            })
            .collect();
        let set = ToolSet::build(dialect, &lists);
        set.definitions
            .iter()
            .map(|d| {
                (
                    d.server_id.clone(),
                    d.tool_name.clone(),
                    d.provider_name.clone(),
                    d.read_only,
                )
            })
            .chain(set.hidden.iter().map(|h| {
                (
                    h.server_id.clone(),
                    h.tool_name.clone(),
                    String::new(),
                    false,
                )
            }))
            .collect::<Vec<_>>()
    });
    let hidden_notes = move || {
        let count = tool_set.with(|tools| tools.iter().filter(|t| t.2.is_empty()).count());
        (count > 0).then(|| view! {
            <p class="muted">{format!("{count} tool(s) are hidden from the model (for their server's app only, or unusable).")}</p>
        })
    };
    view! {
        <div class="chat-servers">
            {move || {
                let list = connected();
                if list.is_empty() {
                    return view! { <p class="muted" id="chat-no-servers">"No server is connected: connect one (or more) in the sidebar, and its tools are offered to the model."</p> }.into_any();
                }
                list.into_iter().map(|(id, name)| {
                    let ticked = {
                        let id = id.clone();
                        move || !state.excluded.with(|ex| ex.contains(&id))
                    };
                    let toggle = move |ev| {
                        let on = event_target_checked(&ev);
                        let id = id.clone();
                        state.excluded.update(|ex| {
                            ex.retain(|x| x != &id);
                            if !on {
                                ex.push(id);
                            }
                        });
                    };
                    view! {
                        <label class="check chat-server" data-server=name.clone()>
                            <input type="checkbox" prop:checked=ticked on:change=toggle/>
                            " " {name.clone()}
                        </label>
                    }
                }).collect_view().into_any()
            }}
            <table class="chat-tools">
                <thead><tr><th>"server"</th><th>"tool"</th><th>"the model sees"</th><th>"calls"</th></tr></thead>
                <tbody>
                    {move || tool_set.get().into_iter().map(|(server, tool, visible, read_only)| {
                        if visible.is_empty() {
                            return view! {
                                <tr class="chat-tool hidden-tool"><td>{server}</td><td>{tool}</td><td class="muted">"hidden"</td><td></td></tr>
                            }.into_any();
                        }
                        let key = (server.clone(), tool.clone());
                        let current = {
                            let key = key.clone();
                            move || {
                                let default = if read_only { ApprovalPolicy::AlwaysAllow } else { ApprovalPolicy::Ask };
                                policy_key(state.policies.with(|p| p.get(&key).copied()).unwrap_or(default))
                            }
                        };
                        let set = move |ev| {
                            let policy = match event_target_value(&ev).as_str() {
                                "allow" => ApprovalPolicy::AlwaysAllow,
                                "never" => ApprovalPolicy::Never,
                                _ => ApprovalPolicy::Ask,
                            };
                            let key = key.clone();
                            state.policies.update(|p| { p.insert(key, policy); });
                        };
                        view! {
                            <tr class="chat-tool" data-tool=tool.clone()>
                                <td>{server}</td><td>{tool.clone()}</td><td><code>{visible}</code></td>
                                <td>
                                    <select class="tool-policy" aria-label=format!("Calls of {tool}") prop:value=current on:change=set>
                                        <option value="ask">"ask"</option>
                                        <option value="allow">"always allow"</option>
                                        <option value="never">"never"</option>
                                    </select>
                                </td>
                            </tr>
                        }.into_any()
                    }).collect_view()}
                </tbody>
            </table>
            {hidden_notes}
        </div>
    }
}
