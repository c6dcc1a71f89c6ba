"""The linear sum assignment (each row to a different column, best total), in numpy alone.

The tile decoder assigns physical tiles to cells with it on every photo. SciPy's
``scipy.optimize.linear_sum_assignment`` does the same job, but importing ``scipy.optimize`` costs
about 300 ms, half the start-up budget of ``scorecam score photo.jpg``; the matrices here are small
(cells x kit tiles), so a port of the same algorithm is as fast and returns the same pairs, ties
included: the shortest augmenting path method of Crouse (2016) as SciPy implements it (its
rectangular_lsap.cpp, BSD-3-Clause, by P. M. Larsen), with the same visiting order and tie rules.
"""

from __future__ import annotations

import numpy as np


def linear_sum_assignment(cost: np.ndarray, maximize: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(rows, columns) of the optimal assignment, rows ascending; min(n_rows, n_cols) pairs.

    The same contract as SciPy's function of this name for a finite 2-D matrix.
    """
    matrix = np.asarray(cost, dtype=np.float64)
    if matrix.ndim != 2:
        raise ValueError(f"expected a matrix (2-D array), got a {matrix.ndim}-D array")
    if not np.all(np.isfinite(matrix)):
        raise ValueError("the cost matrix holds NaN or infinite entries")
    transposed = matrix.shape[1] < matrix.shape[0]
    if transposed:
        matrix = matrix.T
    if maximize:
        matrix = -matrix
    if matrix.size == 0:
        empty = np.zeros(0, np.int64)
        return empty, empty.copy()
    col4row = _solve(np.ascontiguousarray(matrix))
    if not transposed:
        return np.arange(len(col4row)), col4row
    order = np.argsort(col4row)
    return col4row[order], order


def _solve(input_cost: np.ndarray) -> np.ndarray:
    """Each row's column for a matrix with no more rows than columns (SciPy's ``solve``)."""
    nr, nc = input_cost.shape
    cost = input_cost - input_cost.min()  # non-negative, as the method needs
    u, v = np.zeros(nr), np.zeros(nc)
    path = np.full(nc, -1, np.int64)
    col4row = np.full(nr, -1, np.int64)
    row4col = np.full(nc, -1, np.int64)
    for current in range(nr):
        sink, min_val, shortest, rows_seen, cols_seen = _augmenting_path(cost, u, v, path, row4col, current)
        # update the dual variables
        u[current] += min_val
        others = np.flatnonzero(rows_seen)
        others = others[others != current]
        u[others] += min_val - shortest[col4row[others]]
        v[cols_seen] -= min_val - shortest[cols_seen]
        # augment the previous solution along the path
        j = sink
        while True:
            i = path[j]
            row4col[j] = i
            col4row[i], j = j, col4row[i]
            if i == current:
                break
    return col4row


def _augmenting_path(
    cost: np.ndarray, u: np.ndarray, v: np.ndarray, path: np.ndarray, row4col: np.ndarray, i: int
) -> tuple[int, float, np.ndarray, np.ndarray, np.ndarray]:
    """The sink column of the shortest augmenting path from row ``i``; updates ``path`` in place."""
    nr, nc = cost.shape
    min_val = 0.0
    # Columns not yet on the tree, in SciPy's order: filled in reverse (a constant matrix then gives
    # the identity), and a visited column's slot takes the last one.
    remaining = np.arange(nc - 1, -1, -1)
    count = nc
    rows_seen = np.zeros(nr, bool)
    cols_seen = np.zeros(nc, bool)
    shortest = np.full(nc, np.inf)
    while True:
        rows_seen[i] = True
        cols = remaining[:count]
        # same operation order as the C++ (((min_val + cost) - u) - v): the same doubles
        reduced = min_val + cost[i, cols] - u[i] - v[cols]
        better = reduced < shortest[cols]
        path[cols[better]] = i
        shortest[cols[better]] = reduced[better]
        candidates = shortest[cols]
        lowest = candidates.min()
        if lowest == np.inf:
            raise ValueError("the cost matrix is infeasible")
        # SciPy's scan keeps the first minimum, unless a later minimum is a free column (a sink)
        ties = np.flatnonzero(candidates == lowest)
        free = ties[row4col[cols[ties]] == -1]
        index = int(free[-1]) if len(free) else int(ties[0])
        min_val = float(lowest)
        j = int(cols[index])
        cols_seen[j] = True
        count -= 1
        remaining[index] = remaining[count]
        if row4col[j] == -1:
            return j, min_val, shortest, rows_seen, np.flatnonzero(cols_seen)
        i = int(row4col[j])
