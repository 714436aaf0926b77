"""Table talk (issue 33, "Table talk"): quick phrases at every table, free text only at private
tables; short, rate limited, shown as text; spectators read but do not write; whoever joins
hears the last few things said; across the processes of a site too.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from escoba.server.config import DEFAULT_LIMITS
from escoba.server.protocol import MAX_TALK, PHRASES
from escoba.server.rooms.actor import TALK_KEPT
from redis_fixtures import TestRedis
from server_helpers import (
    Message,
    Peer,
    connect,
    create_room,
    join_room,
    site_apps,
    two_people,
)


def said(peer: Peer) -> Message:
    message: Message = peer.until(lambda m: m["type"] in ("said", "error"))
    return message


@pytest.mark.slow
def test_a_quick_phrase_reaches_everybody_at_the_table(client: TestClient) -> None:
    room, ana_ticket, bea_ticket = two_people(client)
    with connect(client, room) as ana, connect(client, room) as bea, connect(client, room) as cy:
        ana.join(ana_ticket["token"])
        bea.join(bea_ticket["token"])
        cy.watch()
        ana.send({"type": "say", "phrase": "good_luck"})
        for peer in (ana, bea, cy):
            message = said(peer)
            assert message == {
                "type": "said",
                "seat": ana.seat,
                "nickname": "Ana",
                "phrase": "good_luck",
                "text": None,
                "earlier": False,
            }


def test_free_text_at_a_private_table_is_one_clean_line(client: TestClient) -> None:
    room, ana_ticket, bea_ticket = two_people(client)
    with connect(client, room) as ana, connect(client, room) as bea:
        ana.join(ana_ticket["token"])
        bea.join(bea_ticket["token"])
        ana.send({"type": "say", "text": "  ¿otra\n\u202epartida? <b>sí</b> "})
        assert said(bea)["text"] == "¿otra partida? <b>sí</b>"  # text; the page shows it as such
        said(ana)  # the speaker is told too
        ana.send({"type": "say", "text": "\u200b \u2800"})
        assert "visible" in ana.refused("bad_text")["message"]
        ana.send({"type": "say", "text": "x" * (MAX_TALK + 1)})
        assert ana.refused("bad_message")
        assert bea.barrier() == []  # nothing of the refused ones came


def test_an_open_table_talks_in_quick_phrases_only(client: TestClient) -> None:
    ticket = create_room(client, seats=["person", "person"], listed=True)
    with connect(client, ticket["room"]) as ana:
        ana.join(ticket["token"])
        ana.send({"type": "say", "text": "hola"})
        assert "quick phrases" in ana.refused("no_free_text")["message"]
        ana.send({"type": "say", "phrase": "hello"})
        assert said(ana)["phrase"] == "hello"


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "say", "phrase": "you_lose"}, "bad_message"),
        ({"type": "say"}, "bad_message"),
        ({"type": "say", "phrase": "oops", "text": "oops"}, "bad_message"),
        ({"type": "say", "text": 7}, "bad_message"),
    ],
)
def test_a_malformed_say_is_refused(client: TestClient, message: Message, code: str) -> None:
    room, ana_ticket, _ = two_people(client)
    with connect(client, room) as ana:
        ana.join(ana_ticket["token"])
        ana.send(message)
        assert ana.refused(code)["message"]


def test_spectators_read_but_do_not_write(client: TestClient) -> None:
    room, _, _ = two_people(client)
    with connect(client, room) as cy:
        cy.watch()
        cy.send({"type": "say", "phrase": "hello"})
        assert "spectators" in cy.refused("not_seated")["message"]


def test_a_flood_of_talk_is_cut_short(client: TestClient) -> None:
    room, ana_ticket, bea_ticket = two_people(client)
    with connect(client, room) as ana, connect(client, room) as bea:
        ana.join(ana_ticket["token"])
        bea.join(bea_ticket["token"])
        for phrase in PHRASES[: DEFAULT_LIMITS.talk_burst]:
            ana.send({"type": "say", "phrase": phrase})
            assert said(bea)["phrase"] == phrase == said(ana)["phrase"]
        ana.send({"type": "say", "phrase": "thanks"})
        refusal = ana.refused("talk_too_fast")
        assert "one every 2 seconds" in refusal["message"]
        assert all(m["type"] != "said" for m in bea.barrier())
        bea.send({"type": "say", "phrase": "thanks"})  # Bea's allowance is her own
        assert said(ana)["seat"] == bea.seat


def test_whoever_joins_hears_the_last_things_said(client: TestClient) -> None:
    ticket = create_room(client, seats=["person", "person", "person"], players=3)
    room = ticket["room"]
    bea = join_room(client, room, "Bea")
    with connect(client, room) as ana:
        ana.join(ticket["token"])
        for number in range(TALK_KEPT + 3):
            ana.send({"type": "say", "text": f"line {number}"})
            said(ana)
            if number % DEFAULT_LIMITS.talk_burst == DEFAULT_LIMITS.talk_burst - 1:
                ana.websocket.portal.call(_refill, client, room)
        with connect(client, room) as late:
            late.join(bea["token"])
            heard = [m for m in late.barrier() if m["type"] == "said"]
            assert [m["text"] for m in heard] == [f"line {n}" for n in range(3, TALK_KEPT + 3)]
            assert all(m["earlier"] for m in heard)


async def _refill(client: TestClient, room: str) -> None:
    """Give every seat of the room its whole allowance back (as a quiet spell would)."""
    for rate in client.app.state.registry.rooms[room]._talk_rates.values():  # type: ignore[attr-defined]
        rate._allowance = rate.burst


@pytest.mark.slow
def test_talk_crosses_the_processes_of_a_site(tmp_path: Path, redis_store: TestRedis) -> None:
    """Two processes of one site: Bea, connected to the process that does not own the room,
    says a phrase; Ana, on the owner, hears it, and Bea hears Ana's line back."""
    apps = site_apps(tmp_path, redis_store.url, redis_store.prefix, 2)
    with TestClient(apps[0]) as owner, TestClient(apps[1]) as other:
        ticket = create_room(owner, seats=["person", "person"])
        room = ticket["room"]
        guest = join_room(other, room, "Bea")
        with connect(owner, room) as ana, connect(other, room) as bea:
            ana.join(ticket["token"])
            bea.join(guest["token"])
            bea.send({"type": "say", "phrase": "well_played"})
            assert said(bea)["phrase"] == "well_played"
            heard = said(ana)
            assert (heard["seat"], heard["nickname"], heard["phrase"]) == (
                bea.seat,
                "Bea",
                "well_played",
            )
            ana.send({"type": "say", "text": "gracias"})
            assert said(bea)["text"] == "gracias"
