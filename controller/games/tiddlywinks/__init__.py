"""Tiddlywinks (ETwA rules, 2001): the rules engine and the mat geometry.

The mat is seen at the observation level: winks with their colour, size,
centre in mm, potted and off-field flags and squop relations
(:mod:`.geometry`). Vision (``vision/``) produces those observations.
"""
