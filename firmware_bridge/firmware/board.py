"""The pin map of the board: which GPIOs the firmware watches, and their pulls.

Edit this file (and copy it to the board again) to watch other pins. The host
checks its ``[[sensors.line]]`` pins and pulls against this map when it
identifies the board, and refuses a line the firmware does not watch.
"""

from .messages import PULL_UP

# GP2..GP9 on a Raspberry Pi Pico (physical pins 4-7, 9-12), pulled up:
# beam receivers with open-collector outputs and buttons to ground.
PINS = [(gpio, PULL_UP) for gpio in range(2, 10)]
