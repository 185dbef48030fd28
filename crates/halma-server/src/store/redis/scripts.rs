//! The Lua scripts of the Redis store. Each runs atomically on the server, touching keys of
//! one slot only (on a cluster: the keys of one game, or of one shared tag).

use std::sync::LazyLock;

use ::redis::Script;

/// The opening of the scripts that change a game only at the version the caller read
/// (KEYS[1] the game, ARGV[1] that version): returns {0, ''} when there is no such game,
/// {3, detail} for a hash without its version, {1, current} for another version; else goes on
/// with `current` set.
macro_rules! expect_version {
    () => {
        r"
local current = redis.call('HGET', KEYS[1], 'v')
if not current then
  if redis.call('EXISTS', KEYS[1]) == 1 then
    return {3, 'the hash has no version field'}
  end
  return {0, ''}
end
if current ~= ARGV[1] then
  return {1, current}
end
"
    };
}

/// Creates a game unless its key exists.
/// KEYS[1] game key, KEYS[2] its log; ARGV[1] head; ARGV[2] the log's first entry; ARGV[3] TTL
/// in milliseconds; ARGV[4] the publish command (`PUBLISH`, or `SPUBLISH` on a cluster) and
/// ARGV[5] the change channel; ARGV[6] game id. Returns 1, or 0 if taken.
pub(super) static CREATE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[1], 'v', 1, 'doc', ARGV[1])
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call(ARGV[4], ARGV[5], '1 ' .. ARGV[6])
return 1
",
    )
});

/// Replaces a game's head and writes its log if its version is the expected one, and then adds
/// the counters.
/// KEYS[1] game key; KEYS[2] its log; KEYS[3] the set of counter set names; KEYS[4..] the
/// counter hashes (none on a cluster: they live in another slot). ARGV[1] expected version;
/// ARGV[2] head; ARGV[3] TTL in milliseconds; ARGV[4] the publish command and ARGV[5] the change
/// channel; ARGV[6] game id; ARGV[7] `a` to append to the log, `r` to replace it; ARGV[8] the
/// number n of entries, then the n entries; then per counter hash (in the order of KEYS[4..]):
/// its name, the number m of fields, and m pairs of field and increment.
/// Returns {status, value}: {0, ''} no such game; {1, current} version mismatch;
/// {2, new version} stored; {3, detail} corrupt record.
pub(super) static COMPARE_AND_SET: LazyLock<Script> = LazyLock::new(|| {
    Script::new(concat!(
        expect_version!(),
        r"
local entries = tonumber(ARGV[8])
if ARGV[7] == 'a' then
  local logged = redis.call('LLEN', KEYS[2])
  if logged ~= tonumber(current) then
    return {3, 'the log has ' .. logged .. ' entries at version ' .. current}
  end
elseif entries ~= tonumber(current) + 1 then
  return {3, 'a replaced log needs one entry per version'}
end
local new = redis.call('HINCRBY', KEYS[1], 'v', 1)
redis.call('HSET', KEYS[1], 'doc', ARGV[2])
if ARGV[7] == 'r' then
  redis.call('DEL', KEYS[2])
end
for i = 1, entries do
  redis.call('RPUSH', KEYS[2], ARGV[8 + i])
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
local at = 9 + entries
for k = 4, #KEYS do
  redis.call('SADD', KEYS[3], ARGV[at])
  local fields = tonumber(ARGV[at + 1])
  at = at + 2
  for _ = 1, fields do
    redis.call('HINCRBY', KEYS[k], ARGV[at], ARGV[at + 1])
    at = at + 2
  end
end
redis.call(ARGV[4], ARGV[5], new .. ' ' .. ARGV[6])
return {2, new}
"
    ))
});

/// Removes a game if its version is the expected one.
/// KEYS[1] game key, KEYS[2] its log; ARGV[1] expected version; ARGV[2] the publish command
/// and ARGV[3] the change channel; ARGV[4] game id.
/// Returns {status, value}: {0, ''} no such game; {1, current} version mismatch; {2, ''}
/// removed; {3, detail} corrupt record.
pub(super) static DELETE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(concat!(
        expect_version!(),
        r"
redis.call('DEL', KEYS[1], KEYS[2])
redis.call(ARGV[2], ARGV[3], (tonumber(current) + 1) .. ' ' .. ARGV[4])
return {2, ''}
"
    ))
});

/// Adds (ARGV[2] = '1') or removes (ARGV[2] = '0') the lobby entry ARGV[1] in every index
/// KEYS. Returns the number of indexes changed.
pub(super) static LOBBY_UPDATE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local changed = 0
for _, key in ipairs(KEYS) do
  if ARGV[2] == '1' then
    changed = changed + redis.call('ZADD', key, 0, ARGV[1])
  else
    changed = changed + redis.call('ZREM', key, ARGV[1])
  end
end
return changed
",
    )
});

/// Adds counters (on a cluster, after the write that finished the game: the counters live in a
/// slot of their own). KEYS[1] the set of counter set names; KEYS[2..] the counter hashes;
/// ARGV per hash: its name, the number m of fields, and m pairs of field and increment.
pub(super) static COUNT: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local at = 1
for k = 2, #KEYS do
  redis.call('SADD', KEYS[1], ARGV[at])
  local fields = tonumber(ARGV[at + 1])
  at = at + 2
  for _ = 1, fields do
    redis.call('HINCRBY', KEYS[k], ARGV[at], ARGV[at + 1])
    at = at + 2
  end
end
return 1
",
    )
});

/// Reads a game whole: {status, version, head, log}, as strict as [`GET_IF_CHANGED`].
/// KEYS[1] game key, KEYS[2] its log.
/// Returns {0, '', '', {}} no such game; {2, version, head, log} the game; {3, detail, '', {}}
/// corrupt record.
pub(super) static GET: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local version = redis.call('HGET', KEYS[1], 'v')
local head = redis.call('HGET', KEYS[1], 'doc')
if not version or not head then
  if version then
    return {3, 'the hash has no document field', '', {}}
  elseif head then
    return {3, 'the hash has no version field', '', {}}
  end
  return {0, '', '', {}}
end
return {2, version, head, redis.call('LRANGE', KEYS[2], 0, -1)}
",
    )
});

/// Reads a game unless the caller holds its current version: nothing but the version then;
/// the head and the entries after the caller's version when the log has them (one entry per
/// version); else the whole game.
/// KEYS[1] game key, KEYS[2] its log; ARGV[1] the version the caller holds.
/// Returns {status, value, head, entries}: {0, '', '', {}} no such game; {1, version, '', {}}
/// unchanged; {4, version, head, entries after ARGV[1]} appended; {2, version, head, log}
/// the whole game; {3, detail, '', {}} corrupt record.
pub(super) static GET_IF_CHANGED: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local version = redis.call('HGET', KEYS[1], 'v')
if not version then
  if redis.call('HEXISTS', KEYS[1], 'doc') == 1 then
    return {3, 'the hash has no version field', '', {}}
  end
  return {0, '', '', {}}
end
if version == ARGV[1] then
  if redis.call('HEXISTS', KEYS[1], 'doc') == 0 then
    return {3, 'the hash has no document field', '', {}}
  end
  return {1, version, '', {}}
end
local head = redis.call('HGET', KEYS[1], 'doc')
if not head then
  return {3, 'the hash has no document field', '', {}}
end
local known = tonumber(ARGV[1])
local logged = redis.call('LLEN', KEYS[2])
if logged == tonumber(version) and known and known >= 1 and known < logged then
  return {4, version, head, redis.call('LRANGE', KEYS[2], known, -1)}
end
return {2, version, head, redis.call('LRANGE', KEYS[2], 0, -1)}
",
    )
});

/// Takes units from the rate-limit buckets of one request, all or none (GCRA: each key holds
/// its bucket's theoretical arrival time, in microseconds of the Redis clock, so every
/// instance shares one clock; see `crate::limits::gcra` for the same arithmetic in memory).
/// KEYS the bucket keys; ARGV per key: microseconds per unit, the burst's tolerance in
/// microseconds, cost; then the last ARGV is 1 to charge the costs whatever the buckets hold
/// (a debt that later takes wait for). Returns {0, 0} when taken, else {i, microseconds}: the
/// first bucket (from 1) without enough, and the wait until it would have them.
pub(super) static TAKE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000000 + tonumber(now[2])
local force = ARGV[#ARGV] == '1'
local nexts = {}
for i, key in ipairs(KEYS) do
  local tat = tonumber(redis.call('GET', key) or now)
  if tat < now then
    tat = now
  end
  local next = tat + tonumber(ARGV[3 * i - 2]) * tonumber(ARGV[3 * i])
  local wait = next - tonumber(ARGV[3 * i - 1]) - now
  if wait > 0 and not force then
    return {i, math.ceil(wait)}
  end
  nexts[i] = next
end
for i, key in ipairs(KEYS) do
  redis.call('SET', key, string.format('%.0f', nexts[i]), 'PX', math.ceil((nexts[i] - now) / 1000) + 1)
end
return {0, 0}
",
    )
});
