import assert from "node:assert/strict";
import { test } from "node:test";

import { bearer, entityTag, etagVersion, retryAfterSeconds } from "../../src/index.js";

function withHeader(name: string, value: string): Headers {
  return new Headers({ [name]: value });
}

test("entity tags round-trip through ETag", () => {
  for (const version of [1, 7, 12_345, Number.MAX_SAFE_INTEGER]) {
    assert.equal(etagVersion(withHeader("ETag", entityTag(version))), version);
  }
  assert.equal(entityTag(7), '"7"');
  assert.equal(etagVersion(withHeader("ETag", 'W/"3"')), 3);
  assert.equal(etagVersion(withHeader("ETag", ' W/"9" ')), 9);
});

test("tags that name no version are undefined", () => {
  assert.equal(etagVersion(new Headers()), undefined);
  for (const tag of [
    '""',
    "7",
    '"x"',
    '"7',
    "W/7",
    '"-1"',
    "*",
    '"1.5"',
    '"99999999999999999999"',
  ]) {
    assert.equal(etagVersion(withHeader("ETag", tag)), undefined, tag);
  }
});

test("bearer writes the Authorization value", () => {
  assert.equal(bearer("s3cr3t"), "Bearer s3cr3t");
});

test("Retry-After reads seconds and HTTP dates", () => {
  const now = new Date("2026-12-01T10:00:00Z");
  assert.equal(retryAfterSeconds(withHeader("Retry-After", "2"), now), 2);
  assert.equal(retryAfterSeconds(withHeader("Retry-After", " 120 "), now), 120);
  const later = "Tue, 01 Dec 2026 10:00:30 GMT";
  assert.equal(retryAfterSeconds(withHeader("Retry-After", later), now), 30);
  const earlier = "Tue, 01 Dec 2026 09:59:00 GMT";
  assert.equal(retryAfterSeconds(withHeader("Retry-After", earlier), now), 0);
  assert.equal(retryAfterSeconds(withHeader("Retry-After", "soon"), now), undefined);
  assert.equal(retryAfterSeconds(withHeader("Retry-After", "-1"), now), undefined);
  assert.equal(retryAfterSeconds(new Headers(), now), undefined);
});
