"""Worker processes of the bot (picture drawers, AI players, reviews): they die with the bot
however it ends, a Ctrl-C in the terminal stops the bot, not each worker with a traceback,
and they hold memory only while there is work for them (`IdlePool`)."""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import multiprocessing.context
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot import heap

PR_SET_PDEATHSIG = 1  # linux/prctl.h
STOP_GRACE = 1.0  # seconds a worker may take to finish its task when the bot stops
# a second drawing process needs a core beside the bot's event loop and the AI's, and memory
TWO_DRAWERS_CORES, TWO_DRAWERS_MB = 3, 2048


def host_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on this platform
        return os.cpu_count() or 1


def host_memory_mb() -> float | None:
    """The host's memory in MB (None when the platform does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (AttributeError, OSError, ValueError):
        return None


def drawers_for(cores: int, memory_mb: float | None) -> int:
    """How many drawing processes suit a host: 2 with at least 3 cores and 2 GB of memory,
    else 1. A second one draws another channel's map at the same moment; on 2 cores the
    bot's event loop and the AI want the other core (bench/bot.py, 50 games with 10 against
    AIs on 2 cores: end-turn p99 97 and 118 ms with one drawer, 144 ms with two), and
    each holds its caches (~100 MB at 50 games)."""
    roomy = memory_mb is None or memory_mb >= TWO_DRAWERS_MB
    return 2 if cores >= TWO_DRAWERS_CORES and roomy else 1


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


def bind_to_parent(parent: int) -> None:
    """Make this worker process end when the bot process `parent` ends, however it ends (a
    SIGKILL runs no cleanup, and a worker blocked on its task queue would wait forever,
    holding the bot's output pipes and keeping multiprocessing's resource tracker alive).

    On Linux the kernel sends SIGKILL when the parent dies (PR_SET_PDEATHSIG); everywhere a
    watcher thread checks every second that the parent is still ours. A parent that died
    before this ran is caught by the first check."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)
    threading.Thread(target=_watch_parent, args=(parent,), name="watch-parent",
                     daemon=True).start()


def start_niced(nice: int, parent: int, module: str) -> None:
    """Initializer of a background worker (the AI's, the reviews'): die with the bot, lower
    its priority, and only then load `module`, the one its tasks run from, and set what it
    loaded aside from the collector (bot.heap).

    The pool's initializer is what a new process loads first, so it lives here, in a module
    that loads nothing heavy: the engine and the AI (0.5-0.6 s of CPU) are imported
    after the renice, not at the bot's own priority beside the replies it is making."""
    if parent:
        bind_to_parent(parent)
    with contextlib.suppress(OSError):
        os.nice(nice)
    importlib.import_module(module)
    heap.settle(module)


class QuietSpawnProcess(multiprocessing.context.SpawnProcess):
    """A spawned process that starts with SIGINT ignored. A Python started that way installs
    no KeyboardInterrupt handler, so a Ctrl-C during its start-up (imports, before the
    initializer runs) cannot print a traceback either. The parent's handler is put back at
    once; it can only be swapped from the main thread (elsewhere the initializer covers it)."""

    def start(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return super().start()
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            super().start()
        finally:
            signal.signal(signal.SIGINT, old)


class QuietSpawnContext(multiprocessing.context.SpawnContext):
    Process = QuietSpawnProcess


def stop_pools(pools: Sequence[ProcessPoolExecutor], *, wait: bool) -> None:
    """Shut process pools down: queued work is dropped; with `wait`, each worker gets
    STOP_GRACE seconds to finish its task and is then terminated, and the pools' queues are
    closed before this returns (a pool left to the interpreter's exit leaks its semaphores)."""
    workers = [p for pool in pools for p in list((getattr(pool, "_processes", None) or {})
                                                 .values())]
    for pool in pools:
        pool.shutdown(wait=False, cancel_futures=True)
    if not wait:
        return
    deadline = time.monotonic() + STOP_GRACE
    for worker in workers:
        worker.join(timeout=max(0.0, deadline - time.monotonic()))
        if worker.is_alive():
            worker.terminate()
            worker.join(timeout=STOP_GRACE)
    for pool in pools:
        pool.shutdown(wait=True)


class IdlePool(Executor):
    """A process pool started with its first task and stopped once it has had no task for
    `idle` seconds (None: kept until shut down); the next task starts a new one. A worker
    process costs tens of MB whether it works or not: on a quiet bot (nobody playing, no game
    to review) none is left running.

    A pool broken by a worker's death is dropped as soon as a task reports it, so the next
    task runs in a new process (callers retry once)."""

    CHECK = 5.0  # seconds between the idle checks, at most

    def __init__(self, make: Callable[[], ProcessPoolExecutor], idle: float | None) -> None:
        self._make = make
        self.idle = idle
        self._pool: ProcessPoolExecutor | None = None
        self._busy = 0  # tasks submitted and not done
        self._last = time.monotonic()  # when the last task was submitted or finished
        self._lock = threading.Lock()
        self.starts = 0  # pools started so far (one process each for the bot's drawers)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        with self._lock:
            pool = self._pool
            if pool is None:
                pool = self._pool = self._make()
                self.starts += 1
                if self.idle is not None:
                    threading.Thread(target=self._reap, args=(pool,), name="idle-pool",
                                     daemon=True).start()
            self._busy += 1
            self._last = time.monotonic()
        try:
            future = pool.submit(fn, *args, **kwargs)
        except BaseException:
            self._finished(pool, broken=True)
            raise
        future.add_done_callback(lambda done: self._finished(
            pool, broken=not done.cancelled() and isinstance(done.exception(), BrokenProcessPool)))
        return future

    def _finished(self, pool: ProcessPoolExecutor, *, broken: bool) -> None:
        with self._lock:
            self._busy -= 1
            self._last = time.monotonic()
            if broken and self._pool is pool:
                self._pool = None  # a worker died: the next task starts a new process
            else:
                return
        pool.shutdown(wait=False)

    def _reap(self, pool: ProcessPoolExecutor) -> None:
        """The pool's watcher: stops it once it has been idle for `idle` seconds."""
        assert self.idle is not None
        while True:
            time.sleep(min(self.CHECK, self.idle / 4))
            with self._lock:
                if self._pool is not pool:
                    return  # replaced or shut down meanwhile
                if self._busy or time.monotonic() - self._last < self.idle:
                    continue
                self._pool = None
            stop_pools([pool], wait=True)
            return

    def pids(self) -> list[int]:
        """The worker processes running now."""
        pool = self._pool
        return list((getattr(pool, "_processes", None) or {}) if pool is not None else {})

    def running(self) -> bool:
        return self._pool is not None

    def stop(self, *, wait: bool = False) -> None:
        """Stop the processes now (see stop_pools); a later task starts new ones."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            stop_pools([pool], wait=wait)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.stop(wait=wait)
