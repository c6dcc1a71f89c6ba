"""Printable kits: scorecam's own edition of each game, as PNG faces, PDF cut sheets and a manifest.

``write_kit("mondo", out_dir)`` writes one PNG per component face at 300 dpi in its canonical
orientation, ``<game>-kit.pdf`` (A4 cut sheets: all fronts, then all backs laid out for double-sided
printing, flipped on the long edge) and ``manifest.json`` in DESIGN.md's format.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

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


def sheet_layout(size_mm: tuple[float, float], page_mm: tuple[float, float] = A4_MM) -> tuple[int, int]:
    """How many components fit on a page as (columns, rows), with at least 10 mm margins."""
    cols = int((page_mm[0] - 20) // size_mm[0])
    rows = int((page_mm[1] - 20) // size_mm[1])
    return cols, rows


def cut_sheets(images: list[tuple[np.ndarray, np.ndarray]], size_mm: tuple[float, float], title: str) -> list:
    """A4 pages at 300 dpi: pages of fronts, each followed by the page of the same components' backs.

    Back pages mirror the column order so that, printed double-sided and flipped on the long edge,
    every back lands behind its front. Cut lines run across the whole page at every boundary.
    """
    cols, rows = sheet_layout(size_mm)
    per_page = cols * rows
    page_px = (round(A4_MM[0] * PX_PER_MM), round(A4_MM[1] * PX_PER_MM))
    w_px, h_px = round(size_mm[0] * PX_PER_MM), round(size_mm[1] * PX_PER_MM)
    x0 = (page_px[0] - cols * w_px) // 2
    y0 = (page_px[1] - rows * h_px) // 2
    n_sheets = (len(images) + per_page - 1) // per_page
    pages = []
    for sheet in range(n_sheets):
        batch = images[sheet * per_page : (sheet + 1) * per_page]
        for side, face_index in (("fronts", 0), ("backs", 1)):
            page = np.full((page_px[1], page_px[0], 3), 255, np.uint8)
            for i, faces in enumerate(batch):
                row, col = divmod(i, cols)
                if side == "backs":
                    col = cols - 1 - col
                x, y = x0 + col * w_px, y0 + row * h_px
                page[y : y + h_px, x : x + w_px] = cv2.resize(faces[face_index], (w_px, h_px))
            grey = (150, 150, 150)
            for c in range(cols + 1):
                cv2.line(page, (x0 + c * w_px, 0), (x0 + c * w_px, page_px[1]), grey, 1)
            for r in range(rows + 1):
                cv2.line(page, (0, y0 + r * h_px), (page_px[0], y0 + r * h_px), grey, 1)
            label = f"{title}: sheet {sheet + 1} of {n_sheets}, {side}. Print at 100%, double-sided, flip on long edge."
            cv2.putText(
                page,
                label,
                (x0, page_px[1] - 40),
                cv2.FONT_HERSHEY_SIMPLEX,
                1.0,
                (90, 90, 90),
                2,
                cv2.LINE_AA,
            )
            pages.append(Image.fromarray(cv2.cvtColor(page, cv2.COLOR_BGR2RGB)))
    return pages


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
            image = render(component, face, PX_PER_MM)
            cv2.imwrite(str(out_dir / f"{component['id']}-{face}.png"), image)
            faces.append(image)
        images.append((faces[0], faces[1]))
        if progress:
            progress(n + 1, len(components))
    title = {"mondo": "scorecam Mondo kit", "mediterraneo": "scorecam Mediterraneo kit"}[game]
    pages = cut_sheets(images, size_mm, title)
    pages[0].save(out_dir / f"{game}-kit.pdf", save_all=True, append_images=pages[1:], resolution=DPI)
    path = out_dir / "manifest.json"
    path.write_text(json.dumps(manifest(catalog), indent=1) + "\n")
    return path
