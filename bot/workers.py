"""Worker processes of the bot (picture drawers, AI players): they die with the bot however
it ends, and a Ctrl-C in the terminal stops the bot, not each worker with a traceback."""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing.context
import os
import signal
import sys
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

PR_SET_PDEATHSIG = 1  # linux/prctl.h
STOP_GRACE = 1.0  # seconds a worker may take to finish its task when the bot stops


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
