"""Playing a match against the computer: the session a UI drives, the saved matches,
the plain-text game for screen readers and pipes, and the replay of a recorded match."""

from .saves import Saves
from .session import Played, Session, SessionError

__all__ = ["Played", "Saves", "Session", "SessionError"]
