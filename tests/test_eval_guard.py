"""`scorecam eval DIR` never stops on one photo: a reading that raises (a bug, never the photo's fault)
is recorded with what it raised and where, the other photos are measured, and the exit is 0; only a
folder without photos with truth is "no board" (exit 4), a stray ValueError elsewhere is a bug (70).
And the lattice fit refuses a least-squares fit onto nodes on one line (a map with no inverse)."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

import vision.photo_io as photo_io
from scorecam.cli import main
from vision.lattice import cell_size, fit_lattice, homography_to

ROOT = Path(__file__).resolve().parents[1]

# game: (samples folder, the module whose reader is replaced, its reader, the "found" figure)
GAMES = {
    "mondo": ("mondo", "vision.mondo.reader", "read_photo_island", "islands_found"),
    "snorkeling": ("snorkeling", "vision.snorkeling", "read_round", "tables_found"),
    "mediatore": ("mediatore", "vision.mediatore", "read_cards", "photos_found"),
    "mediterraneo": ("mediterraneo", "vision.mediterraneo.reader", "read_sea", "seas_found"),
}


def _two_photos(game: str, folder: Path) -> list[str]:
    """The first two sample photos of ``game`` with their truth JSONs, copied into ``folder``."""
    photos = sorted((ROOT / "samples" / GAMES[game][0]).glob("*.jpg"))[:2]
    for photo in photos:
        shutil.copy(photo, folder / photo.name)
        shutil.copy(photo.with_suffix(".json"), folder / photo.with_suffix(".json").name)
    return [p.name for p in photos]


def _reader_that_raises_on(monkeypatch, module_name: str, reader_name: str, bad: str) -> None:
    """The reader raises numpy's LinAlgError (a ValueError) on the photo named ``bad``, reads the others."""
    import importlib

    module = importlib.import_module(module_name)
    real_reader, real_read_photo = getattr(module, reader_name), photo_io.read_photo
    names: dict[int, str] = {}  # id of a Photo read -> its file's name

    def read_photo(path, *args, **kwargs):
        photo = real_read_photo(path, *args, **kwargs)
        names[id(photo)] = Path(path).name
        return photo

    def degenerate_reader(photo, *args, **kwargs):
        if names.get(id(photo)) == bad:
            np.linalg.inv(np.zeros((3, 3)))  # a singular lattice, as stress photo 00007 of seed 9621 met
        return real_reader(photo, *args, **kwargs)

    monkeypatch.setattr(photo_io, "read_photo", read_photo)
    monkeypatch.setattr(module, reader_name, degenerate_reader)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_reading_that_raises_is_recorded_and_the_other_photo_measured(game, monkeypatch, tmp_path, capsys):
    good, bad = _two_photos(game, tmp_path)
    _reader_that_raises_on(monkeypatch, *GAMES[game][1:3], bad)
    figures_file = tmp_path.parent / f"{tmp_path.name}-figures.json"
    assert main(["eval", str(tmp_path), "--out", str(figures_file)]) == 0
    table = capsys.readouterr().out
    result = json.loads(figures_file.read_text())
    assert result["photos"] == 2
    [raised] = result["raised"]
    assert raised["photo"] == bad
    assert raised["raised"].startswith("LinAlgError: Singular matrix at ")
    assert raised["raised"].endswith(" in degenerate_reader")
    assert "tests/test_eval_guard.py:" in raised["raised"]
    assert result[GAMES[game][3]] == 0.5  # the other photo is read, and found
    records = {r["photo"]: r for r in result.get("records") or result["per_photo"]}
    assert records[good]["found"] is True and "raised" not in records[good]
    assert records[bad]["found"] is False and records[bad]["raised"] == raised["raised"]
    assert "readings that raised (bugs)" in table
    assert f"  {bad}: {raised['raised']}" in table.splitlines()


def test_batch_makes_a_reading_that_raises_a_failed_row_and_goes_on(monkeypatch, tmp_path):
    """`scorecam batch` already did: a lone photo, and one player's photo of a turn, whose reading
    raises are failed rows naming the error; the other photos are scored."""
    from scorecam.batch import run_batch

    folder, turn = tmp_path / "in", tmp_path / "in" / "table-1"
    turn.mkdir(parents=True)
    photos = sorted((ROOT / "samples" / "mondo").glob("*.jpg"))
    for source, target in zip(photos, (folder / "good.jpg", turn / "ann.jpg"), strict=False):
        shutil.copy(source, target)
    shutil.copy(photos[0], folder / "bad.jpg")
    shutil.copy(photos[0], turn / "ben.jpg")
    _reader_that_raises_on(monkeypatch, "vision.mondo.reader", "read_island", "bad.jpg")
    _reader_that_raises_on(monkeypatch, "vision.mondo.reader", "read_island", "ben.jpg")
    summary = run_batch(folder, tmp_path / "out.csv", None, jobs=1)
    rows = {(Path(r["source"]).name, r["player"]): r for r in csv.DictReader((tmp_path / "out.csv").open())}
    error = "internal error (LinAlgError: Singular matrix)"
    assert rows[("bad.jpg", "")]["status"] == "failed" and rows[("bad.jpg", "")]["error"] == error
    assert (
        rows[("table-1", "ben")]["status"] == "failed"
        and rows[("table-1", "ben")]["error"] == f"ben.jpg: {error}"
    )
    assert rows[("good.jpg", "good")]["status"] in ("ok", "check") and rows[("good.jpg", "good")]["total"]
    assert rows[("table-1", "ann")]["status"] == "incomplete" and rows[("table-1", "ann")]["total"]
    assert summary.inputs_failed == 2


def test_a_stray_value_error_is_an_internal_error_not_no_board(monkeypatch, tmp_path, capsys):
    """Only a folder without photos with truth is "no board"; a ValueError from anywhere else in an
    evaluation (here: loading the model, outside any one photo) is a bug, said as one (exit 70)."""
    import vision.mondo.reader as reader

    _two_photos("mondo", tmp_path)

    def broken_model():
        raise ValueError("operands could not be broadcast together")

    monkeypatch.setattr(reader, "tile_model", broken_model)
    assert main(["eval", str(tmp_path)]) == 70
    err = capsys.readouterr().err
    assert "internal error (ValueError: operands could not be broadcast together)" in err
    assert "no board" not in err and "no Mondo photos" not in err


@pytest.mark.parametrize("game", ["mondo", "snorkeling"])
def test_a_broken_truth_is_unreadable_input_not_a_reader_bug(game, tmp_path, capsys):
    _, broken = _two_photos(game, tmp_path)
    truth = tmp_path / Path(broken).with_suffix(".json").name
    truth.write_text(json.dumps(json.loads(truth.read_text()) | {"board": {"cells": "none"}}))
    assert main(["eval", str(tmp_path)]) == 3
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"scorecam: {truth}: not a usable truth file (") and "\n" not in err


def test_a_folder_without_photos_with_truth_is_still_no_board(tmp_path, capsys):
    (tmp_path / "notes.json").write_text('{"game": "mondo"}')
    assert main(["eval", str(tmp_path)]) == 4
    assert capsys.readouterr().err.strip() == f"scorecam: {tmp_path}: no Mondo photos with truth JSON"


# ------------------------------------------------------------------------------------------ lattice

CELL = 60.0


def _picture(cells: list[tuple[int, int]], angle: float = 0.4) -> np.ndarray:
    """Picture px of cell centres 60 px apart, the lattice turned by ``angle`` radians."""
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    return np.asarray(cells, np.float64) @ turn.T * CELL + 300.0


@pytest.mark.parametrize("n", [5, 8])  # an affine fit (below 6 points) and a perspective one
def test_a_fit_onto_nodes_on_one_line_is_refused(n):
    """Points off a line, each given a node of one row: the least-squares map sends the whole picture
    onto that row (its second row is zero) and has no inverse, so there is no fit."""
    pts = _picture([(i, i % 2) for i in range(n)])
    assert homography_to(pts, np.column_stack([np.arange(n), np.zeros(n)])) is None
    good = homography_to(pts, np.array([(i, i % 2) for i in range(n)], np.float64))
    assert good is not None and np.allclose(cell_size(good, np.array([2, 0])), CELL)


def test_nodes_all_on_one_line_but_one_get_an_affine_fit_not_a_degenerate_perspective():
    """Six nodes, five on a row: too few to pin perspective (no four with three off a line)."""
    cells = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (2, 1)]
    h = homography_to(_picture(cells), np.array(cells, np.float64))
    assert h is not None and np.allclose(h[2], [0.0, 0.0, 1.0])
    assert np.allclose(cell_size(h, np.array([2, 0])), CELL)


@pytest.mark.parametrize(
    "cells",
    [
        [(0, 0), (1, 0), (1, 1), (2, 0), (3, 0), (4, 0)],
        [(0, 0), (1, 0), (1, 1), (2, 0), (3, 0), (3, -1), (4, 0), (5, 0)],
    ],
)
def test_a_row_of_cells_with_a_few_off_it_is_fitted_as_a_lattice(cells):
    """A row of cells and one or two off it: grown from the row, the fit once collapsed onto it (or
    onto a perspective map with a horizon among the cells); refused, the true lattice wins."""
    fit = fit_lattice(_picture(cells))
    assert fit is not None and fit.count == len(cells)
    assert len({tuple(n) for n in fit.nodes.tolist()}) == len(cells)  # one point a node
    assert cell_size(fit.g, fit.nodes[0]) == pytest.approx(CELL, rel=0.01)
    steps = {tuple(n) for n in (fit.nodes - fit.nodes[0]).tolist()}
    truth = np.array(cells) - cells[0]
    assert steps in ({tuple(t) for t in (truth @ m.T).tolist()} for m in _symmetries())


def _symmetries() -> list[np.ndarray]:
    """The eight symmetries of the square lattice."""
    turns = [np.array([[1, 0], [0, 1]]), np.array([[0, -1], [1, 0]]), np.array([[-1, 0], [0, -1]])]
    turns.append(np.array([[0, 1], [-1, 0]]))
    return [t @ m for t in turns for m in (np.eye(2, dtype=int), np.diag([1, -1]))]
