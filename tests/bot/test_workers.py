"""bot/workers.py: worker processes that hold memory only while there is work (IdlePool),
and how many drawing processes a host gets."""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from bot import workers
from bot.workers import IdlePool


def _pool() -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _until(check, timeout: float = 20.0) -> bool:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.05)
    return False


def test_an_idle_pool_starts_with_its_first_task_and_stops_once_idle(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(IdlePool, "CHECK", 0.1)
    pool = IdlePool(_pool, idle=0.5)
    try:
        assert not pool.running() and pool.pids() == []  # nothing before the first task
        first = pool.submit(os.getpid).result(timeout=60)
        assert first != os.getpid() and pool.pids() == [first] and pool.starts == 1
        assert _until(lambda: not pool.running())  # idle for 0.5 s: stopped
        assert _until(lambda: not _alive(first))  # and its process is gone
        second = pool.submit(os.getpid).result(timeout=60)  # the next task starts another
        assert second != first and pool.starts == 2
    finally:
        pool.stop(wait=True)


def test_a_busy_pool_is_not_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(IdlePool, "CHECK", 0.1)
    pool = IdlePool(_pool, idle=0.3)
    try:
        pid = pool.submit(os.getpid).result(timeout=60)
        busy = pool.submit(time.sleep, 1.5)  # a task longer than `idle`
        time.sleep(1.0)
        assert pool.running() and pool.pids() == [pid]
        busy.result(timeout=10)
    finally:
        pool.stop(wait=True)


def test_a_dead_worker_is_replaced_at_the_next_task() -> None:
    pool = IdlePool(_pool, idle=None)
    try:
        pid = pool.submit(os.getpid).result(timeout=60)
        doomed = pool.submit(time.sleep, 30)
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            doomed.result(timeout=30)
        assert pool.submit(os.getpid).result(timeout=60) not in (pid, os.getpid())
        assert pool.starts == 2
    finally:
        pool.stop(wait=True)


@pytest.mark.parametrize(("cores", "memory_mb", "drawers"), [
    (1, 512, 1), (2, 4096, 1), (2, None, 1), (4, 1024, 1), (3, 2048, 2), (8, None, 2)])
def test_drawers_are_sized_from_the_host(cores: int, memory_mb: float | None,
                                         drawers: int) -> None:
    assert workers.drawers_for(cores, memory_mb) == drawers


def test_the_host_is_measured() -> None:
    assert workers.host_cores() >= 1
    memory = workers.host_memory_mb()
    assert memory is None or memory > 64


def _probe() -> tuple[int, int, int]:
    """(In the worker) its niceness now and when its module was loaded, and how many objects
    its initializer set aside from the collector."""
    module = sys.modules["nice_at_import"]
    return os.nice(0), module.NICE, gc.get_freeze_count()


def test_a_background_worker_lowers_its_priority_before_it_loads_its_module(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """start_niced: the AI's and the reviews' processes load the engine and the AI (a second
    of CPU) at their lower priority, not at the bot's, and set it aside from the collector."""
    (tmp_path / "nice_at_import.py").write_text("import os\nNICE = os.nice(0)\n")
    monkeypatch.syspath_prepend(str(tmp_path))  # (a spawned process starts from this path)
    here = os.nice(0)
    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=workers.start_niced,
                               initargs=(7, os.getpid(), "nice_at_import"))
    try:
        nice, nice_at_import, frozen = pool.submit(_probe).result(timeout=120)
    finally:
        pool.shutdown()
    assert nice == nice_at_import == min(19, here + 7)
    assert frozen > 0
