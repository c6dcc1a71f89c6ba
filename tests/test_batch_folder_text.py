"""A batch folder's settings file (objectives.txt, mediatore.txt): its lines, or why it cannot be used."""

from scorecam.batch.folder_text import folder_text
from scorecam.batch.mediatore import mediatore_in
from scorecam.batch.seas import objectives_in


def test_lines_without_comments_and_none_without_a_file(tmp_path):
    assert folder_text(tmp_path, "objectives.txt", 100, "two objectives") is None
    (tmp_path / "objectives.txt").write_text("\ufeffcircle=ray/fish # Anna\nfirst=circle\n", encoding="utf-8")
    found = folder_text(tmp_path, "objectives.txt", 100, "two objectives")
    assert found.lines == ("circle=ray/fish ", "first=circle") and not found.problem
    assert found.origin == str(tmp_path / "objectives.txt")


def test_each_reason_a_file_cannot_be_used(tmp_path):
    (tmp_path / "objectives.txt").write_bytes(b"\xff\xfe\x00 not utf-8")
    assert objectives_in(tmp_path).problem == "objectives.txt is not text"
    (tmp_path / "mediatore.txt").write_text("x" * 2001)
    assert mediatore_in(tmp_path).problem == "mediatore.txt is too long for a round's bid"
    (tmp_path / "gone.txt").symlink_to(tmp_path / "nowhere")
    found = folder_text(tmp_path, "gone.txt", 100, "it")
    assert found.problem.startswith("gone.txt cannot be read (")
