"""scorecam's own Mondo edition: the 48-tile catalog is consistent, and every face draws what it says."""

import math
from collections import Counter

import cv2
import numpy as np
import pytest

from vision.synth import mondo_art
from vision.synth.catalog import face_edge_terrain_readback, load_catalog
from vision.synth.mondo_art import (
    BADGE_RADIUS_MM,
    EDGE_STRIP_MM,
    PATCH_EDGE_MARGIN_MM,
    SPECIES,
    mondo_face_regions,
    render_mondo_face,
)

SIDES = ("N", "E", "S", "W")
LAND = ("forest", "desert", "plains")
PX_PER_MM = 4.0


@pytest.fixture(scope="module")
def catalog() -> dict:
    return load_catalog("mondo")


def all_faces(catalog: dict) -> list[tuple[str, dict]]:
    return [(f"{c['id']}-{name}", face) for c in catalog["components"] for name, face in c["faces"].items()]


def fronts(catalog: dict) -> list[dict]:
    return [c["faces"]["front"] for c in catalog["components"]]


def water_sides(face: dict) -> list[str]:
    return [s for s in SIDES if face["edges"][s] == "water"]


def kind(face: dict) -> str:
    water = water_sides(face)
    if not water:
        return "centre"
    if len(water) == 1:
        return "side"
    if len(water) == 2 and (SIDES.index(water[1]) - SIDES.index(water[0])) % 4 in (1, 3):
        return "corner"
    return "other"


def land_areas(face: dict) -> list[dict]:
    return [a for a in face["areas"] if a["terrain"] != "water"]


def joining(face: dict) -> tuple[int, ...]:
    """Sizes of the land areas' side sets, largest first: (2,) joined corner, (1, 1, 1) all apart, ..."""
    return tuple(sorted((len(a["sides"]) for a in land_areas(face) if a["sides"]), reverse=True))


def crossing(blocks: list[list[str]]) -> bool:
    """Two blocks interleave in the cyclic order N E S W: they could not both be drawn on the tile."""
    for i, a in enumerate(blocks):
        for b in blocks[i + 1 :]:
            for a1 in a:
                for a2 in a:
                    for b1 in b:
                        for b2 in b:
                            ia1, ia2, ib1, ib2 = (SIDES.index(s) for s in (a1, a2, b1, b2))
                            if ia1 < ib1 < ia2 < ib2 or ib1 < ia1 < ib2 < ia2:
                                return True
    return False


# ------------------------------------------------------------------------------------------ the data


def test_catalog_has_48_tiles_with_unique_ids(catalog):
    assert catalog["format"] == 1 and catalog["game"] == "mondo" and catalog["tile_mm"] == 50
    ids = [c["id"] for c in catalog["components"]]
    assert len(ids) == 48 and len(set(ids)) == 48
    assert all(set(c["faces"]) == {"front", "back"} for c in catalog["components"])


def test_fronts_build_four_3x3_or_two_4x4_islands(catalog):
    kinds = Counter(kind(f) for f in fronts(catalog))
    assert set(kinds) <= {"corner", "side", "centre"}
    # Four 3x3 islands: 16 corners, 16 sides, 4 centres. Two 4x4 islands: 8 corners, 16 sides, 8 centres.
    assert kinds["corner"] >= 16 and kinds["side"] >= 16 and kinds["centre"] >= 8
    assert kinds == {"corner": 18, "side": 18, "centre": 12}


def test_animals_volcanoes_and_patches_are_spread_as_planned(catalog):
    faces = fronts(catalog)
    with_animals = [f for f in faces if f["animals"]]
    with_volcanoes = [f for f in faces if f["volcanoes"]]
    with_patches = [f for f in faces if any(not a["sides"] for a in f["areas"])]
    assert all(0 <= f["animals"] <= 2 and 0 <= f["volcanoes"] <= 2 for f in faces)
    assert 20 <= len(with_animals) <= 28  # about half
    assert 9 <= len(with_volcanoes) <= 15  # about a quarter
    assert 7 <= len(with_patches) <= 13  # about 1 in 5
    species = Counter(a["species"] for f in faces for a in f.get("art", {}).get("animals", []))
    assert set(species) == set(SPECIES) and max(species.values()) - min(species.values()) <= 2
    for f in faces:
        assert len(f.get("art", {}).get("animals", [])) == f["animals"]
        assert len(f.get("art", {}).get("volcanoes", [])) == f["volcanoes"]


def test_land_edges_use_every_terrain_evenly_for_each_kind(catalog):
    for k in ("corner", "side", "centre"):
        counts = Counter(
            f["edges"][s] for f in fronts(catalog) if kind(f) == k for s in SIDES if f["edges"][s] != "water"
        )
        assert set(counts) == set(LAND)
        assert max(counts.values()) - min(counts.values()) <= 2, (k, counts)


def test_fronts_show_a_variety_of_joinings(catalog):
    by_kind: dict[str, set] = {}
    for f in fronts(catalog):
        by_kind.setdefault(kind(f), set()).add(joining(f))
    assert by_kind["corner"] == {(2,), (1, 1)}
    assert by_kind["side"] == {(3,), (2, 1), (1, 1, 1)}
    assert by_kind["centre"] == {(4,), (3, 1), (2, 1, 1), (2, 2), (1, 1, 1, 1)}
    # Opposite sides joined around a third (side tiles) and across the tile (centre tiles) both occur.
    opposite = [
        f for f in fronts(catalog) for a in land_areas(f) if sorted(a["sides"]) in (["E", "W"], ["N", "S"])
    ]
    assert {kind(f) for f in opposite} >= {"side", "centre"}


def test_every_face_has_one_to_four_land_areas(catalog):
    for name, face in all_faces(catalog):
        assert len(land_areas(face)) in range(1, 5), name


def test_areas_agree_with_edges(catalog):
    for name, face in all_faces(catalog):
        assert set(face["edges"]) == set(SIDES), name
        for side in SIDES:
            reaching = [a for a in face["areas"] if side in a["sides"]]
            assert len(reaching) == 1, (name, side)
            assert reaching[0]["terrain"] == face["edges"][side], (name, side)
        assert all(a["terrain"] in ("water", *LAND) for a in face["areas"]), name
        assert len([a for a in face["areas"] if a["terrain"] == "water"]) == (
            1 if water_sides(face) else 0
        ), name
        assert not crossing([a["sides"] for a in face["areas"] if a["sides"]]), name


def test_crossing_check_rejects_the_impossible_joining():
    assert crossing([["N", "S"], ["E", "W"]])
    assert not crossing([["N", "S"], ["E"], ["W"]])
    assert not crossing([["N", "E"], ["S", "W"]])


def test_backs_are_one_land_terrain_under_clouds(catalog):
    backs = [c["faces"]["back"] for c in catalog["components"]]
    for back in backs:
        terrain = back["edges"]["N"]
        assert terrain in LAND and set(back["edges"].values()) == {terrain}
        assert back["areas"] == [{"terrain": terrain, "sides": list(SIDES)}]
        assert back["animals"] == 0 and back["volcanoes"] == 0
        assert back["art"].get("clouds") is True
    assert Counter(b["edges"]["N"] for b in backs) == dict.fromkeys(LAND, 16)


def test_badges_and_patches_stay_off_the_edge_strips(catalog):
    for name, face in all_faces(catalog):
        art = face.get("art", {})
        badges = art.get("animals", []) + art.get("volcanoes", [])
        for b in badges:
            # The badge (and its ring) stays clear of the 3 mm edge strips.
            assert EDGE_STRIP_MM + BADGE_RADIUS_MM <= b["x"] <= 50 - EDGE_STRIP_MM - BADGE_RADIUS_MM, name
            assert EDGE_STRIP_MM + BADGE_RADIUS_MM <= b["y"] <= 50 - EDGE_STRIP_MM - BADGE_RADIUS_MM, name
        for i, a in enumerate(badges):
            for b in badges[i + 1 :]:
                assert math.hypot(a["x"] - b["x"], a["y"] - b["y"]) >= 2 * BADGE_RADIUS_MM, name


# --------------------------------------------------------------------------------------- the drawing


def test_every_face_reads_back_its_edge_terrains(catalog):
    wrong = []
    for name, face in all_faces(catalog):
        img = render_mondo_face(face, PX_PER_MM)
        assert img.shape == (200, 200, 3) and img.dtype == np.uint8
        if face_edge_terrain_readback(img) != face["edges"]:
            wrong.append(name)
    assert not wrong


def test_regions_are_connected_and_reach_exactly_their_sides(catalog):
    problems = []
    for name, face in all_faces(catalog):
        labels = mondo_face_regions(face, PX_PER_MM)
        assert labels.shape == (200, 200)
        # Corner pixels lie on two sides at once and decide nothing.
        rims = {"N": labels[0, 1:-1], "E": labels[1:-1, -1], "S": labels[-1, 1:-1], "W": labels[1:-1, 0]}
        for i, area in enumerate(face["areas"]):
            mask = (labels == i).astype(np.uint8)
            pieces = cv2.connectedComponents(mask, connectivity=4)[0] - 1
            reached = {s for s, rim in rims.items() if np.any(rim == i)}
            if pieces != 1 or reached != set(area["sides"]):
                problems.append((name, i, pieces, sorted(reached)))
    assert not problems


def test_edge_strips_show_only_their_sides_area(catalog):
    depth = int(EDGE_STRIP_MM * PX_PER_MM)
    for name, face in all_faces(catalog):
        labels = mondo_face_regions(face, PX_PER_MM)
        strips = {
            "N": labels[:depth, 20:180],
            "E": labels[20:180, -depth:],
            "S": labels[-depth:, 20:180],
            "W": labels[20:180, :depth],
        }  # the middle 80% of each edge, 3 mm deep
        for side, strip in strips.items():
            owner = next(i for i, a in enumerate(face["areas"]) if side in a["sides"])
            assert np.all(strip == owner), (name, side)


def test_patches_are_islands_well_inside_another_terrain(catalog):
    margin = int(PATCH_EDGE_MARGIN_MM * PX_PER_MM)
    for name, face in all_faces(catalog):
        patches = [i for i, a in enumerate(face["areas"]) if not a["sides"]]
        if not patches:
            continue
        labels = mondo_face_regions(face, PX_PER_MM)
        for i in patches:
            ys, xs = np.nonzero(labels == i)
            assert len(ys) > 0, name
            assert min(ys.min(), xs.min()) >= margin and max(ys.max(), xs.max()) < 200 - margin, name
            ring = cv2.dilate((labels == i).astype(np.uint8), np.ones((3, 3), np.uint8)) - (labels == i)
            around = {face["areas"][j]["terrain"] for j in np.unique(labels[ring > 0])}
            assert len(around) == 1 and face["areas"][i]["terrain"] not in around, name


def test_rendering_is_deterministic_and_full_size(catalog):
    face = catalog["components"][5]["faces"]["front"]
    first = render_mondo_face(face)
    mondo_art._render_cached.cache_clear()
    mondo_art._side_regions_cached.cache_clear()
    second = render_mondo_face(face)
    assert first.shape == (591, 591, 3) and first.dtype == np.uint8
    assert np.array_equal(first, second)
    first[:] = 0  # callers get their own copy, never the cached image
    assert render_mondo_face(face).any()


def test_terrains_differ_in_colour_and_texture():
    faces = {
        t: {
            "edges": dict.fromkeys(SIDES, t),
            "areas": [{"terrain": t, "sides": list(SIDES)}],
            "animals": 0,
            "volcanoes": 0,
            "art": {"seed": 1},
        }
        for t in ("water", *LAND)
    }
    images = {t: render_mondo_face(f, PX_PER_MM) for t, f in faces.items()}
    means = {t: img.reshape(-1, 3).mean(axis=0) for t, img in images.items()}
    for a in means:
        for b in means:
            if a < b:
                assert np.linalg.norm(means[a] - means[b]) > 60, (a, b)
    for img in images.values():
        assert img.std() > 5  # marks, not flat colour


def test_load_catalog_names_a_missing_game():
    with pytest.raises(FileNotFoundError, match="no-such-game"):
        load_catalog("no-such-game")
    with pytest.raises(ValueError):
        load_catalog("../mondo")


def test_generator_reproduces_the_committed_catalog(catalog):
    from vision.synth.make_mondo_catalog import build_catalog

    assert build_catalog() == catalog
