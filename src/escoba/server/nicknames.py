r"""Nicknames are shown to the other players: one line of text that can be seen.

:func:`clean_nickname` keeps letters, digits, punctuation, symbols and single spaces, with a
few combining marks on each character and the joiners and selectors that emoji need. It drops
what shows nothing (controls, format and private-use characters, unassigned code points,
default-ignorable characters, the Hangul fillers and the blank Braille pattern) so that no
nickname is empty on screen and none hides extra characters inside a name that looks the same.
A nickname with nothing visible left raises :class:`NicknameError`; the room code turns it
into the ``bad_nickname`` refusal.

>>> clean_nickname("  José\u200b  María ")
'José María'
>>> clean_nickname("\u3164\u2800")
Traceback (most recent call last):
...
escoba.server.nicknames.NicknameError: the nickname must hold a visible character
"""

from __future__ import annotations

import bisect
import unicodedata
from typing import ClassVar, Final

from .protocol import MAX_NICKNAME

__all__ = ["MAX_MARKS", "NicknameError", "clean_line", "clean_nickname"]

MAX_MARKS: Final = 2
"""Combining marks kept on one character: enough for Vietnamese or pointed scripts, too few to
stack a tower of marks over the neighbouring lines."""

# Default_Ignorable_Code_Point of the Unicode Character Database (DerivedCoreProperties.txt):
# code points that fonts draw as nothing. Python's unicodedata does not expose the property.
_IGNORABLE: Final[tuple[tuple[int, int], ...]] = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
_IGNORABLE_STARTS: Final = tuple(start for start, _ in _IGNORABLE)

# Letters and symbols that are drawn blank although their category says they are visible.
_BLANK: Final = frozenset(
    "\u115f"  # HANGUL CHOSEONG FILLER
    "\u1160"  # HANGUL JUNGSEONG FILLER
    "\u3164"  # HANGUL FILLER
    "\uffa0"  # HALFWIDTH HANGUL FILLER
    "\u2800"  # BRAILLE PATTERN BLANK
    "\U0001d159"  # MUSICAL SYMBOL NULL NOTEHEAD
)

_ZWJ: Final = "\u200d"
_SELECTORS: Final = frozenset("\ufe0e\ufe0f")  # text or emoji presentation
_BLACK_FLAG: Final = "\U0001f3f4"  # a subdivision flag is this followed by tag letters
_TAG_CANCEL: Final = "\U000e007f"


class NicknameError(ValueError):
    """A nickname with nothing visible in it; the room code refuses it as ``bad_nickname``."""

    code: ClassVar[str] = "bad_nickname"


def clean_nickname(nickname: str) -> str:
    """The nickname as it will be shown, at most ``MAX_NICKNAME`` characters.

    NFC-normalised; invisible characters dropped; every run of whitespace one space, none at
    either end; at most ``MAX_MARKS`` combining marks on a character. Cleaning a cleaned
    nickname changes nothing. Raises :class:`NicknameError` if nothing visible is left.
    """
    cleaned = clean_line(nickname, MAX_NICKNAME)
    if cleaned is None:
        raise NicknameError("the nickname must hold a visible character")
    return cleaned


def clean_line(text: str, most: int) -> str | None:
    """One line of text cleaned as a nickname is, at most ``most`` characters (a line said at
    a table, say); None if nothing visible is left.

    >>> clean_line("hola\\n\\u202eamigos", 200)
    'hola amigos'
    """
    cleaned = _settled(unicodedata.normalize("NFC", text))
    if len(cleaned) > most:
        # Cutting may leave a dangling joiner or space at the end: clean the cut again.
        cleaned = _settled(cleaned[:most])
    if not any(_visible(char) for char in cleaned):
        return None
    return cleaned


def _settled(text: str) -> str:
    """One cleaning pass repeated until it changes nothing, which makes cleaning idempotent:
    dropping a character can bring a mark next to a base NFC then composes with, or leave a
    joiner or spaces with nothing between them. Every pass only drops, joins or reorders
    characters, so this ends after a few passes."""
    while True:
        again = unicodedata.normalize("NFC", _one_pass(text))
        if again == text:
            return text
        text = again


def _one_pass(text: str) -> str:
    out: list[str] = []
    marks_left = 0  # combining marks the last kept character may still take
    selector_ok = False  # an emoji presentation selector may follow
    joinable = False  # an emoji zero-width joiner may follow
    index = 0
    while index < len(text):
        char = text[index]
        index += 1
        category = unicodedata.category(char)
        if char.isspace():
            if out and out[-1] != " ":
                out.append(" ")
            marks_left, selector_ok, joinable = 0, False, False
        elif char == _ZWJ:
            # Kept only inside an emoji sequence (woman, joiner, laptop): between two pictographs.
            following = text[index] if index < len(text) else ""
            if joinable and following and _pictograph(following):
                out.append(char)
            marks_left, selector_ok, joinable = 0, False, False
        elif char in _SELECTORS:
            if selector_ok:
                out.append(char)
            # A selector ends the base's run: no second selector, but the keycap mark may follow.
            selector_ok = False
        elif category[0] == "M":
            if marks_left > 0 and not _ignorable(char):
                out.append(char)
                marks_left -= 1
            selector_ok, joinable = False, False
        elif category[0] in "LNPS" and not _ignorable(char) and char not in _BLANK:
            out.append(char)
            marks_left = MAX_MARKS
            selector_ok = category[0] != "L"  # after a letter a selector would only hide
            joinable = _pictograph(char) or _skin_tone(char)
            if char == _BLACK_FLAG:
                tags = _flag_tags(text, index)
                if tags:
                    out.append(tags)
                    index += len(tags)
                    marks_left, selector_ok, joinable = 0, False, False
        else:
            # Dropped: controls, format, private-use, unassigned (in Python's Unicode database,
            # so an emoji newer than it goes too), surrogates, ignorables, blank-looking
            # letters. The marks that follow went with the dropped character, not the one
            # before it.
            marks_left, selector_ok, joinable = 0, False, False
    return "".join(out).strip(" ")


def _flag_tags(text: str, index: int) -> str:
    """The tag letters of a subdivision flag (🏴 + ``gbeng`` + cancel tag) from ``index``, or
    "" if none complete one there."""
    end = index
    while end < len(text) and 0xE0020 <= ord(text[end]) <= 0xE007E:
        end += 1
    if end > index and end < len(text) and text[end] == _TAG_CANCEL:
        return text[index : end + 1]
    return ""


def _ignorable(char: str) -> bool:
    code = ord(char)
    at = bisect.bisect_right(_IGNORABLE_STARTS, code) - 1
    return at >= 0 and code <= _IGNORABLE[at][1]


def _pictograph(char: str) -> bool:
    return unicodedata.category(char) == "So" and char not in _BLANK


def _skin_tone(char: str) -> bool:
    return 0x1F3FB <= ord(char) <= 0x1F3FF


def _visible(char: str) -> bool:
    return unicodedata.category(char)[0] in "LNPS" and not _ignorable(char) and char not in _BLANK
