//! [`EventStream`]: a game's live events (`GET /v1/games/{id}/events`, Server-Sent Events),
//! typed, resuming with `Last-Event-ID` when the connection drops.

use std::collections::VecDeque;
use std::pin::Pin;
use std::time::Duration;

use eventsource_stream::Eventsource as _;
use futures_util::{Stream, StreamExt as _};

use crate::generated::types;
use crate::{Client, HalmaError};

/// How many times in a row a dropped stream is reconnected before [`EventStream::next`] gives
/// up with the last error.
const MAX_RECONNECTS: u32 = 5;
/// The first wait before reconnecting; it doubles with every failed attempt.
const FIRST_BACKOFF: Duration = Duration::from_millis(200);

/// One event of a game's stream.
#[derive(Clone, Debug, PartialEq)]
pub enum GameEvent {
    /// The whole game: the first event of a stream that does not resume.
    Game(Box<types::GameView>),
    /// Someone took an open seat of the waiting game (the last one starts it).
    SeatJoined(types::SeatJoinedEvent),
    /// A player left the waiting game; the seat is open again.
    SeatLeft(types::SeatLeftEvent),
    /// A move, and whose turn it is after it.
    Move(types::MoveEvent),
    /// A resignation, and whose turn it is after it.
    Resigned(types::ResignedEvent),
    /// A seat handed to the AI, and whose turn it is after it.
    HandedToAi(types::HandoverEvent),
    /// The result: the last event.
    Result(types::ResultEvent),
    /// The game no longer exists (it expired, or was cancelled while waiting): the last event.
    Gone,
}

impl GameEvent {
    /// Whether this event ends the stream.
    #[must_use]
    pub fn is_final(&self) -> bool {
        matches!(self, Self::Result(_) | Self::Gone)
    }
}

type Events = Pin<
    Box<
        dyn Stream<
                Item = Result<
                    eventsource_stream::Event,
                    eventsource_stream::EventStreamError<reqwest::Error>,
                >,
            > + Send
            + Sync,
    >,
>;

/// The live events of one game, in order, each with its id.
///
/// When the connection drops (a restarted instance, a proxy's timeout, the client's own
/// request timeout), the next call of [`EventStream::next`] reconnects with `Last-Event-ID`
/// and the service sends exactly the events that were missed: the stream a caller sees has no
/// gap and no repetition. After the final event ([`GameEvent::is_final`]) it ends.
///
/// ```no_run
/// use halma_client::{Client, EventStream, GameEvent, HalmaError};
///
/// # async fn run(game_id: &str) -> Result<(), HalmaError> {
/// let client = Client::new("http://127.0.0.1:8080");
/// let mut events = EventStream::new(&client, game_id);
/// while let Some(event) = events.next().await {
///     match event? {
///         (_, GameEvent::Move(m)) => println!("seat {} played {}", m.move_.seat, m.move_.notation),
///         (_, GameEvent::Result(r)) => println!("result: {:?}", r.result),
///         _ => {}
///     }
/// }
/// # Ok(())
/// # }
/// ```
pub struct EventStream {
    client: Client,
    game_id: String,
    last_event_id: Option<u64>,
    events: Option<Events>,
    finished: bool,
    pending: VecDeque<(u64, GameEvent)>,
}

impl std::fmt::Debug for EventStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventStream")
            .field("game_id", &self.game_id)
            .field("last_event_id", &self.last_event_id)
            .field("connected", &self.events.is_some())
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}

impl EventStream {
    /// The events of game `game_id` from the start: first the whole game, then every change.
    #[must_use]
    pub fn new(client: &Client, game_id: &str) -> Self {
        Self {
            client: client.clone(),
            game_id: game_id.to_owned(),
            last_event_id: None,
            events: None,
            finished: false,
            pending: VecDeque::new(),
        }
    }

    /// The events after the one with id `last_event_id` (a move's id is its ply: a caller who
    /// has seen the game after `n` moves resumes after `n`).
    #[must_use]
    pub fn resume(client: &Client, game_id: &str, last_event_id: u64) -> Self {
        Self {
            last_event_id: Some(last_event_id),
            ..Self::new(client, game_id)
        }
    }

    /// The id of the last event returned, if any.
    #[must_use]
    pub fn last_event_id(&self) -> Option<u64> {
        self.last_event_id
    }

    /// The next event with its id; `None` after the final event.
    ///
    /// # Errors
    /// A problem answered when (re)connecting: 404 `game_not_found`, 400 for a
    /// `Last-Event-ID` the game does not have, 503 `too_many_streams` or `store_unavailable`
    /// after five attempts in a row; [`HalmaError::Transport`] when the service cannot be
    /// reached that often in a row; [`HalmaError::InvalidBody`] for an event whose data does
    /// not decode. The stream can be polled again after an error: it reconnects.
    pub async fn next(&mut self) -> Option<Result<(u64, GameEvent), HalmaError>> {
        let mut failures = 0u32;
        loop {
            if let Some(event) = self.pending.pop_front() {
                return Some(Ok(event));
            }
            if self.finished {
                return None;
            }
            let events = match self.events.as_mut() {
                Some(events) => events,
                None => match self.connect().await {
                    Ok(events) => self.events.insert(events),
                    Err(err) if failures < MAX_RECONNECTS && err.is_retryable() => {
                        tokio_sleep(FIRST_BACKOFF * 2u32.pow(failures)).await;
                        failures += 1;
                        continue;
                    }
                    Err(err) => return Some(Err(err)),
                },
            };
            match events.next().await {
                Some(Ok(raw)) => match decode(&raw) {
                    Ok(Some((id, event))) => {
                        failures = 0;
                        self.last_event_id = Some(id);
                        self.finished = event.is_final();
                        self.pending.push_back((id, event));
                    }
                    Ok(None) => {}
                    Err(err) => return Some(Err(err)),
                },
                // The connection dropped or the service closed it before the final event:
                // resume after the last event seen.
                Some(Err(_)) | None => {
                    self.events = None;
                    if failures >= MAX_RECONNECTS {
                        return Some(Err(HalmaError::StreamDropped {
                            game_id: self.game_id.clone(),
                            attempts: MAX_RECONNECTS,
                        }));
                    }
                    tokio_sleep(FIRST_BACKOFF * 2u32.pow(failures)).await;
                    failures += 1;
                }
            }
        }
    }

    /// The events as a [`Stream`], for `StreamExt` combinators.
    pub fn into_stream(self) -> impl Stream<Item = Result<(u64, GameEvent), HalmaError>> {
        futures_util::stream::unfold(self, |mut events| async move {
            events.next().await.map(|item| (item, events))
        })
    }

    async fn connect(&self) -> Result<Events, HalmaError> {
        let mut request = self.client.game_events().id(self.game_id.clone());
        if let Some(id) = self.last_event_id {
            request = request.last_event_id(id.to_string());
        }
        let answer = request.send().await?;
        Ok(Box::pin(answer.into_inner().into_inner().eventsource()))
    }
}

async fn tokio_sleep(duration: Duration) {
    // No runtime dependency of our own: reqwest already runs on tokio.
    tokio::time::sleep(duration).await;
}

/// A raw SSE event as a typed one with its id; `None` for events of kinds this client does not
/// know (a newer service may send more).
fn decode(raw: &eventsource_stream::Event) -> Result<Option<(u64, GameEvent)>, HalmaError> {
    let invalid = |source: serde_json::Error| HalmaError::InvalidBody {
        source,
        body: raw.data.clone(),
    };
    let event = match raw.event.as_str() {
        "game" => GameEvent::Game(Box::new(serde_json::from_str(&raw.data).map_err(invalid)?)),
        "seat_joined" => GameEvent::SeatJoined(serde_json::from_str(&raw.data).map_err(invalid)?),
        "seat_left" => GameEvent::SeatLeft(serde_json::from_str(&raw.data).map_err(invalid)?),
        "move" => GameEvent::Move(serde_json::from_str(&raw.data).map_err(invalid)?),
        "resigned" => GameEvent::Resigned(serde_json::from_str(&raw.data).map_err(invalid)?),
        "handed_to_ai" => GameEvent::HandedToAi(serde_json::from_str(&raw.data).map_err(invalid)?),
        "result" => GameEvent::Result(serde_json::from_str(&raw.data).map_err(invalid)?),
        "gone" => GameEvent::Gone,
        _ => return Ok(None),
    };
    let id = match raw.id.parse::<u64>() {
        Ok(id) => id,
        // `gone` carries no id of its own.
        Err(_) if matches!(event, GameEvent::Gone) => 0,
        Err(_) => {
            return Err(HalmaError::InvalidEventId {
                event: raw.event.clone(),
                id: raw.id.clone(),
            })
        }
    };
    Ok(Some((id, event)))
}
