from fakediscord.fixtures import fake_discord  # noqa: F401
