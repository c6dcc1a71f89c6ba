"""The reference faces the Mediterráneo objective reader matches photos against
(``vision/mediterraneo/objectives.py``): the objective side of the 16 objective cards (8 objectives x
the circle and square sets), drawn by the kit's own art and brought down to a few pixels a cell.

    python -m vision.training.mediterraneo_objective_faces --out models/mediterraneo-objectives.npz

The file (about 100 KB) holds ``faces`` ((16, 3 * px, 2 * px, 3) uint8 BGR, upright portrait, ``px``
pixels a cell) and ``meta`` (JSON: each face's card id, frame, plus and minus species, px per cell,
how it was made). The same command always writes the same faces: nothing here is random.
"""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import cv2
import numpy as np

from vision.catalogs import load_catalog
from vision.synth.mediterraneo_art import CELL_MM, DEFAULT_PX_PER_MM, render_card_face

PX_PER_CELL = 24  # the finest the reader compares at; it shrinks the faces for finding cards


def objective_faces(px_per_cell: int = PX_PER_CELL) -> tuple[np.ndarray, list[dict]]:
    """Every objective side of the kit at ``px_per_cell``, with what each shows."""
    faces, meta = [], []
    for component in load_catalog("mediterraneo")["components"]:
        back = component["faces"]["back"]
        if back["kind"] != "objective":
            continue
        art = render_card_face(component, "back", DEFAULT_PX_PER_MM)  # 300 dpi, then area-averaged
        size = (2 * px_per_cell, 3 * px_per_cell)
        assert art.shape[0] == round(3 * CELL_MM * DEFAULT_PX_PER_MM)
        faces.append(cv2.resize(art, size, interpolation=cv2.INTER_AREA))
        meta.append(
            {"id": component["id"], "frame": component["set"], "plus": back["plus"], "minus": back["minus"]}
        )
    return np.stack(faces), meta


def write_faces(out: Path, px_per_cell: int = PX_PER_CELL) -> Path:
    faces, cards = objective_faces(px_per_cell)
    meta = {
        "format": 1,
        "game": "mediterraneo",
        "what": "objective sides of the kit's cards, upright portrait, BGR",
        "px_per_cell": px_per_cell,
        "cards": cards,
        "made_by": f"python -m vision.training.mediterraneo_objective_faces --px-per-cell {px_per_cell}",
    }
    buffer = io.BytesIO()  # written whole, then moved: a reader never sees half a file
    np.savez_compressed(buffer, faces=faces, meta=np.frombuffer(json.dumps(meta).encode(), np.uint8))
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    tmp.write_bytes(buffer.getvalue())
    tmp.replace(out)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("models/mediterraneo-objectives.npz"))
    parser.add_argument("--px-per-cell", type=int, default=PX_PER_CELL)
    args = parser.parse_args(argv)
    path = write_faces(args.out, args.px_per_cell)
    print(f"{path}: {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
