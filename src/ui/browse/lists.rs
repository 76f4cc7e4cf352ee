//! A server's lists as the tabs show them, derived from its state (pure): each item's
//! [`Item`](super::model::Item), the problems of a list that failed, the next page's cursor,
//! a page appended, and the filter's search over a list.

use super::model::{Item, Kind};
use crate::client::{ListKind, ListUpdate, ServerState};
use crate::protocol::apps::ToolUi;
use crate::protocol::error::McpError;
use crate::schema::uri_template::{form_schema, UriTemplate};
use rmcp::model::Prompt;
use serde_json::{Map, Value};
use std::sync::Arc;

/// What the filter searches in a list: each item's key, title and description, lowercased
/// (once per list, not per keystroke), one per line so that a filter never matches across
/// two of them, all items in one text (one search per keystroke, not one per item, and one
/// allocation per list, not one per item).
#[derive(Debug, Default, PartialEq)]
pub(super) struct SearchTexts {
    text: String,
    /// Where each item's part of `text` ends.
    ends: Vec<usize>,
}

impl SearchTexts {
    pub(super) fn of(items: &[Item]) -> Self {
        let mut text = String::new();
        let mut ends = Vec::with_capacity(items.len());
        for item in items {
            for part in [
                Some(&item.key),
                Some(&item.title),
                item.description.as_ref(),
            ]
            .into_iter()
            .flatten()
            {
                let from = text.len();
                text.push_str(part);
                text[from..].make_ascii_lowercase();
                text.push('\n');
            }
            ends.push(text.len());
        }
        SearchTexts { text, ends }
    }
}

/// The positions of the items whose search texts hold `filter` (case-insensitive).
pub(super) fn matching(texts: &SearchTexts, filter: &str) -> Vec<usize> {
    let needle = filter.trim().to_ascii_lowercase();
    if needle.is_empty() {
        return (0..texts.ends.len()).collect();
    }
    let mut found = Vec::new();
    if needle.contains('\n') {
        // Could span two items in the one text (never typed: a search field has no line
        // breaks): each item on its own.
        let mut from = 0;
        for (n, &end) in texts.ends.iter().enumerate() {
            if texts.text[from..end].contains(&needle) {
                found.push(n);
            }
            from = end;
        }
        return found;
    }
    // Every part ends with a line break, which the needle lacks: a match lies within one item.
    let mut item = 0;
    for (at, _) in texts.text.match_indices(needle.as_str()) {
        while texts.ends.get(item).is_some_and(|&end| end <= at) {
            item += 1;
        }
        if found.last() != Some(&item) && item < texts.ends.len() {
            found.push(item);
        }
    }
    found
}

/// The items of one kind, and what could not be listed. A failed list never hides another
/// that worked (resource templates failing leaves the resources shown).
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Listed {
    pub(super) items: Vec<Item>,
    pub(super) problems: Vec<String>,
}

impl From<Result<Vec<Item>, String>> for Listed {
    fn from(result: Result<Vec<Item>, String>) -> Self {
        match result {
            Ok(items) => Listed {
                items,
                problems: Vec::new(),
            },
            Err(problem) => Listed {
                items: Vec::new(),
                problems: vec![problem],
            },
        }
    }
}

/// The items of one kind, `None` when the server does not offer that kind.
pub(super) fn items(kind: Kind, state: &ServerState) -> Option<Listed> {
    let failed = |error: &McpError| error.to_string();
    match kind {
        Kind::Tools => state.tools.as_ref().map(|tools| {
            Listed::from(tools.as_ref().map_err(failed).map(|tools| {
                let mut items: Vec<Item> = tools
                    .iter()
                    .map(|tool| {
                        let ui = tool
                            .meta
                            .as_ref()
                            .map(|meta| ToolUi::from_meta(&Value::Object(meta.0.clone())));
                        Item {
                            key: tool.name.to_string(),
                            title: tool.title.clone().unwrap_or_else(|| tool.name.to_string()),
                            description: tool.description.as_ref().map(|d| d.to_string()),
                            detail: None,
                            form: Some(tool.input_schema.clone()),
                            template: None,
                            output_schema: tool.output_schema.clone(),
                            ui: ui
                                .as_ref()
                                .and_then(|ui| ui.resource_uri().map(str::to_owned)),
                            app_only: ui.is_some_and(|ui| ui.visibility.app_only()),
                        }
                    })
                    .collect();
                // App-only tools apart, after the others (a stable sort keeps each group's order).
                items.sort_by_key(|item| item.app_only);
                items
            }))
        }),
        Kind::Prompts => state.prompts.as_ref().map(|prompts| {
            Listed::from(prompts.as_ref().map_err(failed).map(|prompts| {
                prompts
                    .iter()
                    .map(|prompt| Item {
                        key: prompt.name.clone(),
                        title: prompt.title.clone().unwrap_or_else(|| prompt.name.clone()),
                        description: prompt.description.clone(),
                        detail: None,
                        form: Some(Arc::new(prompt_form(prompt))),
                        template: None,
                        output_schema: None,
                        ui: None,
                        app_only: false,
                    })
                    .collect()
            }))
        }),
        Kind::Resources => state.resources.as_ref().map(|resources| {
            let mut listed = Listed::from(resources.as_ref().map_err(failed).map(|resources| {
                resources
                    .iter()
                    .map(|resource| Item {
                        key: resource.uri.clone(),
                        title: resource
                            .title
                            .clone()
                            .unwrap_or_else(|| resource.name.clone()),
                        description: resource.description.clone(),
                        detail: Some(match &resource.mime_type {
                            Some(mime) => format!("{} ({mime})", resource.uri),
                            None => resource.uri.clone(),
                        }),
                        form: None,
                        template: None,
                        output_schema: None,
                        ui: None,
                        app_only: false,
                    })
                    .collect()
            }));
            match &state.templates {
                Some(Ok(templates)) => listed.items.extend(templates.iter().map(|template| {
                    let parsed = UriTemplate::parse(&template.uri_template);
                    Item {
                        key: template.uri_template.clone(),
                        title: template
                            .title
                            .clone()
                            .unwrap_or_else(|| template.name.clone()),
                        description: template.description.clone(),
                        detail: Some(format!("template {}", template.uri_template)),
                        form: Some(Arc::new(match form_schema(&parsed) {
                            Value::Object(map) => map,
                            _ => Map::new(),
                        })),
                        template: Some(template.uri_template.clone()),
                        output_schema: None,
                        ui: None,
                        app_only: false,
                    }
                })),
                Some(Err(error)) => listed.problems.push(failed(error)),
                None => {}
            }
            listed
        }),
    }
}

/// The list a tab continues with "Load more", and its cursor: the resources before their
/// templates.
pub(super) fn next_page(kind: Kind, state: &ServerState) -> Option<(ListKind, String)> {
    let lists: &[ListKind] = match kind {
        Kind::Tools => &[ListKind::Tools],
        Kind::Prompts => &[ListKind::Prompts],
        Kind::Resources => &[ListKind::Resources, ListKind::Templates],
    };
    lists
        .iter()
        .find_map(|&list| Some((list, state.more.get(list)?.to_owned())))
}

/// Appends a continued list's items to what was listed; its failure as the sentence to show.
pub(in crate::ui) fn append(state: &mut ServerState, update: ListUpdate) -> Result<(), String> {
    fn extend<T>(
        listed: &mut Option<Result<Vec<T>, McpError>>,
        more: Result<Vec<T>, McpError>,
    ) -> Result<(), String> {
        let more = more.map_err(|error| error.to_string())?;
        match listed {
            Some(Ok(items)) => items.extend(more),
            other => *other = Some(Ok(more)),
        }
        Ok(())
    }
    match update {
        ListUpdate::Tools(more) => extend(&mut state.tools, more),
        ListUpdate::Prompts(more) => extend(&mut state.prompts, more),
        ListUpdate::Resources(more) => extend(&mut state.resources, more),
        ListUpdate::Templates(more) => extend(&mut state.templates, more),
    }
}

/// Prompt arguments are all strings: describe them as a JSON Schema and reuse the form.
pub(super) fn prompt_form(prompt: &Prompt) -> Map<String, Value> {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for argument in prompt.arguments.iter().flatten() {
        let mut property = Map::new();
        property.insert("type".into(), "string".into());
        if let Some(title) = &argument.title {
            property.insert("title".into(), title.clone().into());
        }
        if let Some(description) = &argument.description {
            property.insert("description".into(), description.clone().into());
        }
        properties.insert(argument.name.clone(), Value::Object(property));
        if argument.required == Some(true) {
            required.push(Value::from(argument.name.clone()));
        }
    }
    Map::from_iter([
        ("type".to_owned(), Value::from("object")),
        ("properties".to_owned(), Value::Object(properties)),
        ("required".to_owned(), Value::Array(required)),
    ])
}
