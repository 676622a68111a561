#!/usr/bin/env python3
"""Writes the PNG decoder fixtures with an encoder independent of libpng (Python's zlib).

For every PNG color type, bit depth and interlace method it writes NAME.png and NAME.rgba:
the pixels the PNG specification says the file holds, as straight 8-bit RGBA, row by row.
Samples wider than 8 bits are reduced by round(v * 255 / (2^depth - 1)), the spec's scaling.
The rows use all five filter types in turn, so the decoder's unfiltering is exercised too.
Run from this folder: python3 make_png_fixtures.py
"""
import os
import struct
import zlib

W, H = 13, 11
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "png")


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_row(kind, row, prev, bpp):
    out = bytearray([kind])
    for i, x in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = prev[i] if prev is not None else 0
        c = prev[i - bpp] if prev is not None and i >= bpp else 0
        predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
        out.append((x - predictor) & 0xFF)
    return out


def pack_row(samples, depth):
    """Packs one row of samples (already flattened per pixel) at the given bit depth."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, acc, bits = bytearray(), 0, 0
    for s in samples:
        acc = (acc << depth) | s
        bits += depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def image_data(pixels, channels, depth, interlace):
    """pixels[y][x] is a tuple of samples; returns the filtered, uncompressed scanlines."""
    bpp = max(1, channels * depth // 8)
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    raw, kind = bytearray(), 0
    for x0, y0, dx, dy in passes:
        xs, ys = range(x0, W, dx), range(y0, H, dy)
        if not xs or not ys:
            continue
        prev = None
        for y in ys:
            row = pack_row([s for x in xs for s in pixels[y][x]], depth)
            raw += filter_row(kind, row, prev, bpp)
            kind = (kind + 1) % 5
            prev = row
    return bytes(raw)


def write(name, color_type, depth, pixels, expected, interlace=False, extra=b""):
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    ihdr = struct.pack(">IIBBBBB", W, H, depth, color_type, 0, 0, 1 if interlace else 0)
    data = image_data(pixels, channels, depth, interlace)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra
    # Split the image data across two IDAT chunks, as large files do.
    compressed = zlib.compress(data, 9)
    half = len(compressed) // 2
    png += chunk(b"IDAT", compressed[:half]) + chunk(b"IDAT", compressed[half:]) + chunk(b"IEND", b"")
    with open(os.path.join(OUT, name + ".png"), "wb") as f:
        f.write(png)
    with open(os.path.join(OUT, name + ".rgba"), "wb") as f:
        f.write(bytes(v for y in range(H) for x in range(W) for v in expected[y][x]))


def scale(v, depth):
    return (v * 255 + ((1 << depth) - 1) // 2) // ((1 << depth) - 1)


def sample(x, y, k, depth):
    """A deterministic sample for channel k that uses the full range of the depth."""
    full = (1 << depth) - 1
    return ((x * 37 + y * 71 + k * 53) * 2654435761 >> 7) % (full + 1)


def main():
    os.makedirs(OUT, exist_ok=True)
    for interlace in (False, True):
        suffix = "-interlaced" if interlace else ""
        # Gray, every depth.
        for depth in (1, 2, 4, 8, 16):
            px = [[(sample(x, y, 0, depth),) for x in range(W)] for y in range(H)]
            exp = [[(scale(p[0], depth),) * 3 + (255,) for p in row] for row in px]
            write(f"gray{depth}{suffix}", 0, depth, px, exp, interlace)
        # Gray with a transparent gray value (tRNS).
        px = [[(sample(x, y, 0, 8) % 4 * 85,) for x in range(W)] for y in range(H)]
        exp = [[(p[0],) * 3 + (0 if p[0] == 170 else 255,) for p in row] for row in px]
        write(f"gray8-trns{suffix}", 0, 8, px, exp, interlace, chunk(b"tRNS", struct.pack(">H", 170)))
        # Gray + alpha, 8 and 16 bit.
        for depth in (8, 16):
            px = [[(sample(x, y, 0, depth), sample(x, y, 3, depth)) for x in range(W)] for y in range(H)]
            exp = [[(scale(g, depth),) * 3 + (scale(a, depth),) for g, a in row] for row in px]
            write(f"graya{depth}{suffix}", 4, depth, px, exp, interlace)
        # RGB and RGBA, 8 and 16 bit.
        for depth in (8, 16):
            px = [[tuple(sample(x, y, k, depth) for k in range(3)) for x in range(W)] for y in range(H)]
            exp = [[tuple(scale(v, depth) for v in p) + (255,) for p in row] for row in px]
            write(f"rgb{depth}{suffix}", 2, depth, px, exp, interlace)
            px = [[tuple(sample(x, y, k, depth) for k in range(4)) for x in range(W)] for y in range(H)]
            exp = [[tuple(scale(v, depth) for v in p) for p in row] for row in px]
            write(f"rgba{depth}{suffix}", 6, depth, px, exp, interlace)
        # RGB with a transparent color (tRNS).
        colors = [(255, 0, 0), (0, 128, 255), (10, 20, 30)]
        px = [[colors[(x + y) % 3] for x in range(W)] for y in range(H)]
        exp = [[p + (0 if p == (0, 128, 255) else 255,) for p in row] for row in px]
        write(f"rgb8-trns{suffix}", 2, 8, px, exp, interlace, chunk(b"tRNS", struct.pack(">HHH", 0, 128, 255)))
        # Palette, every depth, with partial transparency on some entries.
        for depth in (1, 2, 4, 8):
            entries = 1 << min(depth, 5)
            palette = [((i * 83) % 256, (i * 149 + 40) % 256, (i * 211 + 90) % 256) for i in range(entries)]
            alphas = [(i * 97) % 256 for i in range(entries // 2)]
            px = [[(sample(x, y, 0, depth) % entries,) for x in range(W)] for y in range(H)]
            exp = [[palette[i] + (alphas[i] if i < len(alphas) else 255,) for (i,) in row] for row in px]
            extra = chunk(b"PLTE", bytes(v for c in palette for v in c)) + chunk(b"tRNS", bytes(alphas))
            write(f"palette{depth}{suffix}", 3, depth, px, exp, interlace, extra)


if __name__ == "__main__":
    main()
