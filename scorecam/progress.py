"""A progress bar on standard error for long work: rich's, and only when stderr is a terminal (a
pipe, a file or a test gets nothing). rich is imported at the first update that draws."""

from __future__ import annotations

import atexit
import sys
import time


class Progress:
    """``Progress("scoring", total)`` then call it with the count done: ``bar(done)`` or
    ``bar(done, total)``; the bar closes itself when done reaches the total."""

    def __init__(self, label: str, total: int, *, stream=None, enabled: bool | None = None) -> None:
        self.label = label
        self.total = total
        self.stream = stream or sys.stderr
        self.enabled = _is_terminal(self.stream) if enabled is None else enabled
        self.start = time.monotonic()
        self._bar = None  # (rich Progress, task id) once drawing

    def __call__(self, done: int, total: int | None = None) -> None:
        if not self.enabled:
            return
        if total:
            self.total = total
        if self._bar is None:
            self._bar = self._open()
        bar, task = self._bar
        bar.update(task, completed=done, total=max(self.total, 1))
        bar.refresh()
        if self.total and done >= self.total:
            self.close()

    def _open(self):
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as RichProgress

        bar = RichProgress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            console=Console(file=self.stream),
            auto_refresh=False,  # redrawn at each update: no thread left behind
        )
        task = bar.add_task(self.label, total=max(self.total, 1))
        bar.start()
        atexit.register(self.close)  # an error halfway must not leave the terminal's cursor hidden
        return bar, task

    def close(self) -> None:
        if self._bar is not None:
            bar, _ = self._bar
            self._bar = None
            bar.stop()

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.start


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
