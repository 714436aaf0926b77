"""The card room's lobby: the open tables (and, as they land, the quick-match queue and table
talk)."""

from .tables import OpenTables

__all__ = ["OpenTables"]
