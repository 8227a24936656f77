"""The event envelope: one entry of a game's log, as stored and as shown.

A game's rules produce ``games.contract.Event``s; the command layer wraps each
in an ``Envelope`` that adds where it sits in the log (``version``), when it
was appended, who acted, and for which command. The envelope keeps the
event's visibility split (public / private per seat / secret), so the feed a
seat reads is cut from the same record the rules fold.

Tamper evidence: each envelope carries the hash of the one before it
(``prev_hash``) and of its own content (``hash``), so changing, removing or
reordering an entry breaks the chain from there on; the summary of a game
publishes the newest hash, so a log cannot be rewritten whole unnoticed.

The hash is a commitment every seat is shown (``log_hash``), so it must hide
what it seals: each entry carries a random 128-bit ``salt`` (never in a
seat's feed), without which a seat could test guesses of a hidden part (which
known card a player laid face down, say) against the hash, since every other
field of an entry can be known or guessed.
"""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from events.upcasting import CURRENT_SCHEMA, upcast
from games.contract import Event
from games.hashing import canonical_json, sha256_hex

# Bumped when the shape of stored envelopes or event payloads changes; older
# entries are upcast on read (events/upcasting.py).
SCHEMA_VERSION = CURRENT_SCHEMA


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


# an entry's members whose keys sort before "hash" (the rest sort after it)
_BEFORE_HASH = ("actor", "command", "command_id")


@dataclass(frozen=True)
class Envelope:
    version: int
    type: str
    time: int  # ms since the epoch, the command's time
    seat: int | None  # the acting seat; None for the system (creation, timeouts)
    command_id: str
    public: Mapping[str, Any] = field(default_factory=dict)
    private: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    secret: Mapping[str, Any] = field(default_factory=dict)
    # the command that produced this event, on the first event of each command
    # only; seen by the acting seat and in the operator's log
    command: Mapping[str, Any] | None = None
    actor: str = "player"  # "player", "bot" (a bot seat or autopilot) or "system"
    schema: int = SCHEMA_VERSION  # the format the entry was written in
    prev_hash: str | None = None  # the previous entry's hash; None before the first
    hash: str | None = None  # of this entry's content; None in schema 1
    # random, in every entry written since schema 6: the hash hides what it seals
    salt: str | None = None
    # the digest of the entry as stored, when upcasting changed it (else None:
    # ``digest()`` of what was read is the stored one)
    stored_digest: str | None = field(default=None, compare=False)
    # the entry's JSON as stored: as read, for an entry of an older schema
    # (the log is handed out as it was written, never as this code upcasts
    # it), or as made when the entry was sealed (``chained``). Not an
    # argument: ``dataclasses.replace`` makes a changed entry, which drops it
    stored: str | None = field(default=None, init=False, compare=False, repr=False)

    @classmethod
    def wrap(
        cls,
        event: Event,
        version: int,
        seat: int | None,
        command_id: str,
        command: Mapping[str, Any] | None,
        actor: str,
    ) -> "Envelope":
        return cls(
            version=version,
            type=event.type,
            time=event.at,
            seat=seat,
            command_id=command_id,
            public=event.public,
            private=event.private,
            secret=event.secret,
            command=command,
            actor=actor,
            salt=secrets.token_hex(16),
        )

    @classmethod
    def wrap_all(
        cls,
        events: list[Event],
        after: int,
        prev_hash: str | None,
        seat: int | None,
        command_id: str,
        command: Mapping[str, Any],
        actor: str,
    ) -> list["Envelope"]:
        """Envelopes for one command's events, numbered on from version
        ``after`` and chained on from the hash of that version's entry."""
        envelopes = []
        for n, event in enumerate(events, start=1):
            envelope = cls.wrap(event, after + n, seat, command_id, command if n == 1 else None, actor).chained(prev_hash)
            envelopes.append(envelope)
            prev_hash = envelope.hash
        return envelopes

    def chained(self, prev_hash: str | None) -> "Envelope":
        """This entry sealed after the entry whose hash is ``prev_hash``,
        with its stored JSON made as its hash is (one encoding for both)."""
        linked = replace(self, prev_hash=prev_hash, hash=None)
        head, tail = linked._halves()
        digest = sha256_hex(f"{head},{tail}")
        return replace(linked, hash=digest)._as_stored(f'{head},"hash":"{digest}",{tail}')

    def _as_stored(self, text: str | None) -> "Envelope":
        object.__setattr__(self, "stored", text)
        return self

    def digest(self) -> str:
        """The hash of everything in the entry but the hash itself, over its
        stored JSON form, so a reader recomputes it from what it reads."""
        head, tail = self._halves()
        return sha256_hex(f"{head},{tail}")

    def _halves(self) -> tuple[str, str]:
        """The entry but its hash as canonical JSON, in two parts: up to the
        place of ``"hash"`` among the sorted keys (without the closing
        brace), and after it (without the opening one); two encodings, the
        hash's member goes between them.

        ``canonical_json`` encodes, decodes and encodes again, for values
        whose keys are not strings (``{2: .., 10: ..}`` sorts otherwise once
        read back); an entry's values never have such keys (the
        conformance harness holds every game's events to round-tripping
        through JSON unchanged), so one encoding is the canonical one, and
        tests/events/test_envelope.py holds the two equal."""
        content = self.whole()
        del content["hash"]
        head = {key: content.pop(key) for key in _BEFORE_HASH}
        return _compact(head)[:-1], _compact(content)[1:]

    def event(self) -> Event:
        """The event as the rules know it, for ``evolve``."""
        return Event(self.type, self.public, self.private, self.secret, self.time)

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see of this entry (``None``: public only)."""
        data = dict(self.public)
        if seat is not None and seat in self.private:
            data.update(self.private[seat])
        shown: dict[str, Any] = {
            "version": self.version,
            "type": self.type,
            "time": self.time,
            "seat": self.seat,
            "actor": self.actor,
            "data": data,
        }
        if seat is not None and seat == self.seat:
            shown["command_id"] = self.command_id
        return shown

    def whole(self) -> dict[str, Any]:
        """Every part, for the operator's log and for storage."""
        whole = {
            "version": self.version,
            "type": self.type,
            "schema": self.schema,
            "time": self.time,
            "seat": self.seat,
            "actor": self.actor,
            "command_id": self.command_id,
            "command": self.command,
            "public": self.public,
            "private": {str(seat): part for seat, part in self.private.items()},
            "secret": self.secret,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }
        if self.salt is not None:
            whole["salt"] = self.salt
        return whole

    def to_json(self) -> str:
        """The entry as stored: as it was read, for an entry of an older
        schema (so an exported log still matches its hashes); as sealed,
        for a new one."""
        if self.stored is not None:
            return self.stored
        head, tail = self._halves()
        return f'{head},"hash":{_compact(self.hash)},{tail}'

    @classmethod
    def from_json(cls, text: str | bytes, game_type: str | None = None) -> "Envelope":
        return cls.from_dict(json.loads(text), game_type)

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any], game_type: str | None = None) -> "Envelope":
        """An entry as stored, in any schema this code reads (upcast; a
        game's own upgrades of its events need ``game_type``)."""
        stored_digest = stored = None
        if raw.get("schema") != CURRENT_SCHEMA:
            stored = canonical_json(raw)
            if raw.get("hash"):
                stored_digest = sha256_hex(canonical_json({key: value for key, value in raw.items() if key != "hash"}))
        raw = upcast(raw, game_type)
        return cls(
            version=raw["version"],
            type=raw["type"],
            schema=raw["schema"],
            time=raw["time"],
            seat=raw["seat"],
            actor=raw["actor"],
            command_id=raw["command_id"],
            command=raw["command"],
            public=raw["public"],
            private={int(seat): part for seat, part in raw["private"].items()},
            secret=raw["secret"],
            prev_hash=raw["prev_hash"],
            hash=raw["hash"],
            salt=raw.get("salt"),
            stored_digest=stored_digest,
        )._as_stored(stored)
