"""pytest: main.py imports the board's modules (machine...), so it is not collected."""

collect_ignore = ["firmware/main.py"]
