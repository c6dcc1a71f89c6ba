"""The objective cards' second look: a lattice's affine part at the sea (a lattice fitted to a small
sea can be steeply wrong in perspective where the objective cards lie, a few cells away)."""

from __future__ import annotations

import numpy as np

from vision.lattice import apply_h
from vision.mediterraneo.objectives import _affine_at

# view px -> lattice cells for a tilted phone: a homography with a strong perspective part
G = np.linalg.inv(np.array([[42.0, 9.0, 310.0], [-6.0, 37.0, 190.0], [0.002, 0.0025, 1.0]]))


def test_the_affine_part_agrees_with_the_lattice_at_the_sea_to_first_order():
    node = np.array([2.5, 1.5])
    flat = _affine_at(G, node)
    assert flat is not None
    assert np.allclose(flat[2], [0.0, 0.0, 1.0])  # no perspective left
    middle = apply_h(np.linalg.inv(G), node[None])[0]
    assert np.allclose(apply_h(flat, middle[None])[0], node)
    # a step of a few px from the sea's middle lands where the lattice puts it, to first order ...
    near = middle + [3.0, -2.0]
    assert np.abs(apply_h(flat, near[None])[0] - apply_h(G, near[None])[0]).max() < 0.01
    # ... while far away, where the perspective counts, the two differ
    far = middle + [-400.0, -300.0]
    assert np.abs(apply_h(flat, far[None])[0] - apply_h(G, far[None])[0]).max() > 0.25


def test_a_degenerate_lattice_has_no_affine_part():
    flat_line = np.array([[1 / 60, 0.0, -5.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]])  # no inverse
    assert _affine_at(flat_line, np.array([1.0, 1.0])) is None
