"""A command's events as they are decided, each folded at once: the one
idiom every game decides by.

A command often sets off a chain (a play, its window, its effect, a draw that
needs a reshuffle, the next turn); each step is decided on the state the
previous events led to. Every game's command handlers (``rules.COMMANDS``)
are given the command's ``Story`` (bound to the game's ``evolve``) and tell
what happens with ``story.add``; ``story.state`` is always the state after
the events told so far, and ``rules.step`` returns ``story.events`` and that
state at once (the search plays on it without folding again).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from games.contract import Event, RuleError


class Story:
    def __init__(self, state: Any, at: int, evolve: Callable[[Any, Event], Any]):
        self.state = state
        self.at = at
        self.events: list[Event] = []
        self._evolve = evolve

    def add(
        self,
        kind: str,
        public: Mapping[str, Any] | None = None,
        private: Mapping[int, Mapping[str, Any]] | None = None,
        secret: Mapping[str, Any] | None = None,
    ) -> Any:
        """Record the event ``kind`` (stamped with the command's time) and
        return the state after it."""
        event = Event(kind, dict(public or {}), dict(private or {}), dict(secret or {}), at=self.at)
        self.events.append(event)
        self.state = self._evolve(self.state, event)
        return self.state


def tell(state: Any, command: Mapping[str, Any], handler: Callable[["Story", Mapping[str, Any]], None], evolve: Callable[[Any, Event], Any]) -> tuple[list[Event], Any]:
    """``handler``'s story of ``command`` (a game's ``step``, once the rules
    every command shares are checked): its events, and the state they lead to."""
    story = Story(state, command.get("at", 0), evolve)
    handler(story, command)
    return story.events, story.state


def command_handler(commands: Mapping[str, Callable], kind: str, game: str, rule: str) -> Callable:
    """The handler of the command type ``kind`` in a game's ``COMMANDS``, or
    ``RuleError`` ``unknown_command`` (under the game's ``rule``) for a type
    the game does not have."""
    handler = commands.get(kind)
    if handler is None:
        raise RuleError("unknown_command", rule, f"{game} has no {kind!r} command.")
    return handler
