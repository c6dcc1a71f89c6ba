"""Decoding constrained by the kit: the visible cells of a sea explained by placed cards.

Every card on the table is one of the kit's 18 cards (vision/catalogs/mediterraneo.json), its sea
face or (C9, S9) its seagull face, turned by a quarter turn, lying on the cell lattice; what shows of
it is what no later card covers. So a visible cell is not any reading the heads allow but one cell
of some placed card, and cells of one card sit together in its pattern, in its frame.

The decoder scores every placement of every card whose whole footprint lies on visible cells (a card
never reaches past the sea: each of its cells is visible or covered by a later card) against the
cell model's probabilities, then picks placements greedily, the one that explains most first: a
cell explained by a placement scores its log-probability under that card's cell; a cell no chosen
placement explains is read head by head at a cost (UNEXPLAINED) and flagged; each placement costs
PER_CARD (so a lone cell is not pinned on a card without evidence). A card is placed at most once
(the two seagull sides look alike and share C9 and S9 with their sea sides), the two objective
cards never, and two cards that overlap cannot each show where the other lies. Where the greedy
choice leaves cells unexplained, a repair moves a card onto such a cell (the cards it now lies
across make way, the rest is re-filled greedily) when the whole sea's score gains.

Confidence is a max-marginal: for each cell, every other reading's best explanation with the rest
of the sea held (another card on top of that cell, an unused card, or no card of the kit), softmaxed
against the chosen one. A cell inside a card's visible pattern is sure when its neighbours are.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from scoring.mediterraneo import Cell, Objective, Play, card_face_from_rows, play_cells
from scoring.mediterraneo.placement import ROTATIONS
from scoring.mediterraneo.sea import FRAMES, SPECIES
from scoring.sides import SIDES
from vision.catalogs import load_catalog

UNEXPLAINED = 4.0  # log-odds a cell pays for being read head by head, outside every card of the kit
PER_CARD = 2.0  # log-odds each placed card pays: fewer cards explaining the same cells win
SWAP_TRIES = 4  # placements tried per unexplained cell when repairing the greedy choice
SWAP_BUDGET = 40  # repairs tried per sea at most: a photo's decode stays within milliseconds
FLOOR = 1e-6  # probabilities are clipped here before their log: one head's zero never vetoes a card

# What a card's cell can show: (content, points, frame); a reading ignores the frame (scores do too).
TYPES: tuple[tuple[str, str | None, str | None], ...] = (
    *((s, None, f) for s in SPECIES for f in FRAMES),
    *(("octopus", d, f) for d in SIDES for f in FRAMES),
    ("seagull", None, None),
)
READINGS: tuple[tuple[str, str | None], ...] = tuple(dict.fromkeys((c, p) for c, p, _ in TYPES))
_TYPE_READING = np.array([READINGS.index((c, p)) for c, p, _ in TYPES])


@dataclass(frozen=True)
class KitTemplates:
    """Every card face in every turn: its id, and per cell (dx, dy) from the top-left and type index."""

    cards: tuple[str, ...]  # card ids, one per template
    faces: tuple[str, ...]  # "front" or "back"
    rotations: tuple[int, ...]
    offsets: np.ndarray  # (T, 6, 2) int
    types: np.ndarray  # (T, 6) int into TYPES


@dataclass(frozen=True)
class Placement:
    card: str
    face: str
    x: int  # top-left lattice cell of the turned card
    y: int
    rotation: int  # degrees clockwise


@dataclass(frozen=True)
class DecodedCell:
    cell: Cell | None  # None: not a visible cell (the reader saw no card there)
    confidence: float
    second: str  # the runner-up reading, in words
    card: str | None  # the card that explains it; None: read head by head (unexplained or absent)


@dataclass(frozen=True)
class KitDecode:
    cells: tuple[DecodedCell, ...]  # one per lattice node, in the order given
    placements: tuple[Placement, ...]  # the cards that explain what shows, in the order chosen
    unexplained: tuple[int, ...]  # indices of visible cells no card explains


def kit_templates(catalog: dict) -> KitTemplates:
    cards, faces, rotations, offsets, types = [], [], [], [], []
    for component in catalog["components"]:
        for face_name, face in component["faces"].items():
            if face["kind"] not in ("sea", "seagull"):
                continue  # an objective side is never in the sea
            card = card_face_from_rows(component["id"], component["set"], face["kind"], face["cells"])
            for rotation in ROTATIONS:
                laid = play_cells(Play(card, 0, 0, rotation))
                cards.append(component["id"])
                faces.append(face_name)
                rotations.append(rotation)
                offsets.append([(c.x, c.y) for c in laid])
                types.append([TYPES.index((c.content, c.points, c.frame)) for c in laid])
    return KitTemplates(tuple(cards), tuple(faces), tuple(rotations), np.array(offsets), np.array(types))


@lru_cache(maxsize=1)
def shipped_templates() -> KitTemplates:
    return kit_templates(load_catalog("mediterraneo"))


def objective_card_ids(catalog: dict, objectives: Mapping[str, Objective]) -> frozenset[str]:
    """The cards lying objective side up: a player is named by their set, an objective names its card."""
    ids = set()
    for component in catalog["components"]:
        back = component["faces"]["back"]
        chosen = objectives.get(component["set"])
        shown = (back.get("plus"), back.get("minus"))
        if back["kind"] == "objective" and chosen is not None and (chosen.plus, chosen.minus) == shown:
            ids.add(component["id"])
    return frozenset(ids)


def type_log_probs(probs: Mapping[str, np.ndarray], heads: Mapping[str, tuple[str, ...]]) -> np.ndarray:
    """(n, len(TYPES)): the log-probability of each cell showing each type of card cell."""
    log = {
        h: np.log(np.clip(np.asarray(probs[h], np.float64), FLOOR, 1.0))
        for h in ("content", "points", "frame")
    }
    # a seagull's cell is pale like the table: the cell model's "none" counts for it (the decoder
    # reads only cells where a card shows, so "none" there is no table)
    content = np.asarray(probs["content"], np.float64)
    pale = content[:, heads["content"].index("seagull")] + content[:, heads["content"].index("none")]
    gull = np.log(np.clip(pale, FLOOR, 1.0))
    columns = []
    for species, points, frame in TYPES:
        v = gull if species == "seagull" else log["content"][:, heads["content"].index(species)]
        if points is not None:
            v = v + log["points"][:, heads["points"].index(points)]
        v = v + log["frame"][:, heads["frame"].index(frame or "none")]
        columns.append(v)
    return np.stack(columns, 1)


def _words(reading: tuple[str, str | None]) -> str:
    content, points = reading
    return f"octopus pointing {points}" if content == "octopus" else content


def decode_sea(
    nodes: np.ndarray,
    present: np.ndarray,
    probs: Mapping[str, np.ndarray],
    heads: Mapping[str, tuple[str, ...]],
    *,
    excluded: Collection[str] = (),
    templates: KitTemplates | None = None,
    unexplained: float = UNEXPLAINED,
    per_card: float = PER_CARD,
) -> KitDecode:
    """The likeliest placed cards for the visible cells.

    ``nodes`` (n, 2) lattice cells, ``present`` (n,) which of them show a card (the others are not
    decoded), ``probs`` the cell model's heads per node (points in the lattice's frame), ``excluded``
    card ids not in the sea (the objective cards). Cells of absent nodes come back as None."""
    kit = templates or shipped_templates()
    nodes = np.asarray(nodes, int)
    present = np.asarray(present, bool)
    n = len(nodes)
    lp = type_log_probs(probs, heads)
    base = lp.max(1) - unexplained  # a cell's score read head by head, outside the kit

    # every placement whose whole footprint lies on visible cells
    vis = np.flatnonzero(present)
    if len(vis) == 0:
        return KitDecode(tuple(DecodedCell(None, 1.0, "", None) for _ in range(n)), (), ())
    lo = nodes[vis].min(0) - 3
    hi = nodes[vis].max(0) + 3
    grid = np.full((hi[1] - lo[1] + 1, hi[0] - lo[0] + 1), -1)
    grid[nodes[vis, 1] - lo[1], nodes[vis, 0] - lo[0]] = vis
    ox, oy = np.meshgrid(np.arange(lo[0], hi[0] - 1), np.arange(lo[1], hi[1] - 1))
    ox, oy = ox.ravel(), oy.ravel()
    card_ids = sorted(set(kit.cards))
    allowed = np.array([c not in set(excluded) for c in kit.cards])
    # (templates, origins, 6) grid cells of every allowed template at every origin, in one go
    t_all = np.flatnonzero(allowed)
    gx = ox[None, :, None] + kit.offsets[t_all, None, :, 0] - lo[0]
    gy = oy[None, :, None] + kit.offsets[t_all, None, :, 1] - lo[1]
    inside = ((gx >= 0) & (gy >= 0) & (gx < grid.shape[1]) & (gy < grid.shape[0])).all(2)
    cells = grid[np.clip(gy, 0, grid.shape[0] - 1), np.clip(gx, 0, grid.shape[1] - 1)]
    ti, oi = np.nonzero(inside & (cells >= 0).all(2))
    tpl = t_all[ti]
    idx = cells[ti, oi]
    org = np.stack([ox[oi], oy[oi]], 1)
    types = kit.types[tpl]
    # the two seagull sides look alike (no frame): a seagull placement is either card's, so both
    # count in one pool with the sea sides of those cards
    gull_cards = sorted({kit.cards[t] for t in t_all if kit.faces[t] == "back"})
    gull = len(card_ids)
    template_card = np.array(
        [gull if f == "back" else card_ids.index(c) for c, f in zip(kit.cards, kit.faces, strict=True)]
    )
    card_of = template_card[tpl]
    rule = _CardRule(card_of, gull, np.array([card_ids.index(c) for c in gull_cards], int), len(gull_cards))
    score = lp[idx, types]  # (K, 6)
    alive = np.ones(len(tpl), bool)

    chosen = _greedy([], base, idx, score, rule, alive, per_card)
    chosen, prefer = _swap_search(chosen, base, vis, idx, score, rule, alive, per_card)
    owner, _ = _owners(chosen, base, idx, score, prefer)
    names = _card_names(chosen, tpl, kit, rule, card_ids, gull_cards)

    owned = np.bincount(owner[owner >= 0], minlength=len(tpl))
    # placements of a card not placed, or placed showing one cell only (it could lie elsewhere)
    free = ~rule.blocked([q for q in chosen if owned[q] > 1])
    return KitDecode(
        _decoded_cells(
            nodes, present, lp, owner, chosen, idx, types, score, free, names, unexplained, per_card
        ),
        tuple(
            Placement(names[k], kit.faces[tpl[k]], int(org[k, 0]), int(org[k, 1]), kit.rotations[tpl[k]])
            for k in chosen
        ),
        tuple(int(i) for i in vis if owner[i] < 0),
    )


@dataclass(frozen=True)
class _CardRule:
    """Each card at most once; the seagull placements (``gull``) share their two cards with those
    cards' sea sides."""

    card_of: np.ndarray  # per placement: its card's index, or ``gull``
    gull: int
    gull_cards: np.ndarray  # indices of the cards with a seagull side
    capacity: int
    is_gull: np.ndarray = field(init=False, repr=False)
    pooled: np.ndarray = field(init=False, repr=False)  # placements that draw on the seagull cards

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_gull", self.card_of == self.gull)
        object.__setattr__(self, "pooled", self.is_gull | np.isin(self.card_of, self.gull_cards))

    def blocked(self, chosen: list[int]) -> np.ndarray:
        """Per placement: whether the chosen ones leave no card for it."""
        counts = np.bincount(self.card_of[chosen], minlength=self.gull + 1)
        blocked = counts[self.card_of] > 0
        pool = counts[self.gull] + counts[self.gull_cards].sum()
        blocked[self.is_gull] = False
        if pool >= self.capacity:
            blocked |= self.pooled
        return blocked


def _card_names(
    chosen: list[int],
    tpl: np.ndarray,
    kit: KitTemplates,
    rule: _CardRule,
    card_ids: list[str],
    gull_cards: list[str],
) -> list[str]:
    """Each placement's card id; a seagull placement takes a card whose sea side is not placed."""
    names = [kit.cards[t] for t in tpl]
    taken = {card_ids[rule.card_of[q]] for q in chosen if rule.card_of[q] != rule.gull}
    spare = iter(c for c in gull_cards if c not in taken)
    for q in chosen:
        if rule.card_of[q] == rule.gull:
            names[q] = next(spare, names[q])
    return names


def _greedy(
    chosen: list[int], base: np.ndarray, idx: np.ndarray, score: np.ndarray, rule: _CardRule,
    alive: np.ndarray, per_card: float, prefer: int | None = None,
) -> list[int]:  # fmt: skip
    """Add cards to ``chosen``, each time the placement of an unused card that gains most, while one gains."""
    chosen = list(chosen)
    owner, cur = _owners(chosen, base, idx, score, prefer)
    alive = alive.copy()
    cand = np.flatnonzero(alive & ~rule.blocked(chosen))  # placements of cards still free
    while len(cand):
        delta = score[cand] - cur[idx[cand]]
        gain = np.clip(delta, 0, None).sum(1) - per_card
        k = -1
        for j in np.argsort(-gain, kind="stable"):  # gains stand while refused ones are passed over
            if gain[j] <= 0:
                break
            take = idx[cand[j]][delta[j] > 0]
            if not _overlap_conflict(int(cand[j]), take, chosen, idx, owner):
                k = int(cand[j])
                break
            alive[cand[j]] = False
        if k < 0:
            break
        owner[take] = k
        cur[take] = score[k][delta[j] > 0]
        chosen.append(k)
        gone = [q for q in chosen if not (owner == q).any()]  # covered all over by the newcomer
        for q in gone:
            chosen.remove(q)
            alive[q] = False
        cand = (
            np.flatnonzero(alive & ~rule.blocked(chosen))
            if gone
            else cand[alive[cand] & ~rule.blocked(chosen)[cand]]
        )
    return chosen


def _owners(
    chosen: list[int], base: np.ndarray, idx: np.ndarray, score: np.ndarray, prefer: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Which chosen placement shows at each cell (-1: none) and the cell's score: the best one, the
    first chosen on a tie, except ``prefer`` (a card just moved), which wins its ties."""
    owner = np.full(len(base), -1)
    cur = base.copy()
    for k in [q for q in chosen if q != prefer] + ([prefer] if prefer in chosen else []):
        better = score[k] >= cur[idx[k]] if k == prefer else score[k] > cur[idx[k]]
        owner[idx[k][better]] = k
        cur[idx[k][better]] = score[k][better]
    return owner, cur


def _clashes(chosen: list[int], owner: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """[p, q]: chosen cards p and q each show where the other lies (flat cards: one is on top)."""
    covers = np.zeros((len(chosen), len(owner)), np.int32)
    covers[np.arange(len(chosen))[:, None], idx[chosen]] = 1
    shows = (owner[None, :] == np.array(chosen)[:, None]).astype(np.int32)
    over = (shows @ covers.T) > 0  # [p, q]: p shows somewhere q lies
    np.fill_diagonal(over, False)
    return over & over.T


def _consistent(chosen: list[int], owner: np.ndarray, idx: np.ndarray) -> bool:
    return len(chosen) < 2 or not _clashes(chosen, owner, idx).any()


def _swap_search(
    chosen: list[int], base: np.ndarray, vis: np.ndarray, idx: np.ndarray, score: np.ndarray,
    rule: _CardRule, alive: np.ndarray, per_card: float, rounds: int = 4,
) -> tuple[list[int], int | None]:  # fmt: skip
    """Repair the greedy choice where it left visible cells unexplained: move a card (or place an
    unused one) onto such a cell, the others re-filled greedily, when the whole sea's score gains."""
    chosen = list(chosen)
    prefer = None
    card_of = rule.card_of
    budget = SWAP_BUDGET
    for _ in range(rounds):
        owner, cur = _owners(chosen, base, idx, score, prefer)
        total = cur[vis].sum() - per_card * len(chosen)
        best, best_total = None, total + 1e-9
        held = np.zeros(rule.gull + 1)  # what each card's placement explains beyond reading head by head
        np.add.at(held, card_of[owner[vis][owner[vis] >= 0]], (cur - base)[vis][owner[vis] >= 0])
        for i in vis[owner[vis] < 0]:
            slots = idx == i
            ks = np.flatnonzero(slots.any(1) & alive)
            ks = ks[score[ks][slots[ks]] > base[i]]
            # the few placements that would gain most here, less what their card explains now, each
            # tried with the sea re-filled
            gains = np.clip(score[ks] - cur[idx[ks]], 0, None).sum(1) - held[card_of[ks]]
            for k in ks[np.argsort(-gains)[: min(SWAP_TRIES, budget)]]:
                budget -= 1
                trial = [q for q in chosen if card_of[q] != card_of[k]]
                if rule.blocked(trial)[k]:  # the seagull pool is full: free the moved card's pool
                    trial = [q for q in trial if card_of[q] != rule.gull]
                if rule.blocked(trial)[k]:  # a seagull side while both its cards lie sea side up
                    continue
                trial = [*trial, int(k)]
                # the cards the moved one now lies across (each showing where the other lies) make way
                clash = _clashes(trial, _owners(trial, base, idx, score, int(k))[0], idx)[-1]
                trial = [q for q, c in zip(trial, clash, strict=True) if not c]
                trial = _greedy(trial, base, idx, score, rule, alive, per_card, int(k))
                t_owner, t_cur = _owners(trial, base, idx, score, int(k))
                kept = [q for q in trial if (t_owner == q).any()]
                t_total = t_cur[vis].sum() - per_card * len(kept)
                if t_total > best_total and _consistent(kept, t_owner, idx):
                    best, best_total, best_k = kept, t_total, int(k)
        if best is None:
            break
        chosen, prefer = best, best_k
    return chosen, prefer


def _overlap_conflict(
    k: int, take: np.ndarray, chosen: list[int], idx: np.ndarray, owner: np.ndarray
) -> bool:
    """Whether placing k (showing at ``take``) would leave it on top in part of an overlap with a
    chosen card and under it in another part: flat cards lie one on the other."""
    mine = set(idx[k].tolist())
    taken = set(take.tolist())
    for q in chosen:
        overlap = mine & set(idx[q].tolist())
        if overlap & taken and any(owner[i] == q and i not in taken for i in overlap):
            return True
    return False


def _decoded_cells(
    nodes: np.ndarray, present: np.ndarray, lp: np.ndarray, owner: np.ndarray, chosen: list[int],
    idx: np.ndarray, types: np.ndarray, score: np.ndarray, free: np.ndarray, cards: list[str],
    unexplained: float, per_card: float,
) -> tuple[DecodedCell, ...]:  # fmt: skip
    """Each visible cell's reading, confidence (a max-marginal) and runner-up."""
    # the best score of each type at each cell with the rest of the sea held: read head by head, or
    # shown there by a chosen card that shows elsewhere too (on top here), or by one more card
    alt = lp - unexplained
    owned = np.bincount(owner[owner >= 0], minlength=len(idx))
    cost = np.full(len(idx), per_card)
    cost[chosen] = np.where(owned[chosen] > 1, 0.0, per_card)
    usable = free.copy()
    usable[chosen] = True
    # a card cannot show at one cell of another card and lie under it at others: such a placement
    # is no alternative at that cell (it would have to be above and below the same card)
    owners = owner[idx]  # (K, 6)
    same = (owners[:, :, None] == owners[:, None, :]).sum(2)
    slot_ok = usable[:, None] & ((owners < 0) | (same == 1) | (owners == np.arange(len(idx))[:, None]))
    np.maximum.at(alt, (idx[slot_ok], types[slot_ok]), (score - cost[:, None])[slot_ok])
    per_reading = np.stack([alt[:, r == _TYPE_READING].max(1) for r in range(len(READINGS))], 1)
    cells = []
    for i in range(len(nodes)):
        if not present[i]:
            cells.append(DecodedCell(None, 1.0, "", None))
            continue
        q = int(owner[i])
        if q >= 0:
            slot = int(np.flatnonzero(idx[q] == i)[0])
            t, mine = int(types[q, slot]), float(score[q, slot] - cost[q])
        else:
            t = int(lp[i].argmax())
            mine = float(lp[i, t] - unexplained)
        r = int(_TYPE_READING[t])
        row = per_reading[i].copy()
        row[r] = max(mine, row[r])
        p = np.exp(row - row.max())
        p /= p.sum()
        runner = int(np.argsort(p)[-2]) if np.argmax(p) == r else int(np.argmax(p))
        x, y = (int(v) for v in nodes[i])
        content, points, frame = TYPES[t]
        cells.append(
            DecodedCell(
                Cell(x, y, content, points, frame),
                float(p[r]),
                f"{_words(READINGS[runner])} {p[runner]:.2f}",
                cards[q] if q >= 0 else None,
            )
        )
    return tuple(cells)
