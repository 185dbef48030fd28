// Invitations as text (`<game id>.<seat>.<code>`), and followEvents telling when it is live.

import assert from "node:assert/strict";
import { test } from "node:test";

import { followEvents, formatInvitation, parseInvitation } from "../../src/index.js";
import { fakeService } from "./fake.js";

test("an invitation reads back as itself", () => {
  const invitation = { gameId: "q3Zx-_9", seat: 2, code: "k9Pw_-aB" };
  const text = formatInvitation(invitation);
  assert.equal(text, "q3Zx-_9.2.k9Pw_-aB");
  assert.deepEqual(parseInvitation(text), invitation);
  assert.deepEqual(parseInvitation(` ${text}\n`), invitation);
});

test("text that is no invitation is refused", () => {
  for (const text of [
    "",
    "abc",
    "abc.1",
    "abc.x.code",
    "abc.1.",
    ".1.code",
    "a.256.c",
    "a.1.c.d",
    "a b.1.c",
  ]) {
    assert.equal(parseInvitation(text), undefined, text);
  }
  assert.throws(() => formatInvitation({ gameId: "a.b", seat: 1, code: "c" }), RangeError);
  assert.throws(() => formatInvitation({ gameId: "a", seat: -1, code: "c" }), RangeError);
  assert.throws(() => formatInvitation({ gameId: "a", seat: 1, code: "" }), RangeError);
});

test("followEvents calls onOpen once the stream is open, before any event", async () => {
  const seen: string[] = [];
  const { client } = fakeService(
    () =>
      new Response('id: 3\nevent: result\ndata: {"result":{"ranking":[]},"version":4}\n\n', {
        status: 200,
        headers: { "Content-Type": "text/event-stream" },
      }),
  );
  for await (const event of followEvents(client, "g1", {
    lastEventId: 2,
    onOpen: () => seen.push("open"),
  })) {
    seen.push(event.kind);
  }
  assert.deepEqual(seen, ["open", "result"]);
});
