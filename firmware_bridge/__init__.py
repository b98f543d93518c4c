"""The host side of the microcontroller link, its firmware and a simulated MCU.

Nothing here yet: see the firmware bridge issue.
"""
