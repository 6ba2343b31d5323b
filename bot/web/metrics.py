"""The board server's figures for operators, as Prometheus text (`GET /metrics`).

Counters only grow; `boards` is a gauge. Refresh times (a new game version to every open
board of its channel) are kept as a fixed-bucket histogram.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)  # seconds


@dataclass
class Metrics:
    boards: int = 0  # open boards now
    snapshots: int = 0
    snapshot_bytes: int = 0
    actions: Counter[str] = field(default_factory=Counter)  # "applied", "refused", "stale"
    sign_ins: Counter[str] = field(default_factory=Counter)  # "activity", "browser", "failed"
    limited: int = 0  # messages refused by the per-member rate limit
    refresh_buckets: list[int] = field(default_factory=lambda: [0] * (len(BUCKETS) + 1))
    refresh_sum: float = 0.0
    refresh_count: int = 0

    def sent(self, size: int) -> None:
        self.snapshots += 1
        self.snapshot_bytes += size

    def refreshed(self, seconds: float) -> None:
        self.refresh_count += 1
        self.refresh_sum += seconds
        i = next((i for i, b in enumerate(BUCKETS) if seconds <= b), len(BUCKETS))
        self.refresh_buckets[i] += 1

    def text(self) -> str:
        out = [
            "# TYPE smallworld_web_boards gauge", f"smallworld_web_boards {self.boards}",
            "# TYPE smallworld_web_snapshots_total counter",
            f"smallworld_web_snapshots_total {self.snapshots}",
            "# TYPE smallworld_web_snapshot_bytes_total counter",
            f"smallworld_web_snapshot_bytes_total {self.snapshot_bytes}",
            "# TYPE smallworld_web_actions_total counter",
            *(f'smallworld_web_actions_total{{result="{k}"}} {v}'
              for k, v in sorted(self.actions.items())),
            "# TYPE smallworld_web_sign_ins_total counter",
            *(f'smallworld_web_sign_ins_total{{result="{k}"}} {v}'
              for k, v in sorted(self.sign_ins.items())),
            "# TYPE smallworld_web_rate_limited_total counter",
            f"smallworld_web_rate_limited_total {self.limited}",
            "# TYPE smallworld_web_refresh_seconds histogram",
        ]
        total = 0
        for bound, n in zip((*BUCKETS, float("inf")), self.refresh_buckets, strict=True):
            total += n
            le = "+Inf" if bound == float("inf") else f"{bound}"
            out.append(f'smallworld_web_refresh_seconds_bucket{{le="{le}"}} {total}')
        out += [f"smallworld_web_refresh_seconds_sum {self.refresh_sum:.6f}",
                f"smallworld_web_refresh_seconds_count {self.refresh_count}"]
        return "\n".join(out) + "\n"
