"""Playing a match against the computer: the session a UI drives, where matches are saved,
the plain-text game for screen readers and pipes, and the replay of a recorded match."""

from .session import Played, Session, SessionError
from .storage import Storage, data_dir

__all__ = ["Played", "Session", "SessionError", "Storage", "data_dir"]
