"""The tablet's home-screen icons, drawn here in code: no image file to keep, nothing fetched.

A playing card (white, rounded) with a red heart-like pip on a dark green baize square; the
PNGs are written with zlib alone (PNG's own deflate), the SVG is the same drawing.
"""

from __future__ import annotations

import struct
import zlib
from functools import lru_cache

BAIZE = (0x0B, 0x4F, 0x35)
CARD = (0xFA, 0xFA, 0xF5)
PIP = (0xC6, 0x1A, 0x2B)
EDGE = (0x1F, 0x1F, 0x1F)

SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
<rect width="512" height="512" fill="#0b4f35"/>
<rect x="136" y="76" width="240" height="360" rx="28" fill="#fafaf5" stroke="#1f1f1f"
 stroke-width="8"/>
<circle cx="226" cy="236" r="46" fill="#c61a2b"/><circle cx="286" cy="236" r="46"
 fill="#c61a2b"/><polygon points="184,262 328,262 256,346" fill="#c61a2b"/>
</svg>
"""


def _inside_card(x: float, y: float) -> tuple[bool, bool]:
    """(on the card, on its edge) in the 512-unit drawing."""
    left, top, right, bottom, radius = 136.0, 76.0, 376.0, 436.0, 28.0
    cx = min(max(x, left + radius), right - radius)
    cy = min(max(y, top + radius), bottom - radius)
    d2 = (x - cx) ** 2 + (y - cy) ** 2
    inside = left <= x <= right and top <= y <= bottom and d2 <= radius ** 2
    edge = inside and (d2 >= (radius - 6) ** 2 or x < left + 6 or x > right - 6
                       or y < top + 6 or y > bottom - 6)
    return inside, edge


def _on_pip(x: float, y: float) -> bool:
    if (x - 226) ** 2 + (y - 236) ** 2 <= 46 ** 2 or (x - 286) ** 2 + (y - 236) ** 2 <= 46 ** 2:
        return True
    # the triangle (184,262) (328,262) (256,346)
    if 262 <= y <= 346:
        half = 72 * (346 - y) / 84
        return 256 - half <= x <= 256 + half
    return False


def _pixel(x: float, y: float) -> tuple[int, int, int]:
    inside, edge = _inside_card(x, y)
    if not inside:
        return BAIZE
    if edge:
        return EDGE
    return PIP if _on_pip(x, y) else CARD


@lru_cache(maxsize=4)
def png(size: int) -> bytes:
    """The icon as a PNG of `size` x `size` pixels (each pixel sampled at its centre, with a
    maskable safe zone: the card keeps within the middle 80%)."""
    scale = 512 / size
    rows = bytearray()
    for j in range(size):
        rows.append(0)  # filter: none
        y = (j + 0.5) * scale
        for i in range(size):
            rows.extend(_pixel((i + 0.5) * scale, y))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b""))
