//! An outcome drawn, a task's card included ([`OutcomeView`]): a tool that runs as a task
//! shows its card (`tasks.rs`), every other outcome its result ([`ResultView`]).

use super::outcome::Outcome;
use super::result_view::ResultView;
use crate::ui::tasks::TaskCard;
use leptos::prelude::*;
use serde_json::{Map, Value};
use std::sync::Arc;

#[component]
pub(in crate::ui) fn OutcomeView(
    id: Option<&'static str>,
    outcome: Outcome,
    output_schema: Option<Arc<Map<String, Value>>>,
) -> impl IntoView {
    match outcome {
        Outcome::Task(task) => view! {
            <div id=id class="result" class:result-error=false><TaskCard id=task/></div>
        }
        .into_any(),
        outcome => view! { <ResultView id outcome output_schema/> }.into_any(),
    }
}
