"""Index documents to Elasticsearch `_source` bodies and back.

A `_source` holds every field of its document (so cards are rebuilt by `indexer.cards` from the
stored document and counter updates show up in them) plus what only Elasticsearch needs: a
`geo_point`, the `favorite` sort key (likes + saves), the suggestion `weight` and, on tours, the embedding `vector`.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from indexer.documents import AdDocument, CreatorDocument, PlaceDocument, TagDocument, TourDocument

Document = TypeVar("Document", TourDocument, CreatorDocument, AdDocument, TagDocument, PlaceDocument)

VECTOR_FIELD = "vector"
VECTOR_DIMS = 384
# Counters that update_counters may fold into a tour, and the JSON type each is stored as.
COUNTER_TYPES: dict[str, type[int] | type[float]] = {
    "views": int,
    "likes": int,
    "saves": int,
    "shared": int,
    "trending": float,
    "popular": float,
}


def geo_point(lat: float | None, lng: float | None) -> dict[str, float] | None:
    if lat is None or lng is None:
        return None
    return {"lat": lat, "lon": lng}


def _fields(doc: Any) -> dict[str, Any]:
    # Shallow on purpose: tuples become JSON arrays when serialised, dicts stay dicts.
    return {field.name: getattr(doc, field.name) for field in dataclasses.fields(doc)}


def tour_source(doc: TourDocument) -> dict[str, Any]:
    return {**_fields(doc), "location": geo_point(doc.lat, doc.lng), "favorite": doc.likes + doc.saves}


def creator_weight(doc: CreatorDocument) -> float:
    """How strongly a creator suggests itself: followers count ten times as much as views (the same
    weight the embedded adapter ranks creator suggestions by)."""
    return float(doc.followers * 10 + doc.views)


def place_weight(doc: PlaceDocument) -> float:
    """Countries before any town, then by population."""
    return float(doc.population) + (1e9 if doc.kind == "country" else 0.0)


def creator_source(doc: CreatorDocument) -> dict[str, Any]:
    return {**_fields(doc), "location": geo_point(doc.lat, doc.lng), "weight": creator_weight(doc)}


def ad_source(doc: AdDocument) -> dict[str, Any]:
    return _fields(doc)


def tag_source(doc: TagDocument) -> dict[str, Any]:
    return _fields(doc)


def place_source(doc: PlaceDocument) -> dict[str, Any]:
    return {**_fields(doc), "location": geo_point(doc.lat, doc.lng), "weight": place_weight(doc)}


def document_from_source(document_type: type[Document], source: dict[str, Any]) -> Document:
    """Rebuild a document from its `_source`, ignoring the Elasticsearch-only fields; JSON arrays
    become the tuples the dataclass declares."""
    values: dict[str, Any] = {}
    for field in dataclasses.fields(document_type):
        if field.name not in source:
            continue
        value = source[field.name]
        values[field.name] = tuple(value) if isinstance(value, list) else value
    return document_type(**values)


def counter_params(counters: dict[str, float]) -> dict[str, int | float]:
    """Validated counter values with their stored types (views arrive as floats from the port)."""
    unknown = sorted(set(counters) - set(COUNTER_TYPES))
    if unknown:
        raise ValueError(f"unknown tour counters: {', '.join(unknown)}")
    return {name: COUNTER_TYPES[name](value) for name, value in counters.items()}


def checked_vector(tour_id: int, vector: list[float]) -> list[float]:
    if len(vector) != VECTOR_DIMS:
        raise ValueError(f"tour {tour_id}: a vector has {VECTOR_DIMS} dimensions, got {len(vector)}")
    if not any(vector):
        # Cosine similarity is undefined for the zero vector; Elasticsearch rejects it.
        raise ValueError(f"tour {tour_id}: the zero vector has no direction")
    return [float(value) for value in vector]
