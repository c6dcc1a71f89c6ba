"""The print-and-play Mediterráneo edition: the catalog's content and the art that draws it.

The read-back tests prove what the camera model relies on: every species has its own body colour,
and an octopus's colour mass lies towards the side it points at, also at 24 px per cell.
"""

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.synth import make_mediterraneo_catalog as maker
from vision.synth import mediterraneo_art as art

CATALOG_PATH = Path(art.__file__).parents[1] / "catalogs" / "mediterraneo.json"
SPECIES = ("fish", "ray", "turtle", "starfish", "jellyfish", "crab")
PPM = 4.0  # 120 px cells: enough for read-back, quick to draw


@pytest.fixture(scope="module")
def catalog() -> dict:
    return json.loads(CATALOG_PATH.read_text(encoding="utf-8"))


def cards_of(catalog: dict, set_name: str) -> list[dict]:
    return [c for c in catalog["components"] if c["set"] == set_name]


def sea_cells(cards: list[dict]) -> list[str]:
    return [cell for c in cards for row in c["faces"]["front"]["cells"] for cell in row]


def objectives(cards: list[dict]) -> list[tuple[str, str]]:
    backs = [c["faces"]["back"] for c in cards]
    return [(b["plus"], b["minus"]) for b in backs if b["kind"] == "objective"]


def cell_crops(face: np.ndarray, px_per_mm: float):
    """(row, col, crop) for the 3 x 2 cells of a rendered face."""
    s = art.CELL_MM * px_per_mm
    for r in range(3):
        for c in range(2):
            yield r, c, face[round(r * s) : round((r + 1) * s), round(c * s) : round((c + 1) * s)]


# ---------------------------------------------------------------- catalog


def test_the_generator_writes_exactly_the_committed_catalog(catalog):
    assert maker.build_catalog() == catalog
    assert maker.catalog_text(maker.build_catalog()) == CATALOG_PATH.read_text(encoding="utf-8")


def test_header_matches_the_kit_manifest_format(catalog):
    assert {k: catalog[k] for k in ("format", "game", "card_mm", "cells")} == {
        "format": 1,
        "game": "mediterraneo",
        "card_mm": [60, 90],
        "cells": [2, 3],
    }
    assert all("image" not in face for c in catalog["components"] for face in c["faces"].values())


def test_eighteen_cards_nine_per_set(catalog):
    ids = [c["id"] for c in catalog["components"]]
    assert ids == [f"C{i}" for i in range(1, 10)] + [f"S{i}" for i in range(1, 10)]
    assert Counter(c["set"] for c in catalog["components"]) == {"circle": 9, "square": 9}


@pytest.mark.parametrize("set_name", ["circle", "square"])
def test_each_set_has_nine_sea_fronts_eight_objective_and_one_seagull_back(catalog, set_name):
    cards = cards_of(catalog, set_name)
    assert all(c["faces"]["front"]["kind"] == "sea" for c in cards)
    assert Counter(c["faces"]["back"]["kind"] for c in cards) == {"objective": 8, "seagull": 1}
    for c in cards:
        for face in c["faces"].values():
            if face["kind"] in ("sea", "seagull"):
                assert [len(row) for row in face["cells"]] == [2, 2, 2]
    gull = next(c for c in cards if c["faces"]["back"]["kind"] == "seagull")
    assert gull["faces"]["back"]["cells"] == [["seagull", "seagull"]] * 3


def test_both_sets_have_the_same_cards(catalog):
    circle, square = cards_of(catalog, "circle"), cards_of(catalog, "square")
    assert [c["faces"] for c in circle] == [c["faces"] for c in square]


@pytest.mark.parametrize("set_name", ["circle", "square"])
def test_six_octopuses_pointing_a_mix_of_directions(catalog, set_name):
    octopuses = [cell for cell in sea_cells(cards_of(catalog, set_name)) if cell.startswith("octopus")]
    assert len(octopuses) == 6
    directions = [o.split(":")[1] for o in octopuses]
    assert set(directions) <= {"N", "E", "S", "W"}
    assert set(directions) == {"N", "E", "S", "W"}  # a mix: every direction at least once


@pytest.mark.parametrize("set_name", ["circle", "square"])
def test_every_sea_cell_holds_one_animal_and_the_species_are_balanced(catalog, set_name):
    cells = sea_cells(cards_of(catalog, set_name))
    assert len(cells) == 54
    assert all(cell in SPECIES or cell.split(":")[0] == "octopus" for cell in cells)
    assert Counter(c for c in cells if c in SPECIES) == {s: 8 for s in SPECIES}


@pytest.mark.parametrize("set_name", ["circle", "square"])
def test_objectives_are_sound_and_cover_every_species(catalog, set_name):
    objs = objectives(cards_of(catalog, set_name))
    assert len(objs) == 8 and len(set(objs)) == 8
    assert all(p in SPECIES and m in SPECIES and p != m for p, m in objs)
    assert {p for p, _ in objs} == set(SPECIES)
    assert ("ray", "fish") in objs and ("fish", "ray") in objs  # the mirrored pair


# ---------------------------------------------------------------- rendering


def test_faces_have_the_card_size_portrait(catalog):
    c1 = catalog["components"][0]
    assert art.render_card_face(c1, "front").shape == (1063, 709, 3)
    for face in ("front", "back"):
        img = art.render_card_face(c1, face, PPM)
        assert img.shape == (360, 240, 3) and img.dtype == np.uint8
    assert art.render_cell("fish", "circle").shape == (354, 354, 3)
    assert art.render_cell("seagull", None, PPM).shape == (120, 120, 3)


def test_renders_are_deterministic(catalog):
    first = [art.render_card_face(c, f, PPM) for c in catalog["components"][7:10] for f in ("front", "back")]
    art._render_face_cached.cache_clear()  # draw again from scratch, not from the cache
    again = [art.render_card_face(c, f, PPM) for c in catalog["components"][7:10] for f in ("front", "back")]
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert np.array_equal(
        art.render_cell("octopus:W", "square", PPM), art.render_cell("octopus:W", "square", PPM)
    )


def test_a_returned_face_can_be_drawn_on_without_touching_the_cache(catalog):
    c1 = catalog["components"][0]
    img = art.render_card_face(c1, "front", PPM)
    img[:] = 0
    assert art.render_card_face(c1, "front", PPM).any()


def test_the_sets_differ_only_by_their_frames(catalog):
    c1, s1 = catalog["components"][0], catalog["components"][9]
    circle, square = art.render_card_face(c1, "front", PPM), art.render_card_face(s1, "front", PPM)
    white = np.all(circle == art.FRAME_COLOURS["circle"], axis=2).mean()
    navy = np.all(square == art.FRAME_COLOURS["square"], axis=2).mean()
    assert white > 0.03 and navy > 0.03  # the frame outlines are a visible share of the face
    s = art.CELL_MM * PPM
    y, x = np.mgrid[0 : circle.shape[0], 0 : circle.shape[1]] + 0.5
    from_centre = np.hypot(x % s - s / 2, y % s - s / 2) / s
    differs = np.any(circle != square, axis=2)
    assert differs.any() and from_centre[differs].min() > 0.3  # nothing inside the frames changes


def test_bad_cell_content_is_refused():
    for content, frame in (
        ("shark", "circle"),
        ("octopus", "circle"),
        ("octopus:X", "square"),
        ("fish:N", "circle"),
        ("fish", "hexagon"),
    ):
        with pytest.raises(ValueError):
            art.render_cell(content, frame, PPM)


# ---------------------------------------------------------------- reading the art back


def test_every_sea_cell_reads_back_as_its_content(catalog):
    for comp in catalog["components"]:
        for face_name, face in comp["faces"].items():
            if face["kind"] == "objective":
                continue
            img = art.render_card_face(comp, face_name, PPM)
            for r, c, crop in cell_crops(img, PPM):
                content = face["cells"][r][c]
                name, _, points = content.partition(":")
                seen = art.closest_content(art.dominant_cell_content_colour(crop))
                assert seen == name, f"{comp['id']} {face_name} ({r}, {c}): {content} read as {seen}"
                if points:
                    side, offset = art.octopus_pointing(crop)
                    assert (side, offset > 0.04) == (points, True), f"{comp['id']} ({r}, {c}) {offset:.3f}"


def test_objective_faces_show_plus_then_minus_species(catalog):
    for comp in catalog["components"]:
        back = comp["faces"]["back"]
        if back["kind"] != "objective":
            continue
        crops = {(r, c): crop for r, c, crop in cell_crops(art.render_card_face(comp, "back", PPM), PPM)}
        assert art.closest_content(art.dominant_cell_content_colour(crops[0, 0])) == back["plus"]
        assert art.closest_content(art.dominant_cell_content_colour(crops[1, 0])) == back["minus"]


@pytest.mark.parametrize("frame", ["circle", "square"])
def test_cells_still_read_at_24_px_per_cell(frame):
    """The size the camera model sees: a 300 dpi cell shrunk to 24 x 24 px and slightly blurred."""
    for content in (*SPECIES, "octopus:N", "octopus:E", "octopus:S", "octopus:W"):
        cell = art.render_cell(content, frame)
        small = cv2.GaussianBlur(cv2.resize(cell, (24, 24), interpolation=cv2.INTER_AREA), (3, 3), 0.8)
        name, _, points = content.partition(":")
        assert art.closest_content(art.dominant_cell_content_colour(small)) == name, content
        if points:
            side, offset = art.octopus_pointing(small)
            assert side == points and offset > 0.04, (content, side, offset)
