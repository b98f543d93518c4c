"""Camera sources, calibration to millimetres, and the landed coin (docs/vision.md).

``vision.analyse.Analyser.analyse(preview, still) -> Observation``; no OpenCV
type leaves this package. Importing it needs OpenCV and numpy (the ``vision``
extra); ``vision.settings`` alone does not, so configs check without them.
"""
