"""Running jobs on every core: worker processes that load the models once, results in job order.

Results come back in the order of the jobs, whatever order the workers finish in, so the output
files are the same for one process and for many. A worker that dies (a crash inside a native
library) takes only the job that killed it: the jobs it shared the pool with are run again, each
alone, and the one that crashes alone is recorded as failed.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from scorecam.batch.jobs import Job
from scorecam.batch.work import Result, failed_result, run_job
from scorecam.photos import PHOTO_SUFFIXES

Work = Callable[[Job, int | None], Result]
IN_FLIGHT_PER_WORKER = 4  # enough to keep each worker busy, few enough to bound memory
PARENT_CHECK_S = 1.0


def init_worker(load_models: bool, parent: int | None = None) -> None:
    """Each worker reads one photo at a time on its own core, with its models loaded once, here.
    A pool worker (``parent`` given) ends itself when the batch process is gone (killed)."""
    import cv2

    if parent is not None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the batch's to handle, not each worker's
        threading.Thread(target=_end_with, args=(parent,), daemon=True).start()

    cv2.setNumThreads(1)  # one process a core: threads inside would only fight
    if load_models:
        try:
            from vision.mondo.locate import load_locator
            from vision.mondo.reader import catalog_table, tile_model

            catalog_table(tile_model())
            load_locator()
        except Exception:  # noqa: BLE001 - a missing model is reported by each job that needs it
            pass


def _end_with(parent: int) -> None:
    # a killed batch leaves its workers waiting for work forever: they watch it and follow it
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_S)
    os._exit(1)


def needs_models(jobs: Sequence[Job]) -> bool:
    return any(path.suffix.lower() in PHOTO_SUFFIXES for job in jobs for path in job.files)


def results_in_process(jobs: Sequence[Job], grid: int | None, work: Work = run_job) -> Iterator[Result]:
    for job in jobs:
        yield work(job, grid)


def results_in_pool(
    jobs: Sequence[Job], grid: int | None, workers: int, work: Work = run_job
) -> Iterator[Result]:
    """The results of ``work(job, grid)`` for every job, in job order, from ``workers`` processes."""
    pending = deque(enumerate(jobs))
    in_flight: deque = deque()  # (index, job, future), in job order
    suspects: set[int] = set()  # in flight when a worker died: each is run again alone
    pool = _pool(workers, needs_models(jobs))
    try:
        while pending or in_flight:
            while pending and _may_submit(pending[0][0], in_flight, suspects, workers):
                index, job = pending.popleft()
                in_flight.append((index, job, pool.submit(work, job, grid)))
            index, job, future = in_flight.popleft()
            try:
                result = future.result()
            except BrokenProcessPool:
                pool.shutdown(wait=True, cancel_futures=True)
                pool = _pool(workers, needs_models(jobs))
                if index in suspects:  # it crashed alone: it is the one
                    suspects.discard(index)
                    result = failed_result(job, "the worker reading it crashed (a fault in a native library)")
                else:
                    again = [(index, job)] + [(i, j) for i, j, _ in in_flight]
                    suspects.update(i for i, _ in again)
                    pending.extendleft(reversed(again))
                    in_flight.clear()
                    continue
            suspects.discard(index)
            yield result
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _may_submit(index: int, in_flight: deque, suspects: set[int], workers: int) -> bool:
    if any(i in suspects for i, _, _ in in_flight):
        return False  # a suspect runs alone
    if index in suspects:
        return not in_flight
    return len(in_flight) < workers * IN_FLIGHT_PER_WORKER


def _pool(workers: int, load_models: bool) -> ProcessPoolExecutor:
    # spawn: a worker starts clean, never a fork of a process holding model sessions and their threads
    return ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=init_worker,
        initargs=(load_models, os.getpid()),
    )
