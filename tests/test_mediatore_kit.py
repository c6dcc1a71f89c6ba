"""scorecam's own Italian deck: the catalog is the engine's deck, a corner alone tells the card, and
`scorecam kit mediatore` writes PNG faces at 300 dpi, PDF cut sheets and the manifest."""

import itertools
import json

import cv2
import numpy as np
import pytest

from scorecam.cli import main
from scoring.mediatore import DECK, card
from vision.synth.catalog import load_catalog
from vision.synth.kit import DPI, component_size_mm, face_renderer, sheet_layout
from vision.synth.kit import manifest as kit_manifest
from vision.synth.make_mediatore_catalog import catalog
from vision.synth.mediatore_art import (
    INDEX_COLOURS,
    PAPER,
    SUIT_COLOURS,
    SYMBOL_AT,
    SYMBOL_MM,
    corner_box_px,
    render_back,
    render_card,
)


def test_the_catalog_is_the_engines_deck_and_what_its_script_writes():
    committed = load_catalog("mediatore")
    assert committed == json.loads(json.dumps(catalog()))
    assert [c["id"] for c in committed["components"]] == [c.id for c in DECK]
    for component in committed["components"]:
        front = component["faces"]["front"]
        assert card(component["id"]) == card(f"{front['rank']}-{front['suit']}")
        assert front["thirds"] == card(component["id"]).thirds
        assert front["index"] == {"fante": "F", "cavallo": "C", "re": "R"}.get(front["rank"], front["rank"])
        assert component["faces"]["back"] == {"kind": "back"}


PAPER_BGR = np.array(PAPER, np.float32)
PX_PER_MM = 6.0  # enough to check the art's layout, and quick


@pytest.fixture(scope="module")
def fronts():
    return {c.id: render_card(c.rank, c.suit, PX_PER_MM) for c in DECK}


def test_the_bottom_right_corner_is_the_top_left_turned_half_round(fronts):
    w, h = corner_box_px(PX_PER_MM)
    for image in fronts.values():
        top_left = image[:h, :w]
        bottom_right = image[-h:, -w:][::-1, ::-1]
        assert np.array_equal(top_left, bottom_right)


def test_the_suit_symbol_in_a_corner_has_its_suits_colour(fronts):
    palette = {suit: np.array(bgr, float) for suit, bgr in SUIT_COLOURS.items()}
    darks = {suit: np.array(bgr, float) for suit, bgr in INDEX_COLOURS.items()}
    x, y, r = SYMBOL_AT[0] * PX_PER_MM, SYMBOL_AT[1] * PX_PER_MM, SYMBOL_MM * PX_PER_MM / 2
    for card_id, image in fronts.items():
        patch = image[round(y - r) : round(y + r), round(x - r) : round(x + r)].reshape(-1, 3).astype(float)
        inked = patch[np.abs(patch - patch.max(axis=0)).sum(axis=1) > 60]  # off the paper
        distance = {
            suit: min(
                np.linalg.norm(inked - palette[suit], axis=1).mean(),
                np.linalg.norm(inked - darks[suit], axis=1).mean(),
            )
            for suit in SUIT_COLOURS
        }
        assert min(distance, key=distance.get) == card(card_id).suit, card_id


SMALL_PX_PER_MM = 3.0  # a phone photo of a table: the corner box is 39 x 81 pixels


def small_corner(corner: np.ndarray) -> np.ndarray:
    """A corner as a far camera sees it: 3 px/mm, slightly blurred."""
    small = cv2.resize(
        corner.astype(np.float32), corner_box_px(SMALL_PX_PER_MM), interpolation=cv2.INTER_AREA
    )
    return cv2.GaussianBlur(small, (3, 3), 0.8)


def test_a_corner_alone_tells_the_card_even_small_and_noisy():
    """Every card's corner is unlike every other card's: the nearest clean corner to the other,
    turned corner of a card, seen small with a colour cast and noise, is always its own card."""
    full = 300 / 25.4
    faces = {c.id: render_card(c.rank, c.suit, full) for c in DECK}
    w, h = corner_box_px(full)
    templates = {i: small_corner(f[:h, :w]) for i, f in faces.items()}
    pairs = [np.abs(templates[a] - templates[b]).mean() for a, b in itertools.combinations(templates, 2)]
    assert min(pairs) > 2  # the closest pair (3 and 5 of a suit) still differs by 2 grey levels on average
    rng = np.random.default_rng(12)
    for card_id, face in faces.items():
        seen = small_corner(face[-h:, -w:][::-1, ::-1]) * rng.uniform(0.8, 1.1, 3)
        seen = np.clip(seen + rng.normal(0, 6, seen.shape), 0, 255)
        seen = seen / np.percentile(seen, 90, axis=(0, 1)) * PAPER_BGR  # white-balanced on the paper
        distances = sorted((np.abs(seen - t).mean(), other) for other, t in templates.items())
        assert distances[0][1] == card_id and distances[1][0] - distances[0][0] > 1.5, (
            card_id,
            distances[:2],
        )


def test_every_back_is_the_same_and_shows_no_way_up():
    back = render_back(PX_PER_MM)
    assert np.array_equal(back, back[::-1, ::-1])
    assert np.array_equal(back, render_back(PX_PER_MM))


def test_the_kit_knows_the_deck_its_manifest_and_its_faces():
    manifest = kit_manifest(load_catalog("mediatore"))
    assert manifest["game"] == "mediatore" and manifest["dpi"] == DPI and manifest["card_mm"] == [58, 90]
    assert manifest["components"][0]["faces"]["front"]["image"] == "1-coppe-front.png"
    assert component_size_mm(manifest) == (58.0, 90.0)
    render = face_renderer("mediatore")
    front = render(manifest["components"][-1], "front", PX_PER_MM)
    assert np.array_equal(front, render_card("re", "bastoni", PX_PER_MM))
    assert np.array_equal(render(manifest["components"][0], "back", PX_PER_MM), render_back(PX_PER_MM))


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("kit")
    assert main(["kit", "Mediatore", "--out", str(out)]) == 0
    return out, json.loads((out / "manifest.json").read_text())


@pytest.mark.slow
def test_scorecam_kit_mediatore_writes_every_face_and_the_manifest(kit):
    out, manifest = kit
    assert manifest["game"] == "mediatore" and manifest["dpi"] == DPI and manifest["card_mm"] == [58, 90]
    assert len(manifest["components"]) == 40 and len(list(out.glob("*.png"))) == 80
    first = manifest["components"][0]
    assert first["faces"]["front"] | {"image": None} == {
        "kind": "card", "rank": "1", "suit": "coppe", "index": "1", "thirds": 3, "image": None,
    }  # fmt: skip
    front = cv2.imread(str(out / first["faces"]["front"]["image"]))
    assert front.shape[:2] == (round(90 * DPI / 25.4), round(58 * DPI / 25.4))
    assert np.array_equal(front, render_card("1", "coppe"))


@pytest.mark.slow
def test_the_pdf_has_a_front_and_a_back_page_per_sheet(kit):
    from test_kit import PdfReader  # the kit tests' reader of fpdf2's plain PDFs

    out, _ = kit
    reader = PdfReader((out / "mediatore-kit.pdf").read_bytes())
    cols, rows = sheet_layout((58.0, 90.0))
    assert (cols, rows) == (3, 3) and len(reader.pages) == 2 * -(-40 // 9)
