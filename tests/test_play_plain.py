"""``escoba play --plain`` and ``escoba replay``, and the local match and saved matches
behind them."""

from __future__ import annotations

import io
import json
import os
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from escoba import RULESETS, Card
from escoba.catalogue import keys as catalogue_keys
from escoba.catalogue import own_texts
from escoba.cli import app
from escoba.messages import LANGUAGES, text
from escoba.play import LocalMatch, LocalMatchError, Saves
from escoba.play.plain import PlainGame
from escoba.userdata import data_dir

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("ESCOBA_DATA_DIR", str(folder))
    return folder


def play(*args: str, input: str = "") -> tuple[int, str, str]:
    result = runner.invoke(app, ["play", "--plain", *args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def last_state(out: str) -> str:
    """The last state block before a prompt: from its match points to the moves list."""
    start = out.rindex("\nMatch points: ")
    return out[start : out.index("Your moves:", start)]


def test_a_whole_match_with_option_one(data: Path) -> None:
    code, out, _ = play("--seed", "1", input="1\n" * 400)
    assert code == 0
    assert re.search(r"You (win|lose) the match", out)
    assert "Final score" in out
    assert not (data / "current.json").exists()
    assert list((data / "matches").glob("*.json"))


def test_seats_are_counted_from_one_and_the_end_names_the_kept_file(data: Path) -> None:
    """As the web lobby counts them, the person is seat 1 and the computer seat 2; the end of
    the match gives the replay command with the file it was kept in, ready to copy."""
    code, out, _ = play("--seed", "1", input="1\n" * 400)
    assert code == 0
    assert "You are seat 1." in out and "Seat 2: computer, medium." in out
    (kept,) = (data / "matches").glob("*.json")
    assert out.rstrip().endswith(
        f"see it again with: escoba replay {kept} (and --analyse for the analysis of every move)"
    )
    assert "escoba replay FILE" not in out


def test_a_scopone_match_seated_four_in_partnerships_by_default(data: Path) -> None:
    """Issue 18: Scopone scientifico is played four in two partnerships, the whole deck dealt at
    once (10 cards each, the table empty, no stock); with re bello and napola set, the score
    pad has their rows."""
    code, out, _ = play(
        "--rules",
        "scopone-scientifico",
        "--seed",
        "2",
        "-o",
        "beginner",
        "--set",
        "re_bello=true",
        "--set",
        "napola=true",
        input="1\n" * 200,
    )
    assert code == 0
    assert "4 players" in out and "Partnerships: seats 1 and 3 against seats 2 and 4." in out
    first = out[: out.index("Your moves:")]
    assert re.search(r"^Your hand: (\S+, ){9}\S+\.$", first, re.M)
    assert "Cards left to deal: 0." in first
    assert "  re bello (king of coins)" in out and "  napola (run of coins)" in out
    assert re.search(r"You (win|lose) the match", out)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--rules", "scopone-classico", "--players", "3"], "9 cards to each of 3 players"),
        (["--rules", "scopone-scientifico", "--set", "hand_cards=7"], "do not share out"),
        (["--rules", "scopa", "--set", "ace_takes_all=maybe"], "ace_takes_all"),
    ],
)
def test_a_seating_the_deck_does_not_share_out_is_refused(args: list[str], fragment: str) -> None:
    code, out, err = play(*args)
    assert code == 2 and out == ""
    assert err.startswith("Error: ") and fragment in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_yes_piped_into_the_command() -> None:
    yes = subprocess.Popen(["yes", "1"], stdout=subprocess.PIPE)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "escoba", "play", "--plain", "--seed", "1"],
            stdin=yes.stdout,
            check=False,
            capture_output=True,
            text=True,
            timeout=60,
            env=os.environ,
        )
    finally:
        yes.kill()
        yes.wait()
    assert done.returncode == 0, done.stderr
    assert re.search(r"You (win|lose) the match.*Final score", done.stdout)
    assert "Computer wins" in done.stdout or "You win" in done.stdout


def test_invalid_input_is_refused_and_asked_again() -> None:
    code, out, _ = play("--seed", "2", input="seven\n\n0\n99\n-1\n")
    assert code == 0
    assert "'seven' is not a number" in out
    assert "'' is not a number" in out
    assert "There is no move 0" in out
    assert "There is no move 99" in out
    assert "There is no move -1" in out
    assert "You play" not in out  # nothing was played
    assert out.count("Your move, a number from 1 to") == 6


def test_eof_saves_and_resume_continues_the_same_hand(data: Path) -> None:
    code, out, _ = play("--seed", "5", input="1\n1\n")
    assert code == 0
    assert "The match is saved in" in out and "escoba play --resume" in out
    saved = json.loads((data / "current.json").read_text())
    before = last_state(out)
    plays_before = sum(len(h["moves"]) for h in saved["record"]["hands"])
    code, again, _ = play("--resume", input="")
    assert code == 0
    assert "Continuing the saved match." in again
    assert last_state(again) == before  # the same hand, the same cards
    code, _, _ = play("--resume", input="1\n")
    assert code == 0
    resaved = json.loads((data / "current.json").read_text())
    assert sum(len(h["moves"]) for h in resaved["record"]["hands"]) > plays_before
    assert resaved["record"]["hands"][0]["deals"] == saved["record"]["hands"][0]["deals"]


def test_resume_without_a_saved_match_is_an_error() -> None:
    code, _, err = play("--resume")
    assert code == 2
    assert err.startswith("Error: --resume: no saved match")
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--players", "5"], "--players"),
        (["--partnerships"], "--partnerships"),
        (["--opponent", "grandmaster"], "unknown level"),
        (["--players", "4", "--opponent", "easy", "--opponent", "hard"], "one per opponent"),
        (["--deck", "tarot"], "--deck"),
        (["--language", "xx"], "--language"),
        (["--rules", "poker"], "unknown preset"),
    ],
)
def test_bad_options(args: list[str], fragment: str) -> None:
    code, out, err = play(*args)
    assert code == 2
    assert out == ""
    assert err.startswith("Error: ") and fragment in err
    assert len(err.strip().splitlines()) == 1


def test_the_output_never_shows_a_computer_hand() -> None:
    """Every state printed for the person names no card of another hand or of the stock
    (those cards have not been played, so no line may name them)."""
    match = LocalMatch.new(RULESETS["escoba"], players=3, seed=11, opponents=["easy"])
    shown = io.StringIO()
    plain = PlainGame(match, Saves(), io.StringIO(""), shown)
    game = match.game
    checked = 0
    while not game.is_over() and checked < 40:
        if not match.person_to_move():
            match.advance()
            continue
        shown.seek(0)
        shown.truncate()
        plain.state()
        text = shown.getvalue()
        hidden = set(game.hand(1)) | set(game.hand(2))
        record = game.record()["hands"][-1]["deals"][-1]
        hidden |= {Card.parse(t) for t in record[40 - game.stock_size :]}
        for card in hidden:
            assert card.symbol not in text, (card, text)
        for card in game.hand(0):
            assert card.symbol in text
        checked += 1
        match.play(match.legal_moves()[0])
    assert checked >= 20


def pads(out: str) -> list[tuple[list[int], list[int]]]:
    """Each score pad's "this hand" and "match total" rows."""
    rows = []
    for hand, total in zip(
        re.findall(r"^  this hand\s+(.*)$", out, re.M),
        re.findall(r"^  match total\s+(.*)$", out, re.M),
        strict=True,
    ):
        rows.append(([int(x) for x in hand.split()], [int(x) for x in total.split()]))
    return rows


def test_the_score_pad_adds_up() -> None:
    code, out, _ = play("--seed", "4", "--opponent", "beginner", input="1\n" * 400)
    assert code == 0
    rows = pads(out)
    assert rows
    running = [0, 0]
    for block in re.findall(r"Score pad, hand \d+:\n(.*?)\n  match total", out, re.S):
        lines = block.splitlines()[1:]  # below the side names
        categories = [[int(x) for x in line.split()[-2:]] for line in lines[:-1]]
        hand = [int(x) for x in lines[-1].split()[-2:]]
        assert [sum(c[i] for c in categories) for i in (0, 1)] == hand
    for hand, total in rows:
        running = [r + h for r, h in zip(running, hand, strict=True)]
        assert running == total
    final = re.search(r"Final score: you: (\d+); Computer: (\d+)\.", out)
    assert final is not None
    assert [int(final[1]), int(final[2])] == running


def test_german_and_spanish_cards() -> None:
    code, out, _ = play("--seed", "1", "--language", "de", "--deck", "spanish", input="1\n")
    assert code == 0
    assert "Deine Hand:" in out and " de " in out
    assert "Die Partie ist in" in out


def _forms(key: str, language: str) -> tuple[str, ...]:
    """A message's own texts in a language (its plural forms, or its one text); none if the
    language's catalogue lacks it."""
    own = own_texts(language).get(key, ())
    return own if isinstance(own, tuple) else (own,)


def test_every_play_message_has_english_and_german() -> None:
    keys = [k for k in catalogue_keys() if k.startswith(("play.", "replay."))]
    assert len(keys) > 30
    for key in keys:
        assert _forms(key, "en") and _forms(key, "de"), key
        fields = {name for _, name, _, _ in string.Formatter().parse(_forms(key, "en")[0]) if name}
        for language in LANGUAGES:
            for form in _forms(key, language):
                used = {name for _, name, _, _ in string.Formatter().parse(form) if name}
                assert used <= fields, (key, language)
            assert text(key, language, **dict.fromkeys(fields, 1))


def test_replay_prints_every_hand(data: Path) -> None:
    code, out, _ = play("--seed", "1", input="1\n" * 400)
    assert code == 0
    (path,) = (data / "matches").glob("*.json")
    result = runner.invoke(app, ["replay", str(path), "--plain"])
    assert result.exit_code == 0, result.output
    shown = result.stdout
    hands = len(json.loads(path.read_text())["record"]["hands"])
    assert shown.count("Score pad, hand") == hands
    for number in range(1, hands + 1):
        assert f"Hand {number}. Dealer" in shown
    # every seat's hand is shown: both seats' deals appear in each hand
    assert shown.count("Hands dealt: you:") == hands * 6
    assert pads(shown) == pads(out)
    assert "wins. Final score" in shown


def test_replay_of_a_bare_record_and_a_bad_file(tmp_path: Path) -> None:
    match = LocalMatch.new(RULESETS["scopa"], seed=3)
    for _ in range(5):
        match.advance() or match.play(match.legal_moves()[0])
    record = tmp_path / "record.json"
    record.write_text(json.dumps(match.game.record()))
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 0
    assert "The hand was not finished." in result.stdout
    assert "Hands dealt: seat 1:" in result.stdout
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ")
    result = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert result.exit_code == 2


def test_saves_honour_the_data_dir(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert data_dir() == data
    saves = Saves()
    assert saves.load_current() is None
    match = LocalMatch.new(RULESETS["escoba"], seed=9)
    assert saves.save_current(match) == data / "current.json"
    loaded = saves.load_current()
    assert loaded is not None and loaded.to_json() == match.to_json()
    saves.clear_current()
    assert not saves.current_path.is_file()
    first, second = saves.save_finished(match), saves.save_finished(match)
    assert first != second and first.parent == data / "matches"
    monkeypatch.delenv("ESCOBA_DATA_DIR")
    assert data_dir() != data


@pytest.mark.slow
def test_session_round_trips_and_continues_identically() -> None:
    match = LocalMatch.new(
        RULESETS["escoba"],
        players=4,
        partnerships=True,
        seed=21,
        opponents=["easy", "medium", "hard"],
        deck="italian",
        language="de",
    )
    twin = LocalMatch.loads(match.dumps())
    for _ in range(60):
        for s in (match, twin):
            if s.person_to_move():
                s.play(s.legal_moves()[-1])
            else:
                s.advance()
        if _ % 20 == 0:
            twin = LocalMatch.loads(twin.dumps())
    assert twin.to_json() == match.to_json()
    assert twin.levels == (None, "easy", "medium", "hard")
    assert (twin.deck, twin.language, twin.person) == ("italian", "de", 0)


def test_session_checks() -> None:
    with pytest.raises(LocalMatchError):
        LocalMatch.new(RULESETS["escoba"], players=3, opponents=["easy", "hard", "expert"])
    with pytest.raises(LocalMatchError):
        LocalMatch.new(RULESETS["escoba"], opponents=["nobody"])
    with pytest.raises(LocalMatchError):
        LocalMatch.loads("[]")
    match = LocalMatch.new(RULESETS["escoba"], seed=1)
    if match.person_to_move():
        assert match.advance() is None
    else:
        with pytest.raises(LocalMatchError):
            match.play("Ad")
