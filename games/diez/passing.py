"""The ``pass`` command: a seat lets a question go by: a jump-in window
(rule "jumping-in"), a Magnet offer or a Proc-Link play (rule "offers"), a
Sub's colour choice (rule "sub")."""
from __future__ import annotations

from games.diez import jump_ins, offers, resolving, watchers
from games.diez.state import LINK, MAGNET, SUB
from games.story import Story


def pass_(story: Story, seat: int) -> None:
    state = story.state
    if state.phase == SUB:
        watchers.decline_sub(story, seat)
        resolving.resolve(story)
    elif state.phase in (MAGNET, LINK):
        offers.decline(story, seat)
    else:
        jump_ins.pass_(story, seat)
