/**
 * `@halma/client`: the TypeScript client of the halma game service.
 *
 * - {@link GameSession}: one game, one token and the version last seen; writes send `If-Match`.
 * - {@link followEvents}: a game's live events as an async iterator, resuming by itself.
 * - {@link parseInvitation} and {@link formatInvitation}: invitations to open seats as text.
 * - {@link createHalmaClient}: the generated client of every operation (`openapi-fetch`).
 * - {@link ProblemError} and its siblings: what went wrong, with the problem document typed.
 * - `types`: every schema of the OpenAPI document (`types.GameView`, ...); `paths`,
 *   `operations` and `components` as `openapi-typescript` generates them.
 *
 * @module
 */

export {
  createHalmaClient,
  type Answer,
  type CallOptions,
  type HalmaClient,
  type HalmaClientOptions,
} from "./client.js";
export {
  HalmaError,
  ProblemError,
  TransportError,
  UnexpectedResponseError,
  isProblem,
  type ProblemCode,
  type ProblemReason,
} from "./errors.js";
export type * as types from "./generated.js";
export type { components, operations, paths } from "./generated.js";
export {
  followEvents,
  parseEventStream,
  type FollowOptions,
  type GameEvent,
  type RawEvent,
} from "./events.js";
export { formatInvitation, parseInvitation, type SeatInvitation } from "./invitation.js";
export { bearer, entityTag, etagVersion, retryAfterSeconds } from "./headers.js";
export {
  GameSession,
  type CreatedSession,
  type JoinedSession,
  type SuggestionQuery,
} from "./session.js";
