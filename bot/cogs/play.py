"""Playing a turn: `/sw pick|conquer|reinforce|roll|abandon|decline|deploy|move|end|undo` and
`/sw power enchant|dragon|place|ally`. Each parses its options into a protocol action and
hands it to the flow (bot.chat.flow), which asks the service and the Announcer."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.chat.archive import DYNAMIC_ITEMS as ARCHIVE_ITEMS
from bot.chat.views import DYNAMIC_ITEMS
from bot.cogs.tree import Choice, Commands, filter_choices, in_server, power, sw
from bot.errors import ServiceError
from bot.language import reply_language

PIECE_NAMES = {"fortress": "Fortress", "encampment": "Encampment", "hero": "Hero",
               "troll_lair": "Troll lair"}


class PlayCommands(Commands):
    """The actions of a turn, as slash commands with autocomplete."""

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS, *ARCHIVE_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS, *ARCHIVE_ITEMS)

    async def _act(self, interaction: discord.Interaction, action: dict[str, Any]) -> None:
        await self.flow.run_action(interaction, action)

    @sw.command(name="pick", description="Pick a race and special power from the row")
    @app_commands.describe(slot="Combo number 1 (free) to 6, as on the combo picture")
    @in_server()
    async def pick(self, interaction: discord.Interaction,
                   slot: app_commands.Range[int, 1, 6]) -> None:
        await self._act(interaction, {"do": "pick", "slot": slot - 1})

    @pick.autocomplete("slot")
    async def _pick_slots(self, interaction: discord.Interaction, current: str
                          ) -> list[Choice[int]]:
        try:
            combos = await self.service.combos(interaction.channel_id or 0, interaction.user.id)
        except ServiceError:
            return []
        lang = await reply_language(interaction)
        return filter_choices(current, [
            Choice(name=f"{c.slot + 1}. {c.pick_label(lang)}"[:100], value=c.slot + 1)
            for c in combos])

    @sw.command(name="conquer", description="Conquer a region with tokens in hand")
    @app_commands.describe(region="Region id (the list shows legal targets and their cost)",
                           ghouls="Conquer with your In Decline Ghouls")
    @in_server()
    async def conquer(self, interaction: discord.Interaction, region: int,
                      ghouls: bool = False) -> None:
        await self._act(interaction, {"do": "conquer", "region": region,
                                      **({"race": "decline"} if ghouls else {})})

    @conquer.autocomplete("region")
    async def _conquer_regions(self, interaction: discord.Interaction, current: str
                               ) -> list[Choice[int]]:
        try:
            targets = await self.service.targets(interaction.channel_id or 0, interaction.user.id)
        except ServiceError:
            return []
        seen: dict[int, Choice[int]] = {}
        lang = await reply_language(interaction)
        for t in targets:
            if t.verb.startswith("conquer") and t.region not in seen:
                seen[t.region] = Choice(name=t.label(lang)[:100], value=t.region)
        return filter_choices(current, list(seen.values()))

    @sw.command(name="reinforce", description="Final conquest: name a region, then roll the die")
    @app_commands.describe(region="Region 1-3 tokens out of reach",
                           ghouls="Attempt it with your In Decline Ghouls")
    @in_server()
    async def reinforce(self, interaction: discord.Interaction, region: int,
                        ghouls: bool = False) -> None:
        await self._act(interaction, {"do": "reinforce", "region": region,
                                      **({"race": "decline"} if ghouls else {})})

    @reinforce.autocomplete("region")
    async def _reinforce_regions(self, interaction: discord.Interaction, current: str
                                 ) -> list[Choice[int]]:
        return await self.regions(interaction, current, "reinforce")

    @sw.command(name="roll", description="Berserk: roll the die before your next conquest")
    @in_server()
    async def roll(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"do": "roll"})

    @sw.command(name="abandon", description="Empty one of your regions (before any conquest)")
    @app_commands.describe(region="One of your regions (the list shows which)")
    @in_server()
    async def abandon(self, interaction: discord.Interaction, region: int) -> None:
        await self._act(interaction, {"do": "abandon", "region": region})

    @abandon.autocomplete("region")
    async def _abandon_regions(self, interaction: discord.Interaction, current: str
                               ) -> list[Choice[int]]:
        return await self.regions(interaction, current, "abandon")

    @sw.command(name="decline", description="Put your Active race into decline (ends the turn)")
    @in_server()
    async def decline(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"do": "decline"})

    @sw.command(name="deploy", description="Put tokens from your hand on one of your regions")
    @app_commands.describe(region="One of your regions", count="How many tokens")
    @in_server()
    async def deploy(self, interaction: discord.Interaction, region: int,
                     count: app_commands.Range[int, 1, 30]) -> None:
        await self._act(interaction, {"do": "deploy", "region": region, "count": count})

    @deploy.autocomplete("region")
    async def _deploy_regions(self, interaction: discord.Interaction, current: str
                              ) -> list[Choice[int]]:
        return await self.regions(interaction, current, "deploy")

    @sw.command(name="move", description="Move tokens between your regions (redeployment)")
    @app_commands.rename(from_="from")
    @app_commands.describe(from_="Region to take tokens from", to="Region to put them on",
                           count="How many tokens")
    @in_server()
    async def move(self, interaction: discord.Interaction, from_: int, to: int,
                   count: app_commands.Range[int, 1, 30]) -> None:
        await self._act(interaction, {"do": "move", "from": from_, "to": to, "count": count})

    @move.autocomplete("from_")
    async def _move_from(self, interaction: discord.Interaction, current: str
                         ) -> list[Choice[int]]:
        return await self.regions(interaction, current, "move", key="from")

    @move.autocomplete("to")
    async def _move_to(self, interaction: discord.Interaction, current: str
                       ) -> list[Choice[int]]:
        src = getattr(interaction.namespace, "from", None)
        match = {"from": src} if isinstance(src, int) else {}
        return await self.regions(interaction, current, "move", key="to", **match)

    @sw.command(name="end", description="End your turn (or your survivors' placement) and score")
    @in_server()
    async def end(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"do": "end"})

    @sw.command(name="hint", description="The AI's suggestion for your next step, and why "
                                         "(only you see it)")
    @in_server()
    async def hint(self, interaction: discord.Interaction) -> None:
        await self.flow.hint(interaction)

    @sw.command(name="undo", description="Take back your last action (not past a die roll or draw)")
    @in_server()
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.flow.run_undo(interaction)

    # -- race and power actions ---------------------------------------------------------

    @power.command(name="enchant", description="Sorcerers: convert a lone enemy token")
    @app_commands.describe(region="A region with a lone enemy token next to your Sorcerers")
    @in_server()
    async def enchant(self, interaction: discord.Interaction, region: int) -> None:
        await self._act(interaction, {"do": "enchant", "region": region})

    @enchant.autocomplete("region")
    async def _enchant_regions(self, interaction: discord.Interaction, current: str
                               ) -> list[Choice[int]]:
        return await self.regions(interaction, current, "enchant")

    @power.command(name="dragon", description="Dragon Master: conquer with one token and the Dragon")
    @app_commands.describe(region="The region to take with the Dragon")
    @in_server()
    async def dragon(self, interaction: discord.Interaction, region: int) -> None:
        await self._act(interaction, {"do": "dragon", "region": region})

    @dragon.autocomplete("region")
    async def _dragon_regions(self, interaction: discord.Interaction, current: str
                              ) -> list[Choice[int]]:
        return await self.regions(interaction, current, "dragon")

    @power.command(name="place", description="Place a fortress, encampment, hero or troll lair")
    @app_commands.choices(piece=[Choice(name=v, value=k) for k, v in PIECE_NAMES.items()])
    @app_commands.describe(piece="What to place", region="One of your regions")
    @in_server()
    async def place(self, interaction: discord.Interaction, piece: str, region: int) -> None:
        await self._act(interaction, {"do": "place", "piece": piece, "region": region})

    @place.autocomplete("region")
    async def _place_regions(self, interaction: discord.Interaction, current: str
                             ) -> list[Choice[int]]:
        piece = getattr(interaction.namespace, "piece", None)
        return await self.regions(interaction, current, "place",
                                  **({"piece": piece} if piece else {}))

    @power.command(name="ally", description="Diplomat: choose an opponent at peace with you")
    @app_commands.describe(target="The opponent whose Active race may not attack you")
    @in_server()
    async def ally(self, interaction: discord.Interaction, target: str) -> None:
        await self._act(interaction, {"do": "ally", "target": target})

    @ally.autocomplete("target")
    async def _ally_targets(self, interaction: discord.Interaction, current: str
                            ) -> list[Choice[str]]:
        names = sorted({a["target"] for a in await self.legal_of(interaction)
                        if a["do"] == "ally"})
        return filter_choices(current, [Choice(name=n, value=n) for n in names])
