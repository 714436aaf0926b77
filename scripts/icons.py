"""Draw the web app's icons: a card with a gold coin on the green felt, as SVG and as PNG.

The pages' manifest (``src/escoba/web/manifest.webmanifest``) names them; a phone shows them on
its home screen. One list of shapes makes both files: the SVG draws them, the PNGs are those
shapes rasterised here (anti-aliased by each pixel's distance to the shape's edge) and written
with the standard library's zlib, so nothing but Python is needed. The felt fills the whole
square and the card stays inside the middle 80 %, so a launcher may cut the icon to a circle
("maskable").

Usage::

    python scripts/icons.py          # write icon.svg, icon-192.png and icon-512.png
    python scripts/icons.py check    # exit status 1 if a file differs from what is drawn

``tests/test_web_pwa.py`` checks the files are the ones drawn here.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

WEB: Final = Path(__file__).resolve().parent.parent / "src" / "escoba" / "web"
SIZES: Final = (192, 512)

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Shape:
    """A rounded rectangle (``radius`` < half its size) or a circle (``half`` both equal to
    ``radius``), in units of the icon's side; ``fill`` and a ``stroke`` centred on its edge."""

    centre: tuple[float, float]
    half: tuple[float, float]
    radius: float
    fill: RGB | None
    stroke: RGB | None = None
    width: float = 0.0

    def distance(self, x: float, y: float) -> float:
        """Signed distance from the edge: negative inside."""
        qx = abs(x - self.centre[0]) - (self.half[0] - self.radius)
        qy = abs(y - self.centre[1]) - (self.half[1] - self.radius)
        outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
        return outside + min(max(qx, qy), 0.0) - self.radius


FELT: Final = (0x17, 0x4F, 0x32)
PAPER: Final = (0xFB, 0xF8, 0xF1)
RED: Final = (0xC8, 0x10, 0x2E)
GOLD: Final = (0xE0, 0xB3, 0x41)
BRONZE: Final = (0x8A, 0x6D, 0x1A)

SHAPES: Final = (
    Shape((0.5, 0.5), (0.5, 0.5), 0.0, FELT),
    Shape((0.5, 0.5), (0.22, 0.31), 0.04, PAPER, RED, 0.02),
    Shape((0.5, 0.5), (0.13, 0.13), 0.13, GOLD, BRONZE, 0.02),
    Shape((0.5, 0.5), (0.075, 0.075), 0.075, None, BRONZE, 0.014),
)


def _hex(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def svg() -> str:
    """The icon as SVG (512 units a side)."""
    side = 512
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}">']
    for shape in SHAPES:
        paint = f'fill="{_hex(shape.fill) if shape.fill else "none"}"'
        if shape.stroke is not None:
            paint += f' stroke="{_hex(shape.stroke)}" stroke-width="{shape.width * side:g}"'
        x, y = (shape.centre[i] - shape.half[i] for i in (0, 1))
        parts.append(
            f'<rect x="{x * side:g}" y="{y * side:g}" width="{2 * shape.half[0] * side:g}" '
            f'height="{2 * shape.half[1] * side:g}" rx="{shape.radius * side:g}" {paint}/>'
        )
    parts.append("</svg>\n")
    return "".join(parts)


def _over(below: RGB, colour: RGB, cover: float) -> RGB:
    if cover <= 0.0:
        return below
    if cover >= 1.0:
        return colour
    mixed = (round(b + (c - b) * cover) for b, c in zip(below, colour, strict=True))
    return tuple(mixed)  # type: ignore[return-value]


def pixels(size: int) -> list[list[RGB]]:
    """The icon rasterised at ``size`` pixels a side, each pixel sampled at its centre."""
    rows: list[list[RGB]] = []
    for row in range(size):
        y = (row + 0.5) / size
        line: list[RGB] = []
        for column in range(size):
            x = (column + 0.5) / size
            colour: RGB = (0, 0, 0)
            for shape in SHAPES:
                edge = shape.distance(x, y) * size  # in pixels
                if shape.fill is not None:
                    colour = _over(colour, shape.fill, 0.5 - edge)
                if shape.stroke is not None:
                    colour = _over(colour, shape.stroke, shape.width * size / 2 + 0.5 - abs(edge))
            line.append(colour)
        rows.append(line)
    return rows


def png(size: int) -> bytes:
    """The icon as an 8-bit RGB PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(
        b"\x00" + bytes(value for pixel in line for value in pixel) for line in pixels(size)
    )
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def drawn() -> dict[Path, bytes]:
    """Each icon file and what it should hold."""
    files = {WEB / "icon.svg": svg().encode()}
    files.update({WEB / f"icon-{size}.png": png(size) for size in SIZES})
    return files


def main(argv: list[str]) -> int:
    if argv and argv[0] == "check":
        stale = [
            path.name
            for path, data in drawn().items()
            if not path.is_file() or path.read_bytes() != data
        ]
        for name in stale:
            print(f"{name} differs from what scripts/icons.py draws")
        return 1 if stale else 0
    for path, data in drawn().items():
        path.write_bytes(data)
        print(f"wrote {path.relative_to(WEB.parent.parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
