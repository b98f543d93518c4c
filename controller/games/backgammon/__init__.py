"""Backgammon match play (tournament rules, section 5) on a simple-delay clock."""
