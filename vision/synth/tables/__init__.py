"""Procedural and photographic table surfaces for the photo simulator.

`draw_table(rng, shape, px_per_mm, kind=None, terrain_hue=False)` returns a BGR uint8 texture of any
shape, seen straight from above at the given resolution. Every family is generated in mm units, so it
looks the same at any resolution; detail finer than about two pixels fades to its mean instead of
aliasing (the far side of a tilted photo is rendered at a low px/mm).

The families (`TABLE_KINDS`, the same tuple as `vision.synth.world.TABLE_FAMILIES`):

- ``wood``: planks with rings, pores and end joints; natural wood tones, or painted/stained in any hue;
- ``plain``: laminate, any hue and lightness;
- ``felt``: plain or mottled felt (soft blotches at several scales, fibre grain);
- ``cloth``: plain-woven cloth;
- ``tablecloth``: woven or plain cloth with fold lines, ripples and soft shading;
- ``patterned``: gingham, stripes, dots and small flowers;
- ``mat``: a neoprene game mat: gradients, big soft printed shapes, lines, a border, a square or hex
  grid of 20-60 mm;
- ``stone``: marble (veins of warped noise), granite (speckles of several colours), slate (layered);
- ``tiled``: ceramic or stone tiles of 50-300 mm in a square or brick lattice with grout lines; a third
  of them are 40-60 mm, as big as the game's own tiles (the island locator's hard case);
- ``paper``: newspaper columns, maps and posters lying on the table, some sheets on top of others;
- ``photo``: bundled photographs (brick, grass, gravel, the moon as pitted stone; `textures/`), tinted;
- ``noise``: fractal noise with random octave weights, as shading, a two-colour mix or blotches.

Colours are drawn from all hues so that a reader trained on these tables keys on the structure of the
game's tiles, not on their colour. With ``terrain_hue=True`` the families whose colour is free
(`vision.synth.world.HUED_FAMILIES`) take a terrain's own colour, or a hue next to one, as their
dominant colour: the hardest tables for a reader that leans on colour.

One module per group of families (hard, fabric, printed, paper, noise, photographs); `common`
holds the palettes and the mm-scaled noise and colour helpers they share.
"""

from __future__ import annotations

import numpy as np

from vision.synth.tables.fabric import _cloth, _felt, _tablecloth
from vision.synth.tables.hard import _plain, _stone, _tiled, _wood
from vision.synth.tables.noise import _noise
from vision.synth.tables.paper import _paper
from vision.synth.tables.photographs import _photo
from vision.synth.tables.printed import _mat, _patterned
from vision.synth.world import HUED_FAMILIES, TABLE_FAMILIES

TABLE_KINDS: tuple[str, ...] = TABLE_FAMILIES


def draw_table(
    rng: np.random.Generator,
    shape: tuple[int, int],
    px_per_mm: float,
    kind: str | None = None,
    terrain_hue: bool = False,
) -> np.ndarray:
    """A table surface of `shape` (h, w) pixels at `px_per_mm`, BGR uint8; `kind` is drawn from
    TABLE_KINDS if None. `terrain_hue` gives the families in HUED_FAMILIES a terrain's colour (or one
    near it) as their dominant colour; the other families ignore it."""
    if kind is None:
        kind = TABLE_KINDS[int(rng.integers(len(TABLE_KINDS)))]
    h, w = int(shape[0]), int(shape[1])
    if h <= 0 or w <= 0:
        raise ValueError(f"table shape must be positive, got {shape}")
    if not px_per_mm > 0:
        raise ValueError(f"px_per_mm must be positive, got {px_per_mm}")
    maker = _MAKERS.get(kind)
    if maker is None:
        raise ValueError(f"unknown table kind {kind!r}; known kinds: {', '.join(TABLE_KINDS)}")
    out = maker(rng, h, w, float(px_per_mm), bool(terrain_hue) and kind in HUED_FAMILIES)
    return np.ascontiguousarray(out)


_MAKERS = {
    "wood": _wood,
    "plain": _plain,
    "felt": _felt,
    "cloth": _cloth,
    "tablecloth": _tablecloth,
    "patterned": _patterned,
    "mat": _mat,
    "stone": _stone,
    "tiled": _tiled,
    "paper": _paper,
    "photo": _photo,
    "noise": _noise,
}
