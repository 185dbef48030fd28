/**
 * Invitations to open seats as one piece of text, `<game id>.<seat>.<code>`, for links and
 * messages (a web client puts it in a fragment: `/play/#join=<id>.<seat>.<code>`).
 *
 * @module
 */

/** An invitation to an open seat: the game, the seat and the code that takes it once. */
export interface SeatInvitation {
  /** The game's id. */
  readonly gameId: string;
  /** The open seat. */
  readonly seat: number;
  /** The invitation code (a secret: whoever has it may take the seat). */
  readonly code: string;
}

/** Game ids and codes are URL-safe base64: letters, digits, `-` and `_`. */
const TOKEN = /^[A-Za-z0-9_-]+$/;

/**
 * `invitation` as text: `<game id>.<seat>.<code>`.
 *
 * ```ts
 * formatInvitation({ gameId: "q3Zx", seat: 1, code: "k9Pw" }); // "q3Zx.1.k9Pw"
 * ```
 *
 * @throws {RangeError} when the id or the code is not URL-safe base64 or the seat is not a
 * seat number, so that the text always reads back as the same invitation.
 */
export function formatInvitation(invitation: SeatInvitation): string {
  const { gameId, seat, code } = invitation;
  if (
    !TOKEN.test(gameId) ||
    !TOKEN.test(code) ||
    !Number.isInteger(seat) ||
    seat < 0 ||
    seat > 255
  ) {
    throw new RangeError(`not an invitation: game ${gameId}, seat ${seat}`);
  }
  return `${gameId}.${seat}.${code}`;
}

/** The invitation that `text` (`<game id>.<seat>.<code>`) names, or `undefined`. */
export function parseInvitation(text: string): SeatInvitation | undefined {
  const match = /^([A-Za-z0-9_-]+)\.(\d{1,3})\.([A-Za-z0-9_-]+)$/.exec(text.trim());
  if (match === null) {
    return undefined;
  }
  const [, gameId, seatText, code] = match;
  const seat = Number(seatText);
  if (gameId === undefined || code === undefined || seat > 255) {
    return undefined;
  }
  return { gameId, seat, code };
}
