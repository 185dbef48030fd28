//! The live event stream of a game (Server-Sent Events, with `actix-web-lab`'s `sse`).

use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::http::header::HeaderMap;
use actix_web::web::Bytes;
use actix_web::{web, HttpRequest, HttpResponse, Responder as _};
use actix_web_lab::sse;
use tokio::sync::{watch, OwnedSemaphorePermit};

use crate::api::GamePath;
use crate::error::ApiError;
use crate::events::{self, FeedState, GameEvent};
use crate::games::{self, views, Loaded};
use crate::observability::STREAMS_OPEN;
use crate::state::AppState;

/// How long a client waits before reconnecting to a dropped stream (the SSE `retry` field).
const RECONNECT_AFTER: Duration = Duration::from_secs(2);
/// The retry hint of a stream closed because the instance shuts down: reconnect soon (the
/// load balancer sends the new connection to another instance).
const RECONNECT_AFTER_SHUTDOWN: Duration = Duration::from_millis(500);

/// Follows a game live.
///
/// One event of a game's stream, as the `text/event-stream` format sends it: its fields, one
/// line each. (The document's schema of the stream: a client reads the fields and then the JSON
/// of `data`.)
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct StreamEvent {
    /// The event's kind: `game`, `seat_joined`, `seat_left`, `move`, `resigned`,
    /// `handed_to_ai`, `result` or `gone`.
    pub event: String,
    /// The event's body: a JSON document (a `GameView`, `MoveEvent`, ...) as text.
    pub data: String,
    /// The event's id (a whole number): send it as `Last-Event-ID` to resume after it.
    pub id: Option<String>,
    /// The reconnection delay in milliseconds the stream asks for (with its first event).
    pub retry: Option<u32>,
}

/// A `text/event-stream` (Server-Sent Events). The first event, `game`, is the whole game (a
/// `GameView`); then, while the game waits for players, a `seat_joined` (a `SeatJoinedEvent`)
/// or `seat_left` (a `SeatLeftEvent`) event per seat taken or given up; then one `move` event
/// per move (a `MoveEvent`: every AI reply is an event of
/// its own, and each says whose turn it is next), a `resigned` event per resignation (a
/// `ResignedEvent`), and a `result` event (a `ResultEvent`) when the game ends, after which
/// the stream closes. Comment lines keep an idle stream open.
/// Every event has an `id`; a client that reconnects with `Last-Event-ID` gets exactly the
/// events after that one (no `game` event), then live ones, on any instance.
#[utoipa::path(
    get,
    path = "/v1/games/{id}/events",
    tag = "games",
    operation_id = "game_events",
    params(GamePath,
        ("Last-Event-ID" = Option<String>, Header, nullable = false, description = "The id of the last event received: the stream resumes after it.")),
    responses(
        (status = 200, description = "The game's events as `text/event-stream`: `game` (a GameView, first unless resuming), `seat_joined` and `seat_left` (a SeatJoinedEvent or SeatLeftEvent per seat taken or given up while the game waits), `move` (a MoveEvent per move), `resigned` (a ResignedEvent per resignation), `handed_to_ai` (a HandoverEvent), `result` (a ResultEvent, last), or `gone` (the game expired or was cancelled, last).", content_type = "text/event-stream", body = StreamEvent),
        (status = "4XX", description = "Unknown game (404 `game_not_found`), or a `Last-Event-ID` that is not an event of this game (400 `bad_request`).", body = crate::problem::Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Too many open streams on this instance (503 `too_many_streams`, with `Retry-After`), the store is unavailable (503), or an internal error.", body = crate::problem::Problem, content_type = "application/problem+json"),
    )
)]
pub async fn game_events(
    state: web::Data<AppState>,
    path: web::Path<GamePath>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let slot = state
        .streams
        .clone()
        .try_acquire_owned()
        .map_err(|_| ApiError::TooManyStreams)?;
    let loaded = games::load(&state, &path.id).await?;
    let resume = last_event_id(req.headers(), &loaded)?;
    let mut receiver = state.feeds.follow(&state, &path.id, loaded.clone());
    // The feed may already hold a newer version than the one just read.
    let loaded = match &*receiver.borrow_and_update() {
        FeedState::Game(newer) if newer.version > loaded.version => newer.clone(),
        _ => loaded,
    };
    let mut listener = Listener {
        receiver,
        shutdown: state.shutdown.subscribe(),
        pending: VecDeque::new(),
        sent: 0,
        done: false,
        _slot: slot,
        _open: OpenStream::new(),
    };
    match resume {
        Some(after) => listener.queue(&loaded, after),
        None => {
            let included = loaded.header.changes(&loaded.game);
            let view = views::game_view(&path.id, loaded.version, &loaded.header, &loaded.game);
            listener
                .pending
                .push_back(data("game", included, &view).unwrap_or_else(internal_error_event));
            listener.queue(&loaded, included);
        }
    }
    let stream = futures_util::stream::unfold(listener, |mut listener| async move {
        listener
            .next()
            .await
            .map(|event| (Ok::<_, std::convert::Infallible>(event), listener))
    });
    let response = sse::Sse::from_stream(stream)
        .with_keep_alive(state.stream_heartbeat)
        .with_retry_duration(RECONNECT_AFTER)
        .customize()
        // Proxies that buffer responses (nginx) pass this stream on at once.
        .insert_header(("x-accel-buffering", "no"))
        .respond_to(&req);
    let shutdown = state.shutdown.clone();
    Ok(response.map_body(|_, body| {
        BoxBody::new(ClosingBody {
            inner: body.boxed(),
            shutdown,
            ended: false,
        })
    }))
}

/// An event stream's body that, when the stream ends because the instance shuts down, ends
/// with a comment and a `retry` field: the client reconnects soon, resuming with
/// `Last-Event-ID` where it left off.
struct ClosingBody {
    inner: BoxBody,
    shutdown: crate::state::Shutdown,
    ended: bool,
}

impl MessageBody for ClosingBody {
    type Error = Box<dyn std::error::Error>;

    fn size(&self) -> BodySize {
        BodySize::Stream
    }

    fn poll_next(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        let this = self.get_mut();
        if this.ended {
            return Poll::Ready(None);
        }
        match Pin::new(&mut this.inner).poll_next(cx) {
            Poll::Ready(None) => {
                this.ended = true;
                Poll::Ready(this.shutdown.has_begun().then(|| Ok(shutdown_hint())))
            }
            other => other,
        }
    }
}

/// The last lines of a stream closed by a shutdown: a comment and the `retry` field.
fn shutdown_hint() -> Bytes {
    Bytes::from(format!(
        ": the server is shutting down; reconnect (with Last-Event-ID) to continue\nretry: {}\n\n",
        RECONNECT_AFTER_SHUTDOWN.as_millis()
    ))
}

/// An open stream, counted in the `halma_event_streams_open` gauge while it lives.
struct OpenStream;

impl OpenStream {
    fn new() -> Self {
        metrics::gauge!(STREAMS_OPEN).increment(1.0);
        Self
    }
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        metrics::gauge!(STREAMS_OPEN).decrement(1.0);
    }
}

/// The event id a client resumes after, from `Last-Event-ID`.
fn last_event_id(headers: &HeaderMap, loaded: &Loaded) -> Result<Option<u64>, ApiError> {
    let Some(value) = headers.get("last-event-id") else {
        return Ok(None);
    };
    let open = loaded.header.open_seats();
    let last = events::last_event_id(&loaded.game, loaded.header.history(&open));
    let invalid = || {
        ApiError::BadRequest(format!(
            "Last-Event-ID must be the id of an event of this game: a whole number from 0 to {last}."
        ))
    };
    let text = value.to_str().map_err(|_| invalid())?.trim();
    let id: u64 = text.parse().map_err(|_| invalid())?;
    if id > last {
        return Err(invalid());
    }
    Ok(Some(id))
}

/// One open stream: the feed of its game, the events not yet sent, and the last id sent.
struct Listener {
    receiver: watch::Receiver<FeedState>,
    /// Wakes when the instance shuts down: the stream then ends.
    shutdown: watch::Receiver<bool>,
    pending: VecDeque<sse::Event>,
    sent: u64,
    done: bool,
    /// The stream's place under the instance's cap, given back when the stream closes.
    _slot: OwnedSemaphorePermit,
    /// The stream's count in the open-streams gauge.
    _open: OpenStream,
}

impl Listener {
    /// Queues the events of `loaded` after the event `after` (and after what was sent).
    fn queue(&mut self, loaded: &Loaded, after: u64) {
        let after = after.max(self.sent);
        let versions = events::Versions {
            current: loaded.version,
            changes_by_version: &loaded.header.changes_by_version,
        };
        let open = loaded.header.open_seats();
        let history = loaded.header.history(&open);
        for (id, event) in events::events_after(versions, &loaded.game, history, after) {
            let encoded = match &event {
                GameEvent::SeatJoined(data_) => data(event.name(), id, data_),
                GameEvent::SeatLeft(data_) => data(event.name(), id, data_),
                GameEvent::Move(data_) => data(event.name(), id, data_),
                GameEvent::Resigned(data_) => data(event.name(), id, data_),
                GameEvent::HandedToAi(data_) => data(event.name(), id, data_),
                GameEvent::Result(data_) => data(event.name(), id, data_),
            };
            self.pending
                .push_back(encoded.unwrap_or_else(internal_error_event));
            self.sent = id;
        }
        self.sent = self.sent.max(after);
        if loaded.game.is_over() {
            self.done = true;
        }
    }

    /// The next event to send, waiting for the game to change; `None` once the stream ends.
    async fn next(&mut self) -> Option<sse::Event> {
        loop {
            if let Some(event) = self.pending.pop_front() {
                return Some(event);
            }
            if self.done || *self.shutdown.borrow() {
                return None;
            }
            tokio::select! {
                changed = self.receiver.changed() => changed.ok()?,
                // Ends the stream (the body adds the retry hint); a dropped sender ends it too.
                _ = self.shutdown.changed() => return None,
            }
            let state = self.receiver.borrow_and_update().clone();
            match state {
                FeedState::Game(loaded) => {
                    let after = self.sent;
                    self.queue(&loaded, after);
                }
                FeedState::Gone => {
                    self.pending.push_back(
                        sse::Data::new("the game no longer exists (it expired or was cancelled)")
                            .event("gone")
                            .into(),
                    );
                    self.done = true;
                }
            }
        }
    }
}

/// An event with a JSON payload.
fn data(
    name: &'static str,
    id: u64,
    payload: &impl serde::Serialize,
) -> Result<sse::Event, serde_json::Error> {
    Ok(sse::Data::new_json(payload)?
        .event(name)
        .id(id.to_string())
        .into())
}

/// What is sent instead of an event that could not be encoded (never expected: the views are
/// plain data).
fn internal_error_event(err: serde_json::Error) -> sse::Event {
    tracing::error!(error = %err, "an event could not be encoded");
    sse::Event::Comment("an event could not be encoded".into())
}
