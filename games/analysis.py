"""The analysis of a game for one seat (issue 55; ``docs/analysis.md``):
the expert reviews each decision the seat made from what the seat could see
then, and classes it by the win chance it gave away.

Each decision is a view (exactly what the seat was served before it moved)
and the body it sent. Its candidates are the expert's (``games.search``'s
``candidate_moves``: the move its search starts from, every complete move
listed, bodies drawn from each structural one) and the move played; all of
them are played in the same worlds drawn from the view by the game's
sampler and on by the expert's rollout bot (``games.search.race``, the
expert's own loop: common random numbers, sequential halving, the move
played and the expert's first move never dropped), over ``iterations``
worlds a decision, the game's ``evaluate`` scoring a rollout cut short as the
expert's search does. Nothing else is read: never the real hidden cards,
though the game is over, so two games the seat could not tell apart at a
decision get the same review of it.

Everything random comes from a generator derived from ``seed``, the seat
and the decision's version (``games.rng.derive``), so an analysis depends
on its input, the seed and the iteration budget alone (never on time), and
each decision's review on nothing but its own view and body.

The game's own knowledge enters through a small declaration beside its
rules (``Claims``, a package's ``CLAIMS``: which commands doubt a claim,
whether the claim standing in a world is a lie, whether a play is a
bluff); the engine knows no game.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from games.contract import Claims, Game
from games.rng import derive
from games.search import HALVE_AFTER, MAX_CANDIDATES, MIN_WORLDS, ROLLOUT_DEPTH, body_key, candidate_moves, hand_faces, race, standard_error
from games.table import ENVELOPE_FIELDS

# The classes, worst first, by the win chance a move gave away (the best
# move's estimate less the played one's, less one standard error of that
# difference: noise is not a mistake), in fractions of a fair share (1 /
# seats). At two seats these are Lichess's 0.05, 0.10 and 0.15 of a win
# (its 0.1, 0.2 and 0.3 of "winning chances" on -1..1).
SCALE: tuple[tuple[str, float], ...] = (("blunder", 0.30), ("mistake", 0.20), ("inaccuracy", 0.10))
GOOD = "good"
CLASSES = (GOOD, "inaccuracy", "mistake", "blunder")
CONFIDENCE = 1.0  # standard errors of the loss taken off before it is classed
ITERATIONS = 32  # worlds a decision, the default (docs/analysis.md, "Cost")

# (decisions reviewed, decisions in all)
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Decision:
    """One decision of the seat: the version of the game it was made at, the
    seat's view then (as served: its ``moves`` and ``actions``), and the body
    it sent (the command's own fields, ``type`` among them)."""

    version: int
    view: Mapping[str, Any]
    body: Mapping[str, Any]  # what the command layer adds (seat, at, actor) is set aside
    actor: str = "player"  # "player", or "bot" where a bot played the seat


@dataclass(frozen=True)
class Estimate:
    """The seat's expected result after a move: its win chance (a win shared
    among tied winners counts its share) and, at three seats or more, its
    expected place (1 is first)."""

    win: float
    place: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"win": round(self.win, 4)}
        if self.place is not None:
            out["place"] = round(self.place, 3)
        return out


@dataclass(frozen=True)
class Review:
    """One decision reviewed."""

    version: int
    actor: str
    played: Mapping[str, Any]
    best: Mapping[str, Any]
    played_estimate: Estimate
    best_estimate: Estimate
    loss: float  # win chance given away: the best's less the played move's, never below 0
    error: float  # one standard error of that difference
    judgement: str  # one of CLASSES
    sentence: str
    candidates: int
    worlds: int
    # the chance the claim the seat could doubt was a lie (None: it could doubt none)
    claim_lie: float | None = None
    # the seat's move was a claim it knew false: the chance it was doubted (None: not a bluff)
    lie_doubted: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "actor": self.actor,
            "played": dict(self.played),
            "best": dict(self.best),
            "estimates": {"played": self.played_estimate.to_dict(), "best": self.best_estimate.to_dict()},
            "loss": round(self.loss, 4),
            "error": round(self.error, 4),
            "class": self.judgement,
            "sentence": self.sentence,
            "candidates": self.candidates,
            "worlds": self.worlds,
            "claim_lie": None if self.claim_lie is None else round(self.claim_lie, 4),
            "lie_doubted": None if self.lie_doubted is None else round(self.lie_doubted, 4),
        }


@dataclass(frozen=True)
class Analysis:
    """A finished game analysed for one seat: what the service stores (its
    ``to_dict``, plain JSON)."""

    game_type: str
    seat: int
    seats: int
    seed: str
    iterations: int
    depth: int  # the commands each rollout played before ``evaluate`` scored it
    decisions: tuple[Review, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_type": self.game_type,
            "seat": self.seat,
            "seats": self.seats,
            "seed": self.seed,
            "iterations": self.iterations,
            "depth": self.depth,
            "scale": scale(self.seats),
            "decisions": [decision.to_dict() for decision in self.decisions],
        }


def scale(seats: int) -> dict[str, float]:
    """The least loss (win chance, after one standard error is taken off)
    of each class but ``good`` at a table of ``seats``."""
    return {name: round(share / seats, 4) for name, share in SCALE}


def judged(loss: float, error: float, seats: int, worlds: int) -> str:
    """The class of a move that gave away ``loss`` of a win, measured with
    standard error ``error`` over ``worlds`` worlds, at a table of
    ``seats`` (``SCALE``); ``good`` over fewer than the search's
    ``MIN_WORLDS``: on fewer the spread of the differences, the noise, is
    not measured."""
    if worlds < MIN_WORLDS:
        return GOOD
    sure = loss - CONFIDENCE * error
    for name, share in SCALE:
        if sure >= share / seats - 1e-12:
            return name
    return GOOD


def analyse_decisions(
    game: Game,
    decisions: Sequence[Decision],
    seat: int,
    *,
    seed: str,
    iterations: int = ITERATIONS,
    progress: Progress | None = None,
    seats: int | None = None,
    depth: int | None = None,
    stop: Callable[[], bool] | None = None,
) -> Analysis:
    """``decisions`` of ``seat`` reviewed (see the module's docstring);
    ``iterations`` is the worlds each is judged over; ``progress`` is told
    (done, total) after each; ``seats``: the table's (by default read
    from the decisions' views; the game's least without any); ``depth``:
    the commands a rollout plays before ``evaluate`` scores it (None: the
    expert's, the game's ``SEARCH``; fewer where to the end costs too
    much, as Opticall's does); ``stop``: asked before each decision, True
    ends the analysis there with those reviewed so far (the service's CPU
    budget spent: each review depends on its own view alone, so they are
    what a whole analysis would hold)."""
    if iterations < 1:
        raise ValueError("an analysis needs at least one world a decision")
    if seats is None:
        seats = len(decisions[0].view["seats"]) if decisions else game.min_seats
    reviews = []
    for done, decision in enumerate(decisions, start=1):
        if stop is not None and stop():
            break
        if decision.view.get("seat") != seat:
            raise ValueError(f"decision at version {decision.version} is not seat {seat}'s view")
        reviews.append(review(game, decision, seed=seed, iterations=iterations, depth=depth))
        if progress is not None:
            progress(done, len(decisions))
    played_to = depth or search_settings(game).get("depth", ROLLOUT_DEPTH)
    return Analysis(game.type, seat, seats, seed, iterations, played_to, tuple(reviews))


def review(game: Game, decision: Decision, *, seed: str, iterations: int = ITERATIONS, depth: int | None = None) -> Review:
    """One decision reviewed from its view alone (``depth``: see
    ``analyse_decisions``)."""
    view, seat = decision.view, decision.view["seat"]
    seats = len(view["seats"])
    tuned = search_settings(game)
    rng = derive(seed, "analysis", seat, decision.version)
    prior = tuned.get("prior") or game.bots["heuristic"]
    candidates = candidate_moves(view, rng, prior, tuned.get("most", MAX_CANDIDATES))
    played_body = {key: value for key, value in decision.body.items() if key == "type" or key not in ENVELOPE_FIELDS}
    faces = hand_faces(view)
    keys = [body_key(body, faces) for body in candidates]
    mine = body_key(played_body, faces)
    if mine in keys:
        played = keys.index(mine)
    else:
        candidates.append(played_body)
        played = len(candidates) - 1
    claims: Claims | None = getattr(game, "claims", None)
    may_doubt = claims is not None and any(kind in claims.doubts for kind in view.get("actions", ()))
    bluff = claims is not None and claims.bluff(view, played_body)
    lies: list[bool] = []
    doubted = Doubted(seat, played, claims.doubts if claims is not None else frozenset())

    def drawn(world: Any) -> None:
        if may_doubt and claims is not None:
            lie = claims.lie(world)
            if lie is not None:
                lies.append(lie)
        doubted.world_done()

    raced = race(
        game, view, candidates, rng, tuned.get("rollout") or prior, depth or tuned.get("depth", ROLLOUT_DEPTH),
        worlds=iterations, quick=tuned.get("quick"), halve_after=tuned.get("halve_after", HALVE_AFTER),
        keep=(0, played) if played else (0,), world_drawn=drawn, observe=doubted.observe if bluff else None,
    )
    worlds = max(raced.worlds, 1)
    totals = raced.totals
    best = max(raced.alive, key=lambda n: (totals[n], n == played, -n))
    gain, squares = raced.paired(best, played)
    loss = max(0.0, gain / worlds)
    error = _standard_error(gain, squares, raced.worlds)
    judgement = judged(loss, error, seats, raced.worlds) if best != played else GOOD
    played_estimate = _estimate(raced.outcomes[played], seat, seats)
    best_estimate = _estimate(raced.outcomes[best], seat, seats)
    claim_lie = sum(lies) / len(lies) if lies else None
    lie_doubted = doubted.share() if bluff else None
    sentence = say(
        view, played_body, candidates[best], judgement, played_estimate, best_estimate, claims, claim_lie, lie_doubted,
        forced=len(candidates) == 1,
    )
    return Review(
        decision.version, decision.actor, played_body, dict(candidates[best]), played_estimate, best_estimate, loss, error,
        judgement, sentence, len(candidates), raced.worlds, claim_lie, lie_doubted,
    )


def search_settings(game: Game) -> Mapping[str, Any]:
    """The expert's settings the game was wired with (its package's
    ``SEARCH``: rollout depth, prior, rollout bot, ...)."""
    return getattr(game.bots.get("expert"), "keywords", {}) or {}


class Doubted:
    """Whether the seat's claim was doubted in each world's rollout of the
    move played: a command of a doubting type by another seat before the
    seat acts again."""

    def __init__(self, seat: int, played: int, doubts: frozenset[str]):
        self.seat, self.played, self.doubts = seat, played, doubts
        self.worlds: list[bool] = []
        self._this: bool | None = None  # this world's: None until the move played is played in it
        self._open = False

    def observe(self, pick: int, actor: int, body: Mapping[str, Any]) -> None:
        if pick != self.played:
            return
        if self._this is None:  # the move itself
            self._this, self._open = False, True
            return
        if not self._open:
            return
        if actor == self.seat:
            self._open = False
        elif body.get("type") in self.doubts:
            self._this, self._open = True, False

    def world_done(self) -> None:
        if self._this is not None:
            self.worlds.append(self._this)
        self._this, self._open = None, False

    def share(self) -> float | None:
        return sum(self.worlds) / len(self.worlds) if self.worlds else None


def _standard_error(gain: float, squares: float, worlds: int) -> float:
    """The search's ``standard_error``; infinite with fewer than two
    worlds (nothing can be classed on one)."""
    if worlds < 2:
        return math.inf if gain else 0.0
    return standard_error(gain, squares, worlds)


def _estimate(outcomes: Sequence[Sequence[float]], seat: int, seats: int) -> Estimate:
    """The mean over the worlds of the seat's score and (three seats or
    more) its expected place (``place``)."""
    if not outcomes:
        return Estimate(1.0 / seats, (seats + 1) / 2 if seats > 2 else None)
    win = sum(scores[seat] for scores in outcomes) / len(outcomes)
    if seats <= 2:
        return Estimate(win)
    return Estimate(win, sum(place(scores, seat) for scores in outcomes) / len(outcomes))


def place(scores: Sequence[float], seat: int) -> float:
    """The seat's expected place when the seats' chances are ``scores``:
    1 and, for each other seat, the chance it finishes ahead, as a
    Plackett-Luce ranking with the chances as strengths has it (``p_j /
    (p_j + p_s)``; two seats with no chance are even). A game over, scored
    by who won, puts a winner first and the others level after it."""
    mine = scores[seat]
    ahead = 0.0
    for other, theirs in enumerate(scores):
        if other != seat:
            both = theirs + mine
            ahead += theirs / both if both > 0 else 0.5
    return 1.0 + ahead


def words(view: Mapping[str, Any], body: Mapping[str, Any]) -> str:
    """A move in a player's words: its type and its fields, each card it
    names told by its face as the seat's hand shows it. What a card or a
    move leaves unset (a Tag's number, a choice not made) is not told: a
    player reads "red tag", never "red tag None"."""
    faces = {card["id"]: card for card in view.get("hand", []) if isinstance(card, Mapping) and "id" in card}

    def told(value: Any) -> str:
        if isinstance(value, list):
            return ", ".join(told(item) for item in value) or "nothing"
        card = faces.get(value) if isinstance(value, str) else None
        if card is not None:
            return " ".join(str(v) for k, v in card.items() if k != "id" and v is not None)
        return str(value)

    kind = str(body.get("type", "move")).replace("_", " ")
    fields = [
        f"{name.replace('_', ' ')} {told(value)}" for name, value in body.items() if name != "type" and value is not None
    ]
    return f"{kind} ({'; '.join(fields)})" if fields else kind


def say(
    view: Mapping[str, Any],
    played: Mapping[str, Any],
    best: Mapping[str, Any],
    judgement: str,
    mine: Estimate,
    theirs: Estimate,
    claims: Claims | None,
    claim_lie: float | None,
    lie_doubted: float | None,
    forced: bool = False,
) -> str:
    """The decision told in a player's words: the verdict, then what the
    game's claims say of it (``Claims``: its word for a claim and what
    doubting is called)."""
    if forced:
        verdict = f"Your only move: about {mine.win:.0%} to win from here."
    elif judgement == GOOD and played == best:
        verdict = f"The expert would have played this too: about {mine.win:.0%} to win."
    elif judgement == GOOD:
        verdict = f"Good: as strong as {words(view, best)} within what the expert could tell, about {mine.win:.0%} to win."
    else:
        verdict = (
            f"{judgement.capitalize()}: {words(view, best)} kept about {theirs.win:.0%} to win;"
            f" this left about {mine.win:.0%}."
        )
    told = [verdict]
    if claims is not None and claim_lie is not None:
        noun, doubting = claims.noun, claims.doubting
        share = f"{claim_lie:.0%}"
        if played.get("type") in claims.doubts:
            told.append(
                f"{doubting.capitalize()} here was right: the {noun} was a lie in {share} of the worlds you could imagine."
                if claim_lie >= 0.5
                else f"{doubting.capitalize()} here was a gamble: the {noun} was true in {1 - claim_lie:.0%} of the worlds you could imagine."
            )
        elif claim_lie >= 0.5:
            told.append(f"The {noun} you let stand was a lie in {share} of the worlds you could imagine.")
        else:
            told.append(f"Letting the {noun} stand was safe: it was true in {1 - claim_lie:.0%} of the worlds you could imagine.")
    if claims is not None and lie_doubted is not None:
        told.append(f"Your bluff would be caught {lie_doubted:.0%} of the time by the players as the expert imagines them.")
    return " ".join(told)
