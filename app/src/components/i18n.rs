//! The language of the expert pages: Chinese by default, English with
//! `?lang=en` in the URL (kept by the links these pages build), so the
//! choice renders the same on the server and in the browser.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

/// A page language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Zh,
    En,
}

impl Lang {
    /// `zh` or `en` text, by the language.
    pub fn t(self, zh: &'static str, en: &'static str) -> &'static str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }

    /// The query suffix that keeps this language on a link (`""` for Chinese).
    pub fn query(self) -> &'static str {
        match self {
            Lang::Zh => "",
            Lang::En => "?lang=en",
        }
    }

    /// `href` with this language kept.
    pub fn link(self, href: &str) -> String {
        match self {
            Lang::Zh => href.to_owned(),
            Lang::En if href.contains('?') => format!("{href}&lang=en"),
            Lang::En => format!("{href}?lang=en"),
        }
    }
}

/// The language of the current page, from its URL.
pub fn use_lang() -> Memo<Lang> {
    let query = use_query_map();
    Memo::new(move |_| {
        if query.with(|q| q.get("lang").as_deref() == Some("en")) {
            Lang::En
        } else {
            Lang::Zh
        }
    })
}

/// Links to this page in the other language.
#[component]
pub fn LangSwitch(path: String) -> impl IntoView {
    let lang = use_lang();
    move || match lang.get() {
        Lang::Zh => {
            view! { <a class="lang-switch" href=Lang::En.link(&path)>"English"</a> }.into_any()
        }
        Lang::En => view! { <a class="lang-switch" href=path.clone()>"中文"</a> }.into_any(),
    }
}
