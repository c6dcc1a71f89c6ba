"""Printable kits: scorecam's own edition of each game, as PNG faces, PDF cut sheets and a manifest.

``write_kit("mondo", out_dir)`` writes one PNG per component face at 300 dpi in its canonical
orientation, ``<game>-kit.pdf`` and ``manifest.json`` in DESIGN.md's format.

The PDF is A4 vector pages: every face is its PNG placed at its true size in millimetres, with thin
vector cut marks at its corners, outside the face, in the gutters between faces. Each sheet of
fronts is followed by the sheet of the same components' backs, each back at the mirrored position,
so that printed double-sided at 100 % and flipped on the long edge every back lies behind its front.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.synth.catalog import load_catalog

DPI = 300
PX_PER_MM = DPI / 25.4
A4_MM = (210.0, 297.0)
FACES = ("front", "back")


def component_size_mm(catalog: dict) -> tuple[float, float]:
    """(width, height) of one component of the catalog's game, upright."""
    if catalog["game"] == "mondo":
        return (float(catalog["tile_mm"]), float(catalog["tile_mm"]))
    width, height = catalog["card_mm"]
    return (float(width), float(height))


def face_renderer(game: str) -> Callable[[dict, str, float], np.ndarray]:
    """``render(component, face, px_per_mm) -> BGR image`` for a game's components."""
    if game == "mondo":
        from vision.synth.mondo_art import render_mondo_face

        return lambda component, face, px_per_mm: render_mondo_face(component["faces"][face], px_per_mm)
    if game == "mediterraneo":
        from vision.synth.mediterraneo_art import render_card_face

        return render_card_face
    if game == "mediatore":
        from vision.synth.mediatore_art import render_card_face as render_mediatore_face

        return render_mediatore_face
    raise ValueError(f"no kit for {game!r}")


def manifest(catalog: dict) -> dict:
    """The catalog with the image file name of every face (DESIGN.md, "Component kits")."""
    out = copy.deepcopy(catalog)
    out["dpi"] = DPI
    for component in out["components"]:
        for face_name, face in component["faces"].items():
            face.pop("art", None)  # drawing details, not part of the published format
            face["image"] = f"{component['id']}-{face_name}.png"
    keys = ["format", "game", "dpi"] + [k for k in out if k not in ("format", "game", "dpi", "components")]
    return {k: out[k] for k in keys} | {"components": out["components"]}


MARGIN_MM = 10.0  # at least this much white paper around the faces: printers do not reach the edge
GUTTER_MM = 3.0  # between neighbouring faces, where the cut marks lie
MARK_GAP_MM = 0.5  # a cut mark starts this far from its face's corner ...
MARK_MM = 2.0  # ... and is this long, so it ends 0.5 mm short of the neighbouring face
MARK_WIDTH_MM = 0.1
LABEL_PT = 7


@dataclass(frozen=True)
class Placement:
    """Where one face lies on the PDF: its page (0-based) and its rectangle in mm from the top left."""

    component: int  # index into the catalog's components
    face: str  # "front" or "back"
    page: int
    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float


def sheet_layout(size_mm: tuple[float, float], page_mm: tuple[float, float] = A4_MM) -> tuple[int, int]:
    """How many components fit on a page as (columns, rows), with the margins and gutters kept."""
    cols = int((page_mm[0] - 2 * MARGIN_MM + GUTTER_MM) // (size_mm[0] + GUTTER_MM))
    rows = int((page_mm[1] - 2 * MARGIN_MM + GUTTER_MM) // (size_mm[1] + GUTTER_MM))
    if cols < 1 or rows < 1:
        raise ValueError(f"a {size_mm[0]} x {size_mm[1]} mm component does not fit on a {page_mm} mm page")
    return cols, rows


def face_placements(
    count: int, size_mm: tuple[float, float], page_mm: tuple[float, float] = A4_MM
) -> list[Placement]:
    """Every face of ``count`` components on the pages: for each sheet a page of fronts, then its backs.

    The grid is centred on the page. A back lies at its front's position mirrored about the page's
    vertical centre line (x -> page width - x - width), which is where a long-edge flip puts it.
    """
    cols, rows = sheet_layout(size_mm, page_mm)
    w, h = size_mm
    x0 = (page_mm[0] - (cols * w + (cols - 1) * GUTTER_MM)) / 2
    y0 = (page_mm[1] - (rows * h + (rows - 1) * GUTTER_MM)) / 2
    placements = []
    for index in range(count):
        sheet, slot = divmod(index, cols * rows)
        row, col = divmod(slot, cols)
        x, y = x0 + col * (w + GUTTER_MM), y0 + row * (h + GUTTER_MM)
        placements.append(Placement(index, "front", 2 * sheet, x, y, w, h))
        placements.append(Placement(index, "back", 2 * sheet + 1, page_mm[0] - x - w, y, w, h))
    return sorted(placements, key=lambda p: (p.page, p.component))


def cut_marks(placement: Placement) -> list[tuple[float, float, float, float]]:
    """The face's cut marks as (x1, y1, x2, y2) segments in mm: at each corner, one along each edge's
    line, pointing away from the face, so a cut from mark to mark follows the edge."""
    left, top = placement.x_mm, placement.y_mm
    right, bottom = left + placement.w_mm, top + placement.h_mm
    near, far = MARK_GAP_MM, MARK_GAP_MM + MARK_MM
    marks = []
    for x, dx in ((left, -1), (right, 1)):
        for y, dy in ((top, -1), (bottom, 1)):
            marks.append((x + dx * near, y, x + dx * far, y))  # along the horizontal edge
            marks.append((x, y + dy * near, x, y + dy * far))  # along the vertical edge
    return marks


def write_cut_sheets(
    path: Path, placements: list[Placement], images: list[tuple[Path, Path]], title: str
) -> None:
    """The PDF: A4 pages, each face's PNG at its placement, vector cut marks, a line of instructions."""
    from fpdf import FPDF  # only writing a kit needs it

    pdf = FPDF(orientation="portrait", unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_title(title)
    pdf.set_creator("scorecam")
    pages = max(p.page for p in placements) + 1
    for page in range(pages):
        pdf.add_page()
        on_page = [p for p in placements if p.page == page]
        for placement in on_page:
            image = images[placement.component][FACES.index(placement.face)]
            pdf.image(str(image), x=placement.x_mm, y=placement.y_mm, w=placement.w_mm, h=placement.h_mm)
        pdf.set_draw_color(0, 0, 0)
        pdf.set_line_width(MARK_WIDTH_MM)
        for placement in on_page:
            for x1, y1, x2, y2 in cut_marks(placement):
                pdf.line(x1, y1, x2, y2)
        side = "fronts" if page % 2 == 0 else "backs"
        label = (
            f"{title}: sheet {page // 2 + 1} of {pages // 2}, {side}. "
            "Print at 100 % (actual size), double-sided, flip on the long edge; cut from mark to mark."
        )
        pdf.set_font("helvetica", size=LABEL_PT)
        pdf.set_text_color(90, 90, 90)
        pdf.text(MARGIN_MM, pdf.h - MARGIN_MM / 2, label)
    pdf.output(str(path))


def write_kit(game: str, out_dir: Path, progress: Callable[[int, int], None] | None = None) -> Path:
    """Write the kit of ``game`` into ``out_dir``; returns the manifest's path."""
    catalog = load_catalog(game)
    render = face_renderer(game)
    size_mm = component_size_mm(catalog)
    out_dir.mkdir(parents=True, exist_ok=True)
    images = []
    components = catalog["components"]
    for n, component in enumerate(components):
        faces = []
        for face in FACES:
            path = out_dir / f"{component['id']}-{face}.png"
            cv2.imwrite(str(path), render(component, face, PX_PER_MM))
            faces.append(path)
        images.append((faces[0], faces[1]))
        if progress:
            progress(n + 1, len(components))
    title = {
        "mondo": "scorecam Mondo kit",
        "mediterraneo": "scorecam Mediterráneo kit",
        "mediatore": "scorecam Mediatore deck",
    }[game]
    placements = face_placements(len(components), size_mm)
    write_cut_sheets(out_dir / f"{game}-kit.pdf", placements, images, title)
    path = out_dir / "manifest.json"
    path.write_text(json.dumps(manifest(catalog), indent=1) + "\n")
    return path
