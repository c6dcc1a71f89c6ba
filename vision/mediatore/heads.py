"""The corner model's heads and labels, and the locator's maps (the model files' metadata repeat them;
the reader reads those)."""

from __future__ import annotations

# none: not a card's corner, or a corner too covered to read (never guessed)
RANK_LABELS = ("none", "1", "2", "3", "4", "5", "6", "7", "fante", "cavallo", "re")
SUIT_LABELS = ("coppe", "denari", "spade", "bastoni")
HEADS = {"rank": RANK_LABELS, "suit": SUIT_LABELS}
# corners: every corner box whose index shows, shrunk about its centre (neighbours stay apart);
# centres: a small disk at each such box's centre
LOCATOR_CHANNELS = ("corners", "centres")
