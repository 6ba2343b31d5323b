"""Short rule texts for `/sw rules`: every race, every special power and a few topics.

Token numbers come from data/ (engine.data), so they cannot drift from what the engine uses.
"""

from __future__ import annotations

from bot.text import clip, echo
from engine import data as engine_data

RACES: dict[str, str] = {
    "Amazons": "Four of their tokens attack but never defend: after each redeployment 4 Amazons "
               "leave the map (one per region stays while possible) and come back at the start "
               "of the next turn.",
    "Dwarves": "+1 coin for each Mine region they hold at the end of your turn, even In Decline.",
    "Elves": "When an enemy conquers an Elf region, you lose no token: all of them return to "
             "your hand and are redeployed at the end of that turn. (A Sorcerer's conversion "
             "still takes the Elf.)",
    "Ghouls": "On decline every Ghoul stays on the map, and In Decline Ghouls keep conquering "
              "(before your Active race, not on a decline turn): `/sw conquer region ghouls:True`.",
    "Giants": "A region next to a Mountain that your Giants hold costs 1 token less (minimum 1).",
    "Halflings": "May enter the map anywhere. Their first two conquests get a Hole-in-the-Ground:"
                 " immune to enemies until the Halflings decline or abandon the region.",
    "Humans": "+1 coin for each Farmland region they hold at the end of your turn.",
    "Orcs": "+1 coin for each non-empty region (Lost Tribe or race tokens) they conquered this "
            "turn.",
    "Ratmen": "No race power: their strength is their numbers.",
    "Skeletons": "During redeployment take 1 new Skeleton from the tray for every 2 non-empty "
                 "regions conquered this turn.",
    "Sorcerers": "Once per opponent per turn, during your conquests, replace a lone Active enemy "
                 "token next to your Sorcerers with a Sorcerer from the tray (`/sw power "
                 "enchant`). Needs a token in hand; encampments protect, fortresses do not.",
    "Tritons": "A region bordering a sea or lake costs 1 token less (minimum 1).",
    "Trolls": "Every region they hold gets a Troll Lair: +1 defence, and it stays after "
              "decline.",
    "Wizards": "+1 coin for each Magic Source region they hold at the end of your turn.",
}

POWERS: dict[str, str] = {
    "Alchemist": "+2 coins at the end of each of your turns while the race is Active.",
    "Berserk": "Roll the die before every conquest (`/sw roll`), then pick a target: it costs "
               "the roll less (minimum 1). Out of reach means the conquests end.",
    "Bivouacking": "Place 5 encampments in your regions during redeployment (`/sw power place "
                   "encampment`); each adds 1 defence and protects from Sorcerers. They are "
                   "never lost, only moved, and leave on decline.",
    "Commando": "Every region costs 1 token less (minimum 1).",
    "Diplomat": "At the end of your turn name an opponent whose Active race you did not attack "
                "(`/sw power ally`): until your next turn their Active race may not attack "
                "yours.",
    "Dragon Master": "Once per turn conquer a region with a single token whatever defends it and "
                     "put the Dragon there (`/sw power dragon`): the region is immune until the "
                     "Dragon moves.",
    "Flying": "Conquer any land region, adjacent or not (seas and lakes still need Seafaring).",
    "Forest": "+1 coin for each Forest region you hold at the end of your turn.",
    "Fortified": "Once per turn, during redeployment, place a fortress (`/sw power place "
                 "fortress`): +1 defence (even In Decline) and +1 coin per turn while Active. "
                 "Six at most, one per region.",
    "Heroic": "At the end of your turn place the two Heroes in two different regions (`/sw "
              "power place hero`): those regions are immune to enemies.",
    "Hill": "+1 coin for each Hill region you hold at the end of your turn.",
    "Merchant": "+1 coin for each region you hold with this race at the end of your turn.",
    "Mounted": "Hill and Farmland regions cost 1 token less (minimum 1).",
    "Pillaging": "+1 coin for each non-empty region conquered this turn.",
    "Seafaring": "May conquer seas and lakes (as empty regions), and keeps scoring them after "
                 "decline.",
    "Spirit": "When this race declines it does not count toward the one In Decline race limit: "
              "you may score two In Decline races.",
    "Stout": "May go into decline at the end of a normal turn, after scoring (`/sw decline` "
             "instead of `/sw end`).",
    "Swamp": "+1 coin for each Swamp region you hold at the end of your turn.",
    "Underworld": "Cavern regions cost 1 token less, and all caverns count as adjacent to each "
                  "other.",
    "Wealthy": "+7 coins once, at the end of your first turn with this combo.",
}

# one short clause each, for the pick menu (an option description holds 100 characters)
SHORT_RACES: dict[str, str] = {
    "Amazons": "+4 tokens for attacking only",
    "Dwarves": "+1 per Mine, even in decline",
    "Elves": "lose no tokens when attacked",
    "Ghouls": "keep conquering in decline",
    "Giants": "-1 cost next to their Mountains",
    "Halflings": "enter anywhere; 2 holes make regions immune",
    "Humans": "+1 per Farmland",
    "Orcs": "+1 per non-empty region conquered",
    "Ratmen": "no power, many tokens",
    "Skeletons": "+1 token per 2 non-empty conquests",
    "Sorcerers": "convert lone enemy tokens",
    "Tritons": "-1 cost by the water",
    "Trolls": "troll lairs: +1 defence",
    "Wizards": "+1 per Magic Source",
}
SHORT_POWERS: dict[str, str] = {
    "Alchemist": "+2 coins a turn",
    "Berserk": "roll the die before each conquest",
    "Bivouacking": "5 encampments: +1 defence each",
    "Commando": "every conquest -1 token",
    "Diplomat": "make peace with one opponent",
    "Dragon Master": "one Dragon conquest a turn",
    "Flying": "conquer any land region",
    "Forest": "+1 per Forest",
    "Fortified": "a fortress a turn: +1 defence, +1 coin",
    "Heroic": "two Heroes make regions immune",
    "Hill": "+1 per Hill",
    "Merchant": "+1 per region",
    "Mounted": "Hills and Farmlands -1 token",
    "Pillaging": "+1 per non-empty region conquered",
    "Seafaring": "conquer seas and lakes",
    "Spirit": "a second In Decline race",
    "Stout": "decline after a normal turn",
    "Swamp": "+1 per Swamp",
    "Underworld": "caverns -1 and all adjacent",
    "Wealthy": "+7 coins once",
}


def short(race: str, power: str) -> str:
    """What a combo does, in under 100 characters: "Forest: +1 per Forest · Elves: ..."."""
    return (f"{power}: {SHORT_POWERS.get(power, '?')} · {race}: {SHORT_RACES.get(race, '?')}"
            )[:100]


TOPICS: dict[str, str] = {
    "turn": "A turn: pick a combo if you have no Active race; otherwise expand (conquer, then "
            "redeploy and `/sw end`) or `/sw decline`. Scoring: 1 coin per region you hold "
            "(Active and In Decline) plus race and power bonuses.",
    "conquest": "Cost of a region: 2 tokens + 1 per mountain, fortress, troll lair, encampment "
                "or Lost Tribe + 1 per defending token. Your first conquest must be a border "
                "region. The defender loses one token and redeploys the rest at the end of "
                "the turn.",
    "die": "The final conquest may use the reinforcement die (`/sw reinforce region`) when "
           "you are 1 to 3 tokens short: die + tokens in hand must reach the cost. The die "
           "shows 0, 0, 0, 1, 2, 3. Conquests end afterwards.",
    "decline": "Going into decline takes your whole turn (except with Stout): flip the race, "
               "keep one token per region, drop your older In Decline race, score, and pick a "
               "new combo on your next turn.",
    "picking": "The first combo of the row is free; each position further down costs 1 coin, "
               "paid onto each combo you skip. Coins lying on your pick are yours.",
    "coins": "Coin totals are secret until the end: you get yours by DM after every turn and "
             "with `/sw score`. The richest player wins; ties go to the most race tokens on "
             "the map.",
    "undo": "`/sw undo` takes back your own actions of this turn, but never past a die roll "
            "or a newly revealed combo.",
}


def _race(name: str) -> str | None:
    key = next((r for r in RACES if r.casefold() == name.strip().casefold()), None)
    if key is None:
        return None
    tokens = engine_data.races()[key].tokens
    return f"**{key}** ({tokens} tokens): {RACES[key]}"


def _power(name: str) -> str | None:
    key = next((p for p in POWERS if p.casefold() == name.strip().casefold()), None)
    if key is None:
        return None
    tokens = engine_data.powers()[key].tokens
    return f"**{key}** (+{tokens} tokens): {POWERS[key]}"


def lookup(*, race: str | None = None, power: str | None = None, topic: str | None = None) -> str:
    """The rule text for the given race, power and/or topic (an index when nothing given)."""
    parts: list[str] = []
    if race:
        parts.append(_race(race) or f"There is no race called {echo(race)}. Races: "
                     + ", ".join(RACES) + ".")
    if power:
        parts.append(_power(power) or f"There is no special power called {echo(power)}. "
                     "Powers: "
                     + ", ".join(POWERS) + ".")
    if topic:
        key = topic.strip().casefold()
        parts.append(f"**{key}**: {TOPICS[key]}" if key in TOPICS else
                     f"No topic {echo(topic)}. Topics: " + ", ".join(TOPICS) + ".")
    if not parts:
        parts = [TOPICS["turn"], "Ask about one thing: `/sw rules race:Orcs`, "
                 "`/sw rules power:Flying` or `/sw rules topic:` " + ", ".join(TOPICS) + "."]
    return clip("\n\n".join(parts))


def check_complete() -> None:
    """Every race and power of the engine has a text (a test calls this)."""
    missing = (set(engine_data.RACES) ^ set(RACES) | set(engine_data.POWERS) ^ set(POWERS)
               | set(RACES) ^ set(SHORT_RACES) | set(POWERS) ^ set(SHORT_POWERS))
    if missing:
        raise ValueError(f"rules_text out of step with engine.data: {sorted(missing)}")
