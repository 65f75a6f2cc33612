//! One language at a time: Chinese or English for every page.
//!
//! The server negotiates the visitor's language per request
//! ([`request_lang`]: the URL's `?lang=`, then the `lang` cookie the switch
//! sets, then `Accept-Language`, then the page's default: Chinese for the
//! expert pages, English elsewhere) and writes it into `<html lang>`; the
//! browser's app reads it back from there, so both render the same.
//! [`LangSwitch`] links to `/lang?to=…&back=…`, which sets the cookie and
//! returns to the page (a full load, with or without JavaScript).

use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_query_map};

pub use engine::lang::Lang;

/// The language negotiated for the page being rendered.
#[derive(Debug, Clone, Copy)]
struct PageLang(Lang);

/// The language a page at `path` takes when nothing asks for one: the
/// expert pages are Chinese, the rest English.
pub fn default_lang(path: &str) -> Lang {
    if path == "/review" || path.starts_with("/review/") {
        Lang::Zh
    } else {
        Lang::En
    }
}

/// The `lang` parameter of a query string, if any.
#[cfg(feature = "ssr")]
fn asked(query: Option<&str>) -> Option<&str> {
    query?
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == "lang")
        .map(|(_, v)| v)
}

/// The language of a request for `uri` with `headers` (see the module docs).
#[cfg(feature = "ssr")]
pub fn request_lang(uri: &axum::http::Uri, headers: &axum::http::HeaderMap) -> Lang {
    let accept = headers
        .get(axum::http::header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok());
    engine::lang::negotiate(
        asked(uri.query()),
        crate::ssr::cookie(headers, engine::lang::COOKIE),
        accept,
        default_lang(uri.path()),
    )
}

/// Makes the page's language known to every component below: called once
/// at the root of the app.
pub fn provide_lang() {
    #[cfg(feature = "ssr")]
    let lang = use_context::<axum::http::request::Parts>()
        .map_or(Lang::En, |p| request_lang(&p.uri, &p.headers));
    #[cfg(not(feature = "ssr"))]
    let lang = document_lang();
    provide_context(PageLang(lang));
}

/// The language the server wrote into `<html lang>`.
#[cfg(not(feature = "ssr"))]
fn document_lang() -> Lang {
    #[cfg(feature = "hydrate")]
    {
        document()
            .document_element()
            .and_then(|html| html.get_attribute("lang"))
            .and_then(|tag| Lang::parse(&tag))
            .unwrap_or(Lang::En)
    }
    #[cfg(not(feature = "hydrate"))]
    Lang::En
}

/// The page's language (a page shows one; switching reloads it). In a
/// server function called over HTTP, the language of that request.
pub fn lang() -> Lang {
    // On the server the request says it first: its `Parts` are provided in
    // its own reactive owner, while a server function's owner may sit under
    // another request's page owner whose `PageLang` it would inherit (seen:
    // an English comparison answered in Chinese while a review page, Chinese
    // by default, rendered on the same thread).
    #[cfg(feature = "ssr")]
    if let Some(p) = use_context::<axum::http::request::Parts>() {
        return request_lang(&p.uri, &p.headers);
    }
    if let Some(PageLang(lang)) = use_context::<PageLang>() {
        return lang;
    }
    Lang::En
}

/// The page's language, following the URL's `?lang=` where a page links to
/// itself in the other language (the expert pages' links keep it).
pub fn use_lang() -> Memo<Lang> {
    let page = lang();
    let query = use_query_map();
    Memo::new(move |_| {
        query.with(|q| {
            q.get("lang")
                .as_deref()
                .and_then(Lang::parse)
                .unwrap_or(page)
        })
    })
}

/// A page's `<Title>` text in its language, following `?lang=` changes.
/// leptos_meta may read it while rendering the head, after the page's
/// owner (and `lang` with it) was disposed on the server: it then keeps the
/// language the page was rendered in instead of panicking.
pub fn title_text(
    lang: Memo<Lang>,
    zh: &'static str,
    en: &'static str,
) -> impl Fn() -> &'static str + Send + Sync + 'static {
    let rendered = lang.get_untracked();
    move || lang.try_get().unwrap_or(rendered).t(zh, en)
}

/// Links that keep an explicit `?lang=en`.
pub trait LangLinks {
    /// `href` with this language kept when it is English.
    fn link(self, href: &str) -> String;
}

impl LangLinks for Lang {
    fn link(self, href: &str) -> String {
        match self {
            Lang::Zh => href.to_owned(),
            Lang::En if href.contains('?') => format!("{href}&lang=en"),
            Lang::En => format!("{href}?lang=en"),
        }
    }
}

/// The URL of the switch to `to`, returning to `back`.
pub fn switch_href(to: Lang, back: &str) -> String {
    format!("/lang?to={}&back={}", to.code(), crate::url::encode(back))
}

/// The link to this page in the other language.
#[component]
pub fn LangSwitch() -> impl IntoView {
    let lang = use_lang();
    let location = use_location();
    let href = move || {
        let search = location.search.get();
        let back = if search.is_empty() {
            location.pathname.get()
        } else {
            format!(
                "{}?{}",
                location.pathname.get(),
                search.trim_start_matches('?')
            )
        };
        switch_href(lang.get().other(), &back)
    };
    view! {
        <a class="lang-switch" href=href rel="external" data-testid="lang-switch"
           hreflang=move || lang.get().other().code()
           lang=move || lang.get().other().html()>
            {move || lang.get().other().name()}
        </a>
    }
}

/// Where the switch returns: `back` if it is a path on this site, without
/// its `lang` parameter (the cookie decides from now on), else `/`.
///
/// ```
/// use app::components::i18n::switch_back;
/// assert_eq!(switch_back(Some("/cases?page=2&lang=en")), "/cases?page=2");
/// assert_eq!(switch_back(Some("/review/items/3?lang=en")), "/review/items/3");
/// assert_eq!(switch_back(Some("//evil.example/")), "/");
/// assert_eq!(switch_back(Some("https://evil.example/")), "/");
/// assert_eq!(switch_back(Some("/\\evil.example")), "/");
/// assert_eq!(switch_back(None), "/");
/// ```
pub fn switch_back(back: Option<&str>) -> String {
    let Some(back) = back.filter(|b| {
        b.starts_with('/')
            && !b.starts_with("//")
            && !b.starts_with("/\\")
            && !b.chars().any(char::is_control)
    }) else {
        return "/".to_owned();
    };
    let (path, query) = back.split_once('?').unwrap_or((back, ""));
    let kept: Vec<&str> = query
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("lang=") && *p != "lang")
        .collect();
    if kept.is_empty() {
        path.to_owned()
    } else {
        format!("{path}?{}", kept.join("&"))
    }
}
