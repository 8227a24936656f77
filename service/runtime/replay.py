"""Operators' command line for the logs.

    python -m service.replay verify <game id | file.ndjson> [--url REDIS_URL] [--api URL]
    python -m service.replay verify --tournament <tournament id | file.ndjson> [--url REDIS_URL]
    python -m service.replay reindex [--url REDIS_URL]
    python -m service.replay backup <dir> [--url REDIS_URL]
    python -m service.replay restore <dir> [--data-dir DATA_DIR]
    python -m service.replay restore-archive [--url REDIS_URL]

``verify`` checks a log (see ``projections.audit``) and, for a game in the
store, that what the service serves of it is the log folded afresh: the
projection every view and summary is cut from (each seat's view), the
operators' index, and with ``--api`` the summary a running API answers.
With ``--api`` and no ``--url`` the store is not asked at all: the log is
the API's (``GET /v1/games/{id}/log``: anyone's once the game is over, the
operators' before, with ``OPERATOR_TOKEN``), checked against the summary
the API serves. It prints what differs and exits 1, or a one-line account
and exits 0; 2 when there is no log to check. A file is a log as
``GET /v1/games/{id}/log`` gives it.

``verify --tournament`` checks a tournament's log and its tables' games
(``projections.tournament_audit``): the chain, the seed against its
commitment, every command re-decided from the log before it (every round's
tables formed as the rules say), every table's game verified and its result
recomputed from its log. The tournament's log comes from the store (by id)
or a file (``GET /v1/tournaments/{id}/log``); its games from the store (and
the archive).

``reindex`` rebuilds the operators' games index, the lobby, each
player's list of games and every rating (``service.app.ratings``: folded
again in the order games finished, to the same numbers) from the logs, the
tournaments' lists (each tournament under way looked at now), and puts
back on the workers' schedule every game that waits for work (a lost
schedule, or games left waiting before waiting games were abandoned after
``WAITING_GAME_TTL_SECONDS``).

``backup <dir>`` takes a backup of the store (its RDB snapshot, ``BGSAVE``)
and then of the archive directory (``ARCHIVE_DIR``) into ``dir``;
``restore <dir>`` makes it into a fresh ``DATA_DIR`` (``--data-dir``) that
``make run`` serves (``service.runtime.backup``). ``restore-archive``
puts back, into a store that lost them, the records of the finished games
whose logs are in the archive directory (each verified first), then does
what ``reindex`` does. See docs/operations.md, "Backup and restore".
"""
from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from dataclasses import replace
from pathlib import Path

import redis

from events.envelope import Envelope
from events.store import TOURNAMENTS, EventStore, archived_key, stream_key
from games.hashing import canonical_json
from projections.audit import Audit, verify
from projections.tournament_audit import verify_tournament
from projections.folding import Folded
from service.app.archive import FileArchive, adopt
from service.app.repository import Repository
from projections.views import seat_view, summary
from service.app.ids import now_ms
from service.config import Config, connect
from service.app.scheduling import due_key, next_look
from service.app.index import GameIndex, key as index_key
from service.app.players import Players
from service.app.ratings import Ratings
from service.app.tournaments import Tournaments
from service.app import replies
from projections.ratings import rated_result
from service.app.scheduling import pending_work
from service.runtime import backup


def read_file(path: Path) -> list[Envelope]:
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    return [Envelope.from_json(line) for line in lines]


def served_summary(api: str, game_id: str) -> dict:
    with urllib.request.urlopen(f"{api.rstrip('/')}/v1/games/{game_id}", timeout=10) as answer:
        return json.load(answer)


class NoLog(Exception):
    """The API has no log to give (no such game, or not published yet)."""


def served_log(api: str, game_id: str, operator_token: str | None) -> list[Envelope]:
    """The game's whole log as the API serves it (an operator's token lets a
    running game's through)."""
    request = urllib.request.Request(f"{api.rstrip('/')}/v1/games/{game_id}/log")
    if operator_token:
        request.add_header("Authorization", f"Bearer {operator_token}")
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            lines = answer.read().decode().splitlines()
    except urllib.error.HTTPError as error:
        try:
            code = json.load(error).get("code")
        except ValueError:
            code = None
        if code == "game_in_progress":
            raise NoLog(
                "the game is still running: its log is published when it finishes, to operators before "
                "(set OPERATOR_TOKEN to the API's)"
            )
        if code == "game_not_found":
            raise NoLog(f"no such game at {api}")
        raise NoLog(f"the API answered {error.code} {code or ''}".rstrip())
    return [Envelope.from_json(line) for line in lines if line.strip()]


def check_served(audit: Audit, served: dict) -> None:
    """The summary a running API serves against the log folded afresh (the
    API may have moved on since the log was read: then it says so)."""
    folded = audit.folded
    if folded is None:
        return
    if served.get("version") != folded.version:
        audit.problems.append(f"the API serves version {served.get('version')}, the log read is at {folded.version}")
    elif canonical_json(served) != canonical_json(summary(folded)):
        audit.problems.append(f"the summary the API serves at version {folded.version} differs from the log folded afresh")


def check_live(audit: Audit, live: Folded | None, client: redis.Redis) -> None:
    """What the service serves of the game against the log folded afresh."""
    folded = audit.folded
    if folded is None:
        return
    if live is None or live.version != folded.version:
        audit.problems.append(
            f"the live projection is at version {live.version if live else None}, the log at {folded.version}"
        )
        return
    for seat in [None, *range(folded.table.seats)]:
        if seat_view(live, seat) != seat_view(folded, seat):
            who = "the public summary" if seat is None else f"seat {seat}'s view"
            audit.problems.append(f"{who} served at version {live.version} differs from the log folded afresh")
    status, game_id = folded.table.status, folded.game_id
    if client.zscore(index_key(status), game_id) is None:
        audit.problems.append(
            f"the operators' index does not list the game as {status} (python -m service.replay reindex mends it)"
        )


def account(audit: Audit) -> str:
    folded = audit.folded
    status = folded.table.status if folded else "unreadable"
    return (
        f"{audit.events} events, {audit.commands} commands re-decided to the same events, "
        f"{audit.chained} entries hash-chained, seed commitments hold; "
        f"{status} at version {folded.version if folded else '-'}"
    )


def run_verify(target: str, client_url: str | None, api: str | None = None, config: Config = Config()) -> int:
    """``client_url`` None: the game's log from ``api`` alone."""
    path = Path(target)
    try:
        if path.suffix == ".ndjson" or path.exists():
            audit = verify(read_file(path))
        elif client_url is None:
            try:
                envelopes = served_log(api, target, config.operator_token)
            except NoLog as missing:
                print(f"verify {target}: {missing}", file=sys.stderr)
                return 2
            audit = verify(envelopes, target)
            check_served(audit, served_summary(api, target))
        else:
            client = connect(client_url, cluster=config.redis_cluster)
            store = EventStore(client)
            # a finished game moved out of the store is read from the archive (ARCHIVE_DIR)
            repository = Repository(store, archive=FileArchive(config.archive_path))
            envelopes = repository.log(target)
            if not envelopes:
                print(f"verify {target}: no such game in the store at {client_url}", file=sys.stderr)
                return 2
            audit = verify(envelopes, target)
            check_live(audit, repository.load(target), client)
            if api:
                check_served(audit, served_summary(api, target))
    except (ValueError, KeyError) as unreadable:
        print(f"verify {target}: FAILED\n  the log cannot be read: {unreadable}")
        return 1
    return reported(target, audit, account)


def reported(target: str, audit: Audit, told) -> int:
    """``audit`` printed (its notes, then OK with ``told(audit)``, or each
    problem): 0 when it found nothing wrong, else 1."""
    for note in audit.notes:
        print(f"  note: {note}")
    if audit.ok:
        print(f"verify {target}: OK: {told(audit)}")
        return 0
    print(f"verify {target}: FAILED, {len(audit.problems)} problem(s):")
    for problem in audit.problems:
        print(f"  - {problem}")
    return 1


def run_verify_tournament(target: str, client_url: str | None, config: Config = Config()) -> int:
    """A tournament (by id from the store at ``client_url``, or a file) and
    its tables' games (from that store and the archive; none without one)."""
    path = Path(target)
    repository = None
    if client_url is not None:
        client = connect(client_url, cluster=config.redis_cluster)
        repository = Repository(EventStore(client), archive=FileArchive(config.archive_path))
    try:
        if path.suffix == ".ndjson" or path.exists():
            envelopes = read_file(path)
        else:
            if repository is None:
                print(f"verify {target}: a tournament's id needs the store (--url)", file=sys.stderr)
                return 2
            envelopes = EventStore(repository.store.redis, space=TOURNAMENTS).read(target)
            if not envelopes:
                print(f"verify {target}: no such tournament in the store at {client_url}", file=sys.stderr)
                return 2
        audit = verify_tournament(envelopes, repository.log if repository is not None else None)
    except (ValueError, KeyError) as unreadable:
        print(f"verify {target}: FAILED\n  the log cannot be read: {unreadable}")
        return 1
    return reported(target, audit, tournament_account)


def tournament_account(audit: Audit) -> str:
    games = "its tables' games verified" if audit.checks.get("games") else "its games not checked"
    return (
        f"{audit.events} events, {audit.commands} commands re-decided to the same events, "
        f"{audit.chained} entries hash-chained, the seed commitment holds, {games}"
    )


def run_reindex(client_url: str, config: Config) -> int:
    client = connect(client_url, cluster=config.redis_cluster)
    store, index, players = EventStore(client), GameIndex(client), Players(client, now_ms)
    repository = Repository(store, archive=FileArchive(config.archive_path))
    waiting_ttl_ms = config.waiting_game_ttl_seconds * 1000
    games = scheduled = 0
    rated = {}  # game id -> its rated result (a game is rated once, wherever its log is)
    # the games in the store, and those moved to the archive (by their records)
    found = [*client.scan_iter(match=stream_key("*"), count=500), *client.scan_iter(match=archived_key("*"), count=500)]
    for raw_key in found:
        name = raw_key.decode() if isinstance(raw_key, bytes) else raw_key
        game_id = name[len("game:{") :].split("}", 1)[0]
        folded = repository.load(game_id)
        if folded is not None:
            index.record(folded, created_at=folded.table.created_at)  # and the lobby
            players.record_games(folded)  # each player's games
            result = rated_result(folded)
            if result is not None:
                rated[result.game_id] = result
            games += 1
            now = now_ms()
            work = pending_work(
                folded, now, waiting_ttl_ms, config.archive_after_seconds * 1000, config.abandoned_retention_seconds * 1000
            )
            if work:  # the scheduler takes it from there (and queues nothing twice)
                client.zadd(due_key(game_id), {game_id: next_look(work, now, config.grace_ms)}, lt=True)
                scheduled += 1
    # every rating again, folded in the order the games finished: the numbers
    # the live service wrote (rating_changed is not announced again)
    counts = Ratings(client).rebuild(rated.values())
    # the tournaments: their lists, and a look at each one under way
    tournaments = Tournaments(
        client, EventStore(client, space=TOURNAMENTS), None, players, lambda *_: None, lambda *_: None, now_ms, config.grace_ms
    )
    keys = client.scan_iter(match=stream_key("*", TOURNAMENTS), count=500)
    relisted = [tournaments.relist(replies.decoded(key).split("{", 1)[1].split("}", 1)[0]) for key in keys]
    print(
        f"reindex: {games} games indexed, {scheduled} with work put on the workers' schedule, "
        f"{sum(counts.values())} rated games rated again, {len(relisted)} tournaments listed "
        f"({sum(held.status != 'finished' for held in relisted)} under way, looked at now)"
    )
    return 0


def run_backup(destination: str, client_url: str, config: Config) -> int:
    if config.redis_cluster:
        print("backup: a cluster is backed up primary by primary (BGSAVE on each), see docs/operations.md", file=sys.stderr)
        return 2
    try:
        with redis.Redis.from_url(client_url) as client:
            taken = backup.take(client, Path(destination), Path(config.archive_path))
    except (backup.BackupFailed, redis.RedisError) as failed:
        print(f"backup: FAILED: {failed}", file=sys.stderr)
        return 1
    print(f"backup: the store's snapshot ({taken.store_bytes} bytes), then {taken.archive_files} archive files, in {destination}")
    return 0


def run_restore(source: str, data_dir: str, archive_dir: str) -> int:
    try:
        keys = backup.restore(Path(source), Path(data_dir), Path(archive_dir))
    except (backup.BackupFailed, redis.RedisError, RuntimeError) as failed:
        print(f"restore: FAILED: {failed}", file=sys.stderr)
        return 1
    print(f"restore: {keys} keys in {data_dir}'s append-only files, the archive in {archive_dir}; serve it with "
          f"DATA_DIR={data_dir} make run")
    return 0


def run_restore_archive(client_url: str, config: Config) -> int:
    client = connect(client_url, cluster=config.redis_cluster)
    adopted = adopt(EventStore(client), FileArchive(config.archive_path))
    print(
        f"restore-archive: {len(adopted.restored)} finished games restored from {config.archive_path}, "
        f"{len(adopted.present)} the store holds already, {len(adopted.problems)} not restored"
    )
    for problem in adopted.problems:
        print(f"  - {problem}")
    run_reindex(client_url, config)  # the index, the players' games and the ratings from the records
    return 1 if adopted.problems else 0


def main(argv: list[str] | None = None) -> int:
    config = Config.from_env()
    parser = argparse.ArgumentParser(prog="python -m service.replay", description=__doc__.split("\n\n")[0])
    store = argparse.ArgumentParser(add_help=False)
    store.add_argument("--url", default=None, help="the store (REDIS_URL); verify with --api alone asks the API only")
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("verify", parents=[store], help="verify a game's log, from the store or an NDJSON file")
    check.add_argument("target", help="a game id, or a file.ndjson as GET /v1/games/{id}/log gives it")
    check.add_argument(
        "--tournament", action="store_true", help="the target is a tournament (its id, or its log's file): it and its games"
    )
    check.add_argument(
        "--api",
        help="compare the summary this running API serves (e.g. http://localhost:8000); without --url, "
        "read the log from it too (a running game's with OPERATOR_TOKEN)",
    )
    commands.add_parser("reindex", parents=[store], help="rebuild the operators' games index from the logs")
    take = commands.add_parser(
        "backup", parents=[store], help="the store's snapshot (BGSAVE), then the archive directory, into a new directory"
    )
    take.add_argument("directory", help="where the backup goes (new, or empty)")
    put = commands.add_parser("restore", help="a backup made into a fresh DATA_DIR that make run serves")
    put.add_argument("directory", help="a backup taken by `backup`")
    put.add_argument("--data-dir", default=None, help="the fresh DATA_DIR (DATA_DIR's by default)")
    commands.add_parser(
        "restore-archive", parents=[store],
        help="the records of the finished games in ARCHIVE_DIR written into a store that lost them, then reindex",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.command == "verify" and args.tournament:
        return run_verify_tournament(args.target, args.url or config.redis_url, config)
    if args.command == "verify":
        url = args.url if args.url or args.api else config.redis_url
        return run_verify(args.target, url, args.api, config)
    if args.command == "backup":
        return run_backup(args.directory, args.url or config.redis_url, config)
    if args.command == "restore":
        target = replace(config, data_dir=args.data_dir or config.data_dir)
        return run_restore(args.directory, target.data_dir, target.archive_path)
    if args.command == "restore-archive":
        return run_restore_archive(args.url or config.redis_url, config)
    return run_reindex(args.url or config.redis_url, config)


if __name__ == "__main__":
    sys.exit(main())
