"""The card room's lobby: the open tables and the quick-match queue (and, as it lands, table
talk)."""

from .queue import LocalQueue, Queue, Seeker, SeekKey
from .quick import QuickMatch
from .tables import OpenTables

__all__ = ["LocalQueue", "OpenTables", "Queue", "QuickMatch", "SeekKey", "Seeker"]
