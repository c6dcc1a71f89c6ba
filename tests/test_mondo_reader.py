"""The Mondo photo reader end to end: committed sample photos score as their truth; the CLI's photo
commands (score, annotate, turn, batch, eval) and photos without exactly one island."""

import csv
import json
import shutil
from dataclasses import replace

import cv2
import numpy as np
import pytest

from scorecam.cli import main
from scorecam.errors import Exit, InputError
from scorecam.photos import score_photo_file
from scoring.mondo import score_turn, single_island_turn, turn_score_to_json
from vision.geometry import grid_cell_quads
from vision.mondo import rule_doubts
from vision.synth.catalog import load_catalog
from vision.synth.mondo_art import render_mondo_face
from vision.synth.mondo_island import component_by_id, random_layout
from vision.synth.photo import PhotoStyle, Piece, photograph


def _report(island):
    return turn_score_to_json(score_turn(single_island_turn("island", island)))["players"][0]


def sample_photos(root):
    photos = sorted((root / "samples/mondo").glob("*.jpg"))
    assert len(photos) >= 8
    return photos


def readable(root):
    """Sample photos the reader scores right with nothing to check (their order in the folder)."""
    photos = sample_photos(root)
    return [photos[i] for i in (0, 2, 3)]


@pytest.mark.parametrize(("folder", "least_exact"), [("samples/mondo", 10), ("samples/mondo-stress", 6)])
def test_sample_photos_score_as_their_truth_or_say_check(root, folder, least_exact):
    """Every committed sample photo gets its true score, or its report says "check", or it is
    refused with a reason: never a wrong score that looks sure. How often each happens, on 500
    photos of each world, is in models/README.md; here at least `least_exact` get the true score."""
    exact = 0
    for photo in sorted((root / folder).glob("*.jpg")):
        truth = json.loads(photo.with_suffix(".json").read_text())
        want = truth["report"]["players"][0]
        try:
            report, _ = score_photo_file(photo)
        except InputError as error:  # refused: the player is told why
            assert error.code == Exit.NO_BOARD, photo.name
            continue
        got = report["players"][0]
        right = (got["points"], got["total"], got["valid"]) == (want["points"], want["total"], want["valid"])
        assert right or report["status"] == "check", photo.name
        exact += right
        assert set(report["timing_ms"]) >= {"decode", "locate", "model", "total"}
    assert exact >= least_exact


def test_a_small_island_is_read_with_the_games_grid_size(root):
    """A 4x4 island spanning a sixth of the frame, on a stress table, read with the game's grid
    (`--grid 4`: two players playing the 4x4 variant): the reader fits only grids of that size."""
    photo = root / "samples/mondo-stress/mondo-s9902-00004.jpg"
    truth = json.loads(photo.with_suffix(".json").read_text())
    assert truth["board"]["grid"] == 4 and truth["scene"]["span"] < 0.2
    report, _ = score_photo_file(photo, grid=4)
    assert report["board"]["grid"] == 4
    assert report["players"][0]["points"] == truth["report"]["players"][0]["points"]
    assert report["players"][0]["total"] == truth["report"]["players"][0]["total"]


def test_a_small_island_is_read_whole_without_its_grid_size(root):
    """A whole 4x4 island spanning under a fifth of a 12 MP photo, steeply tilted, a hand and another
    island at the edge: the open lattice search saw 9 of its tiles; the reader, unsure, locates it
    again told each size, and the 4x4 search finds all 16 (a development photo of seed 9612)."""
    photo = root / "tests/photos/mondo-s9612-00049.jpg"
    truth = json.loads(photo.with_suffix(".json").read_text())
    assert truth["scene"]["grid"] == 4 and len(truth["tiles"]) == 16 and truth["scene"]["span"] < 0.2
    report, _ = score_photo_file(photo)
    assert report["board"]["grid"] == 4 and len(report["board"]["tiles"]) == 16
    assert report["players"][0]["points"] == truth["report"]["players"][0]["points"]
    assert report["status"] == "ok"


def test_score_a_photo_with_an_annotated_picture(root, tmp_path, capsys):
    photo = sample_photos(root)[0]
    picture = tmp_path / "island.png"
    assert main(["score", str(photo), "--annotate", str(picture)]) == 0
    out = capsys.readouterr().out
    assert "Sum" in out and f"annotated picture: {picture}" in out
    image = cv2.imread(str(picture))
    assert image is not None and max(image.shape[:2]) >= 1600 // 2


def test_the_read_board_can_be_fixed_and_scored_again(root, tmp_path, capsys):
    photo = sample_photos(root)[0]
    assert main(["score", "--json", str(photo)]) == 0
    report = json.loads(capsys.readouterr().out)
    board = tmp_path / "island.json"
    board.write_text(json.dumps(report["board"]))
    assert main(["score", "--json", str(board)]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["players"][0]["total"] == report["players"][0]["total"]


def test_turn_of_two_photos_gives_the_first_out_bonus(root, capsys):
    a, b = readable(root)[:2]
    assert main(["turn", "--json", "--first", "Ann", f"Ann={a}", f"Ben={b}"]) == 0
    report = json.loads(capsys.readouterr().out)
    ann, ben = report["players"]
    assert ann["first_out"] is True and ben["first_out"] is False
    assert ann["points"]["first_out"] == (4 if ann["valid"] else 0)
    assert report["source"] == {"Ann": str(a), "Ben": str(b)}


def test_turn_rejects_an_unknown_first_player(root, capsys):
    a = sample_photos(root)[0]
    assert main(["turn", "--first", "Zed", f"Ann={a}"]) == 2


def test_batch_records_failures_and_goes_on(root, tmp_path, capsys):
    photos = readable(root)
    shutil.copy(photos[0], tmp_path / "alone.jpg")
    (tmp_path / "broken.jpg").write_bytes(b"not a photo at all")
    turn = tmp_path / "table-3"
    turn.mkdir()
    shutil.copy(photos[1], turn / "ann.jpg")
    shutil.copy(photos[2], turn / "ben.jpg")
    (turn / "first.txt").write_text("ben\n")
    shutil.copy(root / "samples/boards/island-4x4.json", tmp_path / "typed.json")
    out = tmp_path / "results.csv"
    assert main(["batch", str(tmp_path), "--out", str(out)]) == 1
    rows = list(csv.DictReader(out.open()))
    by_source = {(r["source"].split("/")[-1], r["player"]): r for r in rows}
    assert by_source[("broken.jpg", "")]["status"] == "failed"
    assert "not an image" in by_source[("broken.jpg", "")]["error"]
    assert by_source[("alone.jpg", "alone")]["status"] == "ok"  # the photo's verdict: nothing to check
    assert by_source[("table-3", "ann")]["status"] in ("ok", "check")
    assert by_source[("typed.json", "typed")]["total"] == "46"
    assert by_source[("table-3", "ben")]["points_first_out"] in ("4", "0")
    assert by_source[("table-3", "ben")]["first_out"] == "True"
    lines = [json.loads(line) for line in out.with_suffix(".jsonl").read_text().splitlines()]
    assert len(lines) == 4 and sum("error" in line for line in lines) == 1
    reports = {line["source"].split("/")[-1]: line["report"] for line in lines if "report" in line}
    assert reports["alone.jpg"]["status"] == "ok" and reports["table-3"]["status"] in ("ok", "check")
    assert "status" not in reports["typed.json"]  # a typed board has no reading to doubt
    summary = capsys.readouterr().out
    assert "scored 4 players, " in summary and " to check (status 'check'), 1 input failed" in summary


def _photo_of(pieces, seed, tmp_path, name, box=None):
    shot = photograph(
        pieces, np.random.default_rng(seed), subject_mm=box, long_side_px=1600, style=PhotoStyle(table="wood")
    )
    path = tmp_path / name
    cv2.imwrite(str(path), shot.image)
    return path


def _island_pieces(seed, offset_x):
    catalog = load_catalog("mondo")
    layout = random_layout(catalog, np.random.default_rng(seed), 3, "complete")
    pieces = []
    for p in layout:
        face = component_by_id(catalog, p.component)["faces"][p.face]
        art = np.ascontiguousarray(np.rot90(render_mondo_face(face, 4.0), k=-(p.rotation // 90)))
        pieces.append(Piece(art, (50.0, 50.0), (offset_x + 26 + 52 * p.col, 26 + 52 * p.row)))
    return pieces


def test_a_photo_without_an_island_exits_4(tmp_path, capsys):
    paper = Piece(np.full((300, 200, 3), 245, np.uint8), (100.0, 150.0), (0.0, 0.0))
    path = _photo_of([paper], 1, tmp_path, "table.png", box=(-150, -150, 150, 150))
    assert main(["score", str(path)]) == 4
    assert "no island found" in capsys.readouterr().err


def test_a_mediterraneo_photo_is_read_as_a_sea_not_an_island(root, tmp_path, capsys):
    """No Mondo island in a sea photo: `score` reads the sea and its objective cards; with the cards
    out of the photo it says what it saw and what to pass (a usage error)."""
    from sea_photo_edits import hide_objective_cards

    for photo in sorted((root / "samples/mediterraneo").glob("*.jpg"))[:2]:
        assert main(["score", str(photo), "--json"]) == 0, photo.name
        assert json.loads(capsys.readouterr().out)["game"] == "mediterraneo"
        hidden = hide_objective_cards(photo, tmp_path / photo.name)
        assert main(["score", str(hidden)]) == 2, photo.name
        err = capsys.readouterr().err
        assert err.startswith(f"scorecam: {hidden}: a sea of ") and "--objectives" in err
        assert err.count("\n") == 1


def test_a_damaged_photo_without_an_island_is_not_read_as_a_sea(root, tmp_path, capsys):
    # garbage pixels from a damaged file read as a few sea cards: the damage is the answer, not a sea
    data = sorted((root / "samples/mediterraneo").glob("*.jpg"))[0].read_bytes()
    path = tmp_path / "cut.jpg"
    path.write_bytes(data[: len(data) * 2 // 3] + b"\xff\xd9")  # libjpeg: premature end of the data
    assert main(["score", str(path)]) == 4
    err = capsys.readouterr().err
    assert "no island found" in err and "damaged JPEG data" in err and "sea" not in err


def test_a_turn_given_a_sea_photo_says_how_to_score_it(root, capsys):
    sea = sorted((root / "samples/mediterraneo").glob("*.jpg"))[0]
    island = root / "samples/mondo/mondo-s9900-00000.jpg"
    assert main(["turn", f"Anna={island}", f"Ben={sea}"]) == 4
    err = capsys.readouterr().err
    assert "looks like a Mediterráneo sea, not a Mondo island" in err and "--objectives" in err


def test_a_photo_with_two_islands_says_where_both_are(tmp_path, capsys):
    pieces = _island_pieces(1, 0) + _island_pieces(2, 260)
    path = _photo_of(pieces, 2, tmp_path, "two.png")
    assert main(["score", str(path)]) == 4
    err = capsys.readouterr().err
    assert "2 islands in one photo" in err and "one photo per island" in err
    assert "left" in err and "right" in err


def test_a_100_megapixel_photo_is_read_at_reduced_size(tmp_path, capsys):
    image = np.full((8660, 11550, 3), (90, 120, 150), np.uint8)  # 100 MP of plain table
    path = tmp_path / "huge.jpg"
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 70])
    assert main(["score", str(path)]) == 4
    assert "no island found" in capsys.readouterr().err


def test_eval_reports_every_figure(root, tmp_path, capsys):
    for photo in readable(root):
        shutil.copy(photo, tmp_path)
        shutil.copy(photo.with_suffix(".json"), tmp_path)
    result_path = tmp_path / "eval.json"
    assert main(["eval", str(tmp_path), "--out", str(result_path)]) == 0
    result = json.loads(result_path.read_text())
    assert result["photos"] == 3
    assert result["islands_found"] == 1.0
    assert result["least_tile_clearance"] > 0
    assert {
        "outline_corners_within_0.1_cell",
        "empty_spaces_read_empty",
        "tiles_read_as_tiles",
        "islands_read_exactly",
        "scores_exact",
        "scores_exact_head_by_head",
        "median_ms_per_photo",
        "p90_ms_per_photo",
        "longest_ms_per_photo",
        "wrong_unflagged",
        "right_flagged",
        "by_condition",
        "per_photo",
    } <= set(result)
    assert sum(b["photos"] for b in result["by_condition"]["tilt"].values()) == 3
    assert sum(b["photos"] for b in result["by_condition"]["table family"].values()) == 3
    assert [p["flagged"] for p in result["per_photo"]] == [False] * 3
    # each photo's time kept, the tail named: the longest photo and its time
    slowest = max(result["per_photo"], key=lambda p: p["ms"])
    assert result["longest_photo"] == slowest["photo"]
    assert result["longest_ms_per_photo"] == pytest.approx(slowest["ms"], abs=0.1)
    assert result["median_ms_per_photo"] <= result["p90_ms_per_photo"] <= result["longest_ms_per_photo"]
    assert result["wrong_unflagged"] == 0.0
    assert set(result["head_accuracy"]) >= {"present", "edge_N", "animals", "volcanoes"}
    out = capsys.readouterr().out
    assert "islands found" in out and f"({slowest['photo']})" in out and "90th percentile" in out


@pytest.mark.slow
def test_held_out_figures(tmp_path):
    """A regression guard on 100 held-out everyday photos at 12 MP, at the level measured on
    2026-12-01 (the full 500 and the issue's targets, not met yet: `make eval-mondo`)."""
    from scorecam.evaluate import evaluate
    from vision.synth.dataset import write_photos

    write_photos("mondo", 100, 9001, tmp_path, jobs=2)
    result = evaluate(tmp_path, progress=False)
    assert result["islands_found"] >= 0.75
    assert result["scores_exact"] >= 0.75
    assert result["wrong_unflagged"] <= 0.03


def test_batch_of_every_kind_of_board_file(root, tmp_path, capsys):
    out = tmp_path / "boards.csv"
    assert main(["batch", str(root / "samples/boards"), "--out", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    totals = {(r["source"].split("/")[-1], r["player"]): r["total"] for r in rows}
    assert totals[("mondo-game.json", "Peter")] == "61"
    assert totals[("mediterraneo-round-over.json", "circle")] == "11"
    assert ("mediterraneo-match.json", "") in totals
    assert all(r["status"] == "scored" for r in rows)


@pytest.mark.parametrize("seed", [9625, 9754])
def test_a_whole_empty_outer_row_goes_where_the_coast_says(seed):
    """Six tiles in a 3x3 grid, a whole outer row (or column) empty: the photo alone does not say
    which side it is on, but the rules do: an island's outer edges are coast, its inner ones land."""
    from scoring.mondo import island_from_json
    from scoring.mondo.score import analyse_island
    from vision.mondo.locate import locate_islands
    from vision.mondo.reader import read_best_place
    from vision.synth.scenes import mondo_scene
    from vision.synth.world import World

    scene = mondo_scene(
        np.random.default_rng([seed]),
        load_catalog("mondo"),
        long_side_px=1200,
        grid=3,
        kind="empty",
        world=World(span=(0.45, 0.8)),
    )
    truth = island_from_json(scene.truth["board"])
    assert len(truth.tiles) == 6 and analyse_island(truth).valid  # the seeds are chosen for this
    image = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
    found = locate_islands(image).islands[0]
    # The two places of the grid that hold the six tiles: the truth's, and the one a row (or
    # column) over, past the tiles, where the locator may put it (the photo shows no difference).
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    src = np.concatenate([unit + np.float32([c["col"], c["row"]]) for c in scene.truth["cells"]])
    dst = np.concatenate([np.array(c["quad"], np.float32) for c in scene.truth["cells"]])
    to_image, _ = cv2.findHomography(src, dst)
    rows, cols = {t.row for t in truth.tiles}, {t.col for t in truth.tiles}
    # tiles in rows 0-1 fit rows -1..1 too, tiles in rows 1-2 fit rows 1..3 (the same for columns)
    shift = (0, -1 if 0 in rows else 1) if len(rows) == 2 else (-1 if 0 in cols else 1, 0)
    square = np.array([[0, 0], [3, 0], [3, 3], [0, 3]], np.float32)
    places = [cv2.perspectiveTransform((square + np.float32(d))[None], to_image)[0] for d in ((0, 0), shift)]
    for first, other in (places, places[::-1]):  # whichever the locator names first
        asked = replace(
            found, grid=3, quad=first, cell_quads=grid_cell_quads(first, 3), alternatives=(other,)
        )
        reading, _ = read_best_place(image, asked)
        assert analyse_island(reading.island).valid
        want, got = scene.truth["report"]["players"][0], _report(reading.island)
        assert (got["points"], got["total"]) == (want["points"], want["total"])


def test_an_island_is_refused_only_when_the_photo_edge_cuts_the_island_itself():
    """An island whose edge just touches the photo's edge is whole (its tiles already span the given
    grid): it is read as in the whole photo. Cut through its last column, it is refused."""
    from vision.mondo.reader import read_photo_island

    shot = photograph(
        _island_pieces(3, 0),
        np.random.default_rng(5),
        subject_mm=(-40, -40, 240, 200),
        long_side_px=1600,
        style=PhotoStyle(table="wood", span=0.7),
    )

    def board(reading):
        return [(t.cell, t.component.id, t.component.rotation) for t in reading.island.tiles]

    def cropped(right):
        return read_photo_island(np.ascontiguousarray(shot.image[:, :right]), grid=3)

    whole = read_photo_island(shot.image, grid=3)
    assert whole.refusal is None and len(whole.reading.island.tiles) == 9
    east_edge = int(max(c[:, 0].max() for c in shot.corners))
    touching = cropped(east_edge + 2)
    assert touching.islands[0].cut  # the occupied region reaches the photo's edge
    assert touching.refusal is None and board(touching.reading) == board(whole.reading)
    last_column = int(np.mean([shot.corners[i][:, 0].mean() for i in range(9) if i % 3 == 2]))
    cut = cropped(last_column)
    assert cut.refusal is not None and "runs off the edge" in str(cut.refusal)


def test_a_floor_of_squares_is_no_second_island(monkeypatch):
    # 9517-00211 (a measured stress seed, looked at after): a small island on a white floor of squares
    # about a tile's size, overexposed; the locator sees a lattice of 15 "tiles" on the floor and the
    # tile model reads its pale squares as backs, so the photo was refused as two islands. A second
    # island needs fronts of kit tiles on its grid too.
    from scoring.mondo import score_turn, single_island_turn
    from vision.mondo import reader
    from vision.photo_io import decode_photo
    from vision.synth.dataset import make_scene
    from vision.synth.world import World

    scene = make_scene("mondo", 9517, 211, 4000, world=World(stress=True))
    photo, truth = decode_photo(scene.jpeg), scene.truth["report"]["players"][0]["total"]
    result = reader.read_photo_island(photo, grid=3)
    assert result.refusal is None
    assert score_turn(single_island_turn("island", result.reading.island)).players[0].total == truth
    monkeypatch.setattr(reader, "SECOND_ISLAND_FRONTS", 0)
    result = reader.read_photo_island(photo, grid=3)
    assert result.refusal is not None and result.refusal.reason.startswith("2 islands in one photo")


def test_tiles_in_line_just_outside_the_grid_ask_for_a_check(monkeypatch):
    # 9518-00256 (a measured stress seed, looked at after): a small 4x4 island on a striped table in
    # the terrains' hues, its size not given; the reader settled on a 3x3 grid inside it and said
    # nothing to check (a wrong score, unflagged). The row and the column of the island's tiles lying
    # in line with the grid just outside it now ask for a check. (Since 2026-12-08 a look's reading
    # that breaks the water rule where the island goes on doubts its grid first, and the photo's
    # reading asks "the grid is uncertain" instead: those doubts are off here.)
    from vision.mondo import reader
    from vision.photo_io import decode_photo
    from vision.synth.dataset import make_scene
    from vision.synth.world import World

    scene = make_scene("mondo", 9518, 256, 4000, world=World(stress=True))
    assert scene.truth["board"]["grid"] == 4
    photo = decode_photo(scene.jpeg)
    monkeypatch.setattr(rule_doubts, "MANY_LAND_OUT", None)
    monkeypatch.setattr(rule_doubts, "MANY_BROKEN_EDGES", None)
    result = reader.read_photo_island(photo)
    assert result.reading.grid == 3 and reader.RING_FLAG in result.reading.flags
    monkeypatch.setattr(reader, "RING_CHECK_TILES", 99)
    assert reader.read_photo_island(photo).reading.flags == ()


def test_tiles_of_the_island_sure_but_off_centre_in_the_ring_ask_for_a_check(monkeypatch):
    # 9526-00034 (a fresh stress seed, looked at after it was measured): a whole 4x4 island under a
    # colour cast on gingham, its size not given, read as its bottom-right 3x3 window with nothing to
    # check. The ring cells in line with the island are sure tiles (p(tile) 0.96, 0.90) but, cut on
    # the grid extended rather than on the tiles, fit the kit too badly to count as whole tiles. Sure
    # tiles count in the final check: the look that read the 3x3 window (the first net on the photo
    # darkened) now asks for a check, so the further looks are taken, and the last two read the
    # whole 4x4 island with nothing to check. The 3x3 window faces land out along two sides where the
    # island goes on, which asks for a check as well (MANY_LAND_OUT, MANY_BROKEN_EDGES).
    from scoring.mondo import island_from_json, score_turn, single_island_turn
    from vision.mondo import reader
    from vision.photo_io import decode_photo
    from vision.synth.dataset import make_scene
    from vision.synth.world import World

    def total(island):
        return score_turn(single_island_turn("island", island)).players[0].total

    scene = make_scene("mondo", 9526, 34, 4000, world=World(stress=True))
    truth = island_from_json(scene.truth["board"])
    assert truth.grid == 4
    photo = decode_photo(scene.jpeg)
    kept = reader.read_photo_island(photo).reading
    assert kept.grid == 4 and kept.flags == ()
    assert total(kept.island) == total(truth) == scene.truth["report"]["players"][0]["total"]
    monkeypatch.setattr(reader, "RING_SURE_TILE", None)
    monkeypatch.setattr(rule_doubts, "MANY_LAND_OUT", None)
    monkeypatch.setattr(rule_doubts, "MANY_BROKEN_EDGES", None)
    unchecked = reader.read_photo_island(photo).reading
    assert unchecked.grid == 3 and unchecked.flags == ()
    monkeypatch.undo()
    assert rule_doubts.faces_land_out(unchecked.island) and rule_doubts.breaks_water_widely(unchecked.island)


def test_an_island_read_mostly_back_side_up_asks_for_a_check(monkeypatch):
    # 9023-00116 (a measured everyday seed, looked at after): a large island on a flowered table in
    # dim light; the second locator laid a small 3x3 lattice inside one desert tile and the reader
    # read its nine cells as nine desert backs, with nothing to check (wrong and unflagged).
    from vision.mondo import reader
    from vision.photo_io import decode_photo
    from vision.synth.dataset import make_scene

    scene = make_scene("mondo", 9023, 116, 4000)
    photo = decode_photo(scene.jpeg)
    result = reader.read_photo_island(photo, grid=3)
    if reader.backs_of(result.reading.island) * 2 > len(result.reading.island.tiles):
        assert reader.BACKS_FLAG in result.reading.flags
    else:  # read otherwise: never a wrong score with nothing to check
        truth = scene.truth["report"]["players"][0]["total"]
        total = score_turn(single_island_turn("island", result.reading.island)).players[0].total
        assert total == truth or result.reading.flags
    monkeypatch.setattr(reader, "backs_of", lambda island: 0)
    assert reader.read_photo_island(photo, grid=3).reading.flags == ()


def test_a_3x3_island_filling_the_photo_is_read_with_a_check_on_its_size():
    # 9031-00494 (an everyday development seed): a 3x3 island spanning two thirds of the frame, its
    # grid size not given; the cells round it run off the photo, so a 4x4 island could go on past the
    # edge there. It was refused as cut by the photo's edge; it is read, with a check on its size.
    from vision.mondo import reader
    from vision.photo_io import decode_photo
    from vision.synth.dataset import make_scene

    scene = make_scene("mondo", 9031, 494, 4000)
    photo, truth = decode_photo(scene.jpeg), scene.truth["report"]["players"][0]["total"]
    first = reader.read_with_locator(photo)  # the first net's look: its island reaches the edge
    assert first.islands[0].cut and first.refusal is None and first.reading.grid == 3
    assert reader.SIZE_FLAG in first.reading.flags
    # (an other look, whose island does not reach the photo's edge, may say nothing of it)
    result = reader.read_photo_island(photo)
    assert result.refusal is None
    assert score_turn(single_island_turn("island", result.reading.island)).players[0].total == truth
    given = reader.read_with_locator(photo, grid=3)
    assert given.refusal is None and reader.SIZE_FLAG not in given.reading.flags


def test_an_island_read_breaking_the_water_rule_on_many_edges_doubts_its_grid(monkeypatch):
    # a player who breaks the water rule does it with a tile or so (a tile turned the wrong way breaks
    # it on two sides, a corner tile on four); a grid a row off reads a whole row turned so
    from mondo_builders import D, F, W, full_forest_island, tile

    island = full_forest_island(3)
    middle = tile(0, 1, F, F, W, F)  # the top row's middle tile turned half round: 2 edges
    corner = tile(0, 0, F, W, W, F)  # the top left corner tile turned half round: 4 edges
    right = tile(0, 2, F, F, W, W)  # the top right one: 4 edges

    def laid(*tiles):
        cells = {t.cell for t in tiles}
        return replace(island, tiles=tuple(t for t in island.tiles if t.cell not in cells) + tiles)

    assert not rule_doubts.breaks_water_widely(island)
    assert not rule_doubts.breaks_water_widely(laid(middle))
    assert not rule_doubts.breaks_water_widely(laid(corner))
    assert not rule_doubts.breaks_water_widely(laid(tile(1, 1, F, W, D, F)))  # water facing in: 1 edge
    assert rule_doubts.breaks_water_widely(laid(corner, middle))  # 6 edges
    assert rule_doubts.breaks_water_widely(laid(corner, middle, right))  # the whole row: 10
    monkeypatch.setattr(rule_doubts, "MANY_BROKEN_EDGES", None)
    assert not rule_doubts.breaks_water_widely(laid(corner, middle, right))


def test_a_3x3_island_read_facing_land_out_on_a_whole_side_doubts_its_grid(monkeypatch):
    # a 3x3 window of a 4x4 island faces land out where the island goes on; a player's tile turned
    # the wrong way faces water in as well, and a back at the border faces land out on one or two edges
    from mondo_builders import F, W, full_forest_island, tile

    island = full_forest_island(3)

    def laid(base, *tiles):
        cells = {t.cell for t in tiles}
        return replace(base, tiles=tuple(t for t in base.tiles if t.cell not in cells) + tiles)

    east_goes_on = (tile(0, 2, W, F, F, F), tile(1, 2, F, F, F, F), tile(2, 2, F, F, W, F))
    assert not rule_doubts.faces_land_out(island)
    assert rule_doubts.faces_land_out(laid(island, *east_goes_on))  # 3 edges out, none in
    assert not rule_doubts.faces_land_out(laid(island, *east_goes_on[:2]))  # 2
    assert not rule_doubts.faces_land_out(laid(island, tile(0, 0, F, F, F, F)))  # land all round: 2
    corner_turned = tile(0, 0, F, W, W, F)  # 2 out, 2 in
    assert not rule_doubts.faces_land_out(laid(island, corner_turned, *east_goes_on[1:]))  # 4 out, 2 in
    big = full_forest_island(4)
    four_east = tuple(tile(r, 3, W if r == 0 else F, F, W if r == 3 else F, F) for r in range(4))
    assert not rule_doubts.faces_land_out(laid(big, *four_east))  # a 4x4 island goes on past no grid
    monkeypatch.setattr(rule_doubts, "MANY_LAND_OUT", None)
    assert not rule_doubts.faces_land_out(laid(island, *east_goes_on))


@pytest.mark.slow  # a stress photo drawn again and read twice: about 12 s
def test_a_grid_a_cell_off_breaking_the_water_rule_widely_is_looked_at_again(monkeypatch):
    # 9539-00190 (fresh stress, grid detected, read once as a fresh set): a 3x3 island in dim light,
    # keeping the water rule, whose points total below zero (0). A look read it on a grid a cell off,
    # breaking the rule on six edges (0 as well), with nothing to ask, and was kept. The grid is now
    # doubted there, so the further looks are made, and one reads the island as it is.
    from scoring.mondo.score import analyse_island
    from vision.mondo import reader
    from vision.photo_io import decode_photo
    from vision.synth.dataset import make_scene
    from vision.synth.world import World

    scene = make_scene("mondo", 9539, 190, 4000, world=World(stress=True))
    photo, truth = decode_photo(scene.jpeg), scene.truth["report"]["players"][0]
    result = reader.read_photo_island(photo)
    assert result.refusal is None
    assert _report(result.reading.island)["points"] == truth["points"] and truth["valid"]
    # the reader before: the total right, its parts not, and nothing asked
    monkeypatch.setattr(rule_doubts, "MANY_BROKEN_EDGES", None)
    before = reader.read_photo_island(photo).reading
    assert before.flags == () and len(analyse_island(before.island).invalid_edges) >= 6
    assert _report(before.island)["total"] == truth["total"]


@pytest.mark.slow  # a stress photo drawn again and read twice: about 35 s
def test_a_4x4_island_read_as_3x3_facing_land_out_asks_for_a_check(monkeypatch):
    # 9540-00406 (fresh stress, grid detected, read once as a fresh set): a 4x4 island spanning 17% of
    # the frame, at its corner, on a patterned table of the terrains' hues, read as a 3x3 window of
    # it whose land faces out on 3 edges (0 for 4), with nothing asked
    from vision.mondo import reader
    from vision.photo_io import decode_photo
    from vision.synth.dataset import make_scene
    from vision.synth.world import World

    scene = make_scene("mondo", 9540, 406, 4000, world=World(stress=True))
    photo, truth = decode_photo(scene.jpeg), scene.truth["report"]["players"][0]["total"]
    reading = reader.read_photo_island(photo).reading
    assert _report(reading.island)["total"] == truth or reader.GRID_FLAG in reading.flags
    monkeypatch.setattr(rule_doubts, "MANY_LAND_OUT", None)  # the reader before: wrong, nothing asked
    before = reader.read_photo_island(photo).reading
    assert before.grid == 3 and before.flags == () and _report(before.island)["total"] != truth


def test_a_tile_found_once_its_crop_moved_is_asked_about_once():
    """A cell whose first crop showed no sure tile and whose moved crop shows one is asked whether
    it holds a tile; where the decoder already asks that of the cell, from the moved crop's odds, it
    is not asked a second time (everyday 9042-00347 asked it twice, with odds that did not add up)."""
    from types import SimpleNamespace

    from mondo_builders import full_forest_island

    from vision.mondo.checks import Check
    from vision.mondo.reader import moved_tile_checks

    island = full_forest_island(3)
    table = SimpleNamespace(labels={"present": ("empty", "tile")})
    first = {"present": np.tile([0.1, 0.9], (9, 1))}
    first["present"][8] = [0.8, 0.2]  # the corner (2, 2): first looked empty
    now = {"present": np.tile([0.1, 0.9], (9, 1))}
    now["present"][8] = [0.46, 0.54]
    alone = moved_tile_checks(island, (8,), first, now, table, 3)
    assert [(c.row, c.col, c.head) for c in alone] == [(2, 2, "present")]
    assert alone[0].readings == (("tile", 0.54), ("empty", 0.8))
    decoders = (Check(2, 2, "present", (("tile", 0.54), ("empty", 0.46))),)
    assert moved_tile_checks(island, (8,), first, now, table, 3, asked=decoders) == ()
    # another question of the cell, or the same question of another cell, does not stand for it
    others = (Check(2, 2, "animals", (("1", 0.6), ("0", 0.4))), Check(0, 0, "present", (("tile", 0.6),)))
    assert len(moved_tile_checks(island, (8,), first, now, table, 3, asked=others)) == 1
