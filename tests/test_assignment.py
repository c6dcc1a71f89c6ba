"""vision.assignment: the tile decoder's assignment solver finds the best total, like SciPy's."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from vision.assignment import linear_sum_assignment


def brute_force_best(cost: np.ndarray, maximize: bool) -> float:
    """The best total over every way of giving each row (or column, if fewer) its own partner."""
    rows, cols = cost.shape
    if rows <= cols:
        totals = [cost[range(rows), perm].sum() for perm in itertools.permutations(range(cols), rows)]
    else:
        totals = [cost[perm, range(cols)].sum() for perm in itertools.permutations(range(rows), cols)]
    return max(totals) if maximize else min(totals)


@pytest.mark.parametrize("maximize", [False, True])
def test_optimal_total_on_random_matrices(maximize: bool) -> None:
    rng = np.random.default_rng(7)
    for _ in range(150):
        shape = tuple(rng.integers(1, 6, size=2))
        # small integers make many ties; normals make a unique optimum
        cost = rng.integers(0, 4, size=shape).astype(float) if rng.random() < 0.5 else rng.normal(size=shape)
        rows, cols = linear_sum_assignment(cost, maximize=maximize)
        assert len(rows) == min(shape)
        assert np.all(np.diff(rows) > 0), "rows ascending"
        assert len(set(cols.tolist())) == len(cols), "every column at most once"
        assert cost[rows, cols].sum() == pytest.approx(brute_force_best(cost, maximize))


def test_known_assignment_and_scipy_tie_rules() -> None:
    cost = np.array([[4.0, 1.0, 3.0], [2.0, 0.0, 5.0], [3.0, 2.0, 2.0]])
    rows, cols = linear_sum_assignment(cost)
    assert rows.tolist() == [0, 1, 2] and cols.tolist() == [1, 0, 2]
    # SciPy's rule: a constant matrix gives the identity (and its transpose keeps rows ascending)
    assert linear_sum_assignment(np.ones((3, 5)))[1].tolist() == [0, 1, 2]
    rows, cols = linear_sum_assignment(np.ones((4, 2)), maximize=True)
    assert rows.tolist() == [0, 1] and cols.tolist() == [0, 1]


def test_tall_matrix_picks_the_best_rows() -> None:
    scores = np.array([[0.1], [0.9], [0.5]], np.float32)
    rows, cols = linear_sum_assignment(scores, maximize=True)
    assert rows.tolist() == [1] and cols.tolist() == [0]


def test_empty_and_bad_matrices() -> None:
    rows, cols = linear_sum_assignment(np.zeros((0, 4)))
    assert rows.size == 0 and cols.size == 0
    with pytest.raises(ValueError, match="NaN or infinite"):
        linear_sum_assignment(np.array([[1.0, np.nan]]))
    with pytest.raises(ValueError, match="2-D"):
        linear_sum_assignment(np.zeros(3))
