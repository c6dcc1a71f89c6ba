"""A progress bar on standard error for long work; silent when stderr is not a terminal."""

from __future__ import annotations

import sys
import time


class Progress:
    """``Progress("scoring", total)`` then call it with the count done: ``bar(done, total)``."""

    def __init__(self, label: str, total: int, *, stream=None, enabled: bool | None = None) -> None:
        self.label = label
        self.total = total
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.start = time.monotonic()

    def __call__(self, done: int, total: int | None = None) -> None:
        if not self.enabled:
            return
        total = total or self.total
        width = 28
        filled = int(width * done / max(total, 1))
        elapsed = time.monotonic() - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else 0.0
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total}  {rate:.1f}/s  eta {eta:.0f}s ")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.start
