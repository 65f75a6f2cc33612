//! `GET /api/events`: committed changes as server-sent events, so open pages
//! update without reload. Each event is named after its change (`runs`) and
//! carries the change as JSON; a subscriber that fell behind gets `resync`
//! (refetch everything). A comment line every 15 s keeps proxies from closing
//! an idle stream. `?benchmark=plawbench` leaves out the runs stored for
//! other benchmarks, which a page of that benchmark does not show.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::get;
use axum::Router;
use tokio_stream::wrappers::errors::BroadcastStreamRecvError;
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::{Stream, StreamExt};

use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/events", get(events))
}

/// The query of `GET /api/events`.
#[derive(serde::Deserialize)]
struct Follow {
    /// The benchmark whose pages listen (every benchmark's runs when absent).
    benchmark: Option<String>,
}

async fn events(
    State(state): State<AppState>,
    Query(follow): Query<Follow>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let changes = BroadcastStream::new(state.db.subscribe()).filter(move |change| {
        match (change, follow.benchmark.as_deref()) {
            (Ok(change), Some(benchmark)) => change.concerns(benchmark),
            _ => true,
        }
    });
    let stream = changes.map(|change| {
        Ok(match change {
            Ok(change) => Event::default()
                .event(change.event_name())
                .json_data(&change)
                .unwrap_or_else(|_| Event::default().event("resync").data("{}")),
            Err(BroadcastStreamRecvError::Lagged(_)) => Event::default().event("resync").data("{}"),
        })
    });
    Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}
