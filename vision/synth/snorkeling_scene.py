"""Simulated photos of a Snorkeling table at the end of a round, with exact truth.

The round is dealt and played to its end by the engine's legal random player
(``scoring.snorkeling.random_round``), so every table shown is one that the rules can reach: each
diver's pile lies on their numbered mat (the Lanternfish at the bottom, the cards played on it above,
squared or messy so that the cards below peek out), the central pile and the face-down deck lie in
the middle, and some players' hands lie face down beside their mats. The table, framing, light and
print come from the same world as the other games (``vision.synth.world``).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

from scoring.snorkeling import (
    Card,
    Diver,
    RoundBoard,
    plays_to_json,
    random_round,
    round_report_to_json,
    round_to_json,
    score_round,
)
from scoring.snorkeling.random_play import Style
from vision.synth.photo import PhotoStyle, Piece, draw_style, encode_jpeg, photograph
from vision.synth.scenes import Scene, _art_scale, _boxes, _quad_list, piece_box
from vision.synth.snorkeling_art import render_snorkeling_face
from vision.synth.world import World, draw_conditions

CARD_THICKNESS_MM = 0.35
MAT_THICKNESS_MM = 1.5
CENTRE_SHOWN = 10  # the central pile's last cards drawn (those below are hidden under them anyway)
SPAN = (0.55, 0.95)  # the whole table fills most of the frame: the photo is of every pile at once


def _rotate(xy: tuple[float, float], angle_deg: float) -> np.ndarray:
    a = math.radians(angle_deg)
    return np.array([xy[0] * math.cos(a) - xy[1] * math.sin(a), xy[0] * math.sin(a) + xy[1] * math.cos(a)])


class _Components:
    """Hands out the catalog's physical cards: each (value, colour) has copies, each used once."""

    def __init__(self, catalog: dict) -> None:
        self.by_card: dict[Card, list[dict]] = {}
        self.mats: dict[int, dict] = {}
        self.back = None
        for component in catalog["components"]:
            front = component["faces"]["front"]
            if component["kind"] == "mat":
                self.mats[front["mat"]] = component
            else:
                self.by_card.setdefault(Card(front["value"], front["color"]), []).append(component)
                self.back = self.back or component

    def take(self, card: Card) -> dict:
        return self.by_card[card].pop(0)


def snorkeling_scene(
    rng: np.random.Generator,
    catalog: dict,
    *,
    long_side_px: int = 4000,
    style: PhotoStyle | None = None,
    players: int | None = None,
    variant: str | None = None,
    world: World | None = None,
) -> Scene:
    """A table at the end of a legal random round of 2-6 players (``players``), photographed under
    conditions drawn from ``world``. The truth holds the round board, its report, the play sequence
    that led to it, and where every mat and card corner lies in the photo."""
    conditions = draw_conditions(rng, world)
    n = players or int(rng.integers(2, 7))
    mats = [int(m) for m in rng.permutation(6)[:n] + 1]  # in seating order round the table
    names = tuple(f"diver {m}" for m in mats)
    variant = variant or ("expert" if rng.random() < 0.2 else "standard")
    play_style = Style(
        pass_rate=float(rng.uniform(0.0, 0.3)),
        attack_rate=float(rng.uniform(0.5, 1.0)),
        take_back_rate=float(rng.uniform(0.0, 1.0)),
    )
    played = random_round(random.Random(int(rng.integers(2**63))), names, variant, play_style)
    final = played.final
    components = _Components(catalog)
    w_card, h_card = (float(v) for v in catalog["card_mm"])
    w_mat, h_mat = (float(v) for v in catalog["mat_mm"])
    radius = 95.0 + 32.0 * n + float(rng.uniform(0, 30))
    span_wanted = float(rng.uniform(*SPAN)) if not conditions.stress else float(rng.uniform(0.45, 0.7))
    px_per_mm = _art_scale(long_side_px, 2 * radius + h_mat + 40)
    squared = conditions.angle_deg <= 5.0  # the world's messy placements: piles pushed askew too
    jitter_mm, turn_deg = conditions.gap_mm * (0.5 if squared else 1.6), conditions.angle_deg * 1.5

    def face(component: dict, side: str = "front") -> np.ndarray:
        return render_snorkeling_face(component, side, px_per_mm)

    pieces: list[Piece] = []
    roles: list[tuple] = []  # what each piece is, for the truth (same order as pieces)
    start = float(rng.uniform(0, 360))
    hands_shown = 0
    for seat, (mat, name) in enumerate(zip(mats, names, strict=True)):
        theta = math.radians(start + 360.0 * seat / n + float(rng.normal(0, 6)))
        centre = np.array([math.cos(theta), math.sin(theta)]) * radius
        angle = math.degrees(theta) - 90.0 + float(rng.normal(0, 5))  # the header faces the middle
        pieces.append(
            Piece(face(components.mats[mat]), (w_mat, h_mat), tuple(centre), angle, MAT_THICKNESS_MM, 4.0)
        )
        roles.append(("mat", mat, name))
        spot = centre + _rotate((0.0, 12.0), angle)  # the card place below the header
        for layer, card in enumerate(final.pile(name), start=1):
            shift = rng.normal(0, jitter_mm / 2, 2).clip(-jitter_mm, jitter_mm)
            turn = angle + 180.0 * int(rng.random() < 0.3) + float(rng.normal(0, turn_deg / 3))
            pieces.append(
                Piece(
                    face(components.take(card)),
                    (w_card, h_card),
                    tuple(spot + shift),
                    turn,
                    CARD_THICKNESS_MM,
                    3.0,
                    layer=layer,
                )
            )
            roles.append(("pile", mat, name, card, pieces[-1]))
        if final.hand(name) and rng.random() < 0.6:  # the hand laid face down beside the mat, fanned
            hands_shown += 1
            where = centre + _rotate((float(rng.uniform(-30, 30)), h_mat / 2 + h_card / 2 + 8), angle)
            fan = float(rng.uniform(4, 14))
            count = len(final.hand(name))
            for k in range(count):
                turn = angle + (k - (count - 1) / 2) * fan + float(rng.normal(0, 2))
                at = where + _rotate(((k - (count - 1) / 2) * 6.0, 0.0), angle)
                pieces.append(
                    Piece(
                        face(components.back, "back"),
                        (w_card, h_card),
                        tuple(at),
                        turn,
                        CARD_THICKNESS_MM,
                        3.0,
                        layer=k + 1,
                    )
                )
                roles.append(("hand", mat, name))
    # the central pile, most recent card on top, always a little messy; the deck beside it
    centre_cards = final.centre[-CENTRE_SHOWN:]
    middle = rng.normal(0, 12, 2)
    for layer, card in enumerate(centre_cards, start=1):
        shift = rng.normal(0, 3.0 + jitter_mm, 2)
        pieces.append(
            Piece(
                face(components.take(card)),
                (w_card, h_card),
                tuple(middle + shift),
                float(rng.uniform(0, 360)),
                CARD_THICKNESS_MM,
                3.0,
                layer=layer,
            )
        )
        roles.append(("centre", card))
    deck_cards = sum(count for _, count in final.deck)
    if deck_cards:
        at = middle + _rotate((w_card + 15, 0), float(rng.uniform(0, 360)))
        pieces.append(
            Piece(
                face(components.back, "back"),
                (w_card, h_card),
                tuple(at),
                float(rng.uniform(0, 360)),
                min(20.0, 0.3 * deck_cards),
                3.0,
            )
        )
        roles.append(("deck", deck_cards))
    loose = [
        Piece(face(components.back, "back"), (w_card, h_card), (0.0, 0.0), 0.0, CARD_THICKNESS_MM, 3.0)
        for _ in range(min(conditions.loose_far, 2))
    ]
    box = _boxes([piece_box(p) for p in pieces])
    if style is None:
        style = draw_style(rng, replace(conditions, span=span_wanted))
    shot = photograph(pieces, rng, subject_mm=box, clutter=loose, long_side_px=long_side_px, style=style)
    jpeg = encode_jpeg(shot.image, rng)

    board = RoundBoard(
        tuple(Diver(m, final.tops[name]) for m, name in zip(mats, names, strict=True)), final.centre[-1]
    )
    truth = {
        "format": 1,
        "game": "snorkeling",
        "board": round_to_json(board),
        "report": round_report_to_json(score_round(board)),
        "plays": plays_to_json(played.sequence),
        "scene": {
            "players": n,
            "variant": variant,
            "turns": len(played.sequence.turns),
            "squared": squared,
            "pile_cards": {str(m): len(final.pile(name)) for m, name in zip(mats, names, strict=True)},
            "hands_on_table": hands_shown,
            "deck_cards": deck_cards,
            "loose_cards": len(shot.clutter_corners),
            "hand": bool(shot.camera.get("hand")),
        },
        "conditions": conditions.to_dict() | {"span": round(span_wanted, 4)},
        **_placed(roles, shot.corners, mats),
        "camera": shot.camera,
    }
    return Scene(jpeg, truth, shot)


def _placed(roles: list[tuple], corners: tuple[np.ndarray, ...], mats: list[int]) -> dict:
    """Where each mat, pile card, centre card, hand and the deck lie in the photo."""
    out_mats = {m: {"mat": m, "corners": None, "pile": []} for m in mats}
    centre, hands, deck = [], Counter(), None
    hand_corners: dict[int, list] = {}
    for role, quad in zip(roles, corners, strict=True):
        kind = role[0]
        if kind == "mat":
            out_mats[role[1]]["corners"] = _quad_list(quad)
        elif kind == "pile":
            out_mats[role[1]]["pile"].append({"card": str(role[3]), "corners": _quad_list(quad)})
        elif kind == "centre":
            centre.append({"card": str(role[1]), "corners": _quad_list(quad)})
        elif kind == "hand":
            hands[role[1]] += 1
            hand_corners.setdefault(role[1], []).append(_quad_list(quad))
        else:
            deck = {"cards": role[1], "corners": _quad_list(quad)}
    return {
        "mats": list(out_mats.values()),
        "centre": centre,
        "hands": [{"mat": m, "cards": hand_corners[m]} for m in hands],
        "deck": deck,
    }


def write_scenes(n: int, seed: int, out_dir: Path, long_side_px: int = 2000) -> list[Path]:
    """``n`` photos with truth JSON beside each (a look at the scenes; `scorecam synth` to come)."""
    import json

    from vision.catalogs import load_catalog

    catalog = load_catalog("snorkeling")
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(n):
        rng = np.random.default_rng([seed, index])
        scene = snorkeling_scene(rng, catalog, long_side_px=long_side_px)
        stem = f"snorkeling-s{seed}-{index:05d}"
        (out_dir / f"{stem}.jpg").write_bytes(scene.jpeg)
        truth = scene.truth | {"seed": seed, "index": index, "photo": f"{stem}.jpg"}
        (out_dir / f"{stem}.json").write_text(json.dumps(truth) + "\n")
        paths.append(out_dir / f"{stem}.jpg")
    return paths


if __name__ == "__main__":
    import sys

    for path in write_scenes(int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])):
        print(path)
