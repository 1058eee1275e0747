"""Preview pictures and creator logos drawn locally with Pillow, so the demo looks right offline.

Previews are 600x400 JPEG scenes in the spirit of a panorama: a sky gradient with a sun or moon,
layered silhouettes (mountains, skylines, monuments, interiors, reefs…) and water reflections, in a
palette picked per category. Logos are 256x256 PNG monograms on a coloured shape. Everything is drawn
at twice the size and scaled down, which anti-aliases the polygons Pillow draws hard-edged.

Every picture is a pure function of (seed, name): the same seed gives the same files, and files that
already exist are left alone, so generating the pool again is cheap.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from app.classifications.dictionaries import CATEGORIES

PREVIEW_SIZE = (600, 400)
LOGO_SIZE = 256
SUPERSAMPLE = 2
JPEG_QUALITY = 80
PREVIEWS_PER_CATEGORY = 12
DEMO_URL_PREFIX = "/uploads/demo"
PREVIEWS_DIR = "previews"
LOGOS_DIR = "logos"

Color = tuple[int, int, int]
Point = tuple[float, float]
FloatArray = npt.NDArray[np.float32]


# --- colours ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Palette:
    sky_top: Color
    sky_bottom: Color
    sun: Color
    far: Color  # the farthest silhouettes, close to the sky colour
    near: Color  # the nearest, darkest silhouettes
    water: Color
    lights: Color  # lit windows, lamps
    night: bool = False


PALETTES: dict[str, Palette] = {
    "dawn": Palette(
        (58, 72, 140), (252, 178, 140), (255, 236, 190), (170, 128, 160), (44, 38, 72), (96, 96, 150), (255, 214, 140)
    ),
    "morning": Palette(
        (70, 140, 220), (196, 226, 246), (255, 252, 226), (150, 180, 210), (40, 70, 80), (60, 120, 170), (255, 230, 160)
    ),
    "noon": Palette(
        (30, 110, 210), (150, 205, 245), (255, 255, 240), (130, 170, 200), (30, 80, 60), (40, 110, 160), (255, 240, 180)
    ),
    "golden": Palette(
        (90, 110, 180),
        (255, 196, 110),
        (255, 240, 180),
        (190, 140, 120),
        (60, 40, 50),
        (120, 100, 130),
        (255, 200, 100),
    ),
    "sunset": Palette(
        (64, 40, 110), (255, 120, 80), (255, 214, 120), (160, 80, 110), (36, 20, 44), (110, 60, 100), (255, 190, 90)
    ),
    "dusk": Palette(
        (20, 24, 70), (190, 90, 130), (255, 190, 160), (100, 60, 110), (18, 16, 40), (60, 50, 100), (255, 200, 110)
    ),
    "night": Palette(
        (6, 10, 36), (40, 50, 110), (236, 236, 220), (40, 46, 90), (8, 10, 24), (20, 30, 70), (255, 210, 120), True
    ),
    "mint": Palette(
        (40, 150, 170), (200, 240, 230), (255, 255, 235), (140, 200, 190), (20, 80, 80), (50, 140, 150), (255, 240, 190)
    ),
}
DAY_PALETTES = ("dawn", "morning", "noon", "golden", "sunset")
ALL_PALETTES = (*DAY_PALETTES, "dusk", "night")


def _mix(first: Color, second: Color, amount: float) -> Color:
    amount = min(max(amount, 0.0), 1.0)
    return (
        round(first[0] + (second[0] - first[0]) * amount),
        round(first[1] + (second[1] - first[1]) * amount),
        round(first[2] + (second[2] - first[2]) * amount),
    )


def _shade(color: Color, factor: float) -> Color:
    return _mix(color, (0, 0, 0), 1 - factor) if factor < 1 else _mix(color, (255, 255, 255), factor - 1)


def _jitter(rng: random.Random, color: Color, spread: int = 14) -> Color:
    return (
        min(255, max(0, color[0] + rng.randint(-spread, spread))),
        min(255, max(0, color[1] + rng.randint(-spread, spread))),
        min(255, max(0, color[2] + rng.randint(-spread, spread))),
    )


# --- the canvas and drawing helpers ---------------------------------------------------------------------------


class Canvas:
    """An RGB image drawn at SUPERSAMPLE times the size, with coordinates given in output pixels."""

    def __init__(self, width: int, height: int, background: Color = (0, 0, 0)) -> None:
        self.width, self.height = width, height
        self.image = Image.new("RGB", (width * SUPERSAMPLE, height * SUPERSAMPLE), background)
        self.draw = ImageDraw.Draw(self.image)

    def scaled(self, points: Sequence[Point]) -> list[Point]:
        return [(x * SUPERSAMPLE, y * SUPERSAMPLE) for x, y in points]

    def polygon(self, points: Sequence[Point], color: Color) -> None:
        self.draw.polygon(self.scaled(points), fill=color)

    def rectangle(self, box: tuple[float, float, float, float], color: Color) -> None:
        x0, y0, x1, y1 = box  # corners in any order: Pillow wants them sorted
        left, right, top, bottom = sorted((x0, x1)) + sorted((y0, y1))
        self.draw.rectangle(
            (left * SUPERSAMPLE, top * SUPERSAMPLE, right * SUPERSAMPLE, bottom * SUPERSAMPLE), fill=color
        )

    def ellipse(self, box: tuple[float, float, float, float], color: Color) -> None:
        x0, y0, x1, y1 = box
        self.draw.ellipse((x0 * SUPERSAMPLE, y0 * SUPERSAMPLE, x1 * SUPERSAMPLE, y1 * SUPERSAMPLE), fill=color)

    def line(self, points: Sequence[Point], color: Color, width: float = 1) -> None:
        self.draw.line(self.scaled(points), fill=color, width=max(1, round(width * SUPERSAMPLE)))

    def paste_gradient(self, box: tuple[float, float, float, float], top: Color, bottom: Color) -> None:
        x0, y0, x1, y1 = (round(value * SUPERSAMPLE) for value in box)
        if x1 > x0 and y1 > y0:
            self.image.paste(vertical_gradient((x1 - x0, y1 - y0), top, bottom), (x0, y0))

    def overlay(self, layer: Image.Image) -> None:
        """Blend an RGBA layer of the canvas's (supersampled) size over it."""
        self.image = Image.alpha_composite(self.image.convert("RGBA"), layer).convert("RGB")
        self.draw = ImageDraw.Draw(self.image)

    def new_layer(self) -> tuple[Image.Image, ImageDraw.ImageDraw]:
        layer = Image.new("RGBA", self.image.size, (0, 0, 0, 0))
        return layer, ImageDraw.Draw(layer)

    def finish(self) -> Image.Image:
        return self.image.resize((self.width, self.height), Image.Resampling.LANCZOS)


def vertical_gradient(size: tuple[int, int], top: Color, bottom: Color, curve: float = 1.0) -> Image.Image:
    width, height = size
    ramp = np.linspace(0.0, 1.0, height, dtype=np.float32) ** curve
    colors = np.array(top, dtype=np.float32) + (np.array(bottom, dtype=np.float32) - np.array(top)) * ramp[:, None]
    rows = np.repeat(colors[:, None, :], width, axis=1)
    return Image.fromarray(rows.clip(0, 255).astype(np.uint8), "RGB")


BLUR_REDUCTION = 4


def soft_blur(layer: Image.Image, radius: float) -> Image.Image:
    """A Gaussian blur done at a quarter of the size: blurred layers are smooth, and it is 10x faster."""
    width, height = layer.size
    small = layer.resize((width // BLUR_REDUCTION, height // BLUR_REDUCTION), Image.Resampling.BILINEAR)
    blurred = small.filter(ImageFilter.GaussianBlur(radius / BLUR_REDUCTION))
    return blurred.resize((width, height), Image.Resampling.BILINEAR)


@lru_cache(maxsize=4)
def _pixel_grid(width: int, height: int) -> tuple[FloatArray, FloatArray]:
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    return ys, xs


def radial_glow(size: tuple[int, int], center: Point, radius: float, color: Color, strength: float) -> Image.Image:
    """An RGBA layer: `color` fading out from `center` (supersampled coordinates) over `radius`."""
    width, height = size
    ys, xs = _pixel_grid(width, height)
    distance = np.sqrt((xs - center[0]) ** 2 + (ys - center[1]) ** 2) / max(radius, 1.0)
    alpha = (np.clip(1.0 - distance, 0.0, 1.0) ** 2 * 255 * strength).astype(np.uint8)
    layer = np.zeros((height, width, 4), dtype=np.uint8)
    layer[..., :3] = color
    layer[..., 3] = alpha
    return Image.fromarray(layer, "RGBA")


def ridge(rng: random.Random, width: float, base: float, amplitude: float, roughness: float = 0.55) -> list[Point]:
    """A mountain ridge line by midpoint displacement, from x=0 to x=width."""
    heights = [base - rng.uniform(0, amplitude), base - rng.uniform(0, amplitude)]
    spread = amplitude
    for _ in range(7):
        refined: list[float] = []
        for left, right in itertools.pairwise(heights):
            refined += [left, (left + right) / 2 + rng.uniform(-spread, spread) / 2]
        heights = [*refined, heights[-1]]
        spread *= roughness
    step = width / (len(heights) - 1)
    return [(index * step, min(height, base + amplitude * 0.2)) for index, height in enumerate(heights)]


def _fill_below(canvas: Canvas, line: list[Point], color: Color, bottom: float | None = None) -> None:
    floor = canvas.height if bottom is None else bottom
    canvas.polygon([*line, (canvas.width, floor), (0, floor)], color)


def _sky(canvas: Canvas, palette: Palette, horizon: float) -> None:
    canvas.paste_gradient((0, 0, canvas.width, horizon + 2), palette.sky_top, palette.sky_bottom)


def _stars(canvas: Canvas, rng: random.Random, horizon: float, count: int) -> None:
    for _ in range(count):
        x, y = rng.uniform(0, canvas.width), rng.uniform(0, horizon) ** 1.2 / max(horizon, 1) ** 0.2
        size = rng.choice((0.6, 0.8, 1.0, 1.4))
        brightness = rng.randint(150, 255)
        canvas.ellipse((x - size, y - size, x + size, y + size), (brightness, brightness, min(255, brightness + 20)))


def _sun(canvas: Canvas, rng: random.Random, palette: Palette, horizon: float) -> Point:
    x = rng.uniform(canvas.width * 0.15, canvas.width * 0.85)
    y = rng.uniform(horizon * 0.25, horizon * 0.8)
    radius = rng.uniform(18, 34) if not palette.night else rng.uniform(12, 20)
    glow = radial_glow(
        canvas.image.size, (x * SUPERSAMPLE, y * SUPERSAMPLE), radius * 9 * SUPERSAMPLE, palette.sun, 0.55
    )
    canvas.overlay(glow)
    canvas.ellipse((x - radius, y - radius, x + radius, y + radius), palette.sun)
    if palette.night:  # a crescent: cover part of the moon with the sky colour
        shift = radius * 0.45
        cover = _mix(palette.sky_top, palette.sky_bottom, y / max(horizon, 1))
        canvas.ellipse((x - radius + shift, y - radius - shift / 2, x + radius + shift, y + radius - shift / 2), cover)
    return x, y


def _clouds(canvas: Canvas, rng: random.Random, palette: Palette, horizon: float, count: int) -> None:
    layer, draw = canvas.new_layer()
    tint = _mix(palette.sun, (255, 255, 255), 0.5)
    for _ in range(count):
        cx, cy = rng.uniform(0, canvas.width), rng.uniform(horizon * 0.1, horizon * 0.7)
        for _puff in range(rng.randint(4, 8)):
            w, h = rng.uniform(30, 80), rng.uniform(10, 24)
            px, py = cx + rng.uniform(-60, 60), cy + rng.uniform(-8, 8)
            box = ((px - w) * SUPERSAMPLE, (py - h) * SUPERSAMPLE, (px + w) * SUPERSAMPLE, (py + h) * SUPERSAMPLE)
            draw.ellipse(box, fill=(*tint, rng.randint(50, 110)))
    canvas.overlay(soft_blur(layer, 10 * SUPERSAMPLE))


def _water(canvas: Canvas, rng: random.Random, palette: Palette, horizon: float) -> None:
    """Mirror what is above the horizon into the water below it, darkened, with ripples."""
    top = round(horizon * SUPERSAMPLE)
    pixels = np.asarray(canvas.image).astype(np.float32)
    depth = pixels.shape[0] - top
    mirrored = pixels[max(0, top - depth) : top][::-1].copy()  # a copy: rippling a view would ripple the sky
    if mirrored.shape[0] < depth:
        mirrored = np.concatenate([mirrored, np.repeat(mirrored[-1:], depth - mirrored.shape[0], axis=0)])
    phase = rng.uniform(0, math.tau)
    for row in range(depth):  # a horizontal shift per row reads as ripples
        shift = round(math.sin(row / (3.0 + row * 0.02) + phase) * (1 + row * 0.04))
        mirrored[row] = np.roll(mirrored[row], shift, axis=0)
    tint = np.array(palette.water, dtype=np.float32)
    fade = np.linspace(0.35, 0.75, depth, dtype=np.float32)[:, None, None]
    pixels[top:] = mirrored[:depth] * (1 - fade) + tint * fade
    canvas.image = Image.fromarray(pixels.clip(0, 255).astype(np.uint8), "RGB")
    canvas.draw = ImageDraw.Draw(canvas.image)
    highlight = _mix(palette.sun, (255, 255, 255), 0.3)
    for _ in range(40):
        y = rng.uniform(horizon + 3, canvas.height)
        x, length = rng.uniform(0, canvas.width), rng.uniform(8, 40)
        canvas.line([(x, y), (x + length, y)], _mix(palette.water, highlight, 0.35), 0.8)


@lru_cache(maxsize=8)
def _vignette_mask(width: int, height: int, strength: float) -> FloatArray:
    ys, xs = _pixel_grid(width, height)
    distance = np.sqrt(((xs - width / 2) / (width / 2)) ** 2 + ((ys - height / 2) / (height / 2)) ** 2)
    mask: FloatArray = (1 - np.clip(distance - 0.6, 0, 1) * strength).astype(np.float32)[..., None]
    return mask


def _vignette(canvas: Canvas, strength: float = 0.35) -> None:
    pixels = np.asarray(canvas.image).astype(np.float32) * _vignette_mask(*canvas.image.size, strength)
    canvas.image = Image.fromarray(pixels.clip(0, 255).astype(np.uint8), "RGB")
    canvas.draw = ImageDraw.Draw(canvas.image)


# --- outdoor pieces -------------------------------------------------------------------------------------------


def _mountain_layers(canvas: Canvas, rng: random.Random, palette: Palette, horizon: float, layers: int) -> None:
    for layer in range(layers):
        depth = layer / max(layers - 1, 1)
        color = _mix(_mix(palette.far, palette.sky_bottom, 0.35), palette.near, depth)
        base = horizon - (layers - layer - 1) * 6
        amplitude = rng.uniform(70, 150) * (1 - depth * 0.45)
        _fill_below(canvas, ridge(rng, canvas.width, base, amplitude), color, horizon + 1)


def _tree_line(canvas: Canvas, rng: random.Random, color: Color, base: float, count: int) -> None:
    for _ in range(count):
        x, height = rng.uniform(-10, canvas.width + 10), rng.uniform(18, 46)
        width = height * rng.uniform(0.28, 0.4)
        canvas.polygon([(x - width, base), (x, base - height), (x + width, base)], color)
    canvas.rectangle((0, base - 2, canvas.width, canvas.height), color)


def _skyline(canvas: Canvas, rng: random.Random, base: float, color: Color, lights: Color | None, tall: float) -> None:
    x = rng.uniform(-20, 0)
    while x < canvas.width:
        width, height = rng.uniform(18, 46), rng.uniform(tall * 0.25, tall)
        canvas.rectangle((x, base - height, x + width, base), color)
        if rng.random() < 0.25:  # a spire or antenna
            canvas.line(
                [(x + width / 2, base - height), (x + width / 2, base - height - rng.uniform(8, 26))], color, 1.5
            )
        elif rng.random() < 0.2:  # a stepped top
            canvas.rectangle((x + width * 0.2, base - height - 8, x + width * 0.8, base - height), color)
        if lights is not None:
            _windows(canvas, rng, (x, base - height, x + width, base), lights)
        x += width + rng.uniform(-4, 6)


def _windows(canvas: Canvas, rng: random.Random, box: tuple[float, float, float, float], lights: Color) -> None:
    x0, y0, x1, y1 = box
    lit_share = rng.uniform(0.15, 0.5)
    y = y0 + 5
    while y < y1 - 6:
        x = x0 + 4
        while x < x1 - 5:
            if rng.random() < lit_share:
                canvas.rectangle((x, y, x + 2.5, y + 3), _jitter(rng, lights, 20))
            x += 6
        y += 7


def _dome_building(canvas: Canvas, rng: random.Random, center: float, base: float, color: Color) -> None:
    width, height = rng.uniform(110, 170), rng.uniform(60, 90)
    canvas.rectangle((center - width / 2, base - height, center + width / 2, base), color)
    dome = width * rng.uniform(0.28, 0.38)
    top = base - height
    canvas.rectangle((center - dome * 0.8, top - dome * 0.5, center + dome * 0.8, top), color)
    canvas.ellipse((center - dome, top - dome * 1.6, center + dome, top + dome * 0.2), color)
    canvas.line([(center, top - dome * 1.6), (center, top - dome * 2.0)], color, 2)
    for side in (-1, 1):  # minarets or bell towers
        if rng.random() < 0.7:
            tx = center + side * (width / 2 + rng.uniform(14, 30))
            tower = rng.uniform(height * 1.6, height * 2.4)
            canvas.rectangle((tx - 5, base - tower, tx + 5, base), color)
            canvas.polygon([(tx - 7, base - tower), (tx, base - tower - 22), (tx + 7, base - tower)], color)


def _gothic_church(canvas: Canvas, rng: random.Random, center: float, base: float, color: Color) -> None:
    width, height = rng.uniform(120, 180), rng.uniform(55, 80)
    canvas.rectangle((center - width / 2, base - height, center + width / 2, base), color)
    canvas.polygon(
        [(center - width / 2, base - height), (center, base - height - 40), (center + width / 2, base - height)], color
    )
    for tx in (center - width / 2 + 14, center + width / 2 - 14):
        tower = height + rng.uniform(60, 110)
        canvas.rectangle((tx - 13, base - tower, tx + 13, base), color)
        canvas.polygon(
            [(tx - 15, base - tower), (tx, base - tower - rng.uniform(50, 80)), (tx + 15, base - tower)], color
        )


def _classical_temple(canvas: Canvas, rng: random.Random, center: float, base: float, color: Color) -> None:
    width, height = rng.uniform(170, 240), rng.uniform(70, 100)
    canvas.rectangle((center - width / 2 - 8, base - 10, center + width / 2 + 8, base), color)
    columns = rng.choice((6, 8))
    gap = width / (columns - 1)
    for index in range(columns):
        x = center - width / 2 + index * gap
        canvas.rectangle((x - 5, base - height, x + 5, base - 10), color)
    canvas.rectangle((center - width / 2 - 6, base - height - 12, center + width / 2 + 6, base - height), color)
    canvas.polygon(
        [
            (center - width / 2 - 8, base - height - 12),
            (center, base - height - 48),
            (center + width / 2 + 8, base - height - 12),
        ],
        color,
    )


def _castle(canvas: Canvas, rng: random.Random, center: float, base: float, color: Color) -> None:
    width, height = rng.uniform(160, 230), rng.uniform(55, 80)
    canvas.rectangle((center - width / 2, base - height, center + width / 2, base), color)
    for x in np.arange(center - width / 2, center + width / 2, 12):
        canvas.rectangle((float(x), base - height - 7, float(x) + 6, base - height), color)
    for tx in (center - width / 2, center, center + width / 2):
        tower = height + rng.uniform(25, 60)
        canvas.rectangle((tx - 16, base - tower, tx + 16, base), color)
        if rng.random() < 0.6:
            canvas.polygon([(tx - 19, base - tower), (tx, base - tower - 36), (tx + 19, base - tower)], color)
        else:
            for bx in (tx - 16, tx - 5, tx + 6):
                canvas.rectangle((bx, base - tower - 7, bx + 6, base - tower), color)


def _pagoda(canvas: Canvas, rng: random.Random, center: float, base: float, color: Color) -> None:
    tiers = rng.randint(3, 5)
    width, y = rng.uniform(110, 140), base
    for _ in range(tiers):
        height = 26
        canvas.rectangle((center - width * 0.35, y - height, center + width * 0.35, y), color)
        canvas.polygon(
            [
                (center - width * 0.62, y - height + 4),
                (center - width * 0.4, y - height - 10),
                (center + width * 0.4, y - height - 10),
                (center + width * 0.62, y - height + 4),
            ],
            color,
        )
        y -= height + 8
        width *= 0.8
    canvas.line([(center, y + 8), (center, y - 28)], color, 2.5)


def _tower(canvas: Canvas, rng: random.Random, center: float, base: float, color: Color) -> None:
    """A lattice tower: two legs meeting under an arch, a first platform, then a tapering spire."""
    height = rng.uniform(210, 260)
    waist = base - height * 0.28
    for side in (-1, 1):
        canvas.polygon(
            [
                (center + side * 50, base),
                (center + side * 30, base),
                (center + side * 12, waist),
                (center + side * 30, waist),
            ],
            color,
        )
    canvas.rectangle((center - 36, waist - 8, center + 36, waist), color)
    canvas.polygon(
        [(center - 28, waist - 8), (center - 4, base - height), (center + 4, base - height), (center + 28, waist - 8)],
        color,
    )
    canvas.rectangle((center - 18, base - height * 0.62, center + 18, base - height * 0.6), color)
    canvas.line([(center, base - height), (center, base - height - 26)], color, 2)


MONUMENTS: tuple[Callable[[Canvas, random.Random, float, float, Color], None], ...] = (
    _dome_building,
    _gothic_church,
    _classical_temple,
    _castle,
    _pagoda,
    _tower,
)


# --- scenes ---------------------------------------------------------------------------------------------------

Scene = Callable[[Canvas, random.Random, Palette], None]


def scene_mountains(canvas: Canvas, rng: random.Random, palette: Palette) -> None:
    horizon = canvas.height * rng.uniform(0.58, 0.7)
    _sky(canvas, palette, horizon)
    if palette.night:
        _stars(canvas, rng, horizon, 180)
    _clouds(canvas, rng, palette, horizon, rng.randint(1, 3))
    _sun(canvas, rng, palette, horizon)
    _mountain_layers(canvas, rng, palette, horizon, rng.randint(3, 5))
    if rng.random() < 0.6:
        _water(canvas, rng, palette, horizon)
        _tree_line(canvas, rng, _shade(palette.near, 0.7), canvas.height - rng.uniform(0, 20), 26)
    else:
        canvas.paste_gradient((0, horizon, canvas.width, canvas.height), palette.near, _shade(palette.near, 0.6))
        _tree_line(canvas, rng, _shade(palette.near, 0.6), canvas.height - rng.uniform(10, 40), 40)
    _vignette(canvas)


def scene_skyline(canvas: Canvas, rng: random.Random, palette: Palette) -> None:
    horizon = canvas.height * rng.uniform(0.6, 0.7)
    _sky(canvas, palette, horizon)
    if palette.night:
        _stars(canvas, rng, horizon, 120)
    _clouds(canvas, rng, palette, horizon, rng.randint(0, 2))
    _sun(canvas, rng, palette, horizon)
    lights = palette.lights if palette.night or palette.sky_top[2] < 120 else None
    _skyline(canvas, rng, horizon, _mix(palette.far, palette.near, 0.3), None, horizon * 0.55)
    _skyline(canvas, rng, horizon, palette.near, lights, horizon * 0.42)
    _water(canvas, rng, palette, horizon)
    _vignette(canvas)


def scene_coast(canvas: Canvas, rng: random.Random, palette: Palette) -> None:
    horizon = canvas.height * rng.uniform(0.5, 0.6)
    _sky(canvas, palette, horizon)
    _clouds(canvas, rng, palette, horizon, rng.randint(2, 4))
    _sun(canvas, rng, palette, horizon)
    for _ in range(rng.randint(1, 3)):  # islands and headlands on the horizon
        start, width = rng.uniform(-100, canvas.width), rng.uniform(80, 260)
        line = [(start + width * t / 20, horizon - math.sin(math.pi * t / 20) * rng.uniform(14, 30)) for t in range(21)]
        canvas.polygon(
            [*line, (start + width, horizon + 1), (start, horizon + 1)], _mix(palette.far, palette.near, 0.4)
        )
    _water(canvas, rng, palette, horizon)
    sand = _mix((236, 206, 160), palette.sun, 0.2)
    shore = [
        (x, canvas.height - 60 - 30 * math.sin(x / 110 + rng.uniform(0, 1))) for x in range(0, canvas.width + 21, 20)
    ]
    canvas.polygon([*shore, (canvas.width, canvas.height), (0, canvas.height)], sand)
    canvas.line(shore, (250, 250, 245), 2.5)
    _palm(canvas, rng, rng.uniform(30, 140), canvas.height - 40, _shade(palette.near, 0.6))
    _vignette(canvas, 0.25)


def _palm(canvas: Canvas, rng: random.Random, x: float, base: float, color: Color) -> None:
    lean, height = rng.uniform(20, 50), rng.uniform(180, 230)
    trunk = [(x + lean * (t / 10) ** 2, base - height * t / 10) for t in range(11)]
    canvas.line(trunk, color, 7)
    top = trunk[-1]
    for angle in range(0, 360, 45):
        radians = math.radians(angle + rng.uniform(-10, 10))
        leaf = [
            (top[0] + math.cos(radians) * 60 * t / 8, top[1] + math.sin(radians) * 24 * t / 8 + 22 * (t / 8) ** 2)
            for t in range(9)
        ]
        canvas.line(leaf, color, 5)


def scene_monument(canvas: Canvas, rng: random.Random, palette: Palette) -> None:
    horizon = canvas.height * rng.uniform(0.72, 0.8)
    _sky(canvas, palette, horizon)
    if palette.night:
        _stars(canvas, rng, horizon, 150)
    _clouds(canvas, rng, palette, horizon, rng.randint(1, 3))
    _sun(canvas, rng, palette, horizon)
    _skyline(canvas, rng, horizon, _mix(palette.far, palette.sky_bottom, 0.3), None, 70)
    rng.choice(MONUMENTS)(canvas, rng, canvas.width * rng.uniform(0.35, 0.65), horizon, palette.near)
    canvas.paste_gradient((0, horizon, canvas.width, canvas.height), palette.near, _shade(palette.near, 0.55))
    for _ in range(14):  # paving lines leading to the monument
        x = rng.uniform(-200, canvas.width + 200)
        canvas.line([(canvas.width / 2, horizon), (x, canvas.height)], _shade(palette.near, 1.25), 0.8)
    _vignette(canvas)


def scene_aerial(canvas: Canvas, rng: random.Random, palette: Palette) -> None:
    fields = ((118, 150, 72), (164, 178, 92), (200, 186, 110), (96, 128, 70), (142, 116, 80), (180, 160, 96))
    canvas.rectangle((0, 0, canvas.width, canvas.height), (110, 140, 80))
    _parcels(canvas, rng, (-40.0, -40.0, canvas.width + 40.0, canvas.height + 40.0), fields, 5)
    phase, middle = rng.uniform(0, math.tau), canvas.height * rng.uniform(0.35, 0.65)
    river = [(x, middle + 70 * math.sin(x / 90 + phase)) for x in range(-20, canvas.width + 40, 10)]
    canvas.line(river, (70, 110, 150), 14)
    canvas.line(river, (96, 140, 180), 8)
    road_y = rng.uniform(60, 140)
    canvas.line([(0, road_y), (canvas.width, road_y + rng.uniform(-60, 160))], (214, 210, 196), 4)
    _clouds(canvas, rng, palette, canvas.height, rng.randint(3, 6))
    haze = Image.new("RGBA", canvas.image.size, (*palette.sky_bottom, 40))
    canvas.overlay(haze)
    _vignette(canvas, 0.4)


def _parcels(
    canvas: Canvas, rng: random.Random, box: tuple[float, float, float, float], colors: Sequence[Color], depth: int
) -> None:
    x0, y0, x1, y1 = box
    if depth == 0 or (x1 - x0) < 50 or (y1 - y0) < 40:
        color = _jitter(rng, rng.choice(colors), 10)
        canvas.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), color)
        if rng.random() < 0.5:  # crop rows
            for y in np.arange(y0 + 4, y1 - 2, 5):
                canvas.line([(x0 + 2, float(y)), (x1 - 2, float(y))], _shade(color, 0.9), 0.7)
        return
    if (x1 - x0) > (y1 - y0):
        cut = rng.uniform(x0 + (x1 - x0) * 0.3, x1 - (x1 - x0) * 0.3)
        halves = ((x0, y0, cut, y1), (cut, y0, x1, y1))
    else:
        cut = rng.uniform(y0 + (y1 - y0) * 0.3, y1 - (y1 - y0) * 0.3)
        halves = ((x0, y0, x1, cut), (x0, cut, x1, y1))
    for half in halves:
        _parcels(canvas, rng, half, colors, depth - 1)


def scene_underwater(canvas: Canvas, rng: random.Random, palette: Palette) -> None:
    top, bottom = _jitter(rng, (40, 170, 200), 20), _jitter(rng, (8, 40, 90), 10)
    canvas.paste_gradient((0, 0, canvas.width, canvas.height), top, bottom)
    rays, draw = canvas.new_layer()
    for _ in range(7):
        x, spread = rng.uniform(0, canvas.width), rng.uniform(20, 60)
        tilt = rng.uniform(-120, 120)
        polygon = [(x - 8, 0), (x + 8, 0), (x + tilt + spread, canvas.height), (x + tilt - spread, canvas.height)]
        draw.polygon(canvas.scaled(polygon), fill=(220, 250, 255, rng.randint(18, 40)))
    canvas.overlay(soft_blur(rays, 6 * SUPERSAMPLE))
    seabed = ridge(rng, canvas.width, canvas.height - 40, 50, 0.6)
    _fill_below(canvas, seabed, _mix(bottom, (0, 0, 0), 0.4))
    coral_colors = ((255, 120, 110), (255, 170, 90), (200, 90, 160), (250, 210, 120), (120, 210, 180))
    for _ in range(rng.randint(10, 16)):
        x = rng.uniform(0, canvas.width)
        _coral(canvas, rng, x, canvas.height - rng.uniform(10, 45), _mix(rng.choice(coral_colors), bottom, 0.35))
    for _ in range(rng.randint(6, 14)):
        _fish(canvas, rng, rng.uniform(0, canvas.width), rng.uniform(60, canvas.height - 100), _mix(top, bottom, 0.7))
    for _ in range(40):
        x, y, size = rng.uniform(0, canvas.width), rng.uniform(0, canvas.height), rng.uniform(1, 3.5)
        canvas.ellipse((x - size, y - size, x + size, y + size), _mix(top, (255, 255, 255), 0.5))
    _vignette(canvas, 0.45)


def _coral(canvas: Canvas, rng: random.Random, x: float, base: float, color: Color) -> None:
    for _ in range(rng.randint(3, 6)):
        angle = math.radians(rng.uniform(-150, -30))
        length = rng.uniform(20, 55)
        tip = (x + math.cos(angle) * length, base + math.sin(angle) * length)
        canvas.line([(x, base), tip], color, rng.uniform(5, 9))
        canvas.ellipse((tip[0] - 6, tip[1] - 6, tip[0] + 6, tip[1] + 6), color)


def _fish(canvas: Canvas, rng: random.Random, x: float, y: float, color: Color) -> None:
    size, direction = rng.uniform(6, 14), rng.choice((-1, 1))
    canvas.ellipse((x - size, y - size * 0.45, x + size, y + size * 0.45), color)
    tail = x - direction * size
    canvas.polygon(
        [(tail, y), (tail - direction * size * 0.7, y - size * 0.5), (tail - direction * size * 0.7, y + size * 0.5)],
        color,
    )


def scene_space(canvas: Canvas, rng: random.Random, palette: Palette) -> None:
    canvas.paste_gradient((0, 0, canvas.width, canvas.height), (4, 6, 20), (24, 14, 48))
    nebula, draw = canvas.new_layer()
    for _ in range(6):
        x, y, radius = rng.uniform(0, canvas.width), rng.uniform(0, canvas.height), rng.uniform(60, 160)
        color = rng.choice(((120, 60, 200), (40, 120, 220), (220, 70, 140), (60, 200, 200)))
        draw.ellipse(
            (
                (x - radius) * SUPERSAMPLE,
                (y - radius * 0.6) * SUPERSAMPLE,
                (x + radius) * SUPERSAMPLE,
                (y + radius * 0.6) * SUPERSAMPLE,
            ),
            fill=(*color, 70),
        )
    canvas.overlay(soft_blur(nebula, 40 * SUPERSAMPLE))
    _stars(canvas, rng, canvas.height, 320)
    _planet(canvas, rng)
    if rng.random() < 0.6:  # an observatory dome on a hill
        hill = ridge(rng, canvas.width, canvas.height - 30, 40, 0.5)
        _fill_below(canvas, hill, (6, 8, 16))
        x = rng.uniform(canvas.width * 0.55, canvas.width * 0.85)
        base = min(y for _, y in hill) + 12
        canvas.rectangle((x - 30, base - 26, x + 30, base + 20), (10, 12, 22))
        canvas.ellipse((x - 30, base - 56, x + 30, base + 4), (10, 12, 22))
        canvas.polygon([(x - 4, base - 54), (x + 30, base - 90), (x + 38, base - 84), (x + 6, base - 48)], (10, 12, 22))


def _planet(canvas: Canvas, rng: random.Random) -> None:
    x, y = rng.uniform(120, canvas.width - 120), rng.uniform(90, canvas.height - 150)
    radius = rng.uniform(45, 80)
    base_color = rng.choice(((220, 150, 90), (120, 170, 230), (200, 110, 90), (210, 190, 150)))
    size = canvas.image.size
    canvas.overlay(radial_glow(size, (x * SUPERSAMPLE, y * SUPERSAMPLE), radius * 1.8 * SUPERSAMPLE, base_color, 0.35))
    canvas.ellipse((x - radius, y - radius, x + radius, y + radius), base_color)
    for band in range(-3, 4):  # cloud bands
        band_y = y + band * radius * 0.22
        half = math.sqrt(max(radius**2 - (band_y - y) ** 2, 0))
        canvas.line([(x - half + 4, band_y), (x + half - 4, band_y)], _shade(base_color, 0.85), radius * 0.06)
    shadow = radial_glow(
        size,
        ((x + radius * 0.9) * SUPERSAMPLE, (y + radius * 0.6) * SUPERSAMPLE),
        radius * 1.6 * SUPERSAMPLE,
        (0, 0, 0),
        0.9,
    )
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).ellipse(
        (
            (x - radius) * SUPERSAMPLE,
            (y - radius) * SUPERSAMPLE,
            (x + radius) * SUPERSAMPLE,
            (y + radius) * SUPERSAMPLE,
        ),
        fill=255,
    )
    shadow.putalpha(Image.fromarray(np.minimum(np.asarray(shadow.getchannel("A")), np.asarray(mask))))
    canvas.overlay(shadow)
    if rng.random() < 0.6:
        ring = [
            (x + math.cos(t / 30 * math.tau) * radius * 1.8, y + math.sin(t / 30 * math.tau) * radius * 0.35)
            for t in range(31)
        ]
        canvas.line(ring, _mix(base_color, (255, 255, 255), 0.4), 3)


def scene_stadium(canvas: Canvas, rng: random.Random, palette: Palette) -> None:
    horizon = canvas.height * 0.3
    _sky(canvas, palette, horizon + 40)
    if palette.night:
        _stars(canvas, rng, horizon, 60)
    stands = _mix(palette.near, (120, 120, 140), 0.3)
    canvas.polygon(
        [
            (0, horizon - 10),
            (canvas.width, horizon - 10),
            (canvas.width, canvas.height * 0.62),
            (0, canvas.height * 0.62),
        ],
        stands,
    )
    for _ in range(2600):  # the crowd
        x, y = rng.uniform(0, canvas.width), rng.uniform(horizon - 6, canvas.height * 0.6)
        canvas.rectangle(
            (x, y, x + 1.6, y + 1.6),
            _jitter(rng, rng.choice(((200, 60, 60), (240, 240, 240), (60, 90, 200), (230, 200, 80))), 40),
        )
    pitch_top, pitch_bottom = canvas.height * 0.55, canvas.height
    for stripe in range(10):  # mown stripes in perspective
        t0, t1 = stripe / 10, (stripe + 1) / 10
        y0, y1 = pitch_top + (pitch_bottom - pitch_top) * t0**1.4, pitch_top + (pitch_bottom - pitch_top) * t1**1.4
        canvas.rectangle((0, y0, canvas.width, y1 + 1), (46, 140, 60) if stripe % 2 else (58, 156, 70))
    white = (236, 240, 236)
    canvas.line(
        [
            (120, pitch_top + 10),
            (480, pitch_top + 10),
            (590, canvas.height),
            (10, canvas.height),
            (120, pitch_top + 10),
        ],
        white,
        2,
    )
    canvas.line([(300, pitch_top + 10), (300, canvas.height)], white, 2)
    canvas.ellipse((240, canvas.height * 0.7, 360, canvas.height * 0.84), white)
    canvas.ellipse((243, canvas.height * 0.705, 357, canvas.height * 0.835), (52, 148, 66))
    for x in (40, canvas.width - 40):  # floodlights
        canvas.line([(x, horizon + 30), (x, horizon - 50)], (40, 40, 50), 4)
        canvas.rectangle((x - 18, horizon - 66, x + 18, horizon - 50), (250, 250, 230))
        canvas.overlay(
            radial_glow(
                canvas.image.size,
                (x * SUPERSAMPLE, (horizon - 58) * SUPERSAMPLE),
                140 * SUPERSAMPLE,
                (255, 255, 220),
                0.6,
            )
        )
    _vignette(canvas)


def scene_stage(canvas: Canvas, rng: random.Random, palette: Palette) -> None:
    canvas.paste_gradient((0, 0, canvas.width, canvas.height), (10, 8, 24), (30, 16, 46))
    beams, draw = canvas.new_layer()
    colors = ((255, 80, 160), (80, 160, 255), (255, 200, 80), (120, 255, 200), (190, 110, 255))
    for _ in range(rng.randint(5, 9)):
        x = rng.uniform(0, canvas.width)
        target, spread = rng.uniform(100, 500), rng.uniform(40, 90)
        polygon = [
            (x - 4, 0),
            (x + 4, 0),
            (target + spread, canvas.height * 0.75),
            (target - spread, canvas.height * 0.75),
        ]
        draw.polygon(canvas.scaled(polygon), fill=(*rng.choice(colors), rng.randint(50, 90)))
    canvas.overlay(soft_blur(beams, 8 * SUPERSAMPLE))
    stage_y = canvas.height * 0.68
    canvas.rectangle((60, stage_y, canvas.width - 60, stage_y + 16), (60, 44, 70))
    canvas.overlay(
        radial_glow(
            canvas.image.size, (300 * SUPERSAMPLE, stage_y * SUPERSAMPLE), 260 * SUPERSAMPLE, (255, 200, 150), 0.45
        )
    )
    for _ in range(70):  # the audience
        x, y = rng.uniform(-10, canvas.width + 10), rng.uniform(canvas.height * 0.8, canvas.height + 10)
        size = 9 + (y - canvas.height * 0.8) * 0.12
        canvas.ellipse((x - size, y - size, x + size, y + size), (6, 4, 12))
        canvas.rectangle((x - size * 1.6, y + size * 0.6, x + size * 1.6, canvas.height + 20), (6, 4, 12))
        if rng.random() < 0.12:  # a raised hand
            canvas.line([(x + size, y), (x + size * 2, y - size * 3)], (6, 4, 12), 3)
    _vignette(canvas, 0.5)


def scene_industrial(canvas: Canvas, rng: random.Random, palette: Palette) -> None:
    horizon = canvas.height * 0.68
    _sky(canvas, palette, horizon)
    _sun(canvas, rng, palette, horizon)
    smoke, draw = canvas.new_layer()
    color = palette.near
    x = 10.0
    while x < canvas.width:
        width, height = rng.uniform(50, 110), rng.uniform(40, 90)
        canvas.rectangle((x, horizon - height, x + width, horizon), color)
        teeth = max(2, int(width // 22))  # saw-tooth factory roofs
        for tooth in range(teeth):
            tx = x + tooth * width / teeth
            canvas.polygon(
                [(tx, horizon - height), (tx, horizon - height - 14), (tx + width / teeth, horizon - height)], color
            )
        if rng.random() < 0.6:
            cx, chimney = x + width * rng.uniform(0.2, 0.8), height + rng.uniform(50, 110)
            canvas.rectangle((cx - 5, horizon - chimney, cx + 5, horizon), color)
            for puff in range(6):
                px, py, radius = cx + puff * 14 + rng.uniform(-4, 4), horizon - chimney - puff * 12, 10 + puff * 5
                draw.ellipse(
                    (
                        (px - radius) * SUPERSAMPLE,
                        (py - radius) * SUPERSAMPLE,
                        (px + radius) * SUPERSAMPLE,
                        (py + radius) * SUPERSAMPLE,
                    ),
                    fill=(230, 230, 235, 90 - puff * 12),
                )
        x += width + rng.uniform(4, 30)
    canvas.overlay(soft_blur(smoke, 5 * SUPERSAMPLE))
    crane_x = rng.uniform(80, 520)
    canvas.line([(crane_x, horizon), (crane_x, horizon - 200)], color, 4)
    canvas.line([(crane_x - 60, horizon - 195), (crane_x + 150, horizon - 195)], color, 4)
    canvas.line([(crane_x + 120, horizon - 195), (crane_x + 120, horizon - 120)], color, 1)
    canvas.paste_gradient((0, horizon, canvas.width, canvas.height), _shade(color, 1.2), _shade(color, 0.7))
    _vignette(canvas)


def scene_bridge(canvas: Canvas, rng: random.Random, palette: Palette) -> None:
    horizon = canvas.height * 0.62
    _sky(canvas, palette, horizon)
    if palette.night:
        _stars(canvas, rng, horizon, 100)
    _sun(canvas, rng, palette, horizon)
    _skyline(canvas, rng, horizon, _mix(palette.far, palette.sky_bottom, 0.2), None, 60)
    color, deck = palette.near, horizon - rng.uniform(30, 50)
    towers = (canvas.width * 0.28, canvas.width * 0.72)
    top = deck - rng.uniform(110, 150)
    for tx in towers:
        canvas.rectangle((tx - 7, top, tx + 7, horizon + 4), color)
        canvas.rectangle((tx - 9, top + 20, tx + 9, top + 26), color)
    cables = [(-40.0, deck - 10), (towers[0], top), (towers[1], top), (canvas.width + 40.0, deck - 10)]
    for start, end in itertools.pairwise(cables):
        curve = [(start[0] + (end[0] - start[0]) * t / 20, start[1] + (end[1] - start[1]) * t / 20) for t in range(21)]
        if start[1] == end[1]:  # the main span sags between the towers
            curve = [(x, y + math.sin(math.pi * i / 20) * (deck - top - 20)) for i, (x, y) in enumerate(curve)]
        canvas.line(curve, color, 2)
        for x, y in curve[1:-1]:
            canvas.line([(x, y), (x, deck)], color, 0.7)
    canvas.rectangle((0, deck, canvas.width, deck + 8), color)
    if palette.night or palette.sky_top[2] < 100:
        for lamp in range(10, canvas.width, 24):
            canvas.ellipse((lamp - 2, deck - 3, lamp + 2, deck + 1), palette.lights)
    _water(canvas, rng, palette, horizon)
    _vignette(canvas)


# --- interiors ------------------------------------------------------------------------------------------------

WALL_COLORS: dict[str, tuple[Color, ...]] = {
    "home": ((232, 222, 206), (216, 226, 222), (236, 214, 196), (220, 220, 232)),
    "gallery": ((242, 240, 236), (226, 228, 232), (60, 62, 70)),
    "clinic": ((236, 244, 244), (226, 240, 236), (240, 240, 246)),
    "office": ((228, 230, 234), (214, 222, 230), (236, 232, 224)),
    "warm": ((160, 90, 60), (120, 70, 60), (200, 150, 110), (70, 80, 70)),
    "shop": ((240, 238, 234), (228, 232, 236), (250, 244, 236)),
}
FLOOR_COLORS = ((170, 120, 80), (196, 160, 120), (130, 90, 60), (200, 196, 190), (150, 150, 156))


@dataclass(frozen=True, slots=True)
class Room:
    back: tuple[float, float, float, float]  # the back wall's box
    vanishing: Point


def scene_interior(style: str) -> Scene:
    """A room in one-point perspective; `style` picks colours and furniture."""

    def draw_room(canvas: Canvas, rng: random.Random, palette: Palette) -> None:
        width, height = canvas.width, canvas.height
        x0, y0 = width * rng.uniform(0.26, 0.34), height * rng.uniform(0.22, 0.3)
        x1, y1 = width - width * rng.uniform(0.26, 0.34), height * rng.uniform(0.62, 0.7)
        room = Room((x0, y0, x1, y1), ((x0 + x1) / 2, (y0 + y1) / 2))
        wall = rng.choice(WALL_COLORS[style])
        floor = rng.choice(FLOOR_COLORS)
        canvas.polygon([(0, 0), (width, 0), (x1, y0), (x0, y0)], _shade(wall, 1.08))
        canvas.polygon([(0, height), (width, height), (x1, y1), (x0, y1)], floor)
        _floor_planks(canvas, room, floor)
        canvas.polygon([(0, 0), (x0, y0), (x0, y1), (0, height)], _shade(wall, 0.86))
        canvas.polygon([(width, 0), (x1, y0), (x1, y1), (width, height)], _shade(wall, 0.92))
        canvas.rectangle(room.back, wall)
        _back_window(canvas, rng, palette, room)
        FURNISHERS[style](canvas, rng, room)
        _pendant_lights(canvas, rng, room, palette)
        _vignette(canvas, 0.3)

    return draw_room


def _floor_planks(canvas: Canvas, room: Room, floor: Color) -> None:
    x0, _, x1, y1 = room.back
    line_color = _shade(floor, 0.88)
    for index in range(-8, 17):
        start = x0 + (x1 - x0) * index / 8
        end = canvas.width / 2 + (start - room.vanishing[0]) * (canvas.height - room.vanishing[1]) / (
            y1 - room.vanishing[1]
        )
        canvas.line([(start, y1), (end, canvas.height)], line_color, 0.8)


def _back_window(canvas: Canvas, rng: random.Random, palette: Palette, room: Room) -> None:
    x0, y0, x1, y1 = room.back
    wx0, wx1 = x0 + (x1 - x0) * rng.uniform(0.1, 0.25), x1 - (x1 - x0) * rng.uniform(0.1, 0.25)
    wy0, wy1 = y0 + (y1 - y0) * 0.12, y1 - (y1 - y0) * 0.3
    canvas.paste_gradient((wx0, wy0, wx1, wy1), palette.sky_top, palette.sky_bottom)
    outside = ridge(rng, wx1 - wx0, wy1 - 2, (wy1 - wy0) * 0.4)
    canvas.polygon([(wx0 + x, y) for x, y in outside] + [(wx1, wy1), (wx0, wy1)], _mix(palette.far, palette.near, 0.5))
    frame = (250, 250, 250)
    canvas.line([(wx0, wy0), (wx1, wy0), (wx1, wy1), (wx0, wy1), (wx0, wy0)], frame, 3)
    canvas.line([((wx0 + wx1) / 2, wy0), ((wx0 + wx1) / 2, wy1)], frame, 2)
    light, draw = canvas.new_layer()
    sunlight = [(wx0, y1), (wx1, y1), (wx1 + 80, canvas.height), (wx0 - 40, canvas.height)]
    draw.polygon(canvas.scaled(sunlight), fill=(*palette.sun, 46))
    canvas.overlay(soft_blur(light, 10 * SUPERSAMPLE))


def _pendant_lights(canvas: Canvas, rng: random.Random, room: Room, palette: Palette) -> None:
    for x in rng.sample((canvas.width * 0.3, canvas.width * 0.5, canvas.width * 0.7), rng.randint(1, 3)):
        drop = rng.uniform(40, 80)
        canvas.line([(x, 0), (x, drop)], (60, 60, 60), 1)
        canvas.polygon([(x - 14, drop + 12), (x, drop), (x + 14, drop + 12)], (50, 50, 56))
        canvas.overlay(
            radial_glow(
                canvas.image.size, (x * SUPERSAMPLE, (drop + 14) * SUPERSAMPLE), 90 * SUPERSAMPLE, palette.lights, 0.5
            )
        )


def _furnish_home(canvas: Canvas, rng: random.Random, room: Room) -> None:
    x0, _, x1, y1 = room.back
    sofa = rng.choice(((70, 90, 120), (150, 80, 70), (90, 120, 90), (180, 170, 150)))
    cx = (x0 + x1) / 2
    canvas.polygon(
        [(cx - 170, y1 + 120), (cx + 170, y1 + 120), (cx + 110, y1 + 40), (cx - 110, y1 + 40)], _shade(sofa, 1.3)
    )
    canvas.rectangle((cx - 120, y1 - 20, cx + 120, y1 + 40), sofa)
    canvas.rectangle((cx - 130, y1 - 2, cx - 108, y1 + 44), _shade(sofa, 0.85))
    canvas.rectangle((cx + 108, y1 - 2, cx + 130, y1 + 44), _shade(sofa, 0.85))
    canvas.rectangle((cx - 110, y1 + 8, cx + 110, y1 + 30), _shade(sofa, 1.1))
    _plant(canvas, rng, x0 + 10, y1 + 30)
    canvas.rectangle((cx - 40, y1 + 70, cx + 40, y1 + 78), (90, 60, 40))


def _furnish_gallery(canvas: Canvas, rng: random.Random, room: Room) -> None:
    x0, y0, x1, y1 = room.back
    art = ((200, 60, 50), (40, 90, 160), (230, 180, 60), (60, 140, 110), (120, 60, 140))
    # One large canvas hangs over the back wall (and hides its window): a gallery's centrepiece.
    width, height = x1 - x0, y1 - y0
    box = (x0 + width * 0.08, y0 + height * 0.08, x1 - width * 0.08, y1 - height * 0.2)
    canvas.rectangle((box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4), (40, 36, 30))
    canvas.paste_gradient(box, rng.choice(art), rng.choice(art))
    sun_x, sun_y = rng.uniform(box[0] + 20, box[2] - 20), rng.uniform(box[1] + 15, box[3] - 25)
    canvas.ellipse((sun_x - 12, sun_y - 12, sun_x + 12, sun_y + 12), rng.choice(art))
    hills = [(box[0] + x, y) for x, y in ridge(rng, box[2] - box[0], box[3] - 8, 20)[::8]]
    canvas.polygon([(box[0], box[3]), *hills, (box[2], box[3])], (30, 30, 40))
    for side in (0, 1):  # paintings on the side walls, foreshortened
        for step in range(2):
            near = 40 + step * 70
            far = near + 40
            xa, xb = (near, far) if side == 0 else (canvas.width - near, canvas.width - far)
            ya, yb = 130 - near * 0.35, 130 - far * 0.25
            polygon = [(xa, ya), (xb, yb), (xb, yb + 70 - far * 0.2), (xa, ya + 100 - near * 0.2)]
            canvas.polygon(polygon, rng.choice(art))
    canvas.rectangle(((x0 + x1) / 2 - 60, y1 + 30, (x0 + x1) / 2 + 60, y1 + 46), (70, 60, 50))


def _furnish_office(canvas: Canvas, rng: random.Random, room: Room) -> None:
    x0, _, x1, y1 = room.back
    desk = rng.choice(((240, 240, 240), (200, 170, 130), (60, 60, 66)))
    for row in range(2):
        y = y1 + 30 + row * 60
        spread = 1 + row * 0.6
        for col in (-1, 1):
            cx = (x0 + x1) / 2 + col * 90 * spread
            canvas.rectangle((cx - 60 * spread, y, cx + 60 * spread, y + 8 * spread), desk)
            canvas.rectangle((cx - 20 * spread, y - 26 * spread, cx + 20 * spread, y - 2 * spread), (30, 30, 36))
            canvas.rectangle((cx - 55 * spread, y + 8 * spread, cx - 52 * spread, y + 40 * spread), _shade(desk, 0.6))
            canvas.rectangle((cx + 52 * spread, y + 8 * spread, cx + 55 * spread, y + 40 * spread), _shade(desk, 0.6))
    _plant(canvas, rng, x1 - 40, y1 + 10)


def _furnish_clinic(canvas: Canvas, rng: random.Random, room: Room) -> None:
    x0, _, x1, y1 = room.back
    cx = (x0 + x1) / 2
    canvas.rectangle((cx - 110, y1 + 10, cx + 90, y1 + 40), (250, 250, 252))
    canvas.rectangle((cx - 120, y1 - 30, cx - 108, y1 + 60), (170, 180, 190))
    canvas.rectangle((cx - 104, y1 + 2, cx - 60, y1 + 14), (210, 230, 240))
    canvas.rectangle((cx - 110, y1 + 40, cx + 90, y1 + 48), (110, 190, 190))
    canvas.rectangle((x1 - 60, y1 - 80, x1 - 20, y1 - 40), (40, 60, 70))
    canvas.line(
        [(x1 - 56, y1 - 60), (x1 - 46, y1 - 60), (x1 - 42, y1 - 70), (x1 - 36, y1 - 50), (x1 - 24, y1 - 60)],
        (80, 230, 150),
        1.5,
    )
    _plant(canvas, rng, x0 + 20, y1 + 20)


def _furnish_restaurant(canvas: Canvas, rng: random.Random, room: Room) -> None:
    x0, _, x1, y1 = room.back
    cloth = rng.choice(((250, 250, 246), (160, 40, 50), (40, 60, 50)))
    for row, (count, scale) in enumerate(((3, 0.7), (2, 1.2))):
        y = y1 + 30 + row * 70
        for index in range(count):
            cx = x0 + (x1 - x0) * (index + 0.5) / count if row == 0 else canvas.width * (0.25 + index * 0.5)
            canvas.ellipse((cx - 46 * scale, y - 12 * scale, cx + 46 * scale, y + 12 * scale), cloth)
            canvas.rectangle((cx - 3 * scale, y + 10 * scale, cx + 3 * scale, y + 50 * scale), (40, 30, 26))
            canvas.ellipse((cx - 5 * scale, y - 20 * scale, cx + 5 * scale, y - 8 * scale), (255, 210, 120))


def _furnish_shop(canvas: Canvas, rng: random.Random, room: Room) -> None:
    x0, y0, x1, y1 = room.back
    goods = ((220, 80, 70), (70, 120, 200), (240, 200, 80), (90, 170, 120), (200, 120, 200))
    for shelf in range(4):
        y = y0 + 30 + shelf * (y1 - y0 - 40) / 4
        canvas.rectangle((x0 + 10, y + 24, x1 - 10, y + 27), (120, 100, 80))
        x = x0 + 14
        while x < x1 - 24:
            width = rng.uniform(8, 16)
            canvas.rectangle((x, y + rng.uniform(4, 12), x + width, y + 24), rng.choice(goods))
            x += width + 3
    cx = (x0 + x1) / 2
    canvas.polygon(
        [(cx - 150, y1 + 110), (cx + 150, y1 + 110), (cx + 100, y1 + 50), (cx - 100, y1 + 50)], (240, 240, 240)
    )
    canvas.rectangle((cx - 150, y1 + 110, cx + 150, y1 + 150), (200, 200, 206))


def _plant(canvas: Canvas, rng: random.Random, x: float, base: float) -> None:
    canvas.polygon([(x - 14, base - 30), (x + 14, base - 30), (x + 10, base), (x - 10, base)], (190, 110, 80))
    for _ in range(9):
        angle = math.radians(rng.uniform(-160, -20))
        length = rng.uniform(30, 60)
        tip = (x + math.cos(angle) * length, base - 30 + math.sin(angle) * length)
        canvas.line([(x, base - 30), tip], (50, 120, 60), 4)
        canvas.ellipse((tip[0] - 7, tip[1] - 4, tip[0] + 7, tip[1] + 4), (70, 150, 80))


FURNISHERS: dict[str, Callable[[Canvas, random.Random, Room], None]] = {
    "home": _furnish_home,
    "gallery": _furnish_gallery,
    "office": _furnish_office,
    "clinic": _furnish_clinic,
    "warm": _furnish_restaurant,
    "shop": _furnish_shop,
}


# --- which scene for which category -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SceneChoice:
    scenes: tuple[Scene, ...]
    palettes: tuple[str, ...] = DAY_PALETTES


SCENES: dict[str, SceneChoice] = {
    "real-estate": SceneChoice((scene_interior("home"), scene_interior("home"), scene_skyline)),
    "hotels-resorts": SceneChoice((scene_interior("home"), scene_coast)),
    "museums-galleries": SceneChoice((scene_interior("gallery"), scene_monument)),
    "nature-parks": SceneChoice((scene_mountains,)),
    "landmarks": SceneChoice((scene_monument, scene_skyline), ALL_PALETTES),
    "education": SceneChoice((scene_interior("office"), scene_monument)),
    "restaurants-bars": SceneChoice((scene_interior("warm"),), ("golden", "sunset", "dusk", "night")),
    "retail": SceneChoice((scene_interior("shop"), scene_interior("home"))),
    "events-venues": SceneChoice((scene_stage, scene_interior("warm"))),
    "religious-sites": SceneChoice((scene_monument,), ALL_PALETTES),
    "sports": SceneChoice((scene_stadium, scene_mountains), ALL_PALETTES),
    "industrial": SceneChoice((scene_industrial,), ("dawn", "golden", "sunset", "dusk")),
    "healthcare": SceneChoice((scene_interior("clinic"),), ("morning", "noon", "mint")),
    "cultural-heritage": SceneChoice((scene_monument, scene_mountains)),
    "architecture": SceneChoice((scene_skyline, scene_monument, scene_interior("gallery")), ALL_PALETTES),
    "travel-tourism": SceneChoice((scene_coast, scene_skyline, scene_mountains)),
    "transportation": SceneChoice((scene_bridge, scene_skyline), ALL_PALETTES),
    "entertainment": SceneChoice((scene_stage, scene_skyline), ("dusk", "night", "sunset")),
    "offices-coworking": SceneChoice((scene_interior("office"),)),
    "underwater": SceneChoice((scene_underwater,)),
    "aerial": SceneChoice((scene_aerial, scene_coast)),
    "historic-sites": SceneChoice((scene_monument, scene_mountains)),
    "science-space": SceneChoice((scene_space,)),
}
DEFAULT_SCENE = SceneChoice((scene_mountains, scene_skyline, scene_coast))


def render_preview(category_slug: str, variant: int, seed: int) -> Image.Image:
    rng = random.Random(f"{seed}:preview:{category_slug}:{variant}")
    choice = SCENES.get(category_slug, DEFAULT_SCENE)
    scene = choice.scenes[variant % len(choice.scenes)]
    palette = PALETTES[rng.choice(choice.palettes)]
    canvas = Canvas(*PREVIEW_SIZE)
    scene(canvas, rng, palette)
    return canvas.finish()


# --- logos ------------------------------------------------------------------------------------------------------

LOGO_COLORS: tuple[tuple[Color, Color], ...] = (
    ((255, 94, 98), (255, 153, 102)),
    ((67, 97, 238), (76, 201, 240)),
    ((17, 153, 142), (56, 239, 125)),
    ((142, 45, 226), (74, 0, 224)),
    ((247, 151, 30), (255, 210, 0)),
    ((236, 0, 140), (252, 103, 103)),
    ((30, 60, 114), (42, 82, 152)),
    ((0, 176, 155), (150, 201, 61)),
    ((40, 48, 72), (133, 147, 152)),
    ((218, 68, 83), (137, 33, 107)),
)
LOGO_SHAPES = ("circle", "rounded", "hexagon", "octagon")
_FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for candidate in _FONT_CANDIDATES:
        if Path(candidate).exists():
            return ImageFont.truetype(candidate, size)
    return ImageFont.load_default(size=size)  # Pillow's bundled font, where no system font exists


def initials_of(name: str) -> str:
    words = [word for word in name.replace("-", " ").split() if word[:1].isalpha()]
    letters = "".join(word[0] for word in words[:2]).upper()
    return letters or "TA"


def render_logo(name: str, seed: int) -> Image.Image:
    rng = random.Random(f"{seed}:logo:{name}")
    size = LOGO_SIZE * SUPERSAMPLE
    first, second = rng.choice(LOGO_COLORS)
    fill = vertical_gradient((size, size), first, second).convert("RGBA")
    mask = Image.new("L", (size, size), 0)
    _logo_shape(ImageDraw.Draw(mask), rng.choice(LOGO_SHAPES), size)
    logo = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    logo.paste(fill, (0, 0), mask)
    draw = ImageDraw.Draw(logo)
    inset = round(size * 0.13)
    draw.ellipse((inset, inset, size - inset, size - inset), outline=(255, 255, 255, 45), width=SUPERSAMPLE * 2)
    text = initials_of(name)
    font = _font(round(size * (0.34 if len(text) > 1 else 0.44)))
    draw.text(
        (size / 2 + SUPERSAMPLE * 2, size / 2 + SUPERSAMPLE * 3), text, font=font, anchor="mm", fill=(0, 0, 0, 50)
    )
    draw.text((size / 2, size / 2), text, font=font, anchor="mm", fill=(255, 255, 255, 255))
    return logo.resize((LOGO_SIZE, LOGO_SIZE), Image.Resampling.LANCZOS)


def _logo_shape(draw: ImageDraw.ImageDraw, shape: str, size: int) -> None:
    margin = size * 0.04
    if shape == "circle":
        draw.ellipse((margin, margin, size - margin, size - margin), fill=255)
    elif shape == "rounded":
        draw.rounded_rectangle((margin, margin, size - margin, size - margin), radius=size * 0.22, fill=255)
    elif shape == "hexagon":
        radius = size / 2 - margin
        draw.regular_polygon((size / 2, size / 2, radius), 6, rotation=30, fill=255)
    else:
        draw.regular_polygon((size / 2, size / 2, size / 2 - margin), 8, rotation=22.5, fill=255)


# --- the pool on disk -------------------------------------------------------------------------------------------


def preview_file_name(category_slug: str, variant: int) -> str:
    return f"{category_slug}-{variant + 1:02d}.jpg"


def preview_url(category_slug: str, variant: int) -> str:
    return f"{DEMO_URL_PREFIX}/{PREVIEWS_DIR}/{preview_file_name(category_slug, variant)}"


def logo_file_name(key: str) -> str:
    return f"{key}.png"


def logo_url(key: str) -> str:
    return f"{DEMO_URL_PREFIX}/{LOGOS_DIR}/{logo_file_name(key)}"


def ensure_preview_pool(
    uploads_dir: Path,
    seed: int,
    per_category: int = PREVIEWS_PER_CATEGORY,
    category_slugs: Iterable[str] | None = None,
) -> int:
    """Write the missing preview pictures; returns how many were written."""
    target = uploads_dir / "demo" / PREVIEWS_DIR
    target.mkdir(parents=True, exist_ok=True)
    written = 0
    for slug in category_slugs if category_slugs is not None else (category.slug for category in CATEGORIES):
        for variant in range(per_category):
            path = target / preview_file_name(slug, variant)
            if not path.exists():
                _save_atomically(render_preview(slug, variant, seed), path, "JPEG", quality=JPEG_QUALITY, optimize=True)
                written += 1
    return written


def ensure_logos(uploads_dir: Path, seed: int, logos: Iterable[tuple[str, str]]) -> int:
    """Write the missing logos for (file key, creator name) pairs; returns how many were written."""
    target = uploads_dir / "demo" / LOGOS_DIR
    target.mkdir(parents=True, exist_ok=True)
    written = 0
    for key, name in logos:
        path = target / logo_file_name(key)
        if not path.exists():
            _save_atomically(render_logo(name, seed), path, "PNG", optimize=True)
            written += 1
    return written


def _save_atomically(image: Image.Image, path: Path, image_format: str, **options: object) -> None:
    # A half-written file would be skipped forever by the "exists" check; write aside, then rename.
    partial = path.with_name(f".{path.name}.partial")
    image.save(partial, image_format, **options)
    partial.replace(path)
