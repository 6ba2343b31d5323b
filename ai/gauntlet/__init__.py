"""The gauntlet: opponents written from the rules, apart from the AI levels.

Four styles (`styles.py`: greedy, decliner, turtle, aggressor) share a skeleton
(`base.py`) and their own reading of the rules (`lore.py`); two stronger players stand on
the same skeleton: the strategist (`strategist.py`, written from what strong human players
do) and an information-set Monte Carlo tree search (`ismcts.py`, its own playouts with the
hidden information sampled in every iteration). None imports `ai.policy`, `ai.search` or
anything else the levels decide with, and `ai.choose` never imports this package
(tests/ai/test_gauntlet.py checks both), so tuning the levels against the gauntlet cannot
hide inside a level. Each decides on `engine.sample_hidden` of the real state: it sees what
its seat may see and nothing more. `players.py` names them all; `run.py` plays
`python -m ai gauntlet`; `targets.py` lists what the levels must reach; `rating.py`
computes OpenSkill (Plackett-Luce) ratings in the standard library.
"""

from .players import PLAYERS
from .styles import STYLES

__all__ = ["PLAYERS", "STYLES"]
