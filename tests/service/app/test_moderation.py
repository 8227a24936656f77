"""The moderation log and what it keeps in force, on one server and on a
cluster (its keys share one slot: the script that writes an entry and its
state runs there; a player's key is read with the bans in one pipeline,
across slots on a cluster)."""
from __future__ import annotations

import pytest

from service.app.errors import Conflict, Forbidden, NotFound
from service.app.moderation import Moderation
from service.app.players import Players


def test_the_log_and_the_state_beside_it_agree_on_either_store(any_store, clock):
    players = Players(any_store, clock)
    moderation = Moderation(any_store, clock, players.exists)
    ana, key = players.create("ana")
    report = moderation.report({"player_id": "b" * 32}, {"kind": "player", "player_id": ana.id}, "spam", None)
    assert moderation.reports("open", 10, 0) == ([report], 1)

    moderation.mute("mod", "spam", ana.id, 5, report["id"])
    with pytest.raises(Forbidden) as muted:
        moderation.check_chat(ana.id)
    assert muted.value.code == "chat_muted" and muted.value.extra["until"] == clock() + 300_000
    moderation.ban("mod", "spam again", ana.id, report["id"])
    with pytest.raises(Forbidden) as banned:
        players.by_key(key)
    assert banned.value.code == "player_banned"
    assert not players.holds_key(ana.id, ana.key_hash)
    moderation.unban("mod", "appeal", ana.id)
    assert players.by_key(key) == ana

    closed = moderation.resolve(report["id"], "mod", "done", "actioned")
    assert closed["status"] == "actioned" and [a["action"] for a in closed["actions"]] == ["mute", "ban"]
    with pytest.raises(Conflict):
        moderation.resolve(report["id"], "mod", "again", "dismissed")
    with pytest.raises(NotFound):
        moderation.mute("mod", "x", "0" * 32, 5, None)
    page = moderation.log(3, None)
    assert [e["action"] for e in page.items] == ["resolve_report", "unban", "ban"]
    rest = moderation.log(10, page.next)
    assert [e["action"] for e in rest.items] == ["mute", "report"] and rest.next is None
