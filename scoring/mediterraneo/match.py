"""A Mediterráneo match: rounds played, cards leaving the game, who starts next, who wins.

A `Match` holds the cards each player started with and the rounds played; the cards each still
has, the cards removed (with why) and who started each round are derived from those on
construction, so a Match can never disagree with its own history.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.errors import BoardFormatError, shown
from scoring.json_objects import check_keys
from scoring.mediterraneo.sea import FORMAT, GAME, check_header, freeze_pairs

OUTCOMES: tuple[str, ...] = ("won", "replay")
ROUNDS_TO_WIN = 2
# The box holds 9 cards a player, and a match ends after a few rounds (replays included); the limits
# are far above both and keep the round-by-round check (a list search per card) quick.
MAX_CARDS = 100
MAX_ROUNDS = 100
WINNER_OBJECTIVE = "objective card of the round winner"
SEAGULL_SIDE = "played seagull-side"


@dataclass(frozen=True)
class RoundRecord:
    """One finished round: "won" (with its winner) or "replay" (a tie with no cards left: no winner).

    `objective_cards` maps each player to the card laid objective-side; `seagull_cards` lists the
    cards played seagull-side. Mappings are frozen into tuples of pairs.
    """

    outcome: str
    winner: str | None = None
    objective_cards: tuple[tuple[str, str], ...] = ()
    seagull_cards: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "objective_cards", freeze_pairs(self.objective_cards))
        if isinstance(self.seagull_cards, str):
            raise BoardFormatError(
                f"seagull_cards must be a list of card ids, got {shown(self.seagull_cards)}"
            )
        object.__setattr__(self, "seagull_cards", tuple(self.seagull_cards))
        if self.outcome not in OUTCOMES:
            raise BoardFormatError(f"unknown outcome {shown(self.outcome)} (expected won or replay)")
        if self.outcome == "won" and not isinstance(self.winner, str):
            raise BoardFormatError(f"a won round needs its winner, got {shown(self.winner)}")
        if self.outcome == "replay" and self.winner is not None:
            raise BoardFormatError(f"a replayed round has no winner, got {shown(self.winner)}")
        for card in (*(c for _, c in self.objective_cards), *self.seagull_cards):
            if not isinstance(card, str) or not card:
                raise BoardFormatError(f"card ids are non-empty strings, got {shown(card)}")


@dataclass(frozen=True)
class RemovedCard:
    card: str
    player: str
    round: int
    reason: str


@dataclass(frozen=True)
class Match:
    """Players (the two set names), the cards each started with, who started round 1, the rounds so far.

    Derived: `cards` (what each still has), `removed` (what left the game and why) and `starters`
    (who started each round). Raises BoardFormatError naming the round that cannot have happened.
    """

    players: tuple[str, ...]
    starting_cards: tuple[tuple[str, tuple[str, ...]], ...]
    first: str
    rounds: tuple[RoundRecord, ...] = ()
    cards: tuple[tuple[str, tuple[str, ...]], ...] = field(init=False, compare=False)
    removed: tuple[RemovedCard, ...] = field(init=False, compare=False, repr=False)
    starters: tuple[str, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        players = tuple(self.players)
        object.__setattr__(self, "players", players)
        # names checked to be texts before set(): a hostile file can put an object where a name goes
        if len(players) != 2 or not all(isinstance(p, str) and p for p in players) or len(set(players)) != 2:
            raise BoardFormatError(f"a match has two differently named players, got {shown(list(players))}")
        starting = tuple((p, _card_ids(ids, p)) for p, ids in freeze_pairs(self.starting_cards))
        object.__setattr__(self, "starting_cards", starting)
        if sorted(p for p, _ in starting) != sorted(players):
            named = ", ".join(str(p) for p, _ in starting) or "nobody"
            raise BoardFormatError(f"cards name {named}; expected {' and '.join(players)}")
        owner: dict[str, str] = {}
        for player, ids in starting:
            for card in ids:
                if card in owner:
                    raise BoardFormatError(f"card {card} is listed twice ({owner[card]} and {player})")
                owner[card] = player
        if self.first not in players:
            raise BoardFormatError(f"first {shown(self.first)} is not a player ({', '.join(players)})")
        object.__setattr__(self, "rounds", tuple(self.rounds))
        hands = {p: list(ids) for p, ids in starting}
        removed: list[RemovedCard] = []
        starters: list[str] = []
        starter = self.first
        wins = dict.fromkeys(players, 0)
        for number, record in enumerate(self.rounds, start=1):
            try:
                starter = _play_round(record, number, players, hands, owner, removed, wins, starter, starters)
            except BoardFormatError as error:
                raise BoardFormatError(f"round {number}: {error}") from None
        object.__setattr__(self, "cards", tuple((p, tuple(hands[p])) for p in players))
        object.__setattr__(self, "removed", tuple(removed))
        object.__setattr__(self, "starters", tuple(starters))

    def cards_of(self, player: str) -> tuple[str, ...]:
        return dict(self.cards)[player]


def _card_ids(ids: object, player: object) -> tuple[str, ...]:
    if isinstance(ids, str) or not isinstance(ids, Iterable):
        raise BoardFormatError(f"cards of {player} must be a list of card ids, got {shown(ids)}")
    ids = tuple(ids)
    if len(ids) > MAX_CARDS:
        raise BoardFormatError(f"{player} has {len(ids):,} cards; a player has at most {MAX_CARDS}")
    for card in ids:
        if not isinstance(card, str) or not card:
            raise BoardFormatError(f"cards of {player}: card ids are non-empty strings, got {shown(card)}")
    return ids


def _play_round(
    record: RoundRecord,
    number: int,
    players: tuple[str, ...],
    hands: dict[str, list[str]],
    owner: dict[str, str],
    removed: list[RemovedCard],
    wins: dict[str, int],
    starter: str,
    starters: list[str],
) -> str:
    """Apply one round to the running hands; return who starts the round after it."""
    if not isinstance(record, RoundRecord):
        raise BoardFormatError(f"a round is a RoundRecord, got {type(record).__name__}")
    done = [p for p in players if wins[p] >= ROUNDS_TO_WIN]
    if done:
        raise BoardFormatError(f"the match is already won by {done[0]}")
    if record.outcome == "won" and record.winner not in players:
        raise BoardFormatError(f"winner {shown(record.winner)} is not a player ({', '.join(players)})")
    objective = dict(record.objective_cards)
    if sorted(objective) != sorted(players) or len(record.objective_cards) != 2:
        named = ", ".join(p for p, _ in record.objective_cards) or "nobody"
        raise BoardFormatError(
            f"objective_cards name {named}; expected one card each for {' and '.join(players)}"
        )
    for player, card in record.objective_cards:
        if card not in hands[player]:
            raise BoardFormatError(f"{player}'s objective card {card} is not in {player}'s hand")
    seen: set[str] = set()
    for card in record.seagull_cards:
        if card in seen:
            raise BoardFormatError(f"seagull card {card} is listed twice")
        seen.add(card)
        if card in objective.values():
            raise BoardFormatError(f"card {card} cannot be both an objective and played seagull-side")
        player = owner.get(card)
        if player is None or card not in hands[player]:
            raise BoardFormatError(f"seagull card {card} is in neither player's hand")
    starters.append(starter)
    if record.winner is not None:
        card = objective[record.winner]
        hands[record.winner].remove(card)
        removed.append(RemovedCard(card, record.winner, number, WINNER_OBJECTIVE))
    for card in record.seagull_cards:
        hands[owner[card]].remove(card)
        removed.append(RemovedCard(card, owner[card], number, SEAGULL_SIDE))
    if record.winner is None:
        return starter  # a replayed round starts again with the same first player
    wins[record.winner] += 1
    return next(p for p in players if p != record.winner)  # the loser starts


def start_match(players: Iterable[str], cards: Mapping[str, Iterable[str]], first: str) -> Match:
    """A match before its first round."""
    return Match(tuple(players), tuple((p, tuple(ids)) for p, ids in cards.items()), first)


def record_round(match: Match, record: RoundRecord) -> Match:
    """The match after one more round: the winner's objective card and all seagull-side cards leave."""
    return Match(match.players, match.starting_cards, match.first, (*match.rounds, record))


def rounds_won(match: Match) -> dict[str, int]:
    """Rounds won per player, in player order."""
    wins = dict.fromkeys(match.players, 0)
    for record in match.rounds:
        if record.winner is not None:
            wins[record.winner] += 1
    return wins


def winner(match: Match) -> str | None:
    """The first player to win two rounds, or None while the match goes on."""
    return next((p for p, n in rounds_won(match).items() if n >= ROUNDS_TO_WIN), None)


def first_player_next_round(match: Match) -> str | None:
    """Who starts the next round: the loser of the last won round, the same starter after a replay,
    `match.first` before any round, None once the match is won."""
    if winner(match) is not None:
        return None
    if not match.rounds:
        return match.first
    last = match.rounds[-1]
    if last.winner is None:
        return match.starters[-1]
    return next(p for p in match.players if p != last.winner)


def _round_from_json(data: object, number: int) -> RoundRecord:
    where = f"round {number}"
    check_keys(data, where, ("outcome", "objective_cards"), ("winner", "seagull_cards"))
    assert isinstance(data, Mapping)
    objective = data["objective_cards"]
    if not isinstance(objective, Mapping):
        raise BoardFormatError(f"{where}: objective_cards must be an object of player: card id")
    seagulls = data.get("seagull_cards", [])
    if not isinstance(seagulls, list):
        raise BoardFormatError(f"{where}: seagull_cards must be a list of card ids, got {shown(seagulls)}")
    try:
        return RoundRecord(data["outcome"], data.get("winner"), freeze_pairs(objective), tuple(seagulls))
    except BoardFormatError as error:
        raise BoardFormatError(f"{where}: {error}") from None


def match_from_json(data: object) -> Match:
    """Read a match record: starting cards and the rounds played, checked round by round."""
    check_header(data, "match")
    check_keys(data, "match record", ("format", "game", "match"))
    assert isinstance(data, Mapping)
    body = data["match"]
    check_keys(body, "match", ("players", "cards", "first"), ("rounds",))
    assert isinstance(body, Mapping)
    if not isinstance(body["players"], list):
        raise BoardFormatError(f"players must be a list of two names, got {shown(body['players'])}")
    if not isinstance(body["cards"], Mapping):
        raise BoardFormatError("cards must be an object of player: list of card ids")
    rounds = body.get("rounds", [])
    if not isinstance(rounds, list):
        raise BoardFormatError(f"rounds must be a list, got {type(rounds).__name__}")
    if len(rounds) > MAX_ROUNDS:
        raise BoardFormatError(f"{len(rounds):,} rounds; a match record holds at most {MAX_ROUNDS}")
    records = tuple(_round_from_json(r, number) for number, r in enumerate(rounds, start=1))
    return Match(tuple(body["players"]), freeze_pairs(body["cards"]), body["first"], records)


def _round_to_json(record: RoundRecord) -> dict[str, Any]:
    out: dict[str, Any] = {"outcome": record.outcome}
    if record.winner is not None:
        out["winner"] = record.winner
    out["objective_cards"] = dict(record.objective_cards)
    out["seagull_cards"] = list(record.seagull_cards)
    return out


def match_to_json(match: Match) -> dict[str, Any]:
    """The match record format read by `match_from_json`."""
    return {
        "format": FORMAT,
        "game": GAME,
        "match": {
            "players": list(match.players),
            "cards": {p: list(ids) for p, ids in match.starting_cards},
            "first": match.first,
            "rounds": [_round_to_json(r) for r in match.rounds],
        },
    }


def match_report_to_json(match: Match) -> dict[str, Any]:
    """Where the match stands: rounds and starters, wins, winner, cards left and removed, next starter."""
    return {
        "format": FORMAT,
        "game": GAME,
        "players": list(match.players),
        "rounds": [
            {"round": n, "first": starter, "outcome": r.outcome, "winner": r.winner}
            for n, (r, starter) in enumerate(zip(match.rounds, match.starters, strict=True), start=1)
        ],
        "rounds_won": rounds_won(match),
        "winner": winner(match),
        "cards_left": {p: list(ids) for p, ids in match.cards},
        "removed": [
            {"card": c.card, "player": c.player, "round": c.round, "reason": c.reason} for c in match.removed
        ],
        "first_next_round": first_player_next_round(match),
    }
