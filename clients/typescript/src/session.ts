/**
 * {@link GameSession}: one game, one token and the version last seen.
 *
 * @module
 */

import { send, settle, unwrap, type Answer, type CallOptions, type HalmaClient } from "./client.js";
import type {
  CreateGameRequest,
  CreatedGame,
  GameRecord,
  GameTokens,
  GameView,
  Invitation,
  JoinRequest,
  LegalMoves,
  MoveOutcome,
  MoveView,
  PlayMoveRequest,
  SuggestionView,
  operations,
} from "./generated.js";
import { UnexpectedResponseError } from "./errors.js";
import { followEvents, type FollowOptions, type GameEvent } from "./events.js";
import { bearer, entityTag, etagVersion } from "./headers.js";
import type { SeatInvitation } from "./invitation.js";

/** The query of a suggestion (`level` 1 to 10, `time_ms`); absent members take the defaults. */
export type SuggestionQuery = NonNullable<operations["suggest_move"]["parameters"]["query"]>;

/** A session on a game just created (or a rematch), and the game's tokens. */
export interface CreatedSession {
  /** The session, acting with the host token. */
  readonly session: GameSession;
  /** The host token and one token per seat (`null` for an open seat), to hand to the players. */
  readonly tokens: GameTokens;
  /** One invitation per open seat, in seat order, to pass to the people invited. */
  readonly invitations: readonly Invitation[];
}

/** A session on a seat just taken (see {@link GameSession.joinSeat}). */
export interface JoinedSession {
  /** The session, acting with the seat's token. */
  readonly session: GameSession;
  /** The seat taken. */
  readonly seat: number;
  /** The seat's token (shown only once: keep it to come back to the game). */
  readonly token: string;
}

/**
 * A game played through one token, remembering the game as last seen.
 *
 * Every write sends `If-Match` with the version last seen, so a move based on an outdated view
 * is refused (412 `version_mismatch`) instead of being applied to a game that changed. Every
 * accepted write and every read that finds a change updates the remembered game and version
 * (from the answer's `ETag`, else its body); the session never goes back to an older version,
 * so answers that arrive out of order leave it at the newest.
 *
 * Every method fails with a {@link HalmaError}: a {@link ProblemError} for the service's
 * problem documents, a {@link TransportError} or an {@link UnexpectedResponseError}
 * otherwise. On error the session is unchanged.
 *
 * ```ts
 * const client = createHalmaClient({ baseUrl: "http://127.0.0.1:8080" });
 * const { session, tokens } = await GameSession.create(client, { board: "square8", players: 2 });
 * // Hand the second seat's token to the other player; this session moves with the host's.
 * console.log(`seat 1 joins game ${session.id} with token ${tokens.seats[1]}`);
 * const { moves } = await session.legalMoves();
 * try {
 *   const played = await session.play(moves[0].from, moves[0].to);
 *   console.log(played[0].notation);
 * } catch (error) {
 *   if (!isProblem(error, "version_mismatch")) throw error;
 *   await session.refresh(); // someone moved first: look at the game again, then decide
 * }
 * ```
 */
export class GameSession {
  readonly #client: HalmaClient;
  readonly #token: string;
  #game: GameView;
  #version: number;

  /**
   * A session over a game already read, acting with `token` (a seat's or the host's), at
   * `version` (the game's own by default).
   */
  constructor(client: HalmaClient, game: GameView, token: string, version: number = game.version) {
    this.#client = client;
    this.#token = token;
    this.#game = game;
    this.#version = version;
  }

  /**
   * Creates a game. The session acts with the host token, which may move for every seat
   * (hot-seat play), let the AI seats move and start a rematch; the tokens are returned so
   * that the seat tokens can be handed to the players.
   *
   * @throws {@link ProblemError} 422 `invalid_setup` (with a `reason`) when the setup cannot be
   * played, and the failures every request may have.
   */
  static async create(
    client: HalmaClient,
    request: CreateGameRequest,
    options?: CallOptions,
  ): Promise<CreatedSession> {
    const answer = await send(client.POST("/v1/games", { body: request, ...init(options) }));
    return GameSession.#fromCreated(client, answer);
  }

  /**
   * Joins a game with `token` (a seat's or the host's), reading its current state. The token
   * is not checked until the first write.
   *
   * @throws {@link ProblemError} 404 `game_not_found` for an unknown or expired game, and the
   * failures every request may have.
   */
  static async join(
    client: HalmaClient,
    gameId: string,
    token: string,
    options?: CallOptions,
  ): Promise<GameSession> {
    const answer = await send(
      client.GET("/v1/games/{id}", { params: { path: { id: gameId } }, ...init(options) }),
    );
    return new GameSession(client, answer.data, token, versionOf(answer, answer.data.version));
  }

  /**
   * Takes the open seat `seat` of a waiting game with its invitation `code` (none needed in
   * a public game) under `name`; the session acts with the seat's new token. Taking the last
   * open seat starts the game.
   *
   * @throws {@link ProblemError} 403 `invalid_invitation` (a wrong or used code), 409
   * `seat_taken` or `game_not_waiting`, 400 for a bad seat or name, 404 `game_not_found`, and
   * the failures every request may have.
   */
  static async joinSeat(
    client: HalmaClient,
    gameId: string,
    seat: number,
    request: JoinRequest = {},
    options?: CallOptions,
  ): Promise<JoinedSession> {
    const answer = await send(
      client.POST("/v1/games/{id}/seats/{seat}/join", {
        params: { path: { id: gameId, seat } },
        body: request,
        ...init(options),
      }),
    );
    const { game, token } = answer.data;
    const session = new GameSession(client, game, token, versionOf(answer, game.version));
    return { session, seat: answer.data.seat, token };
  }

  /**
   * Takes the seat `invitation` names (as {@link parseInvitation} reads it from a link) under
   * `name`: {@link GameSession.joinSeat} with its code.
   *
   * @throws As {@link GameSession.joinSeat}.
   */
  static acceptInvitation(
    client: HalmaClient,
    invitation: SeatInvitation,
    name?: string,
    options?: CallOptions,
  ): Promise<JoinedSession> {
    const request: JoinRequest =
      name === undefined ? { code: invitation.code } : { code: invitation.code, name };
    return GameSession.joinSeat(client, invitation.gameId, invitation.seat, request, options);
  }

  /** The game's id. */
  get id(): string {
    return this.#game.id;
  }

  /** The version last seen; the next write is based on it. */
  get version(): number {
    return this.#version;
  }

  /** The game as last seen. */
  get game(): GameView {
    return this.#game;
  }

  /** Whether the game, as last seen, is over. */
  get finished(): boolean {
    return this.#game.status === "finished";
  }

  /** The seat to move, as last seen; `undefined` once the game is over. */
  get toMove(): number | undefined {
    return this.#game.to_move ?? undefined;
  }

  /** The client the session sends its requests with. */
  get client(): HalmaClient {
    return this.#client;
  }

  /**
   * The legal moves of the seat to move now. Their `version` may be newer than
   * {@link GameSession.version} if someone else moved meanwhile; the session does not change.
   *
   * @throws {@link ProblemError} 404 `game_not_found`, and the failures every request may have.
   */
  async legalMoves(options?: CallOptions): Promise<LegalMoves> {
    const answer = await send(
      this.#client.GET("/v1/games/{id}/moves", {
        params: { path: { id: this.id } },
        ...init(options),
      }),
    );
    return answer.data;
  }

  /**
   * The legal moves of the piece on `cell` (none when it is not a piece of the seat to move).
   *
   * @throws {@link ProblemError} 400 `bad_notation` when `cell` is not a cell of the board, 404
   * `game_not_found`, and the failures every request may have.
   */
  async legalMovesFrom(cell: string, options?: CallOptions): Promise<LegalMoves> {
    const answer = await send(
      this.#client.GET("/v1/games/{id}/moves", {
        params: { path: { id: this.id }, query: { from: cell } },
        ...init(options),
      }),
    );
    return answer.data;
  }

  /**
   * A move the AI suggests for the seat to move; nothing is played. Without `query` the
   * service's defaults apply (level 10, 200 ms).
   *
   * @throws {@link ProblemError} 422 `illegal_move` with reason `game_over` once the game is
   * over, 400 `bad_request` for a level or time out of range, and the failures every request
   * may have.
   */
  async suggestion(query?: SuggestionQuery, options?: CallOptions): Promise<SuggestionView> {
    const answer = await send(
      this.#client.GET("/v1/games/{id}/suggestion", {
        params: { path: { id: this.id }, query: query ?? {} },
        ...init(options),
      }),
    );
    return answer.data;
  }

  /**
   * Plays the piece on `from` to `to` (a step, or the shortest jump chain that leads there)
   * at the version last seen. Returns the moves played: this one, then the replies of the AI
   * seats that followed.
   *
   * @throws {@link ProblemError} 412 `version_mismatch` (with `currentVersion`) when the game
   * changed since it was last seen; 422 `illegal_move` with a `reason`; 403 `invalid_token`;
   * 404 `game_not_found`; 400 `bad_notation` for a cell that is not on the board; and the
   * failures every request may have.
   */
  play(from: string, to: string, options?: CallOptions): Promise<MoveView[]> {
    return this.playRequest({ from, to }, options);
  }

  /**
   * Plays a move given by its full path, start and end included (each hop is checked).
   *
   * @throws As {@link GameSession.play}; an impossible hop is 422 `illegal_move` with reasons
   * such as `not_a_jump` or `step_in_chain`.
   */
  playPath(path: readonly string[], options?: CallOptions): Promise<MoveView[]> {
    return this.playRequest({ path: [...path] }, options);
  }

  /**
   * Plays a move written in the notation: `a1-c3-e5`, or two cells for from and to.
   *
   * @throws As {@link GameSession.play}; 400 `bad_notation` when the text does not read as a
   * move.
   */
  playNotation(notation: string, options?: CallOptions): Promise<MoveView[]> {
    return this.playRequest({ notation }, options);
  }

  /**
   * Sends `request` as a move at the version last seen (as `If-Match`; a `version` in the
   * request is left out, the header carries it).
   *
   * @throws As {@link GameSession.play}; 400 `bad_request` unless the request gives exactly
   * one of `path`, `from` with `to`, or `notation`.
   */
  async playRequest(request: PlayMoveRequest, options?: CallOptions): Promise<MoveView[]> {
    const { version: _ignored, ...body } = request;
    const answer = await send(
      this.#client.POST("/v1/games/{id}/moves", {
        params: { path: { id: this.id }, header: this.#writeHeaders() },
        body,
        ...init(options),
      }),
    );
    return this.#rememberOutcome(answer);
  }

  /**
   * Lets the AI seats move while one of them is to move (one round when the AI plays every
   * seat). Needs the host token. Returns the moves played.
   *
   * @throws {@link ProblemError} 403 `invalid_token` with a seat token; 422 `illegal_move` with
   * reason `not_ai_turn` when a human seat is to move, or `game_over`; 412
   * `version_mismatch`; and the failures every request may have.
   */
  async aiTurns(options?: CallOptions): Promise<MoveView[]> {
    const answer = await send(
      this.#client.POST("/v1/games/{id}/ai-turns", {
        params: { path: { id: this.id }, header: this.#writeHeaders() },
        body: {},
        ...init(options),
      }),
    );
    return this.#rememberOutcome(answer);
  }

  /**
   * Seat `seat` resigns (the session's token must be that seat's or the host's): it is out of
   * the game, its pieces stay, and the others play on; with two sides the other one wins.
   * Resolves to the AI moves that followed.
   *
   * @throws {@link ProblemError} 409 `seat_not_playing`, 422 `illegal_move` (`game_over`),
   * 412 `version_mismatch`, 403 `invalid_token`, and the failures every request may have.
   */
  async resign(seat: number, options?: CallOptions): Promise<MoveView[]> {
    const answer = await send(
      this.#client.POST("/v1/games/{id}/seats/{seat}/resign", {
        params: { path: { id: this.id, seat }, header: this.#writeHeaders() },
        body: {},
        ...init(options),
      }),
    );
    return this.#rememberOutcome(answer);
  }

  /**
   * Hands seat `seat` to the AI at `level` (1 to 10), with the host's token or the seat's
   * own, so that the table can finish when its player leaves; the seat's token stops
   * working. Resolves to the AI moves that followed.
   *
   * @throws {@link ProblemError} 400 for a level outside 1 to 10, 409 `seat_not_playing` or
   * `seat_is_ai`, 422 `illegal_move` (`game_over`), 412, 403, and the failures every request
   * may have.
   */
  async handToAi(seat: number, level: number, options?: CallOptions): Promise<MoveView[]> {
    const answer = await send(
      this.#client.POST("/v1/games/{id}/seats/{seat}/ai", {
        params: { path: { id: this.id, seat }, header: this.#writeHeaders() },
        body: { level },
        ...init(options),
      }),
    );
    return this.#rememberOutcome(answer);
  }

  /**
   * The player of seat `seat` leaves the waiting game (the session's token must be the
   * seat's or the host's); the seat is open again. With the host token, resolves to the
   * seat's new invitation.
   *
   * @throws {@link ProblemError} 409 `game_not_waiting` or `seat_not_joined`, 403
   * `invalid_token`, and the failures every request may have.
   */
  async leave(seat: number, options?: CallOptions): Promise<Invitation | undefined> {
    const answer = await send(
      this.#client.POST("/v1/games/{id}/seats/{seat}/leave", {
        // No If-Match: others may join meanwhile, and leaving does not depend on them.
        params: { path: { id: this.id, seat }, header: { Authorization: bearer(this.#token) } },
        ...init(options),
      }),
    );
    this.#remember(answer.data.game, versionOf(answer, answer.data.game.version));
    return answer.data.invitation ?? undefined;
  }

  /**
   * A new invitation for the open seat `seat` (host token); its earlier code stops working.
   *
   * @throws {@link ProblemError} 409 `game_not_waiting` or `seat_taken`, 403 `invalid_token`,
   * and the failures every request may have.
   */
  async newInvitation(seat: number, options?: CallOptions): Promise<Invitation> {
    const answer = await send(
      this.#client.POST("/v1/games/{id}/seats/{seat}/invitation", {
        params: { path: { id: this.id, seat }, header: { Authorization: bearer(this.#token) } },
        ...init(options),
      }),
    );
    return answer.data;
  }

  /**
   * Cancels the waiting game (host token): it is removed, and its streams end with `gone`.
   *
   * @throws {@link ProblemError} 409 `game_not_waiting`, 403 `invalid_token`, and the
   * failures every request may have.
   */
  async cancel(options?: CallOptions): Promise<void> {
    const result = await settle(
      this.#client.DELETE("/v1/games/{id}", {
        params: { path: { id: this.id }, header: { Authorization: bearer(this.#token) } },
        ...init(options),
      }),
    );
    if (result.response.status !== 204) {
      unwrap(result);
    }
  }

  /**
   * The game's live events after what this session has seen (its `last_event_id`): see
   * {@link followEvents}. The session itself is not changed by them; call
   * {@link GameSession.refresh} to bring it up to date.
   */
  events(options: Omit<FollowOptions, "lastEventId"> = {}): AsyncGenerator<GameEvent> {
    return followEvents(this.#client, this.id, {
      ...options,
      lastEventId: this.game.last_event_id,
    });
  }

  /**
   * Reads the game again when it changed since last seen (`If-None-Match`); resolves to
   * whether the session now holds a newer version.
   *
   * @throws {@link ProblemError} 404 `game_not_found` (the game expired), and the failures
   * every request may have.
   */
  refresh(options?: CallOptions): Promise<boolean> {
    return this.#readIfChanged(undefined, options);
  }

  /**
   * Waits up to `waitSecs` seconds (the service allows at most 30) for the game to change,
   * then reads it; resolves to whether the session now holds a newer version.
   *
   * @throws As {@link GameSession.refresh}.
   */
  waitForChange(waitSecs: number, options?: CallOptions): Promise<boolean> {
    return this.#readIfChanged(waitSecs, options);
  }

  /**
   * The game's full record and its text export (the JSON form: the service sends the text
   * export alone to `Accept: text/plain`).
   *
   * @throws {@link ProblemError} 404 `game_not_found`, and the failures every request may have.
   */
  async record(options?: CallOptions): Promise<GameRecord> {
    const answer = await send(
      this.#client.GET("/v1/games/{id}/record", {
        params: { path: { id: this.id } },
        headers: { Accept: "application/json" },
        ...init(options),
      }),
    );
    if (typeof answer.data === "string") {
      throw new UnexpectedResponseError(
        "the record came as text, not JSON",
        answer.response.status,
        answer.data,
      );
    }
    return answer.data;
  }

  /**
   * Starts a rematch: the same setup and seats, the first move passed to the next seat. Needs
   * the host token; resolves to a session on the new game (with its new host token) and the
   * new tokens.
   *
   * @throws {@link ProblemError} 403 `invalid_token` with a seat token, 404 `game_not_found`,
   * and the failures every request may have.
   */
  async rematch(options?: CallOptions): Promise<CreatedSession> {
    const answer = await send(
      this.#client.POST("/v1/games/{id}/rematch", {
        params: { path: { id: this.id }, header: { Authorization: bearer(this.#token) } },
        ...init(options),
      }),
    );
    return GameSession.#fromCreated(this.#client, answer);
  }

  /** The headers of a versioned write: the token, and the version last seen as `If-Match`. */
  #writeHeaders(): { Authorization: string; "If-Match": string } {
    return { Authorization: bearer(this.#token), "If-Match": entityTag(this.#version) };
  }

  async #readIfChanged(waitSecs: number | undefined, options?: CallOptions): Promise<boolean> {
    const query = waitSecs === undefined ? {} : { wait_secs: waitSecs };
    const result = await settle(
      this.#client.GET("/v1/games/{id}", {
        params: {
          path: { id: this.id },
          query,
          header: { "If-None-Match": entityTag(this.#version) },
        },
        ...init(options),
      }),
    );
    if (result.response.status === 304) {
      return false;
    }
    const answer = unwrap(result);
    return this.#remember(answer.data, versionOf(answer, answer.data.version));
  }

  /**
   * Keeps `game` at `version` unless the session has seen a newer version already; returns
   * whether it was kept.
   */
  #remember(game: GameView, version: number): boolean {
    if (version < this.#version) {
      return false;
    }
    this.#game = game;
    this.#version = version;
    return true;
  }

  /** Keeps the game after an accepted write and returns the moves it played. */
  #rememberOutcome(answer: Answer<MoveOutcome>): MoveView[] {
    this.#remember(answer.data.game, versionOf(answer, answer.data.game.version));
    return answer.data.played;
  }

  static #fromCreated(client: HalmaClient, answer: Answer<CreatedGame>): CreatedSession {
    const { game, tokens, invitations } = answer.data;
    const session = new GameSession(client, game, tokens.host, versionOf(answer, game.version));
    return { session, tokens, invitations };
  }
}

/** The version of an answer's `ETag`, else the one its body names. */
function versionOf(answer: Answer<unknown>, bodyVersion: number): number {
  return etagVersion(answer.response.headers) ?? bodyVersion;
}

/** The request options for `openapi-fetch`: only the signal, when one is given. */
function init(options: CallOptions | undefined): { signal?: AbortSignal } {
  return options?.signal === undefined ? {} : { signal: options.signal };
}
