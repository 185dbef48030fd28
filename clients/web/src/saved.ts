/**
 * The seats this browser tab plays, kept in `sessionStorage` by game, so that reloading the
 * page (`#game=<id>`) goes on with the same game and the same token. The tokens stay in this
 * tab: a link never carries them.
 *
 * @module
 */

/** What the tab keeps of a game. */
export interface SavedSeats {
  /** The token the tab acts with: the host's, or a seat's. */
  readonly token: string;
  /** The seats played here. */
  readonly seats: readonly number[];
  /** Whether `token` is the host's. */
  readonly host: boolean;
  /** Invitation links of the seats left open, by seat. */
  readonly invitations: readonly (readonly [number, string])[];
}

const PREFIX = "halma.game.";

/** Keeps `saved` for game `gameId`. */
export function saveSeats(gameId: string, saved: SavedSeats): void {
  try {
    sessionStorage.setItem(PREFIX + gameId, JSON.stringify(saved));
  } catch {
    // Storage full or disabled: the game goes on, only a reload will not find it.
  }
}

/** What the tab keeps of game `gameId`, if anything readable. */
export function loadSeats(gameId: string): SavedSeats | undefined {
  let text: string | null;
  try {
    text = sessionStorage.getItem(PREFIX + gameId);
  } catch {
    return undefined;
  }
  if (text === null) {
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (
      typeof value === "object" &&
      value !== null &&
      "token" in value &&
      typeof value.token === "string" &&
      "seats" in value &&
      Array.isArray(value.seats) &&
      value.seats.every((seat: unknown) => Number.isInteger(seat)) &&
      "host" in value &&
      typeof value.host === "boolean"
    ) {
      const invitations =
        "invitations" in value && Array.isArray(value.invitations)
          ? (value.invitations as [number, string][])
          : [];
      return { token: value.token, seats: value.seats as number[], host: value.host, invitations };
    }
  } catch {
    // Not ours, or from an older page: ignored.
  }
  return undefined;
}
