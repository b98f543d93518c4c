"""systemd notify: real datagrams on a real AF_UNIX socket, and the watchdog interval."""

from __future__ import annotations

import doctest
import os
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

import controller.sdnotify
from controller.sdnotify import Notifier, watchdog_interval

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """A datagram socket bound in tmp_path, as systemd's notify socket; and its path."""
    path = str(tmp_path / "notify")
    assert len(path) < 100, "AF_UNIX paths are limited to 108 bytes"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    yield sock, path
    sock.close()


def _receive(sock: socket.socket) -> str:
    return sock.recv(4096).decode("utf-8")


def test_each_message_arrives_as_one_datagram(receiver: tuple[socket.socket, str]) -> None:
    sock, path = receiver
    with Notifier(environ={"NOTIFY_SOCKET": path}) as notifier:
        assert notifier.enabled
        assert notifier.ready()
        assert _receive(sock) == "READY=1"
        assert notifier.watchdog()
        assert _receive(sock) == "WATCHDOG=1"
        assert notifier.status("refereeing hall-a/t1")
        assert _receive(sock) == "STATUS=refereeing hall-a/t1"
        assert notifier.extend_timeout(2.5)
        assert _receive(sock) == "EXTEND_TIMEOUT_USEC=2500000"
        assert notifier.stopping()
        assert _receive(sock) == "STOPPING=1"


def test_ready_with_status_is_one_datagram(receiver: tuple[socket.socket, str]) -> None:
    sock, path = receiver
    Notifier(environ={"NOTIFY_SOCKET": path}).ready("journal replayed")
    assert _receive(sock) == "READY=1\nSTATUS=journal replayed"


def test_newlines_cannot_inject_assignments(receiver: tuple[socket.socket, str]) -> None:
    sock, path = receiver
    Notifier(environ={"NOTIFY_SOCKET": path}).status("broker down\nREADY=1")
    assert _receive(sock) == "STATUS=broker down READY=1"


def test_abstract_socket() -> None:
    name = f"tableref-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5)
        assert Notifier(environ={"NOTIFY_SOCKET": "@" + name}).ready()
        assert _receive(sock) == "READY=1"


def test_reads_the_process_environment(
    receiver: tuple[socket.socket, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sock, path = receiver
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    assert Notifier().watchdog()
    assert _receive(sock) == "WATCHDOG=1"


def test_a_fresh_process_notifies(receiver: tuple[socket.socket, str]) -> None:
    """As under systemd: the socket comes from the environment of a new process."""
    sock, path = receiver
    code = "from controller.sdnotify import Notifier; Notifier().ready('up')"
    env = {**os.environ, "NOTIFY_SOCKET": path}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, timeout=60, check=False)
    assert done.returncode == 0
    assert _receive(sock) == "READY=1\nSTATUS=up"


@pytest.mark.parametrize("value", [None, "", "vsock:2:1234", "relative/path"])
def test_no_op_without_a_usable_socket(value: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    environ = {} if value is None else {"NOTIFY_SOCKET": value}
    notifier = Notifier(environ=environ)
    assert not notifier.enabled
    assert not notifier.ready() and not notifier.watchdog()
    assert not notifier.status("x") and not notifier.stopping()
    if value is None:
        assert not Notifier().enabled  # the real environment, with NOTIFY_SOCKET unset


def test_a_vanished_socket_is_reported_not_raised(tmp_path: Path) -> None:
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
    path.unlink()
    notifier = Notifier(environ={"NOTIFY_SOCKET": str(path)})
    assert notifier.enabled
    assert notifier.watchdog() is False


def test_close_and_reopen(receiver: tuple[socket.socket, str]) -> None:
    sock, path = receiver
    notifier = Notifier(environ={"NOTIFY_SOCKET": path})
    notifier.ready()
    notifier.close()
    notifier.close()  # closing twice is harmless
    assert notifier.watchdog()  # and sending again reopens
    assert [_receive(sock), _receive(sock)] == ["READY=1", "WATCHDOG=1"]


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"WATCHDOG_USEC": "10000000"}, 5.0),
        ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": str(os.getpid())}, 5.0),
        ({"WATCHDOG_USEC": "3000"}, 0.0015),
        ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": str(os.getpid() + 1)}, None),
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "-5"}, None),
        ({"WATCHDOG_USEC": "ten"}, None),
        ({"WATCHDOG_USEC": ""}, None),
        ({"WATCHDOG_PID": str(os.getpid())}, None),
        ({}, None),
    ],
)
def test_watchdog_interval(environ: dict[str, str], expected: float | None) -> None:
    assert watchdog_interval(environ) == expected


def test_notifier_gives_the_watchdog_interval_of_its_environment() -> None:
    assert Notifier(environ={"WATCHDOG_USEC": "10000000"}).watchdog_interval() == 5.0
    assert Notifier(environ={}).watchdog_interval() is None


def test_watchdog_interval_from_the_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "4000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert watchdog_interval() == 2.0
    assert Notifier().watchdog_interval() == 2.0
    monkeypatch.delenv("WATCHDOG_USEC")
    assert watchdog_interval() is None


def test_docstring_examples() -> None:
    result = doctest.testmod(controller.sdnotify)
    assert result.attempted > 0 and result.failed == 0
