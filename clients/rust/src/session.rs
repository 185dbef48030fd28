//! [`GameSession`]: one game, one token and the version last seen.

use std::fmt;

use reqwest::StatusCode;

use crate::generated::types;
use crate::headers::{bearer, entity_tag, etag_version};
use crate::{Client, ClientInfo as _, Error, HalmaError, ResponseValue};

/// A game played through one token, remembering the game as last seen.
///
/// Every write sends `If-Match` with the version last seen, so a move based on an outdated
/// view is refused (412 `version_mismatch`) instead of being applied to a game that changed;
/// every accepted write and every read that finds a change updates the remembered game and
/// version (read from the answer's `ETag`).
///
/// ```no_run
/// use halma_client::{types, Client, GameSession, HalmaError, ProblemCode};
///
/// # async fn run() -> Result<(), HalmaError> {
/// let client = Client::new("http://127.0.0.1:8080");
/// let request = types::CreateGameRequest::builder()
///     .board(types::BoardName::Square8)
///     .players(2_u8);
/// let (mut session, tokens) = GameSession::create(&client, request.try_into()?).await?;
/// assert_eq!(session.version(), 1);
/// // Hand the second seat's token to the other player; this session moves with the host's.
/// if let Some(token) = tokens.seat(1) {
///     println!("seat 1 joins game {} with token {token}", session.id());
/// }
///
/// let moves = session.legal_moves().await?;
/// let first = &moves.moves[0];
/// match session.play(&first.from, &first.to).await {
///     Ok(played) => println!("played {}", played[0].notation),
///     // Someone moved first: look at the game again, then decide.
///     Err(err) if err.is(&ProblemCode::VersionMismatch) => {
///         session.refresh().await?;
///     }
///     Err(err) => return Err(err),
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct GameSession {
    client: Client,
    token: String,
    game: types::GameView,
    version: u64,
}

impl fmt::Debug for GameSession {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameSession")
            .field("base_url", &self.client.baseurl())
            .field("game", &self.game.id)
            .field("version", &self.version)
            .field("token", &"***")
            .finish()
    }
}

impl GameSession {
    /// A session over a game already read, acting with `token` (a seat's or the host's).
    #[must_use]
    pub fn new(client: &Client, game: types::GameView, token: impl Into<String>) -> Self {
        Self {
            client: client.clone(),
            token: token.into(),
            version: game.version,
            game,
        }
    }

    /// Creates a game. The session acts with the host token, which may move for every seat
    /// (hot-seat play), let the AI seats move and start a rematch; the tokens are returned so
    /// that the seat tokens can be handed to the players.
    ///
    /// # Errors
    /// 422 `invalid_setup` (with a `reason`) when the setup cannot be played, and the
    /// failures every request may have ([`HalmaError`]).
    pub async fn create(
        client: &Client,
        request: types::CreateGameRequest,
    ) -> Result<(Self, types::GameTokens), HalmaError> {
        let answer = client.create_game().body(request).send().await?;
        Ok(Self::from_created(client, answer))
    }

    /// Creates a game that may have open seats (`kind: open`): as [`GameSession::create`],
    /// and also the invitations, one per open seat, to pass to the people invited (each
    /// joins with [`GameSession::join_seat`]).
    ///
    /// # Errors
    /// As [`GameSession::create`].
    pub async fn create_with_invitations(
        client: &Client,
        request: types::CreateGameRequest,
    ) -> Result<(Self, types::GameTokens, Vec<types::Invitation>), HalmaError> {
        let answer = client.create_game().body(request).send().await?;
        let version = etag_version(answer.headers());
        let created = answer.into_inner();
        let session = Self::new(client, created.game, created.tokens.host.clone());
        Ok((
            session.at_version(version),
            created.tokens,
            created.invitations,
        ))
    }

    /// Takes the open seat `seat` of a waiting game with its invitation `code` (none needed
    /// in a public game) under `name`; the session acts with the seat's new token. Taking the
    /// last open seat starts the game.
    ///
    /// # Errors
    /// 403 `invalid_invitation`, 409 `seat_taken` or `game_not_waiting`, 400 for a bad name
    /// or a missing code, 404 `game_not_found`, and the failures every request may have.
    pub async fn join_seat(
        client: &Client,
        game_id: &str,
        seat: u8,
        code: Option<&str>,
        name: Option<&str>,
    ) -> Result<Self, HalmaError> {
        let body = types::JoinRequest {
            code: code.map(str::to_owned),
            name: name.map(str::to_owned),
        };
        let answer = client
            .join_seat()
            .id(game_id)
            .seat(seat)
            .body(body)
            .send()
            .await?;
        let version = etag_version(answer.headers());
        let joined = answer.into_inner();
        Ok(Self::new(client, joined.game, joined.token).at_version(version))
    }

    /// The player of seat `seat` leaves the waiting game (the session's token must be the
    /// seat's or the host's); the seat is open again. With the host token, returns the seat's
    /// new invitation.
    ///
    /// # Errors
    /// 409 `game_not_waiting` or `seat_not_joined`, 403 `invalid_token`, and the failures
    /// every request may have.
    pub async fn leave(&mut self, seat: u8) -> Result<Option<types::Invitation>, HalmaError> {
        let answer = self
            .client
            .leave_seat()
            .id(self.id())
            .seat(seat)
            .authorization(bearer(&self.token))
            .send()
            .await?;
        let version = etag_version(answer.headers());
        let left = answer.into_inner();
        self.game = left.game;
        self.version = version.unwrap_or(self.game.version);
        Ok(left.invitation)
    }

    /// A new invitation for the open seat `seat` (host token); its earlier code stops
    /// working.
    ///
    /// # Errors
    /// 409 `game_not_waiting` or `seat_taken`, 403 `invalid_token`, and the failures every
    /// request may have.
    pub async fn new_invitation(&mut self, seat: u8) -> Result<types::Invitation, HalmaError> {
        let answer = self
            .client
            .new_invitation()
            .id(self.id())
            .seat(seat)
            .authorization(bearer(&self.token))
            .send()
            .await?;
        if let Some(version) = etag_version(answer.headers()) {
            self.version = version;
        }
        Ok(answer.into_inner())
    }

    /// Cancels the waiting game (host token): it is removed.
    ///
    /// # Errors
    /// 409 `game_not_waiting`, 403 `invalid_token`, and the failures every request may have.
    pub async fn cancel(self) -> Result<(), HalmaError> {
        self.client
            .cancel_game()
            .id(self.id())
            .authorization(bearer(&self.token))
            .send()
            .await?;
        Ok(())
    }

    /// Joins a game with `token` (a seat's or the host's), reading its current state.
    ///
    /// # Errors
    /// 404 `game_not_found` for an unknown or expired game, and the failures every request may
    /// have. The token is not checked until the first write.
    pub async fn join(
        client: &Client,
        game_id: &str,
        token: impl Into<String>,
    ) -> Result<Self, HalmaError> {
        let answer = client.get_game().id(game_id).send().await?;
        let version = etag_version(answer.headers());
        Ok(Self::new(client, answer.into_inner(), token).at_version(version))
    }

    /// The game's id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.game.id
    }

    /// The version last seen; the next write is based on it.
    #[must_use]
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The game as last seen.
    #[must_use]
    pub fn game(&self) -> &types::GameView {
        &self.game
    }

    /// Whether the game, as last seen, is over.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.game.status == types::GameStatus::Finished
    }

    /// The seat to move, as last seen; `None` once the game is over.
    #[must_use]
    pub fn to_move(&self) -> Option<u8> {
        self.game.to_move
    }

    /// The client the session sends its requests with.
    #[must_use]
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The legal moves of the seat to move now. Their `version` may be newer than
    /// [`GameSession::version`] if someone else moved meanwhile; the session does not change.
    ///
    /// # Errors
    /// 404 `game_not_found`, and the failures every request may have.
    pub async fn legal_moves(&self) -> Result<types::LegalMoves, HalmaError> {
        let answer = self.client.list_moves().id(self.id()).send().await?;
        Ok(answer.into_inner())
    }

    /// The legal moves of the piece on `cell` (none when it is not a piece of the seat to
    /// move).
    ///
    /// # Errors
    /// 400 `bad_notation` when `cell` is not a cell of the board, 404 `game_not_found`, and
    /// the failures every request may have.
    pub async fn legal_moves_from(&self, cell: &str) -> Result<types::LegalMoves, HalmaError> {
        let answer = self
            .client
            .list_moves()
            .id(self.id())
            .from(cell)
            .send()
            .await?;
        Ok(answer.into_inner())
    }

    /// A move the AI suggests for the seat to move; nothing is played. `level` is 1 to 10,
    /// `time_ms` the thinking time; `None` takes the service's defaults.
    ///
    /// # Errors
    /// 422 `illegal_move` with reason `game_over` once the game is over, 400 `bad_request`
    /// for a level or time out of range, and the failures every request may have.
    pub async fn suggestion(
        &self,
        level: Option<u8>,
        time_ms: Option<u32>,
    ) -> Result<types::SuggestionView, HalmaError> {
        let mut request = self.client.suggest_move().id(self.id());
        if let Some(level) = level {
            request = request.level(level);
        }
        if let Some(time_ms) = time_ms {
            request = request.time_ms(time_ms);
        }
        Ok(request.send().await?.into_inner())
    }

    /// Plays the piece on `from` to `to` (a step, or the shortest jump chain that leads
    /// there) at the version last seen. Returns the moves played: this one, then the replies
    /// of the AI seats that followed.
    ///
    /// # Errors
    /// 412 `version_mismatch` (with [`HalmaError::current_version`]) when the game changed
    /// since it was last seen; 422 `illegal_move` with a [`HalmaError::reason`]; 403
    /// `invalid_token`; 404 `game_not_found`; 400 `bad_notation` for a cell that is not on
    /// the board; and the failures every request may have. On error the session is unchanged.
    pub async fn play(&mut self, from: &str, to: &str) -> Result<Vec<types::MoveView>, HalmaError> {
        self.play_request(types::PlayMoveRequest {
            from: Some(from.to_owned()),
            to: Some(to.to_owned()),
            ..types::PlayMoveRequest::default()
        })
        .await
    }

    /// Plays a move given by its full path, start and end included (each hop is checked).
    ///
    /// # Errors
    /// As [`GameSession::play`]; an impossible hop is 422 `illegal_move` with reasons such as
    /// `not_a_jump` or `step_in_chain`.
    pub async fn play_path<I, S>(&mut self, path: I) -> Result<Vec<types::MoveView>, HalmaError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.play_request(types::PlayMoveRequest {
            path: Some(path.into_iter().map(Into::into).collect()),
            ..types::PlayMoveRequest::default()
        })
        .await
    }

    /// Plays a move written in the notation: `a1-c3-e5`, or two cells for from and to.
    ///
    /// # Errors
    /// As [`GameSession::play`]; 400 `bad_notation` when the text does not read as a move.
    pub async fn play_notation(
        &mut self,
        notation: &str,
    ) -> Result<Vec<types::MoveView>, HalmaError> {
        self.play_request(types::PlayMoveRequest {
            notation: Some(notation.to_owned()),
            ..types::PlayMoveRequest::default()
        })
        .await
    }

    /// Sends `request` as a move at the version last seen (as `If-Match`; a `version` in the
    /// request is left out, the header carries it).
    ///
    /// # Errors
    /// As [`GameSession::play`]; 400 `bad_request` unless the request gives exactly one of
    /// `path`, `from` with `to`, or `notation`.
    pub async fn play_request(
        &mut self,
        mut request: types::PlayMoveRequest,
    ) -> Result<Vec<types::MoveView>, HalmaError> {
        request.version = None;
        let answer = self
            .client
            .play_move()
            .id(self.id())
            .authorization(bearer(&self.token))
            .if_match(entity_tag(self.version))
            .body(request)
            .send()
            .await?;
        Ok(self.remember_outcome(answer))
    }

    /// Lets the AI seats move while one of them is to move (one round when the AI plays every
    /// seat). Needs the host token. Returns the moves played.
    ///
    /// # Errors
    /// 403 `invalid_token` with a seat token; 422 `illegal_move` with reason `not_ai_turn`
    /// when a human seat is to move, or `game_over`; 412 `version_mismatch`; and the failures
    /// every request may have.
    pub async fn ai_turns(&mut self) -> Result<Vec<types::MoveView>, HalmaError> {
        let answer = self
            .client
            .ai_turns()
            .id(self.id())
            .authorization(bearer(&self.token))
            .if_match(entity_tag(self.version))
            .body(types::AiTurnsRequest::default())
            .send()
            .await?;
        Ok(self.remember_outcome(answer))
    }

    /// Seat `seat` resigns (the session's token must be that seat's or the host's): it is out
    /// of the game, its pieces stay, and the others play on; with two sides the other wins.
    /// Returns the AI moves that followed before the answer.
    ///
    /// # Errors
    /// 409 `seat_not_playing` for a seat that finished or is out already, 422 `illegal_move`
    /// (`game_over`), 412 `version_mismatch`, 403 `invalid_token`, and the failures every
    /// request may have.
    pub async fn resign(&mut self, seat: u8) -> Result<Vec<types::MoveView>, HalmaError> {
        let answer = self
            .client
            .resign()
            .id(self.id())
            .seat(seat)
            .authorization(bearer(&self.token))
            .if_match(entity_tag(self.version))
            .body(types::AiTurnsRequest::default())
            .send()
            .await?;
        Ok(self.remember_outcome(answer))
    }

    /// Hands seat `seat` to the AI at `level` (1 to 10), with the host's token or the seat's
    /// own, so that the table can finish when its player leaves: the seat's token stops
    /// working. Returns the AI moves that followed before the answer.
    ///
    /// # Errors
    /// 400 for a level outside 1 to 10, 409 `seat_not_playing` or `seat_is_ai`, 422
    /// `illegal_move` (`game_over`), 412 `version_mismatch`, 403 `invalid_token`, and the
    /// failures every request may have.
    pub async fn hand_to_ai(
        &mut self,
        seat: u8,
        level: u8,
    ) -> Result<Vec<types::MoveView>, HalmaError> {
        let body = types::HandoverRequest {
            level: Some(level).filter(|&level| level != 0),
            version: None,
        };
        let answer = self
            .client
            .hand_to_ai()
            .id(self.id())
            .seat(seat)
            .authorization(bearer(&self.token))
            .if_match(entity_tag(self.version))
            .body(body)
            .send()
            .await?;
        Ok(self.remember_outcome(answer))
    }

    /// Reads the game again when it changed since last seen (`If-None-Match`); returns whether
    /// it had.
    ///
    /// # Errors
    /// 404 `game_not_found` (the game expired), and the failures every request may have.
    pub async fn refresh(&mut self) -> Result<bool, HalmaError> {
        self.read_if_changed(None).await
    }

    /// Waits up to `wait_secs` seconds (the service allows at most 30) for the game to change,
    /// then reads it; returns whether it changed. The request's timeout must be longer than
    /// the wait: [`Client::new`] allows 15 s, [`crate::build_client`] builds a client with
    /// another timeout.
    ///
    /// # Errors
    /// As [`GameSession::refresh`]; [`HalmaError::Transport`] when the client's timeout ends
    /// the wait.
    pub async fn wait_for_change(&mut self, wait_secs: u64) -> Result<bool, HalmaError> {
        self.read_if_changed(Some(wait_secs)).await
    }

    /// The game's live events after what this session has seen (its `last_event_id`): every
    /// later move, each AI reply on its own, and the result. Resumes by itself when the
    /// connection drops; see [`EventStream`](crate::EventStream).
    #[must_use]
    pub fn events(&self) -> crate::EventStream {
        crate::EventStream::resume(&self.client, self.id(), self.game.last_event_id)
    }

    /// The game's full record and its text export.
    ///
    /// # Errors
    /// 404 `game_not_found`, and the failures every request may have.
    pub async fn record(&self) -> Result<types::GameRecord, HalmaError> {
        Ok(self
            .client
            .get_record()
            .id(self.id())
            .send()
            .await?
            .into_inner())
    }

    /// Starts a rematch: the same setup and seats, the first move passed to the next seat.
    /// Needs the host token; returns a session on the new game (with its new host token) and
    /// the new tokens.
    ///
    /// # Errors
    /// 403 `invalid_token` with a seat token, 404 `game_not_found`, and the failures every
    /// request may have.
    pub async fn rematch(&self) -> Result<(Self, types::GameTokens), HalmaError> {
        let answer = self
            .client
            .rematch()
            .id(self.id())
            .authorization(bearer(&self.token))
            .send()
            .await?;
        Ok(Self::from_created(&self.client, answer))
    }

    /// A session with the host token on a game just created, and the game's tokens.
    fn from_created(
        client: &Client,
        answer: ResponseValue<types::CreatedGame>,
    ) -> (Self, types::GameTokens) {
        let version = etag_version(answer.headers());
        let created = answer.into_inner();
        let session = Self::new(client, created.game, created.tokens.host.clone());
        (session.at_version(version), created.tokens)
    }

    /// The session with the version of an answer's `ETag`, when it names one (the body's
    /// version otherwise).
    fn at_version(mut self, version: Option<u64>) -> Self {
        if let Some(version) = version {
            self.version = version;
        }
        self
    }

    async fn read_if_changed(&mut self, wait_secs: Option<u64>) -> Result<bool, HalmaError> {
        let mut request = self
            .client
            .get_game()
            .id(self.id())
            .if_none_match(entity_tag(self.version));
        if let Some(wait_secs) = wait_secs {
            request = request.wait_secs(wait_secs);
        }
        match request.send().await {
            Ok(answer) => {
                self.remember(answer);
                Ok(true)
            }
            Err(Error::UnexpectedResponse(answer))
                if answer.status() == StatusCode::NOT_MODIFIED =>
            {
                Ok(false)
            }
            Err(err) => Err(err.into()),
        }
    }

    /// Keeps a game read from the service, with the version of its `ETag`.
    fn remember(&mut self, answer: ResponseValue<types::GameView>) {
        let version = etag_version(answer.headers());
        self.game = answer.into_inner();
        self.version = version.unwrap_or(self.game.version);
    }

    /// Keeps the game after an accepted write and returns the moves it played.
    fn remember_outcome(
        &mut self,
        answer: ResponseValue<types::MoveOutcome>,
    ) -> Vec<types::MoveView> {
        let version = etag_version(answer.headers());
        let outcome = answer.into_inner();
        self.game = outcome.game;
        self.version = version.unwrap_or(self.game.version);
        outcome.played
    }
}

impl types::GameTokens {
    /// The token of seat `seat`: `None` for an open seat (its token goes to whoever joins)
    /// and for a seat the game does not have.
    #[must_use]
    pub fn seat(&self, seat: u8) -> Option<&str> {
        self.seats.get(usize::from(seat))?.as_deref()
    }
}
