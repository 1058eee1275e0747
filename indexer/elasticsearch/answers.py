"""Elasticsearch responses as the port's answers. Pure functions over response dicts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from indexer.cards import MapPoint, ad_card, creator_card, map_point, tour_card
from indexer.documents import AdDocument, CreatorDocument, TourDocument
from indexer.elasticsearch.queries import expansion_zoom, suggest_score
from indexer.elasticsearch.sources import document_from_source
from indexer.queries import Cluster, Page, Suggestion, SuggestKind, TagCount, TagPage

Response = Mapping[str, Any]


def hits_of(response: Response) -> list[dict[str, Any]]:
    return list(response["hits"]["hits"])


def total_of(response: Response) -> int:
    """`hits.total` is {value, relation} (exact with track_total_hits: true); older shapes are a number."""
    total = response["hits"]["total"]
    return int(total["value"] if isinstance(total, Mapping) else total)


def tour_documents(response: Response) -> list[TourDocument]:
    return [document_from_source(TourDocument, hit["_source"]) for hit in hits_of(response)]


def tour_page(response: Response, total: int | None = None) -> Page:
    """The hits as cards; `total` when counted by another search (similar tours), else hits.total."""
    docs = tour_documents(response)
    counted = total_of(response) if total is None else total
    return Page(ids=[doc.id for doc in docs], total=counted, docs=[tour_card(doc) for doc in docs])


def creator_page(response: Response) -> Page:
    docs = [document_from_source(CreatorDocument, hit["_source"]) for hit in hits_of(response)]
    return Page(ids=[doc.id for doc in docs], total=total_of(response), docs=[creator_card(doc) for doc in docs])


def ad_page(response: Response) -> Page:
    """Ads are not counted (track_total_hits: false): the total is the ads returned, as embedded."""
    docs = [document_from_source(AdDocument, hit["_source"]) for hit in hits_of(response)]
    return Page(ids=[doc.id for doc in docs], total=len(docs), docs=[ad_card(doc) for doc in docs])


def map_points(response: Response) -> list[MapPoint]:
    return [map_point(doc) for doc in tour_documents(response)]


def hit_ids(response: Response) -> list[int]:
    return [int(hit["_id"]) for hit in hits_of(response)]


def map_cells(response: Response, precision: int) -> tuple[list[Cluster], list[int]]:
    """Clusters of the cells holding several tours, and the ids of one-tour cells (drawn as points,
    as the embedded adapter draws them)."""
    clusters: list[Cluster] = []
    single_ids: list[int] = []
    for bucket in response["aggregations"]["cells"]["buckets"]:
        if bucket["doc_count"] == 1:
            single_ids.append(int(bucket["first_id"]["value"]))
            continue
        centroid = bucket["centroid"]["location"]
        bounds = bucket["extent"]["bounds"]
        top_left = (bounds["top_left"]["lat"], bounds["top_left"]["lon"])
        bottom_right = (bounds["bottom_right"]["lat"], bounds["bottom_right"]["lon"])
        clusters.append(
            Cluster(
                lat=float(centroid["lat"]),
                lng=float(centroid["lon"]),
                count=int(bucket["doc_count"]),
                expansion_zoom=expansion_zoom(precision, top_left, bottom_right),
                cell=str(bucket["key"]),
            )
        )
    return clusters, single_ids


def _bbox(value: Any) -> tuple[float, float, float, float] | None:
    if not value:
        return None
    west, south, east, north = value
    return float(west), float(south), float(east), float(north)


def suggestion(kind: SuggestKind, source: Mapping[str, Any], typed: str) -> Suggestion:
    """One suggestion per hit, scored like the embedded adapter's (closeness of the name, then weight)."""
    if kind is SuggestKind.TOUR:
        return Suggestion(
            type=kind,
            id=str(source["guid"]),
            text=source["title"],
            creator_id=source.get("creator_id"),
            category=source.get("category_id"),
            score=suggest_score(source["title"], typed, float(source.get("views") or 0)),
        )
    if kind is SuggestKind.CREATOR:
        username = source.get("platform_username")
        text = f"{source['creator_name']} @{username}" if username else source["creator_name"]
        return Suggestion(
            type=kind,
            id=str(source["id"]),
            text=text,
            creator_id=source["id"],
            vt_count=source.get("vt_count"),
            score=suggest_score(text, typed, float(source.get("weight") or 0)),
        )
    if kind is SuggestKind.TAG:
        return Suggestion(
            type=kind,
            id=str(source["id"]),
            text=source["name"],
            vt_count=source.get("vt_count"),
            score=suggest_score(source["name"], typed, float(source.get("vt_count") or 0)),
        )
    return Suggestion(
        type=kind,
        id=str(source["id"]),
        text=source["name"],
        bbox=_bbox(source.get("bbox")),
        center=(float(source["lng"]), float(source["lat"])),
        vt_count=source.get("vt_count"),
        score=suggest_score(source["name"], typed, float(source.get("weight") or 0)),
    )


def ranked_suggestions(answers: list[tuple[SuggestKind, Response]], typed: str, limit: int) -> list[Suggestion]:
    found = [suggestion(kind, hit["_source"], typed) for kind, response in answers for hit in hits_of(response)]
    # sorted() is stable: equal scores keep the order of the kinds asked for.
    return sorted(found, key=lambda item: item.score, reverse=True)[:limit]


def tag_page(response: Response) -> TagPage:
    tags = [
        TagCount(
            id=int(hit["_source"]["id"]),
            name=str(hit["_source"]["name"]),
            vt_count=int(hit["_source"]["vt_count"]),
            topic_type=str(hit["_source"]["topic_type"]),
            topic_id=int(hit["_source"]["topic_id"]),
        )
        for hit in hits_of(response)
    ]
    return TagPage(tags=tags, total=total_of(response))
