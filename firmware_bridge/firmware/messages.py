"""Message types and payload layouts of protocol version 1 (docs/bridge-protocol.md).

Shared by the firmware and the host (:mod:`firmware_bridge.protocol` wraps it
in typed messages). All integers are little-endian.

>>> unpack_edges(pack_edges([(2, 1, 1000), (3, 0, 2**32 - 1)]))
[(2, 1, 1000), (3, 0, 4294967295)]
"""

import struct

PROTOCOL_VERSION = 1
FIRMWARE_VERSION = (1, 0, 0)

# Frame types. EDGES is the only reliable message: numbered, resent until acked.
EDGES = 0x01  # MCU -> host: edges, each (pin, level, t_us)
ACK = 0x02  # host -> MCU: next expected EDGES seq; flag NAK asks for a resend now
IDENTIFY = 0x03  # host -> MCU: host's protocol version
IDENTITY = 0x04  # MCU -> host: versions, clock, boot id, next seq, levels, pin map
CLOCK_QUERY = 0x05  # host -> MCU: a token
CLOCK = 0x06  # MCU -> host: the token, the 32-bit microsecond counter, counters
ERROR = 0x07  # MCU -> host: an error code and a detail byte

ACK_NAK = 0x01

ERR_VERSION = 1  # detail: the MCU's protocol version
ERR_UNKNOWN_TYPE = 2  # detail: the type
ERR_BAD_PAYLOAD = 3  # detail: the type

PULL_UP = 0x01
PULL_DOWN = 0x02

EDGE_SIZE = 5
MAX_EDGES_PER_FRAME = 12  # 60-byte payload
IDENTITY_HEAD = "<BBBBIIBIIB"
IDENTITY_HEAD_SIZE = struct.calcsize(IDENTITY_HEAD)


def pack_edges(edges: list[tuple[int, int, int]]) -> bytes:
    """``(pin, level, t_us)`` triples; the level rides in the pin byte's top bit."""
    out = b""
    for pin, level, t_us in edges:
        out += struct.pack("<BI", (pin & 0x7F) | (0x80 if level else 0), t_us & 0xFFFFFFFF)
    return out


def unpack_edges(payload: bytes) -> list[tuple[int, int, int]]:
    """The inverse of :func:`pack_edges`; raises ValueError on a bad length."""
    if not payload or len(payload) % EDGE_SIZE:
        raise ValueError("edges payload of " + str(len(payload)) + " bytes")
    out = []
    for i in range(0, len(payload), EDGE_SIZE):
        byte, t_us = struct.unpack_from("<BI", payload, i)
        out.append((byte & 0x7F, byte >> 7, t_us))
    return out


def pack_identity(
    clock_hz: int,
    boot_id: int,
    next_seq: int,
    levels: int,
    now_us: int,
    pins: list[tuple[int, int]],
    version: int = PROTOCOL_VERSION,
) -> bytes:
    """The IDENTITY payload; ``pins`` are ``(gpio, pull flags)``."""
    major, minor, patch = FIRMWARE_VERSION
    head = struct.pack(
        IDENTITY_HEAD,
        version,
        major,
        minor,
        patch,
        clock_hz,
        boot_id & 0xFFFFFFFF,
        next_seq & 0xFF,
        levels & 0xFFFFFFFF,
        now_us & 0xFFFFFFFF,
        len(pins),
    )
    return head + b"".join(struct.pack("<BB", gpio, flags) for gpio, flags in pins)
