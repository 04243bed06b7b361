"""Where a match's event stream starts (:meth:`scopa.web.api.events.Subscription.start`): the
version read once subscribed, whatever the change feed told while it was read. A stream
without ``since`` once sent the version it opened on as if it were a change (the system test
``test_hosted_streams_need_the_group`` saw version 1 where the next change was 2, when the
SQLite feed read the followed matches between the subscription and the read)."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from scopa.store.notify import PollingFeed
from scopa.web.api import events


def first_events(told: list[int | None], read: int, then: int | None) -> list[str]:
    """What a stream without ``since`` sends first: the feed tells ``told`` while the
    match is read at ``read``, then (``then``, unless None) a change."""
    hub = events.EventHub(PollingFeed(lambda ids: {}))  # the stream alone: no feed runs
    sent: list[str] = []

    async def go() -> None:
        subscription = events.Subscription(7)
        for version in told:
            subscription.offer(version)
        subscription.start(read)

        async def read_stream() -> None:
            async for text in hub.stream(subscription, None):
                sent.append(text)

        task = asyncio.create_task(read_stream())
        for _ in range(5):  # the stream sends its opening and whatever it holds already
            await asyncio.sleep(0)
        if then is not None:
            held = len(sent)
            subscription.offer(then)
            async with asyncio.timeout(5):
                while len(sent) == held and not task.done():
                    await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    asyncio.run(go())
    return sent[1:]


@pytest.mark.parametrize("told", [[], [1], [0, 1], [1, 1]])
def test_a_version_told_while_the_match_is_read_is_not_sent_as_a_change(
    told: list[int | None],
) -> None:
    assert first_events(told, read=1, then=2) == [events.event_text(7, 2)]


def test_a_newer_version_told_while_the_match_is_read_is_sent_at_once() -> None:
    assert first_events([2], read=1, then=None) == [events.event_text(7, 2)]


def test_a_match_deleted_while_it_is_read_is_sent_at_once() -> None:
    assert first_events([None], read=1, then=None) == [events.event_text(7, None)]
