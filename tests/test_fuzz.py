"""The fuzz test of issue 13: seeded broken and hostile inputs through `scorecam score` and `batch`.

No input may end in a traceback, a hang (each has a time limit), library chatter on the terminal or
an undocumented exit code; each bad one gets exactly one line ``scorecam: FILE: reason``. A batch
of the same folder records every bad file and scores every good one. The quick version runs in
`make test`; the 2,000-input version (the issue's figure) in `make test-slow`.
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest
from fuzz_inputs import SCORED, Case, Outcome, run_cli, score_problems, time_limit, write_cases

from scorecam.errors import shown_path
from scoring.errors import printable

SECONDS_PER_INPUT = 30  # the slowest good input reads a 3 MP photo in about 1 s on this machine


def score_each(cases: list[Case]) -> dict[str, Outcome]:
    return {case.name: run_cli(["score", "--json", str(case.path)], SECONDS_PER_INPUT) for case in cases}


def contract_breaks(cases: list[Case], outcomes: dict[str, Outcome]) -> list[str]:
    return [
        f"{case.name}: {problem}" for case in cases for problem in score_problems(case, outcomes[case.name])
    ]


def source_names(path: Path, folder: Path) -> set[str]:
    """The ways a batch may write ``path`` in its ``source`` column (non-UTF-8 names escaped)."""
    names = set()
    for text in (str(path), str(path.relative_to(folder)), path.name):
        names |= {text, printable(text), shown_path(text)}
    return names


def batch_breaks(cases: list[Case], outcomes: dict[str, Outcome], folder: Path, out: Path) -> list[str]:
    """How `scorecam batch` broke its contract on the folder of cases (empty: it kept it)."""
    seconds = SECONDS_PER_INPUT * len(cases)
    result = run_cli(["batch", str(folder), "--out", str(out)], seconds)
    problems = []
    if result.crash:
        problems.append(f"batch: {result.crash.strip().splitlines()[-1]}")
    if "Traceback" in result.err or "Corrupt JPEG" in result.noise + result.err:
        problems.append(f"batch: a traceback or library output on stderr: {result.err[-300:]!r}")
    failing = [case for case in cases if case.in_batch and outcomes[case.name].code != SCORED]
    if result.code != (1 if failing else 0):
        problems.append(f"batch: exit {result.code} with {len(failing)} bad inputs")
    if not out.exists():
        return [*problems, "batch: no CSV written"]
    with out.open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    by_source: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        by_source.setdefault(row["source"], []).append(row)
    for case in cases:
        if not case.in_batch:
            continue
        found = [row for name in source_names(case.path, folder) for row in by_source.get(name, [])]
        good = outcomes[case.name].code == SCORED
        if not found:
            problems.append(f"{case.name}: no row in the batch output ({'good' if good else 'bad'} input)")
        elif good and any(row["status"] == "failed" for row in found):
            problems.append(
                f"{case.name}: scored alone, failed in batch: {found[0].get('error', '')[:120]!r}"
            )
        elif not good:
            errors = [row.get("error", "") for row in found if row["status"] == "failed"]
            if not errors:
                problems.append(f"{case.name}: failed alone, scored in batch")
            elif not errors[0].strip() or "\n" in errors[0] or "internal error" in errors[0]:
                problems.append(
                    f"{case.name}: batch reason is not one line a person reads: {errors[0][:120]!r}"
                )
    return problems


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz") / "inputs"
    cases = write_cases(folder, seed=13, boards=110, photos=4)
    return folder, cases, score_each(cases)


def test_quick_fuzz_through_score(quick):
    folder, cases, outcomes = quick
    assert len(cases) >= 150
    breaks = contract_breaks(cases, outcomes)
    assert not breaks, f"{len(breaks)} of {len(cases)} inputs broke the contract:\n" + "\n".join(breaks[:40])
    # the generator is not toothless: most inputs are refused, some mutated boards stay valid
    codes = [outcome.code for outcome in outcomes.values()]
    assert codes.count(3) > len(cases) // 2 and codes.count(4) >= 5 and codes.count(0) >= 5


def test_quick_fuzz_through_batch(quick, tmp_path):
    folder, cases, outcomes = quick
    breaks = batch_breaks(cases, outcomes, folder, tmp_path / "results.csv")
    assert not breaks, f"{len(breaks)} batch problems:\n" + "\n".join(breaks[:40])


@pytest.mark.slow
def test_fuzz_2000_inputs(tmp_path):
    """The issue's figure: 0 tracebacks and 0 hangs on 2,000 fuzzed inputs, and a batch of them."""
    folder = tmp_path / "inputs"
    cases = write_cases(folder, seed=2026, boards=1700, photos=120, slow_extras=True)
    assert len(cases) >= 2000
    outcomes = score_each(cases)
    breaks = contract_breaks(cases, outcomes)
    breaks += batch_breaks(cases, outcomes, folder, tmp_path / "results.csv")
    hangs = sum(outcome.crash.startswith("hang") for outcome in outcomes.values())
    crashes = sum(
        bool(outcome.crash) and not outcome.crash.startswith("hang") for outcome in outcomes.values()
    )
    codes = Counter(outcome.code for outcome in outcomes.values())
    print(f"\nfuzz: {len(cases)} inputs, {crashes} tracebacks, {hangs} hangs, {len(breaks)} problems;")
    print(f"exit codes {dict(sorted(codes.items()))}")
    assert not breaks, f"{len(breaks)} problems:\n" + "\n".join(breaks[:60])


def test_time_limit_stops_a_hang():
    """The per-input limit works: a loop that never ends becomes a reported hang, not a stuck test."""
    with pytest.raises(BaseException, match="over 0.2 s"), time_limit(0.2):
        while True:
            pass
