"""Bridge framing and messages: round trips, and a decoder that survives anything."""

from __future__ import annotations

import contextlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as p
from firmware_bridge.firmware import messages as m
from firmware_bridge.firmware.framing import MAX_PAYLOAD, Decoder, crc16, encode

frames = st.tuples(
    st.integers(0, 255), st.integers(0, 255), st.binary(min_size=0, max_size=MAX_PAYLOAD)
)


def test_crc_is_ccitt_false() -> None:
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"") == 0xFFFF


@given(st.lists(frames, max_size=20))
def test_frames_round_trip(items: list[tuple[int, int, bytes]]) -> None:
    stream = b"".join(encode(*item) for item in items)
    assert Decoder().feed(stream) == items


@given(st.lists(frames, min_size=1, max_size=10), st.integers(1, 64))
def test_frames_round_trip_in_any_chunks(items: list[tuple[int, int, bytes]], size: int) -> None:
    stream = b"".join(encode(*item) for item in items)
    decoder = Decoder()
    got = []
    for i in range(0, len(stream), size):
        got += decoder.feed(stream[i : i + size])
    assert got == items and decoder.pending() == 0


@settings(max_examples=300)
@given(st.binary(max_size=400), frames)
def test_random_bytes_never_raise_and_the_next_frame_is_found(
    garbage: bytes, frame: tuple[int, int, bytes]
) -> None:
    decoder = Decoder()
    decoder.feed(garbage)  # must not raise, whatever it holds
    # Garbage may end in what looks like the start of a long frame: the real
    # frame after it is found at once all the same.
    assert decoder.feed(encode(*frame)) == [frame]


def test_a_corrupted_byte_loses_only_its_frame() -> None:
    items = [(i, m.EDGES, bytes([i]) * 10) for i in range(20)]
    stream = bytearray(b"".join(encode(*item) for item in items))
    stream[5 * 16 + 7] ^= 0x40  # inside frame 5 (16 bytes each)
    decoder = Decoder()
    got = decoder.feed(bytes(stream))
    assert got == items[:5] + items[6:]
    assert decoder.crc_errors >= 1


def test_edges_and_identity_round_trip_through_the_typed_layer() -> None:
    edges = [(2, 1, 0), (9, 0, 2**32 - 1), (127, 1, 123_456)]
    frame = encode(7, m.EDGES, m.pack_edges(edges))
    [(seq, kind, payload)] = Decoder().feed(frame)
    parsed = p.parse(seq, kind, payload)
    assert parsed == p.Edges(7, tuple(p.McuEdge(g, bool(lv), t) for g, lv, t in edges))
    body = m.pack_identity(1_000_000, 0xDEADBEEF, 42, 0b1100, 99, [(2, m.PULL_UP), (3, 0)])
    identity = p.parse(0, m.IDENTITY, body)
    assert isinstance(identity, p.Identity)
    assert identity.boot_id == 0xDEADBEEF and identity.next_seq == 42
    assert identity.level(2) and identity.level(3) and not identity.level(4)
    assert identity.pins == (p.PinInfo(2, True, False), p.PinInfo(3, False, False))
    assert identity.protocol == p.PROTOCOL_VERSION


@given(st.integers(0, 255), st.binary(max_size=MAX_PAYLOAD))
def test_parse_raises_only_protocol_errors(kind: int, payload: bytes) -> None:
    with contextlib.suppress(p.ProtocolError):
        p.parse(0, kind, payload)


def test_host_frames_are_what_the_firmware_reads() -> None:
    decoder = Decoder()
    got = decoder.feed(p.ack(200, nak=True) + p.identify() + p.clock_query(9))
    assert got == [
        (0, m.ACK, bytes([200, m.ACK_NAK])),
        (0, m.IDENTIFY, bytes([m.PROTOCOL_VERSION])),
        (0, m.CLOCK_QUERY, bytes([9])),
    ]


def test_long_noisy_stream_loses_only_damaged_frames() -> None:
    rng = random.Random(3)
    items = [(i & 0xFF, m.EDGES, rng.randbytes(rng.randrange(5, 60))) for i in range(500)]
    chunks = []
    damaged = set()
    for i, item in enumerate(items):
        frame = bytearray(encode(*item))
        if rng.random() < 0.1:
            frame[rng.randrange(len(frame))] ^= rng.randrange(1, 256)
            damaged.add(i)
        chunks.append(bytes(frame))
        if rng.random() < 0.1:
            chunks.append(rng.randbytes(rng.randrange(1, 30)))
    got = Decoder().feed(b"".join(chunks))
    intact = [item for i, item in enumerate(items) if i not in damaged]
    assert [g for g in got if g in intact] == intact
