"""`write_kit`: PNG faces at 300 dpi, PDF cut sheets and a manifest that matches the catalog."""

import json
import re

import cv2
import pytest

from vision.synth.catalog import load_catalog
from vision.synth.kit import DPI, sheet_layout, write_kit


@pytest.fixture(scope="module", params=["mondo", "mediterraneo"])
def kit(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(request.param)
    return request.param, out, json.loads(write_kit(request.param, out).read_text())


def test_manifest_matches_the_catalog(kit):
    game, out, manifest = kit
    catalog = load_catalog(game)
    assert manifest["format"] == 1 and manifest["game"] == game and manifest["dpi"] == DPI
    assert [c["id"] for c in manifest["components"]] == [c["id"] for c in catalog["components"]]
    for listed, source in zip(manifest["components"], catalog["components"], strict=True):
        for face_name, face in listed["faces"].items():
            original = {k: v for k, v in source["faces"][face_name].items() if k != "art"}
            assert {k: v for k, v in face.items() if k != "image"} == original
            assert face["image"] == f"{listed['id']}-{face_name}.png"


def test_every_face_is_a_png_at_300_dpi(kit):
    game, out, manifest = kit
    size_mm = (50, 50) if game == "mondo" else tuple(manifest["card_mm"])
    expected = (round(size_mm[1] * DPI / 25.4), round(size_mm[0] * DPI / 25.4))
    for component in manifest["components"][:3]:
        for face in component["faces"].values():
            image = cv2.imread(str(out / face["image"]))
            assert image.shape[:2] == expected
    assert len(list(out.glob("*.png"))) == 2 * len(manifest["components"])


def test_the_pdf_has_a_front_and_a_back_page_per_sheet(kit):
    game, out, manifest = kit
    pdf = (out / f"{game}-kit.pdf").read_bytes()
    assert pdf.startswith(b"%PDF")
    cols, rows = sheet_layout((50, 50) if game == "mondo" else tuple(manifest["card_mm"]))
    sheets = -(-len(manifest["components"]) // (cols * rows))
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 2 * sheets
