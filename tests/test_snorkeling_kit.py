"""The Snorkeling kit: catalog = the engine's deck, faces at 300 dpi, cut sheets per size, colour-blind-safe art."""

import json
import re

import cv2
import numpy as np
import pytest
from test_kit import PT_PER_MM, PdfReader

from scorecam.cli import main
from scoring.snorkeling import COLORS, Card, deck
from vision.catalogs import load_catalog
from vision.synth.kit import A4_MM, DPI, PX_PER_MM
from vision.synth.make_snorkeling_catalog import build_catalog, catalog_text, check_catalog
from vision.synth.snorkeling_art import hex_bgr, render_snorkeling_face
from vision.synth.snorkeling_kit import kit_placements

OKABE_ITO = {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000"}


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("snorkeling")
    assert main(["kit", "Snorkeling", "--out", str(out)]) == 0
    return out, json.loads((out / "manifest.json").read_text())


def test_the_committed_catalog_is_the_generated_one_and_the_engines_deck(root):
    catalog = load_catalog("snorkeling")
    assert catalog == build_catalog()
    assert (root / "vision/catalogs/snorkeling.json").read_text() == catalog_text(catalog)
    check_catalog(catalog)
    fronts = [c["faces"]["front"] for c in catalog["components"] if c["kind"] == "card"]
    coloured = [Card(f["value"], f["color"]) for f in fronts if f["color"]]
    assert len(coloured) == 75 and sorted(coloured) == sorted(deck().elements())
    assert [f["value"] for f in fronts if not f["color"]] == [5] * 6  # one Lanternfish per diver
    assert sorted(c["faces"]["front"]["mat"] for c in catalog["components"] if c["kind"] == "mat") == [
        1,
        2,
        3,
        4,
        5,
        6,
    ]
    # enough for six players: six hands of 5 and the centre card, and cards left to draw
    assert len(coloured) - 6 * 5 - 1 >= 40


def test_colours_are_okabe_ito_each_with_its_own_pattern_and_symbol():
    catalog = load_catalog("snorkeling")
    assert list(catalog["colors"]) == list(COLORS)
    for table in (catalog["colors"], catalog["mats"]):
        assert {look["hex"] for look in table.values()} <= OKABE_ITO
        for key in ("hex", "pattern"):
            assert len({look[key] for look in table.values()}) == len(table)
    assert len({look["symbol"] for look in catalog["colors"].values()}) == len(COLORS)


def test_manifest_lists_every_face_with_its_image(kit):
    out, manifest = kit
    catalog = load_catalog("snorkeling")
    assert manifest["game"] == "snorkeling" and manifest["dpi"] == DPI
    assert [c["id"] for c in manifest["components"]] == [c["id"] for c in catalog["components"]]
    for listed, source in zip(manifest["components"], catalog["components"], strict=True):
        for name, face in listed["faces"].items():
            assert {k: v for k, v in face.items() if k != "image"} == source["faces"][name]
            assert face["image"] == f"{listed['id']}-{name}.png" and (out / face["image"]).is_file()
    assert len(list(out.glob("*.png"))) == 2 * 87


def test_faces_are_pngs_at_300_dpi_of_their_size(kit):
    out, manifest = kit
    for ident in ("red-0-1", "lanternfish-6", "mat-1"):
        component = next(c for c in manifest["components"] if c["id"] == ident)
        w, h = component["mm"]
        for face in component["faces"].values():
            image = cv2.imread(str(out / face["image"]))
            assert image.shape[:2] == (round(h * DPI / 25.4), round(w * DPI / 25.4))


def test_cut_sheets_cards_nine_to_a_page_then_the_mats(kit):
    out, manifest = kit
    reader = PdfReader((out / "snorkeling-kit.pdf").read_bytes())
    placements = kit_placements(manifest["components"])
    assert len(reader.pages) == 2 * (81 // 9 + 2)  # 9 sheets of cards, 2 of mats (4 a sheet)
    for page in (0, 1, 17, 18, 21):
        content = reader.content(page)
        drawn = re.findall(r"q ([\d.]+) 0 0 ([\d.]+) ([\d.]+) ([\d.]+) cm /(I\d+) Do Q", content)
        on_page = [p for p in placements if p.page == page]
        expected = [
            (
                p.w_mm * PT_PER_MM,
                p.h_mm * PT_PER_MM,
                p.x_mm * PT_PER_MM,
                (A4_MM[1] - p.y_mm - p.h_mm) * PT_PER_MM,
            )
            for p in on_page
        ]
        assert [tuple(map(float, d[:4])) for d in drawn] == [pytest.approx(e, abs=0.006) for e in expected]
        sizes = {(p.w_mm, p.h_mm) for p in on_page}
        assert sizes == ({(59.0, 86.0)} if page < 18 else {(90.0, 125.0)})
    # the three copies of a card and every card back are one image in the PDF
    first_sheet = re.findall(r"/(I\d+) Do", reader.content(0))
    assert len(first_sheet) == 9 and len(set(first_sheet)) == 3
    assert len(set(re.findall(r"/(I\d+) Do", reader.content(1)))) == 1


def card(value, color):
    return {
        "faces": {"front": {"kind": "card", "value": value, "color": color}, "back": {"kind": "card-back"}}
    }


@pytest.fixture(scope="module")
def fronts():
    k = PX_PER_MM / 2  # 150 dpi is enough to look at
    return {(v, c): render_snorkeling_face(card(v, c), "front", k) for c in COLORS for v in range(5)}, k


def test_the_frame_shows_the_cards_colour_and_the_corners_read_the_same_upside_down(fronts):
    images, k = fronts
    palette = {c: np.array(hex_bgr(load_catalog("snorkeling")["colors"][c]["hex"]), float) for c in COLORS}
    for (value, color), image in images.items():
        band = image[: round(3 * k), round(20 * k) : round(40 * k)].reshape(-1, 3).astype(float)
        # the pattern's ink is a shade of the same colour: the mean of the band is nearest its own colour
        mean = band.mean(axis=0)
        assert min(palette, key=lambda c: np.linalg.norm(palette[c] - mean)) == color, (value, color)
        box = (slice(round(6 * k), round(29 * k)), slice(round(6 * k), round(17 * k)))  # numeral and symbol
        assert np.array_equal(image[box], image[::-1, ::-1][box])


def test_every_value_and_colour_prints_differently_and_the_backs_are_all_alike(fronts):
    images, k = fronts
    corners = {key: img[: round(31 * k), : round(19 * k)].astype(int) for key, img in images.items()}
    for a in corners:
        for b in corners:
            if a < b:
                assert np.abs(corners[a] - corners[b]).mean() > 2, (a, b)
    backs = [render_snorkeling_face(card(v, c), "back", k) for v, c in ((0, "red"), (4, "blue"))]
    lantern = render_snorkeling_face({"faces": {"back": {"kind": "card-back"}}}, "back", k)
    assert np.array_equal(backs[0], backs[1]) and np.array_equal(backs[0], lantern)
