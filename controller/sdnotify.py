"""The systemd notify protocol, hand-rolled: a datagram to ``$NOTIFY_SOCKET``.

The unit is ``Type=notify`` with a watchdog: the service says ``READY=1`` once
the journal is replayed and the sensors are open, then pings ``WATCHDOG=1``
at :func:`watchdog_interval` from the loop that owns the state, so a stuck
loop (not merely a live process) gets the service restarted. Outside systemd
(``NOTIFY_SOCKET`` unset) every call is a no-op, so the same code runs in
tests and on a laptop.

>>> notifier = Notifier(environ={})
>>> notifier.enabled, notifier.ready()
(False, False)
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from types import TracebackType


def _address(value: str | None) -> str | None:
    """The socket address systemd gave: a path, or '@name' for the abstract namespace."""
    if not value:
        return None
    if value.startswith("@"):
        return "\0" + value[1:]
    if value.startswith("/"):
        return value
    return None  # e.g. systemd's vsock: addresses, used for VMs only


class Notifier:
    """Sends state changes to systemd; a no-op when not run by systemd.

    Sending never raises: a failed notification returns False for the caller
    to report (a missed watchdog ping gets the service restarted anyway).

    >>> Notifier(environ={"NOTIFY_SOCKET": "@tableref-test"}).address
    '\\x00tableref-test'
    """

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        self._environ = os.environ if environ is None else environ
        self.address = _address(self._environ.get("NOTIFY_SOCKET"))
        self._socket: socket.socket | None = None

    @property
    def enabled(self) -> bool:
        """Whether there is a systemd to tell."""
        return self.address is not None

    def watchdog_interval(self) -> float | None:
        """How often to call :meth:`watchdog`: see the module's :func:`watchdog_interval`.

        >>> Notifier(environ={"WATCHDOG_USEC": "10000000"}).watchdog_interval()
        5.0
        """
        return watchdog_interval(self._environ)

    def notify(self, *assignments: str) -> bool:
        """Send ``KEY=value`` lines in one datagram; True if it was sent."""
        if self.address is None:
            return False
        message = "\n".join(assignments).encode("utf-8")
        try:
            if self._socket is None:
                self._socket = socket.socket(
                    socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC
                )
            self._socket.sendto(message, self.address)
        except OSError:
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """Start-up is complete (``READY=1``), optionally with a status line."""
        extra = () if status is None else (_status(status),)
        return self.notify("READY=1", *extra)

    def watchdog(self) -> bool:
        """The main loop is alive (``WATCHDOG=1``)."""
        return self.notify("WATCHDOG=1")

    def status(self, text: str) -> bool:
        """A one-line status shown by ``systemctl status`` (``STATUS=...``)."""
        return self.notify(_status(text))

    def stopping(self) -> bool:
        """Shutdown has begun (``STOPPING=1``)."""
        return self.notify("STOPPING=1")

    def extend_timeout(self, seconds: float) -> bool:
        """Ask for ``seconds`` more to start or stop (a long journal replay)."""
        return self.notify(f"EXTEND_TIMEOUT_USEC={round(seconds * 1_000_000)}")

    def close(self) -> None:
        """Close the socket (notifying again reopens it)."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def __enter__(self) -> Notifier:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _status(text: str) -> str:
    # The protocol is newline-separated assignments: a newline would end the status.
    return "STATUS=" + " ".join(text.splitlines())


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """How often to ping the watchdog, in seconds: half of ``WatchdogSec=``.

    None when there is no watchdog, or it is meant for another process
    (``$WATCHDOG_PID`` set and not ours).

    >>> watchdog_interval({"WATCHDOG_USEC": "10000000"})
    5.0
    >>> watchdog_interval({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"}) is None
    True
    >>> watchdog_interval({}) is None
    True
    """
    env = os.environ if environ is None else environ
    pid = env.get("WATCHDOG_PID")
    if pid is not None and pid.strip() != str(os.getpid()):
        return None
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    if usec <= 0:
        return None
    return usec / 2 / 1_000_000
