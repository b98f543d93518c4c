"""Shared fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.mosquitto import Mosquitto, MosquittoMissing


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    """A real mosquitto on a free port, stopped after the test."""
    workdir = tmp_path / "mosquitto"
    workdir.mkdir()
    server = Mosquitto(workdir)
    try:
        server.start()
    except MosquittoMissing as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield server
    finally:
        server.stop()
