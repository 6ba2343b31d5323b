"""`python -m engine run SCENARIO.json < ACTIONS.jsonl`: the line protocol.

SCENARIO.json may also be an exported game log ({"scenario": ..., "actions": [...]}, from
the bot's `/sw log export`): its actions are applied first, then any lines on stdin."""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Iterable
from typing import TextIO

from . import apply, load_scenario, observe, parse_action
from .errors import EngineError


def run(scenario_path: str, lines: Iterable[str], out: TextIO) -> int:
    try:
        with open(scenario_path, encoding="utf-8-sig") as f:
            spec = json.load(f)
        if isinstance(spec, dict) and "scenario" in spec and "actions" in spec:
            # an exported game log (the bot's /sw log export): its actions come first
            if not isinstance(spec["actions"], list):
                raise ValueError("the log's actions must be a list of action objects")
            logged = [json.dumps(a) for a in spec["actions"]]
            lines = itertools.chain(logged, lines)
            spec = spec["scenario"]
        state = load_scenario(spec)
    except Exception as exc:  # a bad file or scenario is reported, never a traceback
        message = str(exc) if isinstance(exc, OSError | ValueError) else repr(exc)
        out.write(json.dumps({"ok": False, "error": {"code": "invalid_scenario",
                                                     "message": message}}) + "\n")
        out.flush()
        return 1
    for line in lines:
        if not line.strip():
            continue
        try:
            step = apply(state, parse_action(line))
        except EngineError as exc:
            reply = {"ok": False, "error": exc.as_dict()}
        except Exception as exc:  # never crash on input
            reply = {"ok": False, "error": {"code": "internal_error", "message": repr(exc)}}
        else:
            state = step.state
            reply = {"ok": True, "events": step.event_dicts()}
        out.write(json.dumps(reply) + "\n")
    out.write(json.dumps({"observation": observe(state, None, reveal_all=True)}) + "\n")
    out.flush()
    return 0


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "run":
        sys.stderr.write("usage: python -m engine run SCENARIO.json < ACTIONS.jsonl\n")
        return 2
    return run(argv[1], sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
