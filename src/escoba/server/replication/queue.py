"""The quick-match queue of a site of several processes, in Redis: one line per game and
number of players (``{prefix}queue:{rules}:{players}``, a list of seeker ids, beside a hash of
the seekers). Joining, taking and leaving are each one Lua script, so Redis runs each whole
before any other: a seeker is taken out of the line exactly once, whichever process asks.
Seekers of a process whose heartbeat has expired (it died) are dropped as the line is read.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Final, cast

from ..lobby import Seeker, SeekKey
from .bus import Cluster

__all__ = ["SiteQueue"]

_LIVE: Final = """
local line, seekers, alive = KEYS[1], KEYS[2], ARGV[1]
local function live_ids()
  local found = {}
  for _, id in ipairs(redis.call('LRANGE', line, 0, -1)) do
    local entry = redis.call('HGET', seekers, id)
    local keep = false
    if entry then
      keep = redis.call('EXISTS', alive .. cjson.decode(entry)['process']) == 1
    end
    if keep then
      table.insert(found, id)
    else
      redis.call('LREM', line, 0, id)
      redis.call('HDEL', seekers, id)
    end
  end
  return found
end
local function take_out(id)
  local entry = redis.call('HGET', seekers, id)
  redis.call('LREM', line, 0, id)
  redis.call('HDEL', seekers, id)
  return entry
end
"""

_JOIN: Final = (
    _LIVE
    + """
local id, entry, size = ARGV[2], ARGV[3], tonumber(ARGV[4])
redis.call('HSET', seekers, id, entry)
redis.call('RPUSH', line, id)
local ids = live_ids()
if #ids < size then return {} end
local group = {}
for index = 1, size do table.insert(group, take_out(ids[index])) end
return group
"""
)

_TAKE: Final = (
    _LIVE
    + """
local id, size = ARGV[2], tonumber(ARGV[3])
if redis.call('HEXISTS', seekers, id) == 0 then return {} end
local ids = live_ids()
local group = {take_out(id)}
for _, other in ipairs(ids) do
  if #group >= size then break end
  if other ~= id then table.insert(group, take_out(other)) end
end
return group
"""
)


class SiteQueue:
    """The site's quick-match queue (:class:`escoba.server.lobby.Queue`)."""

    def __init__(self, cluster: Cluster) -> None:
        self._cluster = cluster
        self._join = cluster.redis.register_script(_JOIN)
        self._take = cluster.redis.register_script(_TAKE)

    def _keys(self, key: SeekKey) -> list[str]:
        line = f"{self._cluster.prefix}queue:{key.name}"
        return [line, f"{line}:seekers"]

    def _alive(self) -> str:
        return f"{self._cluster.prefix}alive:"

    async def join(self, key: SeekKey, seeker: Seeker) -> Sequence[Seeker]:
        entry = json.dumps(seeker.to_dict())
        found = await self._cluster.reaching(
            "joining the quick-match queue",
            self._join(keys=self._keys(key), args=[self._alive(), seeker.id, entry, key.players]),
        )
        return _seekers(found)

    async def take(self, key: SeekKey, seeker_id: str) -> Sequence[Seeker]:
        found = await self._cluster.reaching(
            "taking from the quick-match queue",
            self._take(keys=self._keys(key), args=[self._alive(), seeker_id, key.players]),
        )
        return _seekers(found)

    async def leave(self, key: SeekKey, seeker_id: str) -> None:
        line, seekers = self._keys(key)
        redis = self._cluster.redis
        await self._cluster.reaching(
            "leaving the quick-match queue", redis.lrem(line, 0, seeker_id)
        )
        await self._cluster.reaching(
            "leaving the quick-match queue", redis.hdel(seekers, seeker_id)
        )


def _seekers(found: object) -> list[Seeker]:
    return [Seeker.from_dict(json.loads(entry)) for entry in cast("list[str]", found or [])]
