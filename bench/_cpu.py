"""CPU time of a process tree, read from /proc (Linux), split by process class.

The bot's helpers are told apart by how they start: picture workers for replies run at the
bot's own niceness (replies and drawings ahead alike: bot/pictures.py), the AI workers at +10
(bot/autoplay.py AI_NICE); multiprocessing's resource tracker by its command
line. Samples are kept per pid, so a worker that exits (or is replaced) between two samples
still counts up to its last sample.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PROC = Path("/proc")

CLASSES = ("bot", "pictures", "ai", "other")


def available() -> bool:
    return (PROC / "self" / "stat").is_file()


def _stat(pid: int) -> tuple[int, int, float] | None:
    """(parent pid, niceness, CPU seconds user+system) of a live process, or None."""
    try:
        raw = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # the command name (field 2) may hold spaces and parentheses: split after its last ')'
    rest = raw[raw.rindex(")") + 2:].split()
    ppid, utime, stime, nice = int(rest[1]), int(rest[11]), int(rest[12]), int(rest[16])
    return ppid, nice, (utime + stime) / TICK


def _cmdline(pid: int) -> str:
    try:
        return (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(
            errors="replace")
    except OSError:
        return ""


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            st = _stat(int(entry.name))
            if st is not None:
                kids.setdefault(st[0], []).append(int(entry.name))
    return kids


def _memory_mb(pid: int) -> tuple[float, float] | None:
    """(RSS, PSS) of a live process in MB, or None. RSS counts every page the process maps,
    so the Python library and the other files all the bot's processes share are counted once
    in each of them; PSS divides each shared page between the processes sharing it, so the
    PSS of the processes add up to the memory they hold together."""
    try:
        fields = dict(line.split(":", 1) for line in
                      (PROC / str(pid) / "smaps_rollup").read_text().splitlines()[1:])
        return int(fields["Rss"].split()[0]) / 1024, int(fields["Pss"].split()[0]) / 1024
    except (OSError, ValueError, KeyError):
        return None


@dataclass
class TreeCPU:
    """CPU seconds of `root` and all its descendants, by class; the memory of each process
    alive at the latest sample, and the highest total of a sample so far."""

    root: int
    seen: dict[int, tuple[str, float]] = field(default_factory=dict)  # pid -> (class, seconds)
    memory: dict[int, tuple[str, float, float]] = field(default_factory=dict)  # (class, RSS, PSS)
    peak: float = 0.0  # MB: the most the tree's processes held together (PSS) at one sample

    def sample(self) -> dict[str, float]:
        base = _stat(self.root)
        if base is not None:
            kids = _children()
            todo = [self.root]
            alive: dict[int, tuple[str, float, float]] = {}
            while todo:
                pid = todo.pop()
                st = base if pid == self.root else _stat(pid)
                if st is None:
                    continue
                # classified anew each time: a worker lowers its priority as it starts
                self.seen[pid] = (self._classify(pid, st[1] - base[1], base[1]), st[2])
                mb = _memory_mb(pid)
                if mb is not None:
                    alive[pid] = (self.seen[pid][0], *mb)
                todo += kids.get(pid, [])
            # a worker stopped since (bot.workers.IdlePool) holds nothing any more
            self.memory = alive
            self.peak = max(self.peak, sum(pss for _, _, pss in alive.values()))
        return self.totals()

    def _classify(self, pid: int, nice: int, base: int = 0) -> str:
        """`nice`: the process's niceness above the bot's (`base`). Niceness stops at 19, so
        under `nice -n 10` the AI workers sit only 9 above the bot: still the AI's."""
        if pid == self.root:
            return "bot"
        if "resource_tracker" in _cmdline(pid):
            return "other"
        if nice > 0 and nice >= min(10, 19 - base):
            return "ai"
        if nice == 0:
            return "pictures"
        return "other"

    def totals(self) -> dict[str, float]:
        out = dict.fromkeys(CLASSES, 0.0)
        for what, seconds in self.seen.values():
            out[what] += seconds
        return out
