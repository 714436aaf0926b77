"""Nicknames (`escoba.server.nicknames.clean_nickname`): what others see must be visible text.

Each blank-looking or invisible character alone is refused, mixed into a name it is dropped,
ordinary names in many scripts (with emoji) are kept exactly, whitespace becomes single spaces,
combining marks cannot stack, the length is capped and cleaning twice changes nothing.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escoba.server.nicknames import MAX_MARKS, NicknameError, clean_nickname
from escoba.server.protocol import MAX_NICKNAME

# Characters that show nothing, each with why it is tested.
INVISIBLE: dict[str, str] = {
    "\u3164": "HANGUL FILLER, a letter drawn blank",
    "\uffa0": "HALFWIDTH HANGUL FILLER",
    "\u115f": "HANGUL CHOSEONG FILLER",
    "\u1160": "HANGUL JUNGSEONG FILLER",
    "\u2800": "BRAILLE PATTERN BLANK, a symbol drawn blank",
    "\U0001d159": "MUSICAL SYMBOL NULL NOTEHEAD, a symbol drawn blank",
    "\u180e": "MONGOLIAN VOWEL SEPARATOR, format",
    "\u200b": "ZERO WIDTH SPACE",
    "\u200c": "ZERO WIDTH NON-JOINER",
    "\u200d": "ZERO WIDTH JOINER",
    "\u200e": "LEFT-TO-RIGHT MARK",
    "\u202e": "RIGHT-TO-LEFT OVERRIDE",
    "\u2060": "WORD JOINER",
    "\u2066": "LEFT-TO-RIGHT ISOLATE",
    "\ufeff": "ZERO WIDTH NO-BREAK SPACE",
    "\u00ad": "SOFT HYPHEN",
    "\u034f": "COMBINING GRAPHEME JOINER",
    "\u061c": "ARABIC LETTER MARK",
    "\u17b4": "KHMER VOWEL INHERENT AQ",
    "\u180b": "MONGOLIAN FREE VARIATION SELECTOR ONE",
    "\ufe0f": "VARIATION SELECTOR-16 with nothing to select",
    "\U000e0100": "VARIATION SELECTOR-17",
    "\U000e0041": "TAG LATIN CAPITAL LETTER A",
    "\U000e007f": "CANCEL TAG",
    "\u0301": "COMBINING ACUTE ACCENT with no base",
    "\u20e3": "COMBINING ENCLOSING KEYCAP with no base",
    "\u0000": "NUL, a control",
    "\u001b": "ESCAPE, a control",
    "\u007f": "DELETE, a control",
    "\u009b": "CONTROL SEQUENCE INTRODUCER, a C1 control",
    "\ue000": "private use",
    "\U000f0000": "supplementary private use",
    "\ufffe": "a noncharacter (unassigned)",
    "\u0378": "unassigned",
    "\ud800": "a lone surrogate",
    "\u3000": "IDEOGRAPHIC SPACE",
    "\u00a0": "NO-BREAK SPACE",
    "\u2003": "EM SPACE",
    "\u205f": "MEDIUM MATHEMATICAL SPACE",
    "\u2028": "LINE SEPARATOR",
    "\u0085": "NEXT LINE",
}

BASELESS_MARKS = {"\u0301", "\u20e3"}

ORDINARY = [
    "Ana",
    "José",
    "Zoë",
    "李小龍",
    "Ωμέγα",
    "Ђорђе",
    "Nguyễn Văn An",
    "محمد",
    "דוד",
    "प्रिया",
    "தமிழ்",
    "สมชาย",
    "김민준",
    "さくら",
    "გიორგი",
    "Ana 🌹",
    "🇪🇸 Pepe",
    "👩🏽\u200d💻 Lucía",  # woman, skin tone, joiner, laptop
    "👨\u200d👩\u200d👧\u200d👦",  # a family: four people joined
    "🏳\ufe0f\u200d🌈",  # rainbow flag: flag, emoji selector, joiner, rainbow
    "❤\ufe0f\u200d🔥",
    "1\ufe0f\u20e3 Uno",  # keycap one: digit, emoji selector, enclosing keycap
    "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f Jack",  # England
    "O'Brien-Smith",
    "R2-D2 ★",
]


@pytest.mark.parametrize("char", INVISIBLE, ids=[f"U+{ord(c):04X}" for c in INVISIBLE])
def test_each_invisible_character_alone_is_refused(char: str) -> None:
    for nickname in (char, char * 3, f" {char} ", f"{char}\u200b{char}"):
        with pytest.raises(NicknameError, match="the nickname must hold a visible character"):
            clean_nickname(nickname)


@pytest.mark.parametrize("char", INVISIBLE, ids=[f"U+{ord(c):04X}" for c in INVISIBLE])
def test_each_invisible_character_in_a_name_is_dropped(char: str) -> None:
    """Inside a word it goes (a space-like one becomes a space); at either end, too. A
    combining mark is only without a base at the start or after a space."""
    if char in BASELESS_MARKS:
        assert clean_nickname(f"{char}Ana {char}{char}Bo") == "Ana Bo"
        return
    inside = " " if char.isspace() else ""
    assert clean_nickname(f"{char}An{char}a{char}") == f"An{inside}a"


def test_all_the_invisible_characters_together_are_refused() -> None:
    with pytest.raises(NicknameError):
        clean_nickname("".join(INVISIBLE))
    assert clean_nickname("".join(INVISIBLE) + "Ana" + "".join(INVISIBLE)) == "Ana"


def test_the_refusal_is_a_value_error_with_the_room_code() -> None:
    """The room code turns it into the ``bad_nickname`` refusal."""
    with pytest.raises(ValueError, match="visible"):
        clean_nickname("")
    assert NicknameError.code == "bad_nickname"


@pytest.mark.parametrize("nickname", ORDINARY)
def test_ordinary_names_are_kept_as_they_are(nickname: str) -> None:
    assert clean_nickname(nickname) == nickname


def test_names_are_nfc_normalised() -> None:
    decomposed = unicodedata.normalize("NFD", "José Zoë Ñandú")
    assert decomposed != "José Zoë Ñandú"
    assert clean_nickname(decomposed) == "José Zoë Ñandú"
    # The Ohm sign is canonically the Greek capital omega.
    assert clean_nickname("\u2126") == "\u03a9"


def test_whitespace_runs_become_one_space_trimmed() -> None:
    assert clean_nickname("  Ana\n\t Maria\x00 ") == "Ana Maria"
    assert clean_nickname("Ana\u3000\u00a0\u2003Maria") == "Ana Maria"
    assert clean_nickname("Ana \u200b Maria") == "Ana Maria"  # nothing between two spaces
    assert clean_nickname("\u2028Ana\r\nMaria\u2029") == "Ana Maria"


def test_combining_marks_are_capped_per_character() -> None:
    tower = "a" + "\u0301\u0300\u0302\u0303\u0304" * 20 + "b"
    assert clean_nickname(tower) == "á\u0300\u0302b"  # a and the first acute compose
    # NFC first: e + acute is é, which then takes two more marks.
    assert clean_nickname("e\u0301\u0300\u0302\u0303") == "é\u0300\u0302"
    # Two is enough for Vietnamese written with combining marks.
    assert clean_nickname(unicodedata.normalize("NFD", "Nguyễn")) == "Nguyễn"
    # Marks on a dropped or blank character, or on a space, have nothing to sit on.
    assert clean_nickname("Ana \u0301\u0301 Bo\u3164\u0301") == "Ana Bo"


def test_joiners_and_selectors_only_inside_emoji() -> None:
    """A joiner or selector between letters would hide in a name that looks the same."""
    assert clean_nickname("A\u200dna") == "Ana"
    assert clean_nickname("A\ufe0fna") == "Ana"
    assert clean_nickname("🌹\u200dAna") == "🌹Ana"
    assert clean_nickname("🌹\u200d\u200d🌹") == "🌹🌹"  # a joiner joins two pictographs
    assert clean_nickname("🌹\ufe0f\ufe0f") == "🌹\ufe0f"
    assert clean_nickname("🌹\u200d \u200d🌹") == "🌹 🌹"
    assert clean_nickname("🌹\u200d\u2800") == "🌹"
    # Tag letters only make a subdivision flag after the black flag, ended by the cancel tag.
    assert clean_nickname("Ana\U000e0067\U000e0062\U000e007f") == "Ana"
    assert clean_nickname("\U0001f3f4\U000e0067\U000e0062 Jack") == "\U0001f3f4 Jack"


def test_the_length_is_capped() -> None:
    assert clean_nickname("Ñ" * MAX_NICKNAME) == "Ñ" * MAX_NICKNAME
    assert clean_nickname("Ñ" * (MAX_NICKNAME + 10)) == "Ñ" * MAX_NICKNAME
    # The cap counts what is left, not what was sent.
    assert clean_nickname("\u200b" * 100 + "Ana") == "Ana"
    # A cut leaves no space or dangling joiner at the end.
    assert clean_nickname("A" * (MAX_NICKNAME - 1) + " Bob") == "A" * (MAX_NICKNAME - 1)
    family = "👨\u200d👩\u200d👧"
    cut = clean_nickname("A" * (MAX_NICKNAME - 2) + family)
    assert cut == "A" * (MAX_NICKNAME - 2) + "👨"


def emoji_format(char: str) -> bool:
    return char == "\u200d" or 0xE0020 <= ord(char) <= 0xE007F


# Text drawn from everything, with the troublesome characters above made common.
nicknames = st.text(
    st.one_of(
        st.characters(),
        st.sampled_from([*INVISIBLE, *"".join(ORDINARY), " ", "\u0301", "\u0308", "🏴"]),
    ),
    max_size=60,
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(nicknames)
def test_cleaning_is_idempotent_and_leaves_only_visible_text(nickname: str) -> None:
    try:
        cleaned = clean_nickname(nickname)
    except NicknameError:
        return
    assert clean_nickname(cleaned) == cleaned
    assert 0 < len(cleaned) <= MAX_NICKNAME
    assert unicodedata.is_normalized("NFC", cleaned)
    assert cleaned == cleaned.strip(" ") and "  " not in cleaned
    assert all(char == " " or not char.isspace() for char in cleaned)
    assert not any(unicodedata.category(char) in {"Cc", "Co", "Cn", "Cs"} for char in cleaned)
    assert not set(cleaned) & {"\u3164", "\uffa0", "\u115f", "\u1160", "\u2800", "\u200b"}
    assert any(unicodedata.category(char)[0] in "LNPS" for char in cleaned)
    # All prints but the joiners and tag letters of emoji sequences, which are format.
    assert all(char.isprintable() or emoji_format(char) for char in cleaned)


@settings(max_examples=200, deadline=None)
@given(st.text(st.characters(categories=["L", "N", "P", "S"]), min_size=1, max_size=20))
def test_visible_text_without_marks_is_kept(nickname: str) -> None:
    nfc = unicodedata.normalize("NFC", nickname)
    blank = {"\u3164", "\uffa0", "\u115f", "\u1160", "\u2800", "\U0001d159"}
    if set(nfc) & blank or len(nfc) != len(nickname):
        return
    assert clean_nickname(nickname) == nfc


@settings(max_examples=200, deadline=None)
@given(st.text(st.characters(categories=["Mn", "Me", "Mc"]), min_size=1, max_size=30))
def test_marks_never_stack_beyond_the_cap(marks: str) -> None:
    cleaned = clean_nickname("q" + marks)
    assert unicodedata.category(cleaned[0])[0] == "L"
    assert sum(unicodedata.category(char)[0] == "M" for char in cleaned) <= MAX_MARKS
