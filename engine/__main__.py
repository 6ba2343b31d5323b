"""`python -m engine run SCENARIO.json < ACTIONS.jsonl`: the line protocol."""

from __future__ import annotations

import json
import sys

from . import apply, load_scenario, observe, parse_action
from .errors import EngineError


def run(scenario_path: str, lines, out) -> int:
    try:
        with open(scenario_path, encoding="utf-8-sig") as f:
            state = load_scenario(json.load(f))
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
            reply = {"ok": True, "events": step.events}
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
