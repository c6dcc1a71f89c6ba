"""What the players know and the photo may not show: how many divers play the round, and on which
mats. A reading with fewer mats than players missed one; with more, it read something else (a hand
of cards face down, the central pile, a card off the table) as a mat. Either way it says "check"
and names the shortfall rather than scoring a round that is wrong in silence.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace

from vision.snorkeling.reader import RoundReading


def players_flags(
    mats: Collection[int], count: int | None = None, names: Mapping[int, str] | None = None
) -> list[str]:
    """Flags for the mats read (``mats``) against the players' count (``count``) and the mats the
    players named (``names``: mat -> name): a named mat not found, a mat read that nobody named, a
    count that disagrees. Nothing when they agree or nothing is known."""
    flags: list[str] = []
    read = sorted(mats)
    listed = ", ".join(map(str, read)) or "none"
    if names:
        for mat in sorted(set(names) - set(read)):
            flags.append(f"Mat {mat} ({names[mat]}) not found: check that its pile is in the photo")
        for mat in sorted(set(read) - set(names)):
            flags.append(f"Mat {mat} read, but no player was named for it: a hand or a card read as a mat?")
    if count is not None and count < len(read):
        flags.append(
            f"{len(read)} mats found (mats {listed}) for {count} players: "
            "one may be a hand, the central pile or a card read as a mat"
        )
    elif count is not None and count > len(read):
        missing = count - len(read)
        flags.append(
            f"{len(read)} mats found (mats {listed}) for {count} players: "
            f"{missing} {'mat' if missing == 1 else 'mats'} not found, check that every pile is in the photo"
        )
    return flags


def with_players(
    reading: RoundReading, count: int | None = None, names: Mapping[int, str] | None = None
) -> RoundReading:
    """``reading`` with the flags of :func:`players_flags` added (its status "check" if any)."""
    extra = players_flags([p.mat for p in reading.piles], count, names)
    return replace(reading, flags=(*reading.flags, *extra)) if extra else reading
