"""Frames on the wire: sync byte, length, sequence, type, payload, CRC16.

::

    0x7E | LEN | SEQ | TYPE | PAYLOAD (LEN bytes) | CRC16 (2 bytes, little-endian)

The CRC is CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) over LEN,
SEQ, TYPE and the payload. The decoder resynchronises after garbage: it looks
for a sync byte, and when the length is impossible or the CRC does not match,
it drops only that sync byte and looks again, so a real frame hidden behind
garbage is still found.

This module runs under MicroPython on the board, so it uses no dataclasses,
no typing imports and no f-strings in hot paths; the host imports it from
:mod:`firmware_bridge.protocol`.

>>> frame = encode(3, 0x05, b"\\x07")
>>> frame.hex()
'7e010305073624'
>>> decoder = Decoder()
>>> decoder.feed(b"\\x00\\x7e\\x99" + frame)
[(3, 5, b'\\x07')]
>>> decoder.crc_errors, decoder.skipped
(0, 3)
"""

SYNC = 0x7E
HEADER = 4  # sync, length, sequence, type
TRAILER = 2  # CRC16
OVERHEAD = HEADER + TRAILER
MAX_PAYLOAD = 60
MAX_FRAME = MAX_PAYLOAD + OVERHEAD


def _table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _table()


def crc16(data: bytes | bytearray, start: int = 0, end: int = -1) -> int:
    """CRC-16/CCITT-FALSE of ``data[start:end]`` (``end`` -1: to the end).

    >>> hex(crc16(b"123456789"))  # the standard check value
    '0x29b1'
    """
    if end < 0:
        end = len(data)
    crc = 0xFFFF
    table = _CRC_TABLE
    for i in range(start, end):
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ data[i]) & 0xFF]
    return crc


def encode(seq: int, kind: int, payload: bytes) -> bytes:
    """One frame. Raises ValueError for a payload longer than MAX_PAYLOAD."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload too long")
    frame = bytearray(len(payload) + OVERHEAD)
    frame[0] = SYNC
    frame[1] = len(payload)
    frame[2] = seq & 0xFF
    frame[3] = kind & 0xFF
    frame[HEADER : HEADER + len(payload)] = payload
    crc = crc16(frame, 1, HEADER + len(payload))
    frame[-2] = crc & 0xFF
    frame[-1] = crc >> 8
    return bytes(frame)


def _valid_after(buf: bytes) -> int:
    """Where a complete frame with a good CRC starts after ``buf[0]``, or -1."""
    start = buf.find(b"\x7e", 1)
    while start >= 0 and start + OVERHEAD <= len(buf):
        end = start + buf[start + 1] + OVERHEAD
        fits = buf[start + 1] <= MAX_PAYLOAD and end <= len(buf)
        if fits and crc16(buf, start + 1, end - TRAILER) == buf[end - 2] | (buf[end - 1] << 8):
            return start
        start = buf.find(b"\x7e", start + 1)
    return -1


class Decoder:
    """A streaming decoder: bytes in, ``(seq, type, payload)`` tuples out.

    It never raises on any input. ``crc_errors`` counts candidate frames whose
    CRC failed, ``skipped`` the bytes dropped while looking for a frame.
    """

    def __init__(self) -> None:
        # bytes, not bytearray: MicroPython's bytearray lacks find() and slice
        # deletion; rebuilding a short buffer costs nothing at these rates.
        self._buf = b""
        self.crc_errors = 0
        self.skipped = 0
        self.frames = 0

    def feed(self, data: bytes) -> list[tuple[int, int, bytes]]:
        """Add bytes; return every complete, valid frame now in the buffer."""
        buf = self._buf + bytes(data)
        out = []
        while True:
            start = buf.find(b"\x7e")
            if start < 0:
                self.skipped += len(buf)
                buf = b""
                break
            if start:
                self.skipped += start
                buf = buf[start:]
            if len(buf) < 2:
                break
            length = buf[1]
            if length > MAX_PAYLOAD:
                self.skipped += 1
                buf = buf[1:]
                continue
            end = length + OVERHEAD
            if len(buf) < end:
                # Complete, or the sync was garbage whose "length" swallows real
                # frames: a valid frame later in the buffer means the latter.
                later = _valid_after(buf)
                if later < 0:
                    break
                self.skipped += later
                buf = buf[later:]
                continue
            if crc16(buf, 1, end - TRAILER) != buf[end - 2] | (buf[end - 1] << 8):
                self.crc_errors += 1
                self.skipped += 1
                buf = buf[1:]
                continue
            out.append((buf[2], buf[3], buf[HEADER : end - TRAILER]))
            self.frames += 1
            buf = buf[end:]
        self._buf = buf
        return out

    def pending(self) -> int:
        """Bytes held while a frame is incomplete."""
        return len(self._buf)
