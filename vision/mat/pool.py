"""A frame's crops of a still read side by side, in worker processes.

The slowest frames spend about two thirds of their time reading the still's
crops round piles (:mod:`vision.mat.closer`), and the crops of a frame's
first round are independent of one another. A :class:`CropPool` hands them
to worker processes (``concurrent.futures``; threads would not help: the
GIL holds through the small numpy calls a crop is made of) while the
frame's own process reads crops too, from the cheap end of the list: the
same function on the same pickled inputs, so the same readings. Other work
that pickles can be handed over too (:meth:`CropPool.hand`): the analysis
hands the pot's view to a worker as soon as the pot is found, and the
worker reads it while the frame's process reads the video's winks, when
the workers would be idle.

>>> from vision.mat.render import MatRig, render
>>> from vision.mat.synth.scene import MatScene, TrueWink
>>> from vision.mat.analyse import MatAnalyser
>>> from vision.mat.camera import calibrate_mat
>>> rig = MatRig.make(seed=5)
>>> scene = MatScene((TrueWink("b1", 100.0, 50.0), TrueWink("r3", 108.0, 58.0, level=1),
...                   TrueWink("g1", -300.0, 0.0), TrueWink("y3", -292.0, 8.0, level=1)))
>>> frame = render(rig, scene, seed=1)
>>> def still(box):
...     return render(rig.still(box), scene, seed=2)
>>> cal = calibrate_mat(frame, hfov_deg=rig.hfov_deg)
>>> with CropPool(1) as pool:
...     pooled = MatAnalyser(cal, pool=pool).analyse(frame, still)
>>> pooled == MatAnalyser(cal).analyse(frame, still)
True

Workers are started by ``forkserver``: from a fresh single-threaded server
process that has imported the analysis once, never by forking the service,
whose MQTT and GPIO threads may hold locks a forked child would inherit
held. A worker that dies loses no frame: its crops (and the pot's view)
are read here, the pool is started afresh for the next frame (after
:data:`MAX_FAILURES`, never again: everything is read here), and the log
says so.
"""

from __future__ import annotations

import functools
import logging
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from types import TracebackType
from typing import Generic, TypeVar

from vision.mat.closer import Crop, read
from vision.mat.winks import Found
from vision.settings import CROP_WORKERS_MAX

log = logging.getLogger(__name__)

START_METHOD = "forkserver"
"""How workers start (see the module's docstring)."""
PRELOAD = ["vision.mat.closer"]
"""Imported once by the fork server, so a worker starts with the analysis loaded."""
MOST_DEFAULT = 3
"""The most workers by default: a Pi 5's four cores, one for the frame's own process."""
MAX_FAILURES = 3
"""After this many broken pools, crops are read in the frame's process only."""


def default_workers(cpus: int | None = None) -> int:
    """Workers for ``cpus`` cores (None: this machine's): one core fewer,
    since the frame's own process reads crops too, and at most
    :data:`MOST_DEFAULT`; 0 (every crop read in the frame's process) on one
    core.

    >>> default_workers(1), default_workers(2), default_workers(4), default_workers(64)
    (0, 1, 3, 3)
    """
    n = cpus if cpus is not None else (os.cpu_count() or 1)
    return max(0, min(n - 1, MOST_DEFAULT))


class _Round:
    """A frame's crops shared out: each worker, as it comes free, takes the
    costliest crop not begun (a crop's time grows with its fits; a future's
    callback hands it the next), the frame's process the cheapest, one by
    one. (An executor given them all at once commits a worker to two ahead:
    scheduled on the crops' CPU times of tuning frames 40000-40039, one
    worker, their 17.3 ms a frame take 11.2 ms so and 10.0 one at a time.)"""

    def __init__(self, executor: ProcessPoolExecutor, crops: Sequence[Crop]) -> None:
        self.executor = executor
        self.crops = crops
        self.pending = deque(sorted(range(len(crops)), key=lambda k: -len(crops[k].members)))
        self.futures: dict[int, Future[tuple[Found, float]]] = {}
        self.error: BrokenProcessPool | None = None
        """Why a crop could not be handed out."""
        self._lock = threading.Lock()

    def feed(self, done: Future[tuple[Found, float]] | None = None) -> None:
        """The costliest crop not begun to a worker (``done``: the one it finished)."""
        if done is not None and (done.cancelled() or done.exception() is not None):
            return  # a broken pool or a failed crop: read() finds it in the future
        with self._lock:
            if not self.pending:
                return
            k = self.pending.popleft()
            try:
                future = self.executor.submit(_read_timed, self.crops[k])
            except RuntimeError as exc:  # broken or shut down: the frame's process reads it
                self.pending.appendleft(k)
                if isinstance(exc, BrokenProcessPool):
                    self.error = exc
                return
            self.futures[k] = future
        future.add_done_callback(self.feed)

    def stop(self) -> None:
        """Hand out no more."""
        with self._lock:
            self.pending.clear()

    def take(self) -> int | None:
        """The cheapest crop not begun, for the frame's process (None: none left)."""
        with self._lock:
            return self.pending.pop() if self.pending else None


def _read_timed(crop: Crop) -> tuple[Found, float]:
    """A worker's reading of ``crop`` and the CPU time it took, s."""
    return _timed(functools.partial(read, crop))


R = TypeVar("R")


def _timed(work: Callable[[], R]) -> tuple[R, float]:
    """What ``work`` gives, done in a worker, and the CPU time it took, s."""
    t0 = time.process_time()
    got = work()
    return got, time.process_time() - t0


@dataclass(frozen=True, slots=True)
class Handed(Generic[R]):
    """Work handed to a worker (:meth:`CropPool.hand`), for
    :meth:`CropPool.collect`."""

    work: Callable[[], R]
    executor: ProcessPoolExecutor | None = None
    """The pool it was handed to (None: none; done when collected)."""
    future: Future[tuple[R, float]] | None = None
    error: BrokenProcessPool | None = None
    """Why the pool would not take it (it is done when collected)."""


def _ready() -> int:
    """A worker's first task: it is up, with the analysis imported."""
    return os.getpid()


class CropPool:
    """``workers`` processes that read crops beside the frame's own process
    (0: none, every crop read in the frame's process). Started once
    (:meth:`start`, or at the first frame that hands it work) and
    reused; :meth:`close` ends them."""

    def __init__(self, workers: int) -> None:
        if not 0 <= workers <= CROP_WORKERS_MAX:
            raise ValueError(f"workers must be 0 to {CROP_WORKERS_MAX}, got {workers}")
        self.workers = workers
        self.failures = 0
        """How many times the pool broke (a worker died) and crops were read here."""
        self.handed = 0
        """How many crops workers have read."""
        self.jobs = 0
        """How many other pieces of work (:meth:`hand`) workers have done."""
        self.worker_cpu_s = 0.0
        """The CPU time workers spent on both, s (for the benchmarks;
        without the hand-over: pickling there, the pipes)."""
        self._executor: ProcessPoolExecutor | None = None

    @property
    def serial(self) -> bool:
        """Whether every crop is read in the frame's own process."""
        return self.workers == 0 or self.failures >= MAX_FAILURES

    def start(self) -> None:
        """Start the workers and wait until each is up (a service calls
        this at start-up, so its first shot does not pay for it). A pool
        that cannot start is logged and reads every crop here."""
        if self.serial or self._executor is not None:
            return
        context = multiprocessing.get_context(START_METHOD)
        context.set_forkserver_preload(PRELOAD)
        try:
            executor = ProcessPoolExecutor(self.workers, mp_context=context)
            self._executor = executor
            # processes start as tasks find no idle worker: one task each
            for f in [executor.submit(_ready) for _ in range(self.workers)]:
                f.result()
        except (OSError, BrokenProcessPool) as exc:
            self._broken(exc)

    def read(self, crops: Sequence[Crop]) -> list[Found]:
        """What each crop shows (:func:`vision.mat.closer.read`), in order."""
        if self.serial or len(crops) < 2:  # one crop: nothing to share
            return [read(c) for c in crops]
        self.start()
        executor = self._executor
        if executor is None:
            return [read(c) for c in crops]
        work = _Round(executor, crops)
        out: dict[int, Found] = {}
        try:
            for _ in range(self.workers):
                work.feed()
            while (k := work.take()) is not None:
                out[k] = read(crops[k])
            mine = len(out)
            for k, future in work.futures.items():  # (no crop is handed out now)
                out[k], cpu = future.result()
                self.worker_cpu_s += cpu
            self.handed += len(crops) - mine
            if work.error is not None:
                raise work.error
        except (OSError, BrokenProcessPool) as exc:
            self._broken(exc)
            for k in range(len(crops)):
                if k not in out:
                    out[k] = read(crops[k])
        finally:
            work.stop()  # a crop that raised here: no more of this frame's to the workers
        return [out[k] for k in range(len(crops))]

    def hand(self, work: Callable[[], R]) -> Handed[R]:
        """``work`` begun in a worker (it must pickle: a module's function,
        or a :func:`functools.partial` of one on values that pickle), for
        :meth:`collect`; meanwhile this process does something else. With
        no workers, or none that start, it is done here when collected.

        >>> with CropPool(0) as pool:
        ...     pool.collect(pool.hand(functools.partial(abs, -3)))
        3
        """
        if self.serial:
            return Handed(work)
        self.start()
        executor = self._executor
        if executor is None:
            return Handed(work)
        try:
            return Handed(work, executor, executor.submit(_timed, work))
        except BrokenProcessPool as exc:  # a worker died since: dropped when collected
            return Handed(work, executor, error=exc)
        except RuntimeError:  # shut down
            return Handed(work)

    def collect(self, handed: Handed[R]) -> R:
        """What the work handed (:meth:`hand`) gives: the worker's result,
        or, if the pool broke (a worker died), the work done here, and the
        pool dropped (once, whichever of the frame's work finds it broken
        first: the crops, when read before, find it so and read here too;
        it is started afresh at the next frame's hand-over)."""
        error: BaseException | None = handed.error
        if handed.future is not None:
            try:
                got, cpu = handed.future.result()
            except (OSError, BrokenProcessPool, CancelledError) as exc:
                error = exc
            else:
                self.jobs += 1
                self.worker_cpu_s += cpu
                return got
        if error is not None and handed.executor is self._executor:  # else dropped already
            self._broken(error)
        return handed.work()

    def _broken(self, exc: BaseException) -> None:
        """A worker died or could not start: drop the pool (a new one is
        started for the next frame, up to :data:`MAX_FAILURES` times)."""
        self.failures += 1
        then = ("every crop is read in the frame's process from now on" if self.serial
                else "a new pool is started for the next frame")  # fmt: skip
        log.warning("mat crop pool broke (%s: %s); this frame's crops read in the frame's "
                    "process; %s", type(exc).__name__, exc, then)  # fmt: skip
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """End the workers (waits for them)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> CropPool:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:  # fmt: skip
        self.close()
