"""One package per game: events, state and a pure engine."""
