"""The ``expert`` bot: determinised Monte Carlo search from a seat's view.

Each round draws one state the game could be in from the seat's view alone
(the game's ``determinize``, its documented sampler: the seat's own cards
and everything public as shown, every unseen card dealt at random where it
could be), so the search never reads the real state. In that one world it
plays every candidate move still in the race, each followed by the game
played on with a rollout bot (the move the search starts from, below, or
a quicker version of the heuristic) at every seat, the searcher's
included, for up to ``ROLLOUT_DEPTH`` commands (a game may set its own
``depth``: Diez's 8), all with the same generator: the candidates are
compared on the same hidden cards and the same later choices (common
random numbers). A game that ends scores 1 for a winner (shared among
tied winners), one cut short scores the game's ``evaluate``. After 4, 8, 16, ... worlds (a
setting may begin sooner: ``halve_after``) the worse half of the
candidates drops out (sequential halving); the heuristic's own move never
does. A simulated command is played by the game's ``step`` where it has
one (the state its ``decide`` folded, not folded again), and the rollout
bot is asked only where the game's ``quick`` cannot tell its move from the
state (a seat with one thing to do): a view costs more than most commands.
The time budget runs from the bot's call (the heuristic's own move is
thought within it) and is checked before each rollout (one is
not begun that would end past it, at the rollouts' mean time so far) and
before each of a rollout's commands (one the budget runs out in is given
up: a rollout to the end of a four-seat Opticall game can take longer than
the whole budget): a world left unfinished is not counted (with none
finished, the heuristic's move is played).

A game may give the search a stronger move to start from than its
heuristic (``prior``), each reading what the other players' moves say of
their hidden cards and how they will answer (``games/<game>/reading.py``,
"The expert's belief" in each rules document): Color Doubt's doubts and
Opticall's calls reckon a claim over the hands a player that tells the
truth when it can may have held, and Color Doubt's plays are chosen by how
the next player would doubt them; Deceptidice's reads what the round's
guesses say of their makers' tops and weighs each raise by the next
player's answer (at a larger table, by the rest of the round played out).
"The heuristic's move" below is that move.

The move played is the best candidate if it beat the heuristic's move over
the same worlds, at least ``MIN_WORLDS`` of them, by more than
``CONFIDENCE`` standard errors of their differences, else the heuristic's:
a search of ~100 rollouts a move is noisy, and noise must not replace a
sound move.

The search is one level deep: below the root the rollout bot plays, so it
improves on the heuristic where looking ahead shows a better move (a
rollout improvement of a policy, as in Tesauro and Galperin 1996) rather
than growing an Information-Set MCTS tree (Cowling, Powley and Whitehouse
2012) of the opponents' replies, which ~100 rollouts could not fill.

**Candidates**: the heuristic's own choice, every complete move the view
lists, and, for a structural move (any k cards, a colour among several),
``DRAWS`` bodies drawn from it by the seeded generator; bodies that differ
only by which of two cards with the same face they name count as one; at
most ``MAX_CANDIDATES`` besides the heuristic's (a setting may allow
fewer: ``most``), drawn at random. Fewer candidates, halved sooner, leave
more worlds to each (a world costs a rollout per candidate); for Diez's
slow rollouts that did not help (``docs/rules/diez.md``, "The expert's
sampler"), so no game sets them.

**Determinism**: everything random comes from the generator the bot is
given; with ``iterations`` (rollouts) set, the move depends on the view and
the generator's seed alone. With a time budget (``budget_ms``) it depends on
how many rollouts the machine ran in time.
"""
from __future__ import annotations

import inspect
import math
import random
import time
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Callable, Mapping

from games import legal
from games.contract import Bot, Game, RuleError, RulesGame
from games.sampling import shares

BUDGET_MS = 100  # the default time a move may take
ROLLOUT_DEPTH = 24  # commands simulated after the candidate, then ``evaluate``
DRAWS = 6  # bodies drawn from each structural move
HALVE_AFTER = 4  # worlds before the worse half of the candidates is dropped (then at 8, 16, ...)
MAX_CANDIDATES = 12  # the heuristic's move and at most so many others
CONFIDENCE = 1.0  # standard errors by which a move must beat the heuristic's to replace it
MIN_WORLDS = 6  # worlds both must have been tried in before a move may replace the heuristic's

# (a sampled state, a seat, its actions) -> the rollout bot's command there, or None: ask the bot
Quick = Callable[[Any, int, list], "dict | None"]


def expert(
    game: Game,
    view: Mapping[str, Any],
    rng: random.Random,
    budget_ms: float = BUDGET_MS,
    iterations: int | None = None,
    rollout: Bot | None = None,
    depth: int = ROLLOUT_DEPTH,
    confidence: float = CONFIDENCE,
    prior: Bot | None = None,
    quick: Quick | None = None,
    most: int = MAX_CANDIDATES,
    halve_after: int = HALVE_AFTER,
) -> dict:
    """A command for ``view``'s seat (see the module's docstring)."""
    deadline = time.perf_counter() + budget_ms / 1000  # the prior's move is thought within the budget too
    heuristic = prior or game.bots["heuristic"]
    candidates = candidate_moves(view, rng, heuristic, most)
    if len(candidates) == 1:
        return candidates[0]
    raced = race(
        game, view, candidates, rng, rollout or heuristic, depth, iterations=iterations,
        deadline=None if iterations is not None else deadline, quick=quick, halve_after=halve_after,
    )
    best = max(raced.alive[1:], key=lambda n: (raced.totals[n], -n))
    gain, squares = raced.paired(best, 0)
    return candidates[best] if _better(gain, squares, raced.worlds, confidence) else candidates[0]


@dataclass
class Race:
    """What ``race`` found: each candidate's scores, world by world (a
    candidate dropped by the halving has those of the worlds it was in,
    the first ones), and the candidates still in the race at the end,
    which were tried in every one of the ``worlds``."""

    seat: int
    # candidate -> each world's scores of every seat (the played-out game's shares or ``evaluate``)
    outcomes: list[list[list[float]]]
    alive: list[int]
    worlds: int = 0

    @property
    def totals(self) -> list[float]:
        """Each candidate's score summed over the worlds it was tried in."""
        totals = []
        for outcomes in self.outcomes:
            total = 0.0
            for scores in outcomes:
                total += scores[self.seat]
            totals.append(total)
        return totals

    def paired(self, one: int, other: int) -> tuple[float, float]:
        """The sum of ``one``'s score less ``other``'s over the worlds both
        were tried in, and the sum of its squares (common random numbers:
        the same hidden cards and later choices for both)."""
        gain = squares = 0.0
        for mine, theirs in zip(self.outcomes[one], self.outcomes[other]):
            difference = mine[self.seat] - theirs[self.seat]
            gain += difference
            squares += difference * difference
        return gain, squares


def race(
    game: Game,
    view: Mapping[str, Any],
    candidates: list[dict],
    rng: random.Random,
    policy: Bot,
    depth: int,
    *,
    iterations: int | None = None,
    worlds: int | None = None,
    deadline: float | None = None,
    quick: Quick | None = None,
    halve_after: int = HALVE_AFTER,
    keep: tuple[int, ...] = (0,),
    world_drawn: Callable[[Any], None] | None = None,
    observe: Callable[[int, int, Mapping[str, Any]], None] | None = None,
) -> Race:
    """The candidates played in the same worlds drawn from ``view`` (what
    the expert and the analysis of a game, ``games.analysis``, both
    weigh moves by): until ``iterations`` rollouts were played, ``worlds``
    worlds were, or ``deadline`` (a ``perf_counter`` time) passes, with sequential halving
    of the candidates but those of ``keep``. ``world_drawn`` is shown each
    world as drawn, and ``observe`` each command of a rollout as
    (candidate, seat, body), the candidate's own first (both for the
    analysis's reading of claims)."""
    seat = view["seat"]
    found = Race(seat, [[] for _ in candidates], list(range(len(candidates))))
    alive = found.alive
    at = command_time(view)
    rollouts = played = 0
    spent = 0.0  # seconds the rollouts took: one is not begun if it would end past the deadline
    while True:
        if iterations is not None and rollouts >= iterations:
            break
        if worlds is not None and found.worlds >= worlds:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
        # one world for every candidate still in the race, each played on
        # with the same generator: the candidates are compared on the same
        # hidden cards and the same later choices (common random numbers)
        seed = rng.getrandbits(64)
        world = game.determinize(view, random.Random(seed))
        scores: dict[int, list[float]] = {}
        for pick in alive:
            started = time.perf_counter()
            if deadline is not None and started + (spent / played if played else 0.0) >= deadline:
                break  # no time for another rollout: this world is not counted
            watch = partial(observe, pick) if observe is not None else None
            try:
                if watch is not None:
                    watch(seat, candidates[pick])
                state = apply_command(game, world, seat, candidates[pick], at)
            except RuleError:  # never for a listed move: each is legal for the view
                scores[pick] = [0.0] * len(view["seats"])
                continue
            played_out = rollout_scores(game, state, view, random.Random(seed + 1), policy, at, depth, deadline, quick, watch)
            if played_out is None:
                break  # the budget ran out in the middle of it: this world is not counted
            scores[pick] = played_out
            spent += time.perf_counter() - started
            played += 1
        if len(scores) < len(alive):
            break
        if world_drawn is not None:
            world_drawn(world)
        for pick, outcome in scores.items():
            found.outcomes[pick].append(outcome)
        found.worlds += 1
        rollouts += len(alive)
        tried = found.worlds
        if len(alive) > len(keep) + 1 and tried & (tried - 1) == 0 and tried >= halve_after:
            # sequential halving: the better half goes on (those kept always)
            totals = found.totals
            ranked = sorted((n for n in alive if n not in keep), key=lambda n: -totals[n])
            alive[:] = sorted([*(n for n in alive if n in keep), *ranked[: max(1, len(ranked) // 2)]])
    return found


def _better(gain: float, squares: float, worlds: int, confidence: float = CONFIDENCE) -> bool:
    """Whether a candidate beat the heuristic's move by more than the noise:
    over at least ``MIN_WORLDS`` worlds both were tried in, its mean gain
    less ``confidence`` standard errors is above nothing. (Both were tried
    in every world: the heuristic's move is never dropped, and a dropped
    candidate is not best.) Fewer worlds prove nothing: two or three worlds
    a candidate happened to win show no spread to measure the noise by, and
    a search starved of time (Diez's and Deceptidice's rollouts are slow)
    replaced sound moves on them."""
    if worlds < MIN_WORLDS:
        return False
    return gain / worlds - confidence * standard_error(gain, squares, worlds) > 0


def standard_error(gain: float, squares: float, worlds: int) -> float:
    """One standard error of the mean of a difference measured in
    ``worlds`` (at least two) paired worlds, from its sum ``gain`` and the
    sum of its squares."""
    mean = gain / worlds
    variance = max(0.0, squares / worlds - mean * mean) * worlds / (worlds - 1)
    return math.sqrt(variance / worlds)


def candidate_moves(view: Mapping[str, Any], rng: random.Random, heuristic, most: int = MAX_CANDIDATES) -> list[dict]:
    """The moves the search weighs (see "Candidates" above): the
    ``heuristic``'s first, then the view's moves, at most ``most`` more."""
    faces = hand_faces(view)
    found: dict[tuple, dict] = {}

    def add(body: dict) -> None:
        found.setdefault(body_key(body, faces), body)

    add(heuristic(view, rng))
    for move in view["moves"]:
        if legal.structural(move):
            for _ in range(DRAWS):
                add(legal.instance(move, rng))
        else:
            add(dict(move))
    first, *others = found.values()
    if len(others) > most:
        others = rng.sample(others, most)
    return [first, *others]


def hand_faces(view: Mapping[str, Any]) -> dict[str, tuple]:
    """Each card of the view's hand by id: its face (every field but the id)."""
    return {card["id"]: tuple(sorted((k, str(v)) for k, v in card.items() if k != "id")) for card in view.get("hand", []) if isinstance(card, Mapping) and "id" in card}


def body_key(body: Mapping[str, Any], faces: Mapping[str, tuple]) -> tuple:
    """``body`` with each card it names replaced by that card's face."""
    named: dict[str, Any] = {}
    for name, value in body.items():
        if isinstance(value, list):
            named[name] = tuple(sorted(str(faces.get(item, item)) for item in value))
        else:
            named[name] = faces.get(value, value) if isinstance(value, str) else value
    return tuple(sorted(named.items(), key=lambda item: item[0]))


def command_time(view: Mapping[str, Any]) -> int:
    """The time the simulated commands are sent at: just before the first
    deadline the view shows (no simulated seat ever times out)."""
    deadlines = [d["at"] for d in view.get("deadlines") or ()]
    return min(deadlines) - 1 if deadlines else 0


def apply_command(game: Game, state: Any, seat: int, body: Mapping[str, Any], at: int) -> Any:
    """The state after ``seat`` sends ``body`` at ``at`` (by the game's
    ``step`` where it has one); ``RuleError`` if refused."""
    command = {**body, "seat": seat, "at": at}
    step = getattr(game, "step", None)
    if step is not None:  # the state the game folded while deciding
        return step(state, command)[1]
    for event in game.decide(state, command):
        state = game.evolve(state, event)
    return state


def rollout_scores(
    game: Game,
    state: Any,
    view: Mapping[str, Any],
    rng: random.Random,
    policy,
    at: int,
    depth: int,
    deadline: float | None = None,
    quick: Quick | None = None,
    observe: Callable[[int, Mapping[str, Any]], None] | None = None,
) -> list[float] | None:
    """Each seat's score once the game is played on from ``state``; None
    if ``deadline`` (a ``perf_counter`` time) passes first. ``quick`` gives
    the rollout bot's move where the game can tell it without a view;
    ``observe`` is shown each command (its seat and body) before it is
    played."""
    for _ in range(depth):
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        result = game.result(state)
        if result is not None:
            return _shares(result, len(view["seats"]))
        waiting = game.to_act(state)
        if not waiting:
            break
        actor = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
        actions = game.actions(state, actor)
        body = quick(state, actor, actions) if quick is not None else None
        if body is None:
            shown = {**view, **game.view(state, actor), "seat": actor, "actions": actions, "to_act": waiting, "deadlines": []}
            body = policy(shown, rng)
        if observe is not None:
            observe(actor, body)
        try:
            state = apply_command(game, state, actor, body, at)
        except RuleError:  # a bot's slip in a sampled world: any listed move instead
            moves = game.legal_moves(state, actor)
            if not moves:
                break
            state = apply_command(game, state, actor, legal.instance(rng.choice(moves), rng), at)
    result = game.result(state)
    return _shares(result, len(view["seats"])) if result is not None else list(game.evaluate(state))


def _shares(result: Mapping[str, Any], seats: int) -> list[float]:
    return shares(result.get("winners") or [], seats)


def with_expert(game: RulesGame, **tuned: Any) -> RulesGame:
    """``game`` with the ``expert`` level among its bots, ``expert``'s
    keywords set for it: ``rollout``, the bot its simulated games are played
    on by (the ``prior`` by default, so Opticall's and Color Doubt's
    rollouts read claims as their expert does); ``depth``, the commands a
    simulated game goes on for before ``evaluate`` scores it;
    ``confidence``, the standard errors by which a move must beat the
    heuristic's to replace it; ``prior``, the bot whose move the search
    starts from and must beat (the heuristic by default); ``quick``, the
    rollout bot's move read from a sampled state where no view is needed to
    tell it, else ``None`` (a view costs more than most of the commands it
    is built for); ``most``, the candidates tried besides the heuristic's
    move; ``halve_after``, the worlds before the first halving."""
    known = inspect.signature(expert).parameters
    unknown = [name for name in tuned if name not in known or name in ("game", "view", "rng")]
    if unknown:
        raise TypeError(f"the expert has no setting {unknown}")
    return replace(game, bots={**game.bots, "expert": partial(expert, game, **tuned)})
