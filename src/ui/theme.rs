//! Light, dark, or the system's choice (`prefers-color-scheme`), remembered in localStorage.
//! One button cycles through the three (a menu cost the first-paint wasm twice as much).
//! The stylesheet reads `data-theme` on the root element (none = follow the system).

use leptos::prelude::*;

const THEME_KEY: &str = "mcp-lens.theme";

pub(super) fn apply(choice: &str) {
    let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    else {
        return;
    };
    let _ = match choice {
        "light" | "dark" => root.set_attribute("data-theme", choice),
        _ => root.remove_attribute("data-theme"),
    };
}

/// The theme button in the top bar (system -> light -> dark -> system); applies the
/// remembered choice when first drawn.
#[component]
pub fn ThemeChoice() -> impl IntoView {
    let remembered =
        super::storage::local_storage().and_then(|s| s.get_item(THEME_KEY).ok().flatten());
    // A String signal, like the settings' (no new signal type in the first-paint wasm).
    let theme = RwSignal::new(remembered.unwrap_or_default());
    theme.with_untracked(|t| apply(t));
    let next = move |_| {
        let choice = match theme.get_untracked().as_str() {
            // Anything else (nothing remembered, or an unknown value) is the system's choice.
            "light" => "dark",
            "dark" => "system",
            _ => "light",
        };
        apply(choice);
        if let Some(storage) = super::storage::local_storage() {
            let _ = if choice == "system" {
                storage.remove_item(THEME_KEY)
            } else {
                storage.set_item(THEME_KEY, choice)
            };
        }
        theme.set(choice.to_owned());
    };
    view! {
        <button id="theme" class="secondary theme-choice" on:click=next>
            {move || match theme.get().as_str() {
                "light" => "Theme: Light",
                "dark" => "Theme: Dark",
                _ => "Theme: System",
            }}
        </button>
    }
}
