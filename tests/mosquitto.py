"""A real mosquitto broker for integration tests, on a free port with its own config.

Never port 1883: a system broker may run there and the tests must not depend
on it (or disturb it).

>>> broker = Mosquitto(tmp_path)  # doctest: +SKIP
>>> broker.start(); broker.url  # doctest: +SKIP
'mqtt://127.0.0.1:40123'
>>> broker.kill(); broker.start()  # same port, persistence kept  # doctest: +SKIP
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

HOST = "127.0.0.1"
BINARY = "/usr/sbin/mosquitto"
START_TIMEOUT_S = 5.0
STOP_TIMEOUT_S = 5.0


class MosquittoMissing(RuntimeError):
    """The mosquitto binary is not installed."""


def find_binary() -> str:
    """The mosquitto executable, or :class:`MosquittoMissing` saying how to install it."""
    if os.access(BINARY, os.X_OK):
        return BINARY
    found = shutil.which("mosquitto")
    if found is None:
        raise MosquittoMissing(
            f"mosquitto not found at {BINARY} or on PATH: the MQTT tests need a real "
            "broker; run `apt-get install mosquitto` (.ci/run installs it)"
        )
    return found


def free_port() -> int:
    """A TCP port nothing listens on right now (the kernel picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
    if port == 1883:  # not in the ephemeral range, but be certain
        return free_port()
    return port


class Mosquitto:
    """One broker process; restartable on the same port with its persistence kept."""

    def __init__(self, workdir: Path, port: int | None = None) -> None:
        self.workdir = workdir
        self.host = HOST
        self.port = port if port is not None else free_port()
        self.config = workdir / "mosquitto.conf"
        self.log = workdir / "mosquitto.log"
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``mqtt://host:port``."""
        return f"mqtt://{self.host}:{self.port}"

    @property
    def running(self) -> bool:
        """True while the process is alive."""
        return self._proc is not None and self._proc.poll() is None

    def _write_config(self) -> None:
        lines = [
            f"listener {self.port} {HOST}",
            "allow_anonymous true",
            # Persistence: retained messages and persistent sessions (with
            # their queued QoS 1 messages) survive stop()/start().
            "persistence true",
            f"persistence_location {self.workdir}/",
            f"log_dest file {self.log}",
            "log_type all",
        ]
        if os.geteuid() == 0:
            # As root mosquitto drops to user "mosquitto", who cannot write here.
            lines.append("user root")
        self.config.write_text("\n".join(lines) + "\n")

    def start(self) -> None:
        """Start the broker and wait (bounded) until it accepts connections."""
        if self.running:
            return
        binary = find_binary()
        self._write_config()
        self._proc = subprocess.Popen(
            [binary, "-c", str(self.config)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self._wait_listening()

    def _wait_listening(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            assert self._proc is not None
            if self._proc.poll() is not None:
                raise RuntimeError(f"mosquitto exited at start: {self._diagnostics()}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.01)
        self.kill()
        raise RuntimeError(f"mosquitto not listening on {self.port}: {self._diagnostics()}")

    def _diagnostics(self) -> str:
        err = b""
        if (
            self._proc is not None
            and self._proc.stderr is not None
            and self._proc.poll() is not None
        ):
            err = self._proc.stderr.read()
        log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
        return f"stderr={err.decode(errors='replace')!r} log tail:\n{log}"

    def stop(self) -> None:
        """SIGTERM: a clean shutdown that saves the persistence file."""
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        """SIGKILL: a crash; whatever was not yet saved to disk is gone."""
        self._end(signal.SIGKILL)

    def pause(self) -> None:
        """SIGSTOP: the broker hangs; it reads, acknowledges and forwards nothing.

        Only kill() or stop() it afterwards: a paused broker is ended by SIGKILL
        and by SIGTERM once continued, which ``_end`` does.
        """
        assert self._proc is not None
        self._proc.send_signal(signal.SIGSTOP)

    def restart(self) -> None:
        """Clean stop, then start on the same port."""
        self.stop()
        self.start()

    def _end(self, sig: signal.Signals) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.send_signal(sig)
            proc.send_signal(signal.SIGCONT)  # a paused broker handles SIGTERM only once continued
            try:
                proc.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()
