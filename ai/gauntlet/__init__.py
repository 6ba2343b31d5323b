"""The gauntlet: opponents written from the rules, apart from the AI levels.

Four styles (`styles.py`: greedy, decliner, turtle, aggressor) share a skeleton
(`base.py`) and their own reading of the rules (`lore.py`); none imports `ai.policy`,
`ai.search` or anything else the levels decide with, and `ai.choose` never imports this
package (tests/ai/test_gauntlet.py checks both), so tuning the levels against the gauntlet
cannot hide inside a level. Each decides on `engine.sample_hidden` of the real state: it
sees what its seat may see and nothing more. `run.py` plays `python -m ai gauntlet`;
`rating.py` computes OpenSkill (Plackett-Luce) ratings in the standard library.
"""

from .styles import STYLES

__all__ = ["STYLES"]
