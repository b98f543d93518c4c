"""The tiddlywinks mat seen from above: calibration to the engine's mm frame,
wink detection, squops, the pot, and a synthetic renderer with ground truth.

Entry point: :func:`vision.mat.analyse.analyse` (a frame in, a plain
:class:`~vision.mat.model.MatObservation` out; no OpenCV type leaves).
"""
