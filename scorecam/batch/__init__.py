"""`scorecam batch`: score a whole folder of photos (and board files) into CSV and JSON lines.

Every photo or board directly under the folder is scored alone; a sub-folder with several photos
is one turn (players named after the files; a ``first.txt`` naming one of them gives the first-out
bonus, and a ``first.txt`` naming anyone else is an error for that turn). A file that fails is
recorded with its reason and the work goes on; a link that leads nowhere is a failed row too.

The CSV's ``status``: ``ok`` or ``check`` for a player read from a photo (the report's verdict:
``check`` when any of that photo's readings is doubtful), ``scored`` for a board file, ``failed``
for an input that could not be scored (``error`` says why, on one line), and ``incomplete`` for the
players of a turn in which another photo failed: their volcano majority and first-out are withheld
(empty cells), ``total`` is what they score without them, and ``error`` says which photo failed.
Every row of a turn has the turn's folder as ``source`` and its path under DIR as ``turn``; a
failed photo's row names its player. The JSON lines hold one line per input (a file, or a turn's
folder): its ``report``, or its ``error``; a turn with failed photos lists them under ``failed``.
Strings that are not valid UTF-8 (file names, board names) are written escaped (``Anna-\\xe4.jpg``).

The CSV's columns are Mondo's; a Snorkeling or Mediatore player's row there fills ``player`` and
``total`` (the round's total, the payment, the ledger's balance). Each of those games also gets a table
of its own beside the CSV, one row per player (``RESULTS-snorkeling.csv``: mat, top card, points,
verdict; ``RESULTS-mediatore.csv``: bid, side, count in thirds, payment; ``RESULTS-mediterraneo.csv``:
each sea's objectives, points, round verdict and octopuses), written only when the batch scored a file
of that game (see ``scorecam.batch.games``). A Mediterráneo sea photo is scored by the objectives.txt
in its folder, else by the run's ``--objectives`` (``scorecam.batch.seas``); without any, it fails.
A photo of a side's won Mediatore cards is read where a ``mediatore.txt`` is in its folder or with
``--game mediatore``; a ``mediatore.txt`` holding a round (or ``--round``) makes the folder one round,
its photos ``bidder.jpg`` / ``others.jpg``, settled from them (``scorecam.batch.mediatore``).

Jobs run on every core (``jobs``), each worker process loading the models once, or on Ray; the
files come out the same, in the same order, however the work was spread. Each job's rows and line
are synced to disk before the next, so a run killed halfway can be resumed (``resume``).
"""

from scorecam.batch.jobs import Job, find_jobs
from scorecam.batch.rows import CSV_FIELDS
from scorecam.batch.run import BatchSummary, run_batch
from scorecam.batch.work import run_job

__all__ = ["CSV_FIELDS", "BatchSummary", "Job", "find_jobs", "run_batch", "run_job"]
