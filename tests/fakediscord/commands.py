"""Build application-command interaction data from the commands the bot synced.

Everything is checked against the synced definitions the way the Discord client would
check it: unknown commands, subcommands or options, missing required options, values
outside the declared choices or bounds all raise `CommandError` before anything is sent.
"""

from __future__ import annotations

from typing import Any

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = (
    3, 4, 5, 6, 7, 8, 9, 10, 11,
)


class CommandError(LookupError):
    """The command or its options don't match what the bot registered."""


def split_path(command: str, group: str | None, subcommand: str | None) -> list[str]:
    path = command.split()
    for extra in (group, subcommand):
        if extra:
            path += extra.split()
    if not path:
        raise CommandError("empty command name")
    return path


def resolve_leaf(command: dict[str, Any], path: list[str]) -> tuple[list[str], dict[str, Any]]:
    """Walk subcommand groups/subcommands; return (names walked, leaf definition)."""
    node = command
    for name in path[1:]:
        subs = {o["name"]: o for o in node.get("options", []) if o["type"] in (1, 2)}
        if name not in subs:
            raise CommandError(
                f"/{' '.join(path)}: no subcommand {name!r} under /{node['name']}; "
                f"registered: {sorted(subs)}"
            )
        node = subs[name]
    if any(o["type"] in (1, 2) for o in node.get("options", [])):
        subs = sorted(o["name"] for o in node["options"])
        raise CommandError(f"/{' '.join(path)} is a group; pick one of {subs}")
    return path, node


def wrap_options(path: list[str], node: dict[str, Any], leaf_options: list[dict[str, Any]],
                 command: dict[str, Any]) -> list[dict[str, Any]]:
    """Nest leaf options inside their subcommand / group option objects."""
    options = leaf_options
    if len(path) == 1:
        return options
    # Rebuild the chain from the root to know each level's type.
    chain = []
    level = command
    for name in path[1:]:
        level = next(o for o in level.get("options", []) if o["name"] == name)
        chain.append(level)
    for level in reversed(chain):
        options = [{"type": level["type"], "name": level["name"], "options": options}]
    return options


def check_value(path: str, opt: dict[str, Any], value: Any) -> Any:
    """Convert a Python value to the wire value Discord sends for this option type."""
    kind = opt["type"]
    name = opt["name"]
    if kind == STRING:
        if not isinstance(value, str):
            raise CommandError(f"{path}: option {name!r} wants a string, got {value!r}")
        if "min_length" in opt and len(value) < opt["min_length"]:
            raise CommandError(f"{path}: {name!r} shorter than {opt['min_length']}")
        if "max_length" in opt and len(value) > opt["max_length"]:
            raise CommandError(f"{path}: {name!r} longer than {opt['max_length']}")
    elif kind == INTEGER:
        if isinstance(value, bool) or not isinstance(value, int):
            raise CommandError(f"{path}: option {name!r} wants an integer, got {value!r}")
    elif kind == NUMBER:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise CommandError(f"{path}: option {name!r} wants a number, got {value!r}")
    elif kind == BOOLEAN and not isinstance(value, bool):
        raise CommandError(f"{path}: option {name!r} wants a boolean, got {value!r}")
    if kind in (INTEGER, NUMBER):
        if opt.get("min_value") is not None and value < opt["min_value"]:
            raise CommandError(f"{path}: {name!r}={value} below min {opt['min_value']}")
        if opt.get("max_value") is not None and value > opt["max_value"]:
            raise CommandError(f"{path}: {name!r}={value} above max {opt['max_value']}")
    choices = opt.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        allowed = [c["value"] for c in choices]
        raise CommandError(f"{path}: {name!r}={value!r} is not one of the choices {allowed}")
    return value
