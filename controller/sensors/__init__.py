"""Sensors: edge sources (GPIO, fake, microcontroller bridge), buttons, health,
and the fusion of raw edges into the observations the engines use."""
