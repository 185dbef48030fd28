/**
 * Following a game's event stream for as long as the page shows it: the SDK's
 * `followEvents` resumes after short drops by itself; this keeps trying after longer ones
 * (a laptop waking up, a service restarting), from the last event seen.
 *
 * @module
 */

import { followEvents, isProblem, type GameEvent, type HalmaClient } from "@halma/client";

import type { Live } from "./store.js";

/** Options of {@link follow}. */
export interface FollowHandlers {
  /** Follow from after this event. */
  readonly lastEventId: number;
  /** Stops following. */
  readonly signal: AbortSignal;
  /** Called with every event, in order. */
  readonly onEvent: (event: GameEvent) => void;
  /** Called when the stream's state changes. */
  readonly onLive: (live: Live) => void;
}

/** The wait before trying again after the SDK gave up, in milliseconds. */
const RETRY_MS = 3_000;

/**
 * Follows game `gameId` until its last event (`result` or `gone`), until `signal` aborts, or
 * until the service says the game does not exist.
 */
export async function follow(
  client: HalmaClient,
  gameId: string,
  handlers: FollowHandlers,
): Promise<void> {
  let last = handlers.lastEventId;
  for (let attempt = 0; ; attempt += 1) {
    handlers.onLive(attempt === 0 ? "connecting" : "reconnecting");
    try {
      for await (const event of followEvents(client, gameId, {
        lastEventId: last,
        signal: handlers.signal,
        maxReconnects: 3,
        onOpen: () => handlers.onLive("live"),
      })) {
        handlers.onLive("live");
        if (event.kind !== "gone") {
          last = event.id;
        }
        handlers.onEvent(event);
      }
      handlers.onLive("ended");
      return;
    } catch (error) {
      if (handlers.signal.aborted) {
        return;
      }
      if (isProblem(error) && error.status < 500) {
        handlers.onLive("failed");
        return;
      }
      handlers.onLive("reconnecting");
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      if (handlers.signal.aborted) {
        return;
      }
    }
  }
}
