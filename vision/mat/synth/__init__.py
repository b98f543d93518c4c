"""The synthetic mat: random scenes with ground truth, and their renderer."""
