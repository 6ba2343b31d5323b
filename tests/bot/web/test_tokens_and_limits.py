"""Signed sessions and sign-in states, rate buckets, and the socket's message shapes."""

from __future__ import annotations

import pydantic
import pytest

from bot.web.limits import Buckets
from bot.web.messages import INCOMING, Act, Hello, Ping
from bot.web.tokens import BadToken, Signer


class Clock:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


def test_a_session_reads_back_until_it_expires() -> None:
    clock = Clock()
    signer = Signer("secret", clock=clock)
    token = signer.session(42, "Ann", "th", hours=1)
    read = signer.read_session(token)
    assert (read.user_id, read.name, read.locale) == (42, "Ann", "th")
    assert repr(read) == "Session(user 42)"
    clock.t += 3601
    with pytest.raises(BadToken, match="expired"):
        signer.read_session(token)


@pytest.mark.parametrize("change", ["forge", "other secret", "kind", "junk", "none"])
def test_a_session_that_is_not_ours_is_refused(change: str) -> None:
    signer = Signer("secret")
    token = signer.session(42, "Ann", "en", hours=1)
    if change == "forge":  # another member's id under the old signature
        body, mac = token.split(".")
        other = signer.session(43, "Ann", "en", hours=1).split(".")[0]
        token = f"{other}.{mac}"
    elif change == "other secret":
        token = Signer("another").session(42, "Ann", "en", hours=1)
    elif change == "kind":  # a story pass is not a session
        token = signer.pass_for(7, hours=1)
    elif change == "junk":
        token = "a.b.c"
    with pytest.raises(BadToken):
        signer.read_session(None if change == "none" else token)


def test_a_sign_in_state_is_good_only_with_its_own_browser_nonce() -> None:
    signer = Signer("secret")
    state, nonce = signer.state(555)
    assert signer.read_state(state, nonce) == 555
    _, other_nonce = signer.state(555)
    with pytest.raises(BadToken):
        signer.read_state(state, other_nonce)
    with pytest.raises(BadToken):
        signer.read_state(state, None)


def test_buckets_refill_at_their_rate_and_keep_keys_apart() -> None:
    clock = Clock()
    b = Buckets(rate=2, burst=3, clock=clock)
    assert [b.take("ann") for _ in range(4)] == [True, True, True, False]
    assert b.take("bob")  # another member has her own
    clock.t += 0.5  # one token back
    assert b.take("ann") and not b.take("ann")


def test_messages_are_checked_at_the_edge() -> None:
    assert isinstance(INCOMING.validate_json('{"t":"ping"}'), Ping)
    hello = INCOMING.validate_json('{"t":"hello","session":"s.x","channel":"123"}')
    assert isinstance(hello, Hello) and hello.v == 0
    act = INCOMING.validate_json('{"t":"act","id":"a1","g":1,"v":2,"a":{"do":"end"}}')
    assert isinstance(act, Act) and act.a == {"do": "end"}
    for bad in ('{"t":"act","id":"a1","g":1,"v":2}',  # no action
                '{"t":"act","id":"<script>","g":1,"v":2,"a":{}}',  # an id of odd characters
                '{"t":"hello","session":"s","channel":"12a"}',
                '{"t":"fly"}', '{"t":"ping","extra":1}', '[]'):
        with pytest.raises(pydantic.ValidationError):
            INCOMING.validate_json(bad)
