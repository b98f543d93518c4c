"""The bridge protocol, host side: frames, typed messages, encoders, the decoder.

Framing (sync byte, length, sequence, type, payload, CRC16) and the payload
layouts are the firmware's own modules (:mod:`firmware_bridge.firmware.framing`
and :mod:`~firmware_bridge.firmware.messages`), so both ends share one
implementation; this module gives the host typed messages over them. The
format is specified in ``docs/bridge-protocol.md``.

>>> frames = Decoder().feed(b"junk" + encode(0, MessageType.CLOCK, bytes(13)))
>>> parse(*frames[0])
ClockReply(token=0, t_us=0, resends=0, dropped=0)
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum

from controller.errors import TablerefError
from firmware_bridge.firmware import messages as m
from firmware_bridge.firmware.framing import (
    MAX_FRAME,
    MAX_PAYLOAD,
    OVERHEAD,
    SYNC,
    Decoder,
    crc16,
    encode,
)

PROTOCOL_VERSION = m.PROTOCOL_VERSION

__all__ = [
    "MAX_FRAME",
    "MAX_PAYLOAD",
    "OVERHEAD",
    "PROTOCOL_VERSION",
    "SYNC",
    "Decoder",
    "crc16",
    "encode",
]


class ProtocolError(TablerefError):
    """A frame with a valid CRC whose content makes no sense."""


class MessageType(IntEnum):
    """The type byte of a frame."""

    EDGES = m.EDGES
    ACK = m.ACK
    IDENTIFY = m.IDENTIFY
    IDENTITY = m.IDENTITY
    CLOCK_QUERY = m.CLOCK_QUERY
    CLOCK = m.CLOCK
    ERROR = m.ERROR


class ErrorCode(IntEnum):
    """What an ERROR frame reports."""

    VERSION = m.ERR_VERSION
    UNKNOWN_TYPE = m.ERR_UNKNOWN_TYPE
    BAD_PAYLOAD = m.ERR_BAD_PAYLOAD


@dataclass(frozen=True, slots=True)
class McuEdge:
    """One edge as the microcontroller stamped it: ``t_us`` is its 32-bit counter."""

    pin: int
    level: bool
    t_us: int


@dataclass(frozen=True, slots=True)
class Edges:
    """An EDGES frame: the reliable, numbered message."""

    seq: int
    edges: tuple[McuEdge, ...]


@dataclass(frozen=True, slots=True)
class PinInfo:
    """One watched pin of the firmware's pin map."""

    gpio: int
    pull_up: bool
    pull_down: bool


@dataclass(frozen=True, slots=True)
class Identity:
    """The answer to IDENTIFY."""

    protocol: int
    firmware: tuple[int, int, int]
    clock_hz: int
    boot_id: int
    next_seq: int
    levels: int
    now_us: int
    pins: tuple[PinInfo, ...]

    def level(self, gpio: int) -> bool:
        """A pin's level in the bitmask."""
        return bool(self.levels >> gpio & 1)


@dataclass(frozen=True, slots=True)
class ClockReply:
    """The answer to CLOCK_QUERY: the counter when the query was handled."""

    token: int
    t_us: int
    resends: int
    dropped: int


@dataclass(frozen=True, slots=True)
class ErrorReply:
    """The firmware refused something."""

    code: int
    detail: int


Message = Edges | Identity | ClockReply | ErrorReply


def parse(seq: int, kind: int, payload: bytes) -> Message:
    """A decoded frame from the microcontroller as a typed message.

    Raises :class:`ProtocolError` for a type the host does not expect or a
    payload of the wrong size (a CRC collision, or another protocol version).
    """
    try:
        match kind:
            case MessageType.EDGES:
                edges = m.unpack_edges(payload)
                return Edges(seq, tuple(McuEdge(p, bool(lv), t) for p, lv, t in edges))
            case MessageType.IDENTITY:
                return _identity(payload)
            case MessageType.CLOCK:
                return ClockReply(*struct.unpack("<BIII", payload))
            case MessageType.ERROR:
                return ErrorReply(*struct.unpack("<BB", payload))
    except (ValueError, struct.error) as exc:
        raise ProtocolError(f"frame type {kind:#04x}: {exc}") from None
    raise ProtocolError(f"frame type {kind:#04x} is not one the microcontroller sends")


def _identity(payload: bytes) -> Identity:
    size = m.IDENTITY_HEAD_SIZE
    head = struct.unpack(m.IDENTITY_HEAD, payload[:size])
    version, major, minor, patch, clock_hz, boot_id, next_seq, levels, now_us, count = head
    if len(payload) != size + 2 * count:
        raise ValueError(f"identity with {count} pins in {len(payload)} bytes")
    pins = tuple(
        PinInfo(gpio, bool(flags & m.PULL_UP), bool(flags & m.PULL_DOWN))
        for gpio, flags in struct.iter_unpack("<BB", payload[size:])
    )
    return Identity(
        version, (major, minor, patch), clock_hz, boot_id, next_seq, levels, now_us, pins
    )


def ack(next_expected: int, *, nak: bool = False) -> bytes:
    """An ACK frame: every EDGES frame before ``next_expected`` arrived; ``nak``
    asks the firmware to resend from it now (a gap was seen).

    >>> ack(5).hex()[:12]
    '7e0200020500'
    """
    return encode(0, MessageType.ACK, bytes([next_expected & 0xFF, m.ACK_NAK if nak else 0]))


def identify(version: int = PROTOCOL_VERSION) -> bytes:
    """An IDENTIFY frame carrying the host's protocol version."""
    return encode(0, MessageType.IDENTIFY, bytes([version]))


def clock_query(token: int) -> bytes:
    """A CLOCK_QUERY frame; the answer echoes ``token``."""
    return encode(0, MessageType.CLOCK_QUERY, bytes([token & 0xFF]))
