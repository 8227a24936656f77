"""The archive: finished games' logs, moved out of the store.

A finished game's log never changes again, and most are never opened again,
yet each held 33-416 KiB of the store's memory for good. So once it has been
finished ``ARCHIVE_AFTER_SECONDS`` (a day; 0: never), a worker's job moves it
out (``Archiver``, scheduled as work of kind ``archive`` in the game's due
set): the log goes to the archive as gzipped NDJSON (each entry exactly as
stored, so its hashes still hold), and the store keeps a small record
(``events.store.archived_key``: where the log went, its last hash and
version, the game's summary for lists: type, status, seats, players, result,
when). The game's snapshot, token hashes and idempotency records go with the
log, and so does its table talk (``service.app.chat``): the chat is closed
first, by one script that returns what it holds (players still talk after
the end: a message said after the copy was read, and deleted with the
stream, was answered 201 and lost), and the chat stream and its removal
marks are written beside the log, ``<id>.chat.ndjson.gz`` (each entry with
its stream id, the marks as marks; none when nobody spoke), read back and
checked before anything is deleted, named in the record (``chat``), and
deleted from the store with the log. ``GET /v1/games/{id}/chat`` and the
game's streams read it from there (``Archiver.chat``); an archived game's
chat is closed (nothing more is said, nor removed: ``chat_closed``, as
while it moves). Every read path serves an archived game as before
(``Repository.load``/``entries`` fold it from the archive, kept per process
in a small cache), and commands on it are refused as on any finished game.

**The move**, so a crash at any point leaves either the store's copy or a
complete, verified archive copy (``Archiver.archive``; tested by stopping it
at each step):

1. the whole log is read from the store (a finished game: nothing is
   appended to it any more), and the chat is closed and read in one script
   (``chat.close``): from then on a message or a removal is refused
   (``chat_closed``), so what is copied is all there will be;
2. they are written to temporary names beside their place, and synced;
3. they are read back from there and checked entry by entry against what
   the store holds, the log's last hash against the store's last entry;
4. they are renamed into place (and the directory synced);
5. one script on the game's slot checks the log is still that one (its
   length and last hash) and the chat still ends with the entry copied,
   writes the record and deletes the log, the chat and the game's other
   keys (``EventStore.retire``).

A crash before 5 leaves the game in the store, its archive work still
scheduled: the job runs again and rewrites the same file. The record is the
only thing that says "look in the archive", and it is written only after
the file it names was read back, so a file without a record is harmless.
The chat's closing lapses by itself (``chat.CLOSING_SECONDS``, a minute)
should the move die, and a move that fails lifts it: a game left in the
store is never left with its chat closed. Should a move outlast its
closing and someone speak meanwhile, 5 finds the chat changed and leaves
the game in the store (the job runs again); nothing said is lost.

**Backends.** ``GameArchive`` is the interface: ``stage`` (write a copy
under a temporary name, durably), the staged copy's ``read`` and ``commit``
(move it into place, atomically; its location), ``read(location)``,
``location`` (where a game's copy goes) and ``games`` (every game it holds:
``adopt`` writes their records into a store that lost them).
``FileArchive`` is the one backend, files under ``ARCHIVE_DIR``
(``DATA_DIR/archive``), ``<id[:2]>/<id>.ndjson.gz``; every API process and
worker must see the same directory (a shared mount, docs/scaling.md).
"""
from __future__ import annotations

import gzip
import json
import logging
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Protocol

from events.envelope import Envelope
from events.store import EventStore, archived_key, idempotency_key, snapshot_key, stream_key, tokens_key
from games import table as tables
from projections.audit import verify
from projections.folding import Folded, fold
from projections.lru import LRU
from service.app import analysis, chat
from service.app.errors import Unavailable

log = logging.getLogger("tabletell.archive")


def archive_unavailable(detail: str) -> Unavailable:
    """An archived game's log cannot be read from the archive (its file is
    missing or does not match its record), or a copy did not check out."""
    return Unavailable("archive_unavailable", detail)


class Staged(Protocol):
    def read(self) -> bytes:
        """The staged copy, as a reader will get it."""

    def commit(self) -> str:
        """Moves the staged copy into place, atomically; its location."""


class GameArchive(Protocol):
    name: str

    def stage(self, game_id: str, data: bytes) -> Staged:
        """``data`` written under a temporary name, durably (synced)."""

    def read(self, location: str) -> bytes | None:
        """What ``commit`` put at ``location``, or None."""

    def location(self, game_id: str) -> str:
        """Where ``commit`` puts ``game_id``'s copy."""

    def games(self) -> Iterator[str]:
        """The id of every game whose log is in the archive."""


class FileArchive:
    """Files under ``root``: ``<id[:2]>/<id>.ndjson.gz``."""

    name = "file"

    def __init__(self, root: str | os.PathLike):
        self.root = Path(root)

    def location(self, game_id: str) -> str:
        return f"{game_id[:2]}/{game_id}.ndjson.gz"

    def stage(self, game_id: str, data: bytes) -> "_StagedFile":
        final = self.root / self.location(game_id)
        final.parent.mkdir(parents=True, exist_ok=True)
        temporary = final.with_name(final.name + ".tmp")
        with open(temporary, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        return _StagedFile(temporary, final, self.location(game_id))

    def read(self, location: str) -> bytes | None:
        path = self.root / location
        if ".." in Path(location).parts:
            return None
        try:
            return path.read_bytes()
        except FileNotFoundError:
            return None

    def games(self) -> Iterator[str]:
        """The id of every game whose log is in the directory (its chat's
        file and copies still staged, ``.tmp``, left out), in order."""
        for path in sorted(self.root.glob("*/*.ndjson.gz")):
            name = path.name[: -len(".ndjson.gz")]
            if not name.endswith(".chat") and path.parent.name == name[:2]:
                yield name


@dataclass(frozen=True)
class _StagedFile:
    temporary: Path
    final: Path
    location: str

    def read(self) -> bytes:
        return self.temporary.read_bytes()

    def commit(self) -> str:
        os.replace(self.temporary, self.final)
        directory = os.open(self.final.parent, os.O_RDONLY)
        try:
            os.fsync(directory)  # the rename itself, on disk
        finally:
            os.close(directory)
        return self.location


def encode(envelopes: list[Envelope]) -> bytes:
    """The log as the archive keeps it: each entry exactly as stored, one a
    line (as ``GET /v1/games/{id}/log`` serves it), gzipped."""
    lines = "".join((e.stored or e.to_json()) + "\n" for e in envelopes)
    return gzip.compress(lines.encode(), compresslevel=6, mtime=0)


def decode(data: bytes) -> list[Envelope]:
    return [Envelope.from_json(line) for line in gzip.decompress(data).decode().splitlines() if line]


def encode_chat(entries: list[tuple[str, str]], marks: dict[str, str]) -> bytes:
    """A game's chat as the archive keeps it: each entry with its stream id
    (``{"id", "e"}``), then each removal mark (``{"id", "mark"}``), one a
    line, gzipped."""
    lines = [json.dumps({"id": i, "e": e}) for i, e in entries]
    lines += [json.dumps({"id": i, "mark": m}) for i, m in sorted(marks.items())]
    return gzip.compress("".join(line + "\n" for line in lines).encode(), compresslevel=6, mtime=0)


def decode_chat(data: bytes) -> tuple[list[tuple[str, str]], dict[str, str]]:
    entries, marks = [], {}
    for line in gzip.decompress(data).decode().splitlines():
        if line:
            found = json.loads(line)
            if "mark" in found:
                marks[found["id"]] = found["mark"]
            else:
                entries.append((found["id"], found["e"]))
    return entries, marks


@dataclass(frozen=True)
class Brief:
    """What lists show of a game (the operators' games, a player's games),
    from its fold or, for an archived game, from its record alone."""

    game_id: str
    type: str
    status: str
    seats: int
    version: int
    created_at: int
    result: Mapping[str, Any] | None
    players: tuple[str | None, ...]
    to_act: tuple[int, ...] = ()
    # an operator voided the game: {"operator", "reason"} (``Table.voided``)
    voided: Mapping[str, Any] | None = None

    @classmethod
    def of(cls, folded: Folded) -> "Brief":
        table = folded.table
        acting = tuple(tables.to_act(folded.game, table)) if table.status == tables.ACTIVE else ()
        return cls(
            folded.game_id, folded.game.type, table.status, table.seats, folded.version, table.created_at,
            table.result, tuple(table.players), acting, table.voided,
        )  # fmt: skip

    @classmethod
    def of_record(cls, game_id: str, record: dict[str, str]) -> "Brief":
        return cls(
            game_id, record["type"], record["status"], int(record["seats"]), int(record["version"]),
            int(record["created_at"]), json.loads(record["result"]), tuple(json.loads(record["players"])),
            voided=json.loads(record.get("voided", "null")),  # a record archived before voids has none
        )  # fmt: skip


def record_of(folded: Folded, archive: str, location: str, size: int) -> dict[str, str]:
    """The archived record of ``folded``'s game (a few hundred bytes)."""
    table = folded.table
    return {
        "hash": folded.last_hash or "",
        "version": str(folded.version),
        "archive": archive,
        "location": location,
        "bytes": str(size),
        "type": folded.game.type,
        "status": table.status,
        "seats": str(table.seats),
        "created_at": str(table.created_at),
        "ended_at": str(table.ended_at or 0),
        "result": json.dumps(table.result, separators=(",", ":")),
        "players": json.dumps(list(table.players), separators=(",", ":")),
        "voided": json.dumps(table.voided, separators=(",", ":")),
    }


def idempotency_keys(game_id: str, envelopes: list[Envelope]) -> list[str]:
    """The idempotency records the log's commands may have left: each
    command's id is its key, in its seat's scope (or the system's), or the
    service's own (``internal``). The service's own keys of creations,
    joins and bot batches are not in the log; they live 5 minutes."""
    keys = []
    for envelope in envelopes:
        if envelope.command is None:
            continue
        scope = "system" if envelope.seat is None else f"seat-{envelope.seat}"
        keys += [idempotency_key(game_id, scope, envelope.command_id), idempotency_key(game_id, "internal", envelope.command_id)]
    return sorted(set(keys))


class Archiver:
    def __init__(self, store: EventStore, archive: GameArchive, forget: Callable[[str], None] = lambda game_id: None):
        self.store = store
        self.archive = archive
        # this process lets go of a game it archived at once (the others on
        # the retire script's announcement): ``Repository.forget``
        self.forget = forget

    def reached(self, step: str) -> None:
        """Each step of the move, as it is reached ("before_write": the
        chat closed, "written", "renamed", "deleted"): the tests stop the
        move here, as a process killed there would, and hold it open there
        to talk in it."""

    def archive_game(self, game_id: str) -> str:
        """Moves finished ``game_id``'s log to the archive (see the module's
        docstring for the order); what happened, for the job's result."""
        if self.store.archived(game_id) is not None:
            return "archived already"
        envelopes = self.store.read(game_id)
        folded = fold(envelopes, None, game_id)
        if folded is None:
            return "no such game"
        if folded.table.status != tables.FINISHED:
            return f"not finished: {folded.table.status}"
        # closed and read at once: nothing is said after the copy is fixed
        entries, marks = chat.close(self.store.redis, game_id)
        try:
            self.reached("before_write")
            data = encode(envelopes)
            staged = self.archive.stage(game_id, data)
            self.reached("written")
            problem = self._check(game_id, staged.read(), envelopes)
            if problem:
                raise archive_unavailable(f"The archive's copy of {game_id} {problem}: not moved.")
            talk = self._stage_chat(game_id, entries, marks)  # beside the log, checked before either is committed
            analysed, analysed_keys = self._finished_analyses(game_id)
            reviews = self._stage_analyses(game_id, analysed)
            location = staged.commit()
            chat_location = talk.commit() if talk is not None else None
            analyses_location = reviews.commit() if reviews is not None else None
            self.reached("renamed")
            keys = [tokens_key(game_id), snapshot_key(game_id), *idempotency_keys(game_id, envelopes)]
            keys += chat.chat_keys(game_id)
            record = record_of(folded, self.archive.name, location, len(data))
            if chat_location is not None:
                record["chat"] = chat_location
            if analyses_location is not None:
                record["analysis"] = analyses_location
                keys += analysed_keys  # those copied; one under way stays, to lapse with its lifetime
            # the chat as copied: a closing that lapsed mid-move and a word
            # said since leave the game in the store
            copied = {chat.chat_key(game_id): entries[-1][0] if entries else ""}
            retired = self.store.retire(game_id, folded.version, folded.last_hash, record, keys, unchanged=copied)
        except Exception:
            chat.reopen(self.store.redis, game_id)  # a move that failed leaves the chat as it was
            raise
        if not retired:
            chat.reopen(self.store.redis, game_id)
            return "the log or its chat changed while it was archived: left in the store"
        self.forget(game_id)
        self.reached("deleted")
        log.info("game %s archived: %s events, %s bytes at %s", game_id, folded.version, len(data), location)
        return f"archived: {folded.version} events, {len(data)} bytes"

    def _stage_chat(self, game_id: str, entries: list[tuple[str, str]], marks: dict[str, str]) -> Staged | None:
        """The game's chat (its entries and removal marks, as ``chat.close``
        read them when it closed the chat) staged beside its log and read
        back, or None when nobody spoke."""
        if not entries and not marks:
            return None
        data = encode_chat(entries, marks)
        staged = self.archive.stage(f"{game_id}.chat", data)
        if decode_chat(staged.read()) != (entries, marks):
            raise archive_unavailable(f"The archive's copy of {game_id}'s chat differs from the store's: not moved.")
        return staged

    def _finished_analyses(self, game_id: str) -> tuple[dict[str, dict], list[str]]:
        """The game's finished analyses in the store (by ``<seat>:<worlds>``),
        and their keys."""
        found: dict[str, dict] = {}
        keys = []
        for member in sorted(m.decode() if isinstance(m, bytes) else m for m in self.store.redis.smembers(analysis.analyses_key(game_id))):
            seat, _, worlds = member.partition(":")
            key = analysis.analysis_key(game_id, int(seat), int(worlds))
            raw = self.store.redis.get(key)
            record = json.loads(raw) if raw is not None else None
            if record is not None and record["status"] in analysis.FINISHED:
                found[member] = analysis.public(record)
                keys.append(key)
        return found, keys

    def _stage_analyses(self, game_id: str, found: dict[str, dict]) -> Staged | None:
        """The game's finished analyses staged beside its log
        (``<id>.analysis.ndjson.gz``: one JSON object, by ``<seat>:<worlds>``),
        read back and checked; None when it has none."""
        if not found:
            return None
        staged = self.archive.stage(f"{game_id}.analysis", gzip.compress(json.dumps(found, sort_keys=True).encode()))
        if json.loads(gzip.decompress(staged.read())) != found:
            raise archive_unavailable(f"The archive's copy of {game_id}'s analyses differs from the store's: not moved.")
        return staged

    def analyses(self, game_id: str) -> dict[str, dict] | None:
        """An archived game's analyses (by ``<seat>:<worlds>``), or None
        when it is not archived or was archived with none."""
        record = self.store.archived(game_id)
        if record is None or not record.get("analysis"):
            return None
        data = self.archive.read(record["analysis"])
        if data is None:
            raise archive_unavailable(f"Game {game_id} is archived, and its analyses cannot be read from the archive now.")
        return json.loads(gzip.decompress(data))

    def chat(self, game_id: str) -> tuple[list[tuple[str, str]], dict[str, str]] | None:
        """An archived game's chat as the store held it: (stream id, entry)
        oldest first, and the removal marks; None unless the game is
        archived (an archived game nobody spoke at: nothing)."""
        record = self.store.archived(game_id)
        if record is None:
            return None
        if not record.get("chat"):
            return [], {}
        data = self.archive.read(record["chat"])
        if data is None:
            raise archive_unavailable(f"Game {game_id} is archived, and its chat cannot be read from the archive now.")
        return decode_chat(data)

    def _check(self, game_id: str, data: bytes, envelopes: list[Envelope]) -> str | None:
        """What is wrong with the copy ``data`` of ``envelopes``, or None."""
        try:
            copy = decode(data)
        except (OSError, ValueError, KeyError) as error:
            return f"cannot be read back ({error})"
        if [e.stored or e.to_json() for e in copy] != [e.stored or e.to_json() for e in envelopes]:
            return "differs from the store's log"
        previous = None
        for entry in copy:
            if entry.hash is not None and (entry.prev_hash != previous or (entry.stored_digest or entry.digest()) != entry.hash):
                return f"breaks the hash chain at version {entry.version}"
            previous = entry.hash
        newest = self.store.read(game_id, after=len(envelopes) - 1)
        if len(newest) != 1 or newest[0].hash != copy[-1].hash:
            return "does not end with the store's last entry"
        return None


class ArchivedLogs:
    """The logs of archived games a process read lately, checked against
    their records."""

    def __init__(self, store: EventStore, archive: GameArchive | None, cache: LRU[str, list[Envelope]]):
        self.store = store
        self.archive = archive
        self._logs = cache  # game id -> its entries

    def record(self, game_id: str) -> dict[str, str] | None:
        return self.store.archived(game_id) if self.archive is not None else None

    def entries(self, game_id: str, record: dict[str, str] | None = None) -> list[Envelope] | None:
        """The archived game's whole log, or None if it is not archived."""
        kept = self._logs.get(game_id)
        if kept is not None:
            return kept
        record = record or self.record(game_id)
        if record is None:
            return None
        data = self.archive.read(record["location"]) if self.archive is not None else None
        if data is None:
            raise archive_unavailable(f"Game {game_id} is archived, and its log cannot be read from the archive now.")
        envelopes = decode(data)
        if not envelopes or (envelopes[-1].hash or "") != record["hash"] or len(envelopes) != int(record["version"]):
            raise archive_unavailable(f"Game {game_id}'s archived log does not match its record.")
        self._logs.put(game_id, envelopes)
        return envelopes

    def folded(self, game_id: str, record: dict[str, str] | None = None) -> Folded | None:
        envelopes = self.entries(game_id, record)
        if envelopes is None:
            return None
        folded = fold(envelopes, None, game_id)
        assert folded is not None, "an archived log has an entry at least (entries checks it)"
        return replace(folded, archived=True)


# KEYS: a game's log, its archived record; ARGV: the record's field/value
# pairs. The record goes in only where the store knows nothing of the game
# (neither its log nor a record): what a store holds is never overwritten.
ADOPT_SCRIPT = """
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[2], unpack(ARGV))
return 1
"""


@dataclass
class Adopted:
    """What ``adopt`` did with each game of the archive."""

    restored: list[str]  # a record written: the game is served from the archive
    present: list[str]  # the store has its log or its record already: left as it is
    problems: list[str]  # a file that does not verify, or is not a finished game's: not restored


def adopt(store: EventStore, archive: GameArchive) -> Adopted:
    """Writes the archived record of every game in ``archive`` that the
    store knows nothing of: a store lost, or restored from before the game
    was archived, and the archive kept. Each log is verified first (its hash
    chain, every command decided again to the same events, its seed
    commitments: ``projections.audit``) and must be a finished game's, so
    a file that was damaged or placed there is reported, never served; its
    chat is named when its file is there. The record is what the archiver
    writes (``record_of``), so every read path serves the game as any
    archived one; the lists (the operators' index, the players' games) and
    the ratings come from the records, by ``python -m service.replay
    reindex``."""
    adopted = Adopted([], [], [])
    write = store.redis.register_script(ADOPT_SCRIPT)
    for game_id in archive.games():
        if store.redis.exists(stream_key(game_id), archived_key(game_id)):
            adopted.present.append(game_id)
            continue
        location = archive.location(game_id)
        data = archive.read(location)
        try:
            audit = verify(decode(data or b""), game_id)
        except Exception as unreadable:  # a damaged file may hold anything: said, and the next one read
            adopted.problems.append(f"{location}: cannot be read ({type(unreadable).__name__}: {unreadable})")
            continue
        folded = audit.folded
        if not audit.ok or folded is None:
            adopted.problems.append(f"{location}: does not verify: {'; '.join(audit.problems) or 'no entries'}")
            continue
        if folded.table.status != tables.FINISHED:
            adopted.problems.append(f"{location}: a game {folded.table.status}, not finished")
            continue
        record = record_of(folded, archive.name, location, len(data or b""))
        talk = archive.location(f"{game_id}.chat")
        if archive.read(talk) is not None:
            record["chat"] = talk
        fields = [item for pair in record.items() for item in pair]
        if write(keys=[stream_key(game_id), archived_key(game_id)], args=fields):
            adopted.restored.append(game_id)
        else:  # written meanwhile, by the archiver or another adopt
            adopted.present.append(game_id)
    return adopted
