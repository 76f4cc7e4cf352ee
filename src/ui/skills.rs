//! The Skills tab (SEP-2640, when the server declares `io.modelcontextprotocol/skills`): the
//! skills the server lists, each with its description and files, and an entry that may not be
//! used with its reason. Nothing is read until the person opens a skill: then its `SKILL.md`,
//! checked against the entry (size, SHA-256 digest, frontmatter field by field) before it is
//! shown; a supporting file likewise when opened. Content that fails is never shown, and
//! nothing more of that skill is offered. In the panel chunk (`lazy::Skills`).

use super::store::use_connection;
use crate::client::SkillFileRead;
use crate::protocol::skills::{InvalidSkill, Skill, SkillFiles, Verification};
use leptos::prelude::*;
use leptos::task::spawn_local;

type Listed = Result<Vec<Result<Skill, InvalidSkill>>, String>;
type Read = Option<Result<SkillFileRead, String>>;

/// Reads `uri` of `skill` into `into` (`None` while it is read).
fn read(skill: Skill, uri: String, into: RwSignal<Read>) {
    let connection = use_connection();
    into.set(None);
    spawn_local(async move {
        let outcome = match connection.client() {
            Some(client) => client
                .read_skill_file(&skill, &uri)
                .await
                .map_err(|e| e.to_string()),
            None => Err("Not connected.".to_owned()),
        };
        let _ = into.try_set(Some(outcome));
    });
}

/// What a verified file's check says, in a few words.
fn verified(read: &SkillFileRead, is_skill_md: bool) -> String {
    match read.verification {
        Verification::Verified if is_skill_md => format!(
            "Verified: {} bytes, size, SHA-256 digest and frontmatter as the skill's entry lists them.",
            read.bytes
        ),
        Verification::Verified => format!(
            "Verified: {} bytes, size and SHA-256 digest as the skill's entry lists them.",
            read.bytes
        ),
        Verification::Unverifiable => format!(
            "Not verifiable: a dynamic skill publishes no digests ({} bytes as the server sent them).",
            read.bytes
        ),
    }
}

/// A read file: the check and the text, or why it was not used.
fn file_view(read: Read, is_skill_md: bool, id: &'static str) -> AnyView {
    match read {
        None => view! { <p class="muted" id=id>"Reading…"</p> }.into_any(),
        Some(Err(why)) => {
            view! { <p class="error skill-refused" id=id role="alert">{why}</p> }.into_any()
        }
        Some(Ok(read)) => {
            let check = verified(&read, is_skill_md);
            let text = read
                .text
                .unwrap_or_else(|| format!("({} bytes that are not UTF-8 text)", read.bytes));
            view! {
                <div id=id class="skill-file-read">
                    <p class="muted skill-verified">{check}</p>
                    <pre class="skill-text">{text}</pre>
                </div>
            }
            .into_any()
        }
    }
}

/// The opened skill: its `SKILL.md`, then its other files to open one by one.
#[component]
fn OpenedSkill(skill: Skill) -> impl IntoView {
    let main = RwSignal::new(None::<Result<SkillFileRead, String>>);
    let file = RwSignal::new(None::<(String, RwSignal<Read>)>);
    read(skill.clone(), skill.uri.clone(), main);
    let others: Vec<String> = match &skill.files {
        SkillFiles::Listed(files) => files
            .iter()
            .filter(|f| f.uri != skill.uri)
            .map(|f| f.uri.clone())
            .collect(),
        SkillFiles::Dynamic => Vec::new(),
    };
    let root = format!("{}/", skill.root());
    let files = move || {
        // Offered only once SKILL.md was verified: a failed skill is read no further.
        (main.with(|m| matches!(m, Some(Ok(_)))) && !others.is_empty()).then(|| {
            let skill = skill.clone();
            let root = root.clone();
            view! {
                <h3>"Files"</h3>
                <ul class="skill-files">
                    {others.clone().into_iter().map(|uri| {
                        let shown = uri.strip_prefix(root.as_str()).unwrap_or(&uri).to_owned();
                        let skill = skill.clone();
                        let open = move |_| {
                            let into = RwSignal::new(None);
                            file.set(Some((uri.clone(), into)));
                            read(skill.clone(), uri.clone(), into);
                        };
                        view! { <li><button type="button" class="link open-skill-file" on:click=open>{shown}</button></li> }
                    }).collect_view()}
                </ul>
            }
        })
    };
    view! {
        {move || file_view(main.get(), true, "skill-md")}
        {files}
        {move || file.get().map(|(uri, read)| view! {
            <h3><code>{uri}</code></h3>
            {move || file_view(read.get(), false, "skill-file")}
        })}
    }
}

/// The tab: the list (asked for when the tab is first drawn), and the opened skill.
#[component]
pub fn SkillsView() -> impl IntoView {
    let connection = use_connection();
    let listed = RwSignal::new(None::<Listed>);
    let opened = RwSignal::new(None::<Skill>);
    spawn_local(async move {
        let outcome = match connection.client() {
            Some(client) => client.list_skills().await.map_err(|e| e.to_string()),
            None => Err("Not connected.".to_owned()),
        };
        let _ = listed.try_set(Some(outcome));
    });
    let list = move || {
        match listed.get() {
        None => view! { <p class="muted">"Listing skills…"</p> }.into_any(),
        Some(Err(why)) => view! { <p class="error" id="skills-error">{why}</p> }.into_any(),
        Some(Ok(skills)) if skills.is_empty() => {
            view! { <p class="muted">"The server lists no skills."</p> }.into_any()
        }
        Some(Ok(skills)) => view! {
            <ul class="skills">
                {skills.into_iter().map(|skill| match skill {
                    Ok(skill) => {
                        let name = skill.name.clone();
                        let key = name.clone();
                        let description = skill.description.clone();
                        let declined = skill.declined.clone();
                        let files = match &skill.files {
                            SkillFiles::Listed(files) => format!("{} files", files.len()),
                            SkillFiles::Dynamic => "dynamic".to_owned(),
                        };
                        let open = move |_| opened.set(Some(skill.clone()));
                        view! {
                            <li class="skill-item" data-skill=key>
                                <button type="button" class="link open-skill" on:click=open>{name}</button>
                                " " <span class="description">{description}</span>
                                " " <span class="muted">{files}</span>
                                {declined.map(|why| view! { <p class="warning">{why}</p> })}
                            </li>
                        }.into_any()
                    }
                    Err(invalid) => view! {
                        <li class="skill-invalid warning">{invalid.to_string()}</li>
                    }.into_any(),
                }).collect_view()}
            </ul>
        }
        .into_any(),
    }
    };
    view! {
        <div id="skills-panel" class="panel">
            {list}
            {move || opened.get().map(|skill| view! {
                <div id="skill-view">
                    <h2>{skill.name.clone()}</h2>
                    <OpenedSkill skill/>
                </div>
            })}
        </div>
    }
}
