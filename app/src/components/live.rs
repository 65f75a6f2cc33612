//! Live updates: pages that show stored data subscribe to the server's change
//! feed (`GET /api/events`, server-sent events) and refetch when it announces
//! a change they show. On the server, and with JavaScript off, nothing is
//! subscribed and the page is simply the server's rendering. A reading page
//! has no wasm: there `public/live.js` subscribes to the events its
//! [`LiveBadge`] names and swaps in the page's new rendering. A page of one
//! benchmark ([`use_live_of`]) hears only of that benchmark's stored runs.

use leptos::prelude::*;

/// The state of a page's subscription.
#[derive(Debug, Clone, Copy)]
pub struct Live {
    /// Goes up by one each time a change of the subscribed kind arrives (or
    /// the page must resync after missing some); a resource keyed on it refetches.
    pub changes: ReadSignal<u32>,
    /// Whether the event stream is open.
    pub connected: ReadSignal<bool>,
    /// The events subscribed to (on a reading page, which has no wasm,
    /// `live.js` reads them off the badge).
    pub events: &'static [&'static str],
    /// The benchmark whose runs the page shows (`None`: every benchmark's).
    pub benchmark: Option<&'static str>,
}

impl Live {
    /// The address of the change feed this page follows.
    fn feed(benchmark: Option<&str>) -> String {
        match benchmark {
            Some(b) => format!("/api/events?benchmark={b}"),
            None => "/api/events".to_owned(),
        }
    }
}

/// Subscribes the current page to server events named in `events` for as
/// long as the calling component lives.
pub fn use_live(events: &'static [&'static str]) -> Live {
    subscribe_page(None, events)
}

/// [`use_live`] for a page of one benchmark (`lexpilot`, `plawbench`, …):
/// runs stored for another benchmark do not refetch it.
pub fn use_live_of(benchmark: &'static str, events: &'static [&'static str]) -> Live {
    subscribe_page(Some(benchmark), events)
}

fn subscribe_page(benchmark: Option<&'static str>, events: &'static [&'static str]) -> Live {
    let (changes, set_changes) = signal(0u32);
    let (connected, set_connected) = signal(false);
    #[cfg(feature = "hydrate")]
    subscribe(&Live::feed(benchmark), events, set_changes, set_connected);
    #[cfg(not(feature = "hydrate"))]
    let _ = (set_changes, set_connected);
    Live {
        changes,
        connected,
        events,
        benchmark,
    }
}

#[cfg(feature = "hydrate")]
fn subscribe(
    feed: &str,
    events: &'static [&'static str],
    set_changes: WriteSignal<u32>,
    set_connected: WriteSignal<bool>,
) {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;

    let Ok(source) = web_sys::EventSource::new(feed) else {
        return;
    };
    let bump = move |_: web_sys::Event| set_changes.update(|n| *n = n.wrapping_add(1));
    let on_change = Closure::<dyn Fn(web_sys::Event)>::new(bump);
    for name in events.iter().copied().chain(["resync"]) {
        let _ = source.add_event_listener_with_callback(name, on_change.as_ref().unchecked_ref());
    }
    // The browser reconnects by itself after an error; what was announced
    // meanwhile is lost, so a reconnection refetches.
    let dropped = std::rc::Rc::new(std::cell::Cell::new(false));
    let on_open = {
        let dropped = dropped.clone();
        Closure::<dyn Fn(web_sys::Event)>::new(move |e| {
            set_connected.set(true);
            if dropped.replace(false) {
                bump(e);
            }
        })
    };
    let on_error = Closure::<dyn Fn(web_sys::Event)>::new(move |_| {
        set_connected.set(false);
        dropped.set(true);
    });
    source.set_onopen(Some(on_open.as_ref().unchecked_ref()));
    source.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    // The closures must live as long as the subscription; the owner drops them.
    let held = StoredValue::new_local((source, on_change, on_open, on_error));
    on_cleanup(move || {
        held.try_with_value(|(source, ..)| source.close());
    });
}

/// Calls `fetch` after each change `live` announces and hands what it
/// returns to `apply`, one fetch at a time: changes that arrive while a fetch
/// is in flight cause exactly one more fetch after it. A resource keyed on
/// `live.changes` instead drops its fetch in flight at every change, so on a
/// page whose data changes faster than a round trip (a running job's
/// progress) it would never show anything new. Does nothing on the server.
pub fn refresh_on_change<T, Fut>(
    live: Live,
    fetch: impl Fn() -> Fut + Copy + 'static,
    apply: impl Fn(T) + Copy + 'static,
) where
    T: 'static,
    Fut: std::future::Future<Output = T> + 'static,
{
    #[cfg(feature = "hydrate")]
    {
        // (in flight, changed since it started)
        let state = StoredValue::new((false, false));
        Effect::new(move |first: Option<()>| {
            live.changes.track();
            if first.is_none() {
                return;
            }
            let busy = state.try_update_value(|(busy, changed)| {
                *changed = true;
                std::mem::replace(busy, true)
            });
            if busy != Some(false) {
                return;
            }
            leptos::task::spawn_local(async move {
                while state.try_update_value(|(_, changed)| std::mem::take(changed)) == Some(true) {
                    apply(fetch().await);
                }
                state.try_update_value(|(busy, _)| *busy = false);
            });
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (live, fetch, apply);
}

/// A small badge saying whether the page is updating live (its texts in
/// both states ride along for `live.js`).
#[component]
pub fn LiveBadge(live: Live) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let on = lang.t("● 实时", "● Live");
    let off = lang.t("○ 静态", "○ Static");
    view! {
        <span class="live-badge" class:on=move || live.connected.get() data-testid="live-badge" data-events=live.events.join(" ")
              data-feed=Live::feed(live.benchmark)
              data-on=on data-off=off
              title=lang.t("有新结果时自动更新，无需刷新", "Updates without reload when runs are stored")>
            {move || if live.connected.get() { on } else { off }}
        </span>
    }
}
