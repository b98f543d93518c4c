"""Camera sources, calibration to millimetres, and coin, mat and dice analysis.

Nothing here yet: see the vision issue. No OpenCV type leaves this package.
"""
