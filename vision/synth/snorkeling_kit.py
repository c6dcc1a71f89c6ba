"""The Snorkeling kit: cards and diver mats of two sizes, each on its own cut sheets.

The same output as ``vision.synth.kit.write_kit`` (one PNG per face at 300 dpi, ``snorkeling-kit.pdf``,
``manifest.json``); the difference is that the mats are larger than the cards, so the cards fill
their sheets (nine to an A4 page) and the mats follow on sheets of their own. Faces that print the
same (the three copies of a card, every back) are placed in the PDF as one image, which keeps it small.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2

from vision.catalogs import load_catalog
from vision.synth.kit import FACES, PX_PER_MM, Placement, face_placements, manifest, write_cut_sheets
from vision.synth.snorkeling_art import render_snorkeling_face

GAME = "snorkeling"
TITLE = "scorecam Snorkeling kit"


def kit_placements(components: list[dict]) -> list[Placement]:
    """Every face on the pages: the components grouped by size in catalog order, each group on its
    own sheets (fronts, then backs mirrored for a long-edge flip)."""
    groups: dict[tuple[float, float], list[int]] = {}
    for index, component in enumerate(components):
        groups.setdefault((float(component["mm"][0]), float(component["mm"][1])), []).append(index)
    placements: list[Placement] = []
    first_page = 0
    for size, indices in groups.items():
        group = face_placements(len(indices), size)
        placements += [replace(p, component=indices[p.component], page=first_page + p.page) for p in group]
        first_page = max(p.page for p in placements) + 1
    return placements


def write_snorkeling_kit(out_dir: Path, progress: Callable[[int, int], None] | None = None) -> Path:
    """Write the kit into ``out_dir``; returns the manifest's path."""
    catalog = load_catalog(GAME)
    components = catalog["components"]
    out_dir.mkdir(parents=True, exist_ok=True)
    first_of: dict[str, Path] = {}  # a face printed before: its PNG is copied, and one image in the PDF
    images = []
    for n, component in enumerate(components):
        faces = []
        for face in FACES:
            path = out_dir / f"{component['id']}-{face}.png"
            key = json.dumps(component["faces"][face], sort_keys=True)
            if key in first_of:
                shutil.copyfile(first_of[key], path)
            else:
                cv2.imwrite(str(path), render_snorkeling_face(component, face, PX_PER_MM))
                first_of[key] = path
            faces.append(first_of[key])
        images.append((faces[0], faces[1]))
        if progress:
            progress(n + 1, len(components))
    write_cut_sheets(out_dir / f"{GAME}-kit.pdf", kit_placements(components), images, TITLE)
    path = out_dir / "manifest.json"
    path.write_text(json.dumps(manifest(catalog), indent=1) + "\n")
    return path
