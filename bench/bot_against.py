"""The bot bench, this checkout against another revision's bot, side by side in one run.

python bench/bot_against.py --against 8304b87 [--rounds 2] [bench/bot.py options ...]

This machine's speed changes by 2x from hour to hour, so a figure measured an hour ago says
nothing about today's code. Here the same players (this checkout's fake Discord, driver and
policy) play the same games against REV's bot (a temporary git worktree, `--bot-dir`) and
this checkout's, in turns (REV, HEAD, REV, HEAD, ...), and each run's figures are printed side
by side with their ratio to the floor measured in that same run (engine.apply + Store.append
per stored action, by this checkout's code).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIGURES = {
    "bot main": re.compile(r"bot main process\s+([\d.]+) /"),
    "pictures": re.compile(r"picture workers\s+([\d.]+) /"),
    "bot + pictures": re.compile(r"= bot \+ picture workers\s+([\d.]+) /"),
    "floor": re.compile(r"floor .*?([\d.]+) ms CPU per stored action"),
    "actions p50/p99": re.compile(r"ordinary actions\s+n=\s*\d+\s+p50=\s*([\d.]+) ms.*?"
                                  r"p99=\s*([\d.]+) ms"),
    "end turn p50/p99": re.compile(r"end turn \(with map\)\s+n=\s*\d+\s+p50=\s*([\d.]+) ms"
                                   r".*?p99=\s*([\d.]+) ms"),
    "unanswered/errors": re.compile(r"unanswered interactions: (\d+); errors: (\d+)"),
}


def _run(bot_dir: Path, rest: list[str]) -> dict[str, str]:
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "bot.py"), "--bot-dir",
                          str(bot_dir), *rest], capture_output=True, text=True, check=False)
    text = out.stdout + out.stderr
    got = {}
    for name, pattern in FIGURES.items():
        m = pattern.search(text)
        got[name] = "/".join(m.groups()) if m else "?"
    for name in ("bot main", "bot + pictures"):
        try:
            got[f"{name} / floor"] = f"x{float(got[name]) / float(got['floor']):.1f}"
        except (ValueError, ZeroDivisionError):
            got[f"{name} / floor"] = "?"
    if out.returncode:
        got["exit"] = str(out.returncode)
    return got


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the git revision to compare with")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each, alternating")
    args, rest = parser.parse_known_args(argv)
    with tempfile.TemporaryDirectory(prefix="bot-against-") as tmp:
        other = Path(tmp) / "rev"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(other),
                        args.against], check=True, capture_output=True)
        try:
            runs: list[tuple[str, dict[str, str]]] = []
            for k in range(args.rounds):
                for name, bot_dir in ((args.against, other), ("HEAD", ROOT)):
                    runs.append((f"{name} #{k + 1}", _run(bot_dir, rest)))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(other)], check=False, capture_output=True)
    names = [*FIGURES, "bot main / floor", "bot + pictures / floor", "exit"]
    print(f"bot bench, {args.against} against HEAD in turns ({' '.join(rest) or 'defaults'});"
          " CPU in ms per member action, latency in ms")
    print(f"  {'':24s}" + "".join(f"{label:>16s}" for label, _ in runs))
    for name in names:
        if any(name in got for _, got in runs):
            print(f"  {name:24s}" + "".join(f"{got.get(name, '-'):>16s}" for _, got in runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
