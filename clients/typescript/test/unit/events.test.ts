// The SSE parser of followEvents: fields, comments, line endings and chunks split anywhere.

import assert from "node:assert/strict";
import { test } from "node:test";

import { parseEventStream, type RawEvent } from "../../src/index.js";

/** A body made of these chunks. */
function body(chunks: readonly string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) {
        controller.enqueue(encoder.encode(chunk));
      }
      controller.close();
    },
  });
}

async function parse(chunks: readonly string[]): Promise<RawEvent[]> {
  const events: RawEvent[] = [];
  for await (const event of parseEventStream(body(chunks))) {
    events.push(event);
  }
  return events;
}

const STREAM =
  'retry: 2000\n\nid: 0\nevent: game\ndata: {"a":1}\n\n: keep-alive\n\n' +
  "id: 1\r\nevent: move\r\ndata: line one\r\ndata: line two\r\n\r\n" +
  "event: gone\rdata: the game no longer exists\r\r";

const EXPECTED: RawEvent[] = [
  { event: "game", data: '{"a":1}', id: "0" },
  { event: "move", data: "line one\nline two", id: "1" },
  // `gone` carries no id of its own: the last id of the stream stays.
  { event: "gone", data: "the game no longer exists", id: "1" },
];

test("events are read from one chunk", async () => {
  assert.deepEqual(await parse([STREAM]), EXPECTED);
});

test("events are read whatever the chunks, CRLF split included", async () => {
  for (let size = 1; size <= 7; size += 1) {
    const chunks: string[] = [];
    for (let i = 0; i < STREAM.length; i += size) {
      chunks.push(STREAM.slice(i, i + size));
    }
    assert.deepEqual(await parse(chunks), EXPECTED, `chunks of ${size}`);
  }
});

test("comments, retry and unknown fields are skipped; an event needs data", async () => {
  const events = await parse([": hello\n\nretry: 5\nfoo: bar\n\nevent: x\n\ndata\n\n"]);
  assert.deepEqual(events, [{ event: "message", data: "", id: undefined }]);
});

test("an unfinished last event is not reported", async () => {
  assert.deepEqual(await parse(["id: 3\nevent: move\ndata: {}\n"]), []);
});
