"""Running the batch's jobs with Ray Data: the same ``run_job`` on every core of a Ray cluster.

Each Ray actor loads the models once and runs jobs one at a time; the results come back in job order
(Ray Data's ``preserve_order``) and are written by the calling process, so the files are the same as
those of one process. The photos' paths must be readable at the same place on every node (a shared
folder), and every node needs scorecam installed (``pip install 'scorecam[ray]'``).
"""

from __future__ import annotations

import json
import logging
import pickle
from collections.abc import Iterator, Sequence
from typing import Any

from scorecam.batch.jobs import Job
from scorecam.batch.work import Result, failed_result, run_job
from scorecam.errors import Exit, InputError

INSTALL_HINT = "needs the ray extra: pip install 'scorecam[ray]'"
BLOCKS_PER_ACTOR = 16  # small blocks keep every actor busy to the end


def check_ray() -> None:
    """A one-line usage error, before any work, when Ray is not installed."""
    try:
        import ray  # noqa: F401
        import ray.data  # noqa: F401
    except ImportError:
        raise InputError("--ray", INSTALL_HINT, Exit.USAGE) from None


class JobRunner:
    """A Ray actor's work: models loaded once (in the constructor), then one job per row. (No
    constructor arguments: Ray warns about those on every actor; each row says what it needs.)"""

    def __init__(self) -> None:
        from scorecam.batch.pool import init_worker

        init_worker(load_models=True)

    def __call__(self, row: dict[str, Any]) -> dict[str, Any]:
        job = pickle.loads(row["job"])
        grid = row["grid"] if row["grid"] > 0 else None
        try:
            rows, line = run_job(job, grid)
        except Exception as error:  # noqa: BLE001 - run_job catches all; this guards its own bugs
            rows, line = failed_result(job, f"internal error ({error.__class__.__name__}: {error})")
        # JSON text: Arrow holds it as a plain string, whatever shape the report has
        return {"index": row["index"], "result": json.dumps([rows, line], ensure_ascii=False)}


def _quiet_ray() -> None:
    """Ray's start-up and progress notes stay out of scorecam's output (stderr is for one-line errors)."""
    for name in ("ray", "ray.data"):
        logging.getLogger(name).setLevel(logging.ERROR)


def results_on_ray(
    jobs: Sequence[Job], grid: int | None, address: str, workers: int | None = None
) -> Iterator[Result]:
    """The results of every job, in job order, from Ray Data on the cluster at ``address`` ("auto":
    the Ray this process already joined, else a local one started here and stopped at the end)."""
    import ray
    import ray.data

    if not jobs:
        return
    _quiet_ray()
    started = not ray.is_initialized()
    if started:
        try:
            ray.init(
                address=None if address == "auto" else address,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.ERROR,
            )
        except Exception as error:  # noqa: BLE001 - Ray raises many kinds; the user needs one line
            where = "start a local Ray" if address == "auto" else f"reach the Ray cluster at {address}"
            raise InputError(
                "--ray", f"cannot {where} ({error.__class__.__name__}: {error})", Exit.USAGE
            ) from None
    try:
        context = ray.data.DataContext.get_current()
        context.execution_options.preserve_order = True  # the files come out as one process writes them
        context.enable_progress_bars = False  # scorecam's own progress says how far it is
        cores = int(ray.cluster_resources().get("CPU", 1))
        actors = max(1, min(workers or cores, cores, len(jobs)))
        items = [{"index": i, "job": pickle.dumps(job), "grid": grid or 0} for i, job in enumerate(jobs)]
        blocks = min(len(items), actors * BLOCKS_PER_ACTOR)
        results = ray.data.from_items(items, override_num_blocks=blocks).map(
            JobRunner,
            compute=ray.data.ActorPoolStrategy(size=actors),
            num_cpus=1,
        )
        for row in results.iter_rows():
            rows, line = json.loads(row["result"])
            yield rows, line
    finally:
        if started:
            ray.shutdown()
