/**
 * The page's own links: `#game=<id>` for a game on the table, `#join=<id>.<seat>.<code>` for
 * an invitation to an open seat. Fragments are never sent to a server, so the code stays
 * between the people who share the link.
 *
 * @module
 */

import { formatInvitation, parseInvitation, type SeatInvitation } from "@halma/client";

/** Where the page's address points. */
export type Route =
  | { readonly kind: "setup" }
  | { readonly kind: "game"; readonly gameId: string }
  | { readonly kind: "join"; readonly invitation: SeatInvitation };

/** The route of a page address's fragment (`location.hash`). */
export function routeOf(hash: string): Route {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const join = params.get("join");
  if (join !== null) {
    const invitation = parseInvitation(join);
    if (invitation !== undefined) {
      return { kind: "join", invitation };
    }
  }
  const game = params.get("game");
  if (game !== null && /^[A-Za-z0-9_-]+$/.test(game)) {
    return { kind: "game", gameId: game };
  }
  return { kind: "setup" };
}

/** The fragment of a game on the table. */
export function gameFragment(gameId: string): string {
  return `#game=${gameId}`;
}

/**
 * The link that invites someone to `invitation`'s seat: this page's address (its query, and
 * so a chosen `?api=`, included) with a `#join=` fragment.
 */
export function invitationLink(pageHref: string, invitation: SeatInvitation): string {
  const url = new URL(pageHref);
  url.hash = `join=${formatInvitation(invitation)}`;
  return url.href;
}
