"""`write_kit`: PNG faces at 300 dpi, PDF cut sheets and a manifest that matches the catalog."""

import itertools
import json
import re
import zlib

import cv2
import pytest

from vision.synth.catalog import load_catalog
from vision.synth.kit import (
    A4_MM,
    DPI,
    GUTTER_MM,
    MARGIN_MM,
    Placement,
    cut_marks,
    face_placements,
    sheet_layout,
    write_kit,
)

PT_PER_MM = 72 / 25.4


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


class PdfReader:
    """Pages, content streams and images of the plain PDF that fpdf2 writes (no object streams):
    enough to check what is drawn where, without a PDF library."""

    def __init__(self, pdf: bytes) -> None:
        self.objects = {int(m[1]): m[2] for m in re.finditer(rb"(?m)^(\d+) 0 obj\n(.*?)\nendobj", pdf, re.S)}
        root = next(body for body in self.objects.values() if re.search(rb"/Type /Pages\b", body))
        self.media_box = [float(v) for v in re.search(rb"/MediaBox \[([^\]]*)\]", root)[1].split()]
        self.pages = [int(k) for k in re.findall(rb"(\d+) 0 R", re.search(rb"/Kids \[([^\]]*)\]", root)[1])]

    def stream(self, number: int) -> bytes:
        body = self.objects[number]
        length = int(re.search(rb"/Length (\d+)", body)[1])
        data = body[body.index(b"stream\n") + len(b"stream\n") :][:length]
        return zlib.decompress(data) if b"/FlateDecode" in body else data

    def page_box(self, page: int) -> list[float]:
        own = re.search(rb"/MediaBox \[([^\]]*)\]", self.objects[self.pages[page]])
        return [float(v) for v in own[1].split()] if own else self.media_box

    def content(self, page: int) -> str:
        return self.stream(int(re.search(rb"/Contents (\d+) 0 R", self.objects[self.pages[page]])[1])).decode(
            "latin-1"
        )

    def image_pixels(self, page: int, name: str) -> bytes:
        """The RGB pixels of image ``name`` (e.g. "I3") of a page, row filter bytes removed."""
        resources = self.objects[int(re.search(rb"/Resources (\d+) 0 R", self.objects[self.pages[page]])[1])]
        number = int(re.search(rb"/" + name.encode() + rb" (\d+) 0 R", resources)[1])
        width = int(re.search(rb"/Width (\d+)", self.objects[number])[1])
        data = self.stream(number)
        row = 1 + 3 * width  # a PNG-predictor filter byte, then the row
        return b"".join(data[i + 1 : i + row] for i in range(0, len(data), row))


def test_the_pdf_has_a4_pages_a_front_and_a_back_page_per_sheet(kit):
    game, out, manifest = kit
    reader = PdfReader((out / f"{game}-kit.pdf").read_bytes())
    cols, rows = sheet_layout((50, 50) if game == "mondo" else tuple(manifest["card_mm"]))
    sheets = -(-len(manifest["components"]) // (cols * rows))
    assert len(reader.pages) == 2 * sheets
    a4_pt = [
        0,
        0,
        pytest.approx(A4_MM[0] * PT_PER_MM, abs=0.01),
        pytest.approx(A4_MM[1] * PT_PER_MM, abs=0.01),
    ]
    assert all(reader.page_box(page) == a4_pt for page in range(len(reader.pages)))


def test_the_pdf_places_every_face_and_its_cut_marks_where_the_layout_says(kit):
    game, out, manifest = kit
    size_mm = (50, 50) if game == "mondo" else tuple(manifest["card_mm"])
    placements = face_placements(len(manifest["components"]), size_mm)
    reader = PdfReader((out / f"{game}-kit.pdf").read_bytes())
    for page in range(len(reader.pages)):
        content = reader.content(page)
        on_page = [p for p in placements if p.page == page]
        # images: "q w 0 0 h x y cm /In Do Q", in points from the bottom left, 2 decimals
        drawn = re.findall(r"q ([\d.]+) 0 0 ([\d.]+) ([\d.]+) ([\d.]+) cm /(I\d+) Do Q", content)
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
        if page < 2:  # the first sheet: each place shows its own face's PNG, pixel for pixel
            for (*_, name), p in zip(drawn, on_page, strict=True):
                face = manifest["components"][p.component]["faces"][p.face]
                png = cv2.imread(str(out / face["image"]))
                assert reader.image_pixels(page, name) == cv2.cvtColor(png, cv2.COLOR_BGR2RGB).tobytes()
        # vector cut marks: "x1 y1 m x2 y2 l S"
        lines = [
            tuple(map(float, m)) for m in re.findall(r"([\d.]+) ([\d.]+) m ([\d.]+) ([\d.]+) l S", content)
        ]
        marks = [
            (x1 * PT_PER_MM, (A4_MM[1] - y1) * PT_PER_MM, x2 * PT_PER_MM, (A4_MM[1] - y2) * PT_PER_MM)
            for p in on_page
            for x1, y1, x2, y2 in cut_marks(p)
        ]
        assert lines == [pytest.approx(m, abs=0.006) for m in marks]


def test_mondo_faces_lie_at_exact_millimetres_backs_mirrored_for_a_long_edge_flip():
    placements = face_placements(16, (50.0, 50.0))
    fronts = [p for p in placements if p.face == "front"]
    backs = {p.component: p for p in placements if p.face == "back"}
    # 3 x 5 tiles of 50 mm with 3 mm gutters, centred on A4: (210 - 156) / 2 = 27, (297 - 262) / 2 = 17.5
    assert [(p.x_mm, p.y_mm) for p in fronts[:4]] == [(27.0, 17.5), (80.0, 17.5), (133.0, 17.5), (27.0, 70.5)]
    assert (fronts[14].x_mm, fronts[14].y_mm, fronts[14].page) == (133.0, 229.5, 0)
    assert (fronts[15].x_mm, fronts[15].y_mm, fronts[15].page) == (27.0, 17.5, 2)  # the next sheet
    for front in fronts:
        back = backs[front.component]
        assert back.page == front.page + 1 and back.y_mm == front.y_mm
        assert back.x_mm == A4_MM[0] - front.x_mm - front.w_mm  # behind its front after the flip
    assert (backs[0].x_mm, backs[2].x_mm) == (133.0, 27.0)


@pytest.mark.parametrize("size_mm", [(50.0, 50.0), (60.0, 90.0), (63.0, 88.0), (41.0, 41.0)])
def test_faces_keep_margins_and_gutters_and_cut_marks_lie_outside_every_face(size_mm):
    placements = face_placements(40, size_mm)
    cols, rows = sheet_layout(size_mm)
    for n, size, page in ((cols, size_mm[0], A4_MM[0]), (rows, size_mm[1], A4_MM[1])):
        # as many as fit inside the margins, with a gutter between neighbours
        assert (
            n * (size + GUTTER_MM) - GUTTER_MM
            <= page - 2 * MARGIN_MM
            < (n + 1) * (size + GUTTER_MM) - GUTTER_MM
        )
    for page, group in itertools.groupby(placements, key=lambda p: p.page):
        faces = list(group)
        for p in faces:
            assert (p.w_mm, p.h_mm) == size_mm
            assert MARGIN_MM <= p.x_mm <= A4_MM[0] - MARGIN_MM - p.w_mm
            assert MARGIN_MM <= p.y_mm <= A4_MM[1] - MARGIN_MM - p.h_mm
        for a, b in itertools.combinations(faces, 2):
            apart_x = max(a.x_mm - b.x_mm - b.w_mm, b.x_mm - a.x_mm - a.w_mm)
            apart_y = max(a.y_mm - b.y_mm - b.h_mm, b.y_mm - a.y_mm - a.h_mm)
            assert max(apart_x, apart_y) >= GUTTER_MM - 1e-9, (page, a, b)
        for p in faces:
            marks = cut_marks(p)
            assert len(marks) == 8  # two at each corner
            for x1, y1, x2, y2 in marks:
                # on the line of one of the face's edges, so a cut from mark to mark follows that edge
                assert (y1 == y2 and y1 in (p.y_mm, p.y_mm + p.h_mm)) or (
                    x1 == x2 and x1 in (p.x_mm, p.x_mm + p.w_mm)
                )
                for face in faces:  # outside every face on the page, its own included, by some paper
                    assert segment_clearance((x1, y1, x2, y2), face) >= 0.25, (p, face, (x1, y1, x2, y2))
                assert 0 < min(x1, x2) <= max(x1, x2) < A4_MM[0] and 0 < min(y1, y2) <= max(y1, y2) < A4_MM[1]


def segment_clearance(segment: tuple[float, float, float, float], face: Placement) -> float:
    """How far an axis-parallel segment stays from a face rectangle (0 when it touches or enters it)."""
    x1, y1, x2, y2 = segment
    dx = max(face.x_mm - max(x1, x2), min(x1, x2) - face.x_mm - face.w_mm, 0.0)
    dy = max(face.y_mm - max(y1, y2), min(y1, y2) - face.y_mm - face.h_mm, 0.0)
    return (dx**2 + dy**2) ** 0.5


def test_a_component_too_big_for_the_page_is_refused():
    with pytest.raises(ValueError, match="does not fit"):
        sheet_layout((200.0, 50.0))
