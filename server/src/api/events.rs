//! `GET /api/events`: committed changes as server-sent events, so open pages
//! update without reload. Each event is named after its change (`runs`) and
//! carries the change as JSON; a subscriber that fell behind gets `resync`
//! (refetch everything). A comment line every 15 s keeps proxies from closing
//! an idle stream.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
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

async fn events(
    State(state): State<AppState>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let stream = BroadcastStream::new(state.db.subscribe()).map(|change| {
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
