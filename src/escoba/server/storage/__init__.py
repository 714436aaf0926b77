"""Where matches are kept: the tables (:mod:`.tables`), the repository that reads and writes
them (:mod:`.repository`), the move writer that batches every room's moves into few commits
(:mod:`.writer`), and the schema's migrations (``migrations/``, run by Alembic)."""
