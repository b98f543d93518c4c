"""``python -m firmware_bridge``: see :mod:`firmware_bridge.simcli`."""

from firmware_bridge.simcli import main

main()
