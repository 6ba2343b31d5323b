"""Make `import engine` resolve to the repo's engine package.

Under a plain `pytest` run (no cwd on sys.path) pytest's rootdir insertion puts tests/ first,
and tests/engine/ (a folder without __init__.py) would shadow the real package as a namespace
package. `python -m pytest` is unaffected; this keeps both invocations working.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if sys.path[:1] != [ROOT]:
    sys.path.insert(0, ROOT)
_mod = sys.modules.get("engine")
if _mod is not None and getattr(_mod, "__file__", None) is None:
    for _name in [n for n in sys.modules if n == "engine" or n.startswith("engine.")]:
        del sys.modules[_name]
