"""One router per concern: the pages, the rooms, the finished matches, the score pad, the
texts and the tutorial."""
