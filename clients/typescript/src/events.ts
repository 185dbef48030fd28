/**
 * {@link followEvents}: a game's live events (`GET /v1/games/{id}/events`, Server-Sent
 * Events) as an async iterator of typed events, resuming with `Last-Event-ID` when the
 * connection drops.
 *
 * @module
 */

import { settle, unwrap, type CallOptions, type HalmaClient } from "./client.js";
import { HalmaError, UnexpectedResponseError } from "./errors.js";
import type {
  GameView,
  HandoverEvent,
  MoveEvent,
  ResignedEvent,
  ResultEvent,
  SeatJoinedEvent,
  SeatLeftEvent,
} from "./generated.js";

/** One event of a game's stream, with its id. */
export type GameEvent =
  /** The whole game: the first event of a stream that does not resume. */
  | { readonly id: number; readonly kind: "game"; readonly data: GameView }
  /** Someone took an open seat of the waiting game (the last one starts it). */
  | { readonly id: number; readonly kind: "seat_joined"; readonly data: SeatJoinedEvent }
  /** A player left the waiting game; the seat is open again. */
  | { readonly id: number; readonly kind: "seat_left"; readonly data: SeatLeftEvent }
  /** A move, and whose turn it is after it. */
  | { readonly id: number; readonly kind: "move"; readonly data: MoveEvent }
  /** A resignation, and whose turn it is after it. */
  | { readonly id: number; readonly kind: "resigned"; readonly data: ResignedEvent }
  /** A seat handed to the AI, and whose turn it is after it. */
  | { readonly id: number; readonly kind: "handed_to_ai"; readonly data: HandoverEvent }
  /** The result: the last event. */
  | { readonly id: number; readonly kind: "result"; readonly data: ResultEvent }
  /** The game no longer exists (it expired, or was cancelled while waiting): the last event. */
  | { readonly id: number; readonly kind: "gone" };

/** Options of {@link followEvents}. */
export interface FollowOptions extends CallOptions {
  /** Resume after this event (a move's id is its ply in a game without seat changes). */
  lastEventId?: number;
  /** Reconnections in a row before giving up with the last error (default 5). */
  maxReconnects?: number;
}

/** One event as the SSE wire format carries it. */
export interface RawEvent {
  /** The `event` field (`message` when absent). */
  readonly event: string;
  /** The `data` lines, joined by newlines. */
  readonly data: string;
  /** The last `id` seen on the stream, if any. */
  readonly id: string | undefined;
}

/** The first wait before reconnecting, in milliseconds; it doubles with every failure. */
const FIRST_BACKOFF_MS = 200;

/**
 * The live events of game `gameId`, in order: without `lastEventId` the whole game first,
 * then every move, resignation, seat handed to the AI and the result, after which the
 * iterator ends. When the connection drops it reconnects with `Last-Event-ID`, and the
 * service sends exactly what was missed, so the caller sees no gap and no repetition.
 *
 * ```ts
 * for await (const event of followEvents(client, gameId)) {
 *   if (event.kind === "move" && event.data.to_move === mySeat) await playMyMove();
 * }
 * ```
 *
 * @throws {@link ProblemError} when (re)connecting is refused: 404 `game_not_found`, 400 for a
 * `lastEventId` the game does not have, or 503 after `maxReconnects` attempts;
 * {@link TransportError} when the service cannot be reached that often in a row or the
 * signal aborts; {@link UnexpectedResponseError} for an event that does not decode.
 */
export async function* followEvents(
  client: HalmaClient,
  gameId: string,
  options: FollowOptions = {},
): AsyncGenerator<GameEvent, void, undefined> {
  const maxReconnects = options.maxReconnects ?? 5;
  let last = options.lastEventId;
  let failures = 0;
  for (;;) {
    let body: ReadableStream<Uint8Array>;
    try {
      const answer = unwrap(
        await settle(
          client.GET("/v1/games/{id}/events", {
            params: {
              path: { id: gameId },
              header: last === undefined ? {} : { "Last-Event-ID": String(last) },
            },
            parseAs: "stream",
            ...(options.signal === undefined ? {} : { signal: options.signal }),
          }),
        ),
      );
      body = answer.data as ReadableStream<Uint8Array>;
    } catch (error) {
      if (!(error instanceof HalmaError) || !error.retryable || failures >= maxReconnects) {
        throw error;
      }
      await pause(FIRST_BACKOFF_MS * 2 ** failures, options.signal);
      failures += 1;
      continue;
    }
    try {
      for await (const raw of parseEventStream(body)) {
        const event = decode(raw);
        if (event === undefined) {
          continue;
        }
        failures = 0;
        last = event.id;
        yield event;
        if (event.kind === "result" || event.kind === "gone") {
          return;
        }
      }
    } catch (error) {
      // A connection that breaks while reading is resumed below, unless the caller aborted.
      if (options.signal?.aborted === true) {
        throw error;
      }
    }
    if (failures >= maxReconnects) {
      throw new UnexpectedResponseError(
        `the event stream of game ${gameId} dropped ${maxReconnects} times in a row`,
      );
    }
    await pause(FIRST_BACKOFF_MS * 2 ** failures, options.signal);
    failures += 1;
  }
}

/**
 * The events of an SSE body (the `text/event-stream` format): `event`, `data` and `id` fields,
 * comments and `retry` ignored, lines ending in LF, CR or CRLF, chunks split anywhere.
 */
export async function* parseEventStream(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<RawEvent, void, undefined> {
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (;;) {
        const end = buffer.search(/\r\n|\r|\n/);
        // A lone CR at the end may be the first half of a CRLF split across chunks.
        if (end < 0 || (!done && end === buffer.length - 1 && buffer.endsWith("\r"))) {
          break;
        }
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
        if (line === "") {
          if (data.length > 0) {
            yield { event: event === "" ? "message" : event, data: data.join("\n"), id };
          }
          event = "";
          data = [];
          continue;
        }
        if (line.startsWith(":")) {
          continue;
        }
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let value_ = colon < 0 ? "" : line.slice(colon + 1);
        if (value_.startsWith(" ")) {
          value_ = value_.slice(1);
        }
        if (field === "event") {
          event = value_;
        } else if (field === "data") {
          data.push(value_);
        } else if (field === "id" && !value_.includes("\0")) {
          id = value_;
        }
      }
      if (done) {
        return;
      }
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => undefined);
  }
}

/** A raw event as a typed one; `undefined` for kinds this client does not know. */
function decode(raw: RawEvent): GameEvent | undefined {
  const kinds = [
    "game",
    "seat_joined",
    "seat_left",
    "move",
    "resigned",
    "handed_to_ai",
    "result",
    "gone",
  ] as const;
  const kind = kinds.find((k) => k === raw.event);
  if (kind === undefined) {
    return undefined;
  }
  const id = raw.id === undefined ? Number.NaN : Number(raw.id);
  if (!Number.isSafeInteger(id) || id < 0) {
    if (kind === "gone") {
      return { id: 0, kind };
    }
    throw new UnexpectedResponseError(`a ${kind} event with the id ${String(raw.id)}`);
  }
  if (kind === "gone") {
    return { id, kind };
  }
  let data: unknown;
  try {
    data = JSON.parse(raw.data);
  } catch (cause) {
    throw new UnexpectedResponseError(
      `the data of a ${kind} event does not decode`,
      undefined,
      raw.data,
      cause,
    );
  }
  // The service's schemas say what each kind carries; the payload is not checked further.
  return { id, kind, data } as GameEvent;
}

/** Waits `ms` milliseconds, or rejects when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
