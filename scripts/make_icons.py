"""Draw the app's icons as PNG with the standard library only (zlib + struct).

A playing card (white, rounded) with a red coin on the brand's dark red; the maskable icon
keeps the card inside the central safe zone (80 %). Run from the repository root:

    python scripts/make_icons.py
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "scopa" / "web" / "static" / "icons"
BRAND = (138, 42, 31)
PAPER = (250, 247, 240)
COIN = (192, 57, 43)
GOLD = (184, 134, 11)


def png(width: int, height: int, pixels: list[bytes]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + row for row in pixels)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def inside_rounded(
    x: float, y: float, x0: float, y0: float, x1: float, y1: float, r: float
) -> bool:
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def icon(size: int, safe: float) -> bytes:
    """The card fills ``safe`` of the icon's height, centred."""
    card_h = size * safe
    card_w = card_h * 0.68
    x0, y0 = (size - card_w) / 2, (size - card_h) / 2
    x1, y1 = x0 + card_w, y0 + card_h
    radius = card_w * 0.12
    cx, cy = size / 2, size / 2
    coin_r = card_w * 0.3
    rows: list[bytes] = []
    for j in range(size):
        row = bytearray()
        for i in range(size):
            x, y = i + 0.5, j + 0.5
            colour = BRAND
            if inside_rounded(x, y, x0, y0, x1, y1, radius):
                colour = PAPER
                d = ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5
                if d <= coin_r:
                    colour = GOLD if d > coin_r * 0.78 else COIN
                    if abs(x - cx) + abs(y - cy) <= coin_r * 0.45:
                        colour = GOLD
            row.extend(colour)
        rows.append(bytes(row))
    return png(size, size, rows)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, safe in (
        ("icon-192.png", 192, 0.8),
        ("icon-512.png", 512, 0.8),
        ("maskable-512.png", 512, 0.6),
        ("apple-touch-icon.png", 180, 0.8),
    ):
        (OUT / name).write_bytes(icon(size, safe))
        print(OUT / name)


if __name__ == "__main__":
    main()
