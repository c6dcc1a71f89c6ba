"""`scorecam batch --ray`: the same work on Ray Data, the same files as one process (issue 13).
Slow: a local Ray instance takes seconds to start."""

import shutil
import sys
from dataclasses import replace

import pytest
from test_batch import lines_of, without_timing

from scorecam.batch import run_batch
from scorecam.errors import Exit, InputError


@pytest.mark.slow
def test_ray_writes_the_files_of_one_process(root, tmp_path):
    import ray  # the `ray` extra: `make test-slow` installs it

    folder = tmp_path / "in"
    turn = folder / "table-1"
    turn.mkdir(parents=True)
    photos = sorted((root / "samples/mondo").glob("*.jpg"))
    shutil.copy(photos[0], turn / "Kathrin.jpg")
    shutil.copy(photos[2], turn / "Peter.jpg")
    (turn / "first.txt").write_text("Peter\n")
    shutil.copy(photos[3], folder / "alone.jpg")
    for board in sorted((root / "samples/boards").glob("*.json")):
        shutil.copy(board, folder / board.name)
    (folder / "broken.json").write_text("{")
    (folder / "junk.jpg").write_bytes(b"junk")
    one = run_batch(folder, tmp_path / "one.csv", None, jobs=1)
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        on_ray = run_batch(folder, tmp_path / "ray.csv", None, ray="auto")
    finally:
        ray.shutdown()
    # the same summary; its per-game tables are named after each run's CSV, and hold the same rows
    assert replace(on_ray, tables=()) == replace(one, tables=()) and one.inputs_failed == 2
    assert one.players_scored >= 12 and [t.name for t in one.tables]
    assert [t.name.replace("ray-", "one-", 1) for t in on_ray.tables] == [t.name for t in one.tables]
    for ours, theirs in zip(on_ray.tables, one.tables, strict=True):
        assert ours.read_bytes() == theirs.read_bytes()
    assert (tmp_path / "ray.csv").read_bytes() == (tmp_path / "one.csv").read_bytes()
    assert without_timing(lines_of(tmp_path / "ray.jsonl")) == without_timing(
        lines_of(tmp_path / "one.jsonl")
    )


def test_ray_missing_is_a_one_line_usage_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if the extra were not installed
    (tmp_path / "in").mkdir()
    with pytest.raises(InputError) as refused:
        run_batch(tmp_path / "in", tmp_path / "out.csv", None, ray="auto")
    assert refused.value.code == Exit.USAGE
    assert "pip install 'scorecam[ray]'" in str(refused.value) and "\n" not in str(refused.value)
    assert not (tmp_path / "out.csv").exists()
