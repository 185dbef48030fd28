/**
 * The headers of the optimistic versioning protocol (`ETag`, `If-Match`, `If-None-Match`) and
 * of the bearer tokens, for callers of the generated client.
 *
 * @module
 */

/**
 * The entity tag of a game version, as the service writes it in `ETag` and expects it in
 * `If-Match` and `If-None-Match`: the version in double quotes.
 *
 * ```ts
 * entityTag(7); // '"7"'
 * ```
 */
export function entityTag(version: number): string {
  return `"${version}"`;
}

/**
 * The game version named by the `ETag` header of an answer (`"7"`, or the weak form `W/"7"`),
 * or `undefined` when the header is absent or names no version.
 *
 * Every answer about one game carries its version this way: creating, reading, listing moves,
 * playing, the suggestion and the record. A page on another origin sees the header only when
 * the service exposes it (CORS); the bodies carry the version too.
 */
export function etagVersion(headers: Headers): number | undefined {
  const value = headers.get("ETag");
  if (value === null) {
    return undefined;
  }
  const tag = value.trim();
  const opaque = tag.startsWith("W/") ? tag.slice(2) : tag;
  const match = /^"(\d+)"$/.exec(opaque);
  if (match?.[1] === undefined) {
    return undefined;
  }
  const version = Number(match[1]);
  return Number.isSafeInteger(version) ? version : undefined;
}

/**
 * The value of the `Authorization` header for a game token: `Bearer <token>`.
 */
export function bearer(token: string): string {
  return `Bearer ${token}`;
}

/**
 * The delay named by a `Retry-After` header, in seconds: a number of seconds, or an HTTP date
 * (counted from `now`, never below 0); `undefined` when the header is absent or unreadable.
 */
export function retryAfterSeconds(headers: Headers, now: Date = new Date()): number | undefined {
  const value = headers.get("Retry-After")?.trim();
  if (value === undefined || value === "") {
    return undefined;
  }
  if (/^\d+$/.test(value)) {
    return Number(value);
  }
  // The three forms of an HTTP date all start with the day's name: `Sun, 06 Nov 1994 ...`.
  const date = /^[A-Za-z]/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(date)) {
    return undefined;
  }
  return Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}
