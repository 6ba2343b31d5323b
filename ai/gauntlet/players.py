"""Every gauntlet player by name: the four styles and the two stronger players.

`styles.py` holds the four rules players of one skeleton (greedy, decliner, turtle,
aggressor); `strategist.py` plays from what strong human players do; `ismcts.py` searches
its own big decisions with information-set Monte Carlo tree search. This module only
names them, so that the styles need not import the players built on top of them.
"""

from __future__ import annotations

from .base import RulesPlayer
from .ismcts import Ismcts
from .strategist import Strategist
from .styles import STYLES

PLAYERS: dict[str, type[RulesPlayer]] = {**STYLES, Strategist.style: Strategist,
                                         Ismcts.style: Ismcts}
