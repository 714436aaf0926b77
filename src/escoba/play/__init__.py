"""Playing a match against the computer: the local match a UI drives, the saved matches,
the plain-text game for screen readers and pipes, and the replay of a recorded match."""

from .local_match import LocalMatch, LocalMatchError, Played
from .saves import Saves

__all__ = ["LocalMatch", "LocalMatchError", "Played", "Saves"]
