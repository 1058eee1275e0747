"""Request bodies of the Elasticsearch adapter: pure functions, no server.

Also checks the mappings in mappings/ against the documents and the queries, since the index is
created with `dynamic: strict`: a document field without a mapping would be rejected, and a query on
a field that is not mapped would silently match nothing.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from indexer.documents import AdDocument, CreatorDocument, PlaceDocument, TagDocument, TourDocument
from indexer.elasticsearch import queries as q
from indexer.elasticsearch.layout import KINDS, index_specs, version_of, versioned_name
from indexer.elasticsearch.sources import (
    ad_source,
    checked_vector,
    counter_params,
    creator_source,
    document_from_source,
    place_source,
    tag_source,
    tour_source,
)
from indexer.queries import (
    MAX_RESULT_WINDOW,
    MAX_SIMILAR_RESULTS,
    TEXT_TOTAL_CAP,
    BBox,
    CreatorQuery,
    FeedQuery,
    MapQuery,
    SavedOrFollowed,
    SimilarQuery,
    Sort,
    SuggestKind,
    SuggestQuery,
    TourFilter,
)


def tour(**changes: Any) -> TourDocument:
    values: dict[str, Any] = {
        "id": 7,
        "guid": "g-7",
        "user_id": 3,
        "creator_id": 11,
        "title": "Eiffel Tower at night",
        "description": "A walk to the top",
        "category_id": 2,
        "subcategory_id": None,
        "media_type_id": 1,
        "vendor_id": 4,
        "country": "FR",
        "city": "Paris",
        "address": "Champ de Mars",
        "address_id": "addr.1",
        "lat": 48.8584,
        "lng": 2.2945,
        "tag_ids": (5, 6),
        "tag_names": ("landmark", "night"),
        "created_at": 1_700_000_000.5,
        "views": 120,
        "likes": 10,
        "saves": 4,
        "shared": 2,
        "trending": 1.5,
        "popular": 0.4,
        "is_featured": True,
        "featured_order": 1,
        "link": "https://example.test/tour/7",
        "preview_picture": "p.jpg",
        "third_party_creator": None,
        "creator_website": None,
        "creator_name": "Studio",
        "platform_username": "studio1",
        "logo": None,
        "img_settings": {"bgColor": "white", "logoScale": 10},
    }
    values.update(changes)
    return TourDocument(**values)


def query_of(body: dict[str, Any]) -> dict[str, Any]:
    query: dict[str, Any] = body["query"]
    return query


def filters_of(body: dict[str, Any]) -> list[dict[str, Any]]:
    filters: list[dict[str, Any]] = query_of(body)["bool"]["filter"]
    return filters


# --------------------------------------------------------------------------- sorts


@pytest.mark.parametrize(
    ("sort", "first"),
    [
        (Sort.AZ, {"title.sort": {"order": "asc"}}),
        (Sort.ZA, {"title.sort": {"order": "desc"}}),
        (Sort.NEWEST, {"created_at": {"order": "desc"}}),
        (Sort.LIKES, {"likes": {"order": "desc"}}),
        (Sort.SAVES, {"saves": {"order": "desc"}}),
        (Sort.SHARES, {"shared": {"order": "desc"}}),
        (Sort.VIEWS, {"views": {"order": "desc"}}),
        (Sort.TRENDING, {"trending": {"order": "desc"}}),
        (Sort.FAVORITE, {"favorite": {"order": "desc"}}),
        (Sort.POPULAR, {"popular": {"order": "desc"}}),
        (Sort.FEATURED, {"featured_order": {"order": "asc", "missing": "_last"}}),
    ],
)
def test_field_sorts_break_ties_by_id_in_the_sort_direction(sort: Sort, first: dict[str, Any]) -> None:
    body = q.feed_body(FeedQuery(sort=sort))
    tie = "asc" if sort is Sort.AZ else "desc"
    assert body["sort"] == [first, {"id": {"order": tie}}]
    assert body["track_total_hits"] is True
    assert body["_source"] == {"excludes": ["vector"]}


def test_every_sort_has_a_body() -> None:
    for sort in Sort:
        body = q.feed_body(FeedQuery(sort=sort, near=(48.0, 2.0)))
        assert body["sort"][-1] == {"id": {"order": "asc" if sort is Sort.AZ else "desc"}}


def test_featured_sort_keeps_featured_tours_only() -> None:
    assert {"term": {"is_featured": True}} in filters_of(q.feed_body(FeedQuery(sort=Sort.FEATURED)))
    assert {"term": {"is_featured": True}} not in filters_of(q.feed_body(FeedQuery(sort=Sort.VIEWS)))


def test_random_sort_is_seeded_function_score_on_the_stable_id() -> None:
    """Review (b): `_seq_no` changes on every counter update, so a visitor's seeded order would
    reshuffle between two pages; the tour id never changes (the embedded index seeds on the guid)."""
    body = q.feed_body(FeedQuery(sort=Sort.RANDOM, seed="visitor-1", filter=TourFilter(categories=(2,))))
    scored = query_of(body)["function_score"]
    assert scored["functions"] == [{"random_score": {"seed": q.seed_number("visitor-1"), "field": "id"}}]
    assert scored["boost_mode"] == "replace"
    assert scored["query"]["bool"]["filter"] == [{"terms": {"category_id": [2]}}]
    assert body["sort"] == [{"_score": {"order": "desc"}}, {"id": {"order": "desc"}}]


def test_seed_number_is_stable_and_differs_by_seed() -> None:
    assert q.seed_number("abc") == q.seed_number("abc")
    assert q.seed_number("abc") != q.seed_number("abd")
    assert 0 <= q.seed_number("") < 2**31


def test_near_me_sorts_by_geo_distance_of_located_tours() -> None:
    body = q.feed_body(FeedQuery(sort=Sort.NEAR_ME, near=(48.85, 2.35)))
    assert body["sort"][0] == {
        "_geo_distance": {
            "location": {"lat": 48.85, "lon": 2.35},
            "order": "asc",
            "unit": "km",
            "distance_type": "arc",
        }
    }
    assert {"exists": {"field": "location"}} in filters_of(body)


def test_near_me_without_a_position_falls_back_to_newest() -> None:
    body = q.feed_body(FeedQuery(sort=Sort.NEAR_ME))
    assert body["sort"][0] == {"created_at": {"order": "desc"}}
    assert filters_of(body) == []


def test_relevance_ranks_title_hits_then_views() -> None:
    body = q.feed_body(FeedQuery(sort=Sort.RELEVANCE, filter=TourFilter(text="eiff tow")))
    should = query_of(body)["bool"]["should"]
    assert should == [
        {
            "constant_score": {
                "filter": {
                    "multi_match": {
                        "query": "eiff tow",
                        "type": "cross_fields",
                        "operator": "and",
                        "fields": ["title.prefix"],
                    }
                },
                "boost": 1.0,
            }
        }
    ]
    assert body["sort"] == [{"_score": {"order": "desc"}}, {"views": {"order": "desc"}}, {"id": {"order": "desc"}}]


def test_paging_and_validation() -> None:
    body = q.feed_body(FeedQuery(limit=48, offset=96))
    assert (body["from"], body["size"]) == (96, 48)
    with pytest.raises(ValueError, match="negative"):
        q.feed_body(FeedQuery(offset=-1))


# --------------------------------------------------------------------------- filters


@pytest.mark.parametrize(
    ("tour_filter", "clause"),
    [
        (TourFilter(categories=(1, 2)), {"terms": {"category_id": [1, 2]}}),
        (TourFilter(subcategories=(9,)), {"terms": {"subcategory_id": [9]}}),
        (TourFilter(countries=("FR", "DE")), {"terms": {"country": ["FR", "DE"]}}),
        (TourFilter(vendors=(4,)), {"terms": {"vendor_id": [4]}}),
        (TourFilter(media_types=(1, 3)), {"terms": {"media_type_id": [1, 3]}}),
        (TourFilter(tags=(5, 6)), {"terms": {"tag_ids": [5, 6]}}),
        (TourFilter(user_ids=(3,)), {"terms": {"user_id": [3]}}),
        (TourFilter(tour_ids=(7, 8)), {"terms": {"id": [7, 8]}}),
        (TourFilter(user_ids=()), {"terms": {"user_id": []}}),
        (TourFilter(tour_ids=()), {"terms": {"id": []}}),
        (TourFilter(featured_only=True), {"term": {"is_featured": True}}),
        (
            TourFilter(bounds=BBox(west=2.0, south=48.0, east=3.0, north=49.0)),
            {
                "geo_bounding_box": {
                    "location": {"top_left": {"lat": 49.0, "lon": 2.0}, "bottom_right": {"lat": 48.0, "lon": 3.0}}
                }
            },
        ),
        (
            TourFilter(text="eiff par"),
            {
                "multi_match": {
                    "query": "eiff par",
                    "type": "cross_fields",
                    "operator": "and",
                    "fields": ["title.prefix^3", "body_prefix"],
                }
            },
        ),
        (
            TourFilter(text='"eiffel tower"'),
            {"multi_match": {"query": "eiffel tower", "type": "phrase", "fields": ["title^3", "body"]}},
        ),
        (
            TourFilter(text="'eiffel tower"),
            {"multi_match": {"query": "eiffel tower", "type": "phrase", "fields": ["title^3", "body"]}},
        ),
    ],
)
def test_each_filter_field_becomes_one_filter_clause(tour_filter: TourFilter, clause: dict[str, Any]) -> None:
    assert filters_of(q.feed_body(FeedQuery(filter=tour_filter))) == [clause]


def test_unset_filter_fields_add_nothing() -> None:
    assert filters_of(q.feed_body(FeedQuery())) == []
    assert filters_of(q.feed_body(FeedQuery(filter=TourFilter(text=" ?! ")))) == []


def test_filters_combine_with_and() -> None:
    body = q.feed_body(FeedQuery(filter=TourFilter(categories=(1,), countries=("FR",), user_ids=(3,), tour_ids=(7,))))
    assert filters_of(body) == [
        {"terms": {"category_id": [1]}},
        {"terms": {"country": ["FR"]}},
        {"terms": {"user_id": [3]}},
        {"terms": {"id": [7]}},
    ]


def test_bounds_crossing_the_antimeridian_become_two_boxes() -> None:
    clause = q.bounds_clause(BBox(west=170.0, south=-20.0, east=-170.0, north=10.0))
    assert clause == {
        "bool": {
            "should": [
                {
                    "geo_bounding_box": {
                        "location": {
                            "top_left": {"lat": 10.0, "lon": 170.0},
                            "bottom_right": {"lat": -20.0, "lon": 180.0},
                        }
                    }
                },
                {
                    "geo_bounding_box": {
                        "location": {
                            "top_left": {"lat": 10.0, "lon": -180.0},
                            "bottom_right": {"lat": -20.0, "lon": -170.0},
                        }
                    }
                },
            ],
            "minimum_should_match": 1,
        }
    }


def test_bounds_past_180_are_wrapped_and_the_whole_world_is_one_box() -> None:
    assert q.bounding_boxes(BBox(west=170.0, south=0.0, east=190.0, north=10.0)) == [
        (170.0, 0.0, 180.0, 10.0),
        (-180.0, 0.0, -170.0, 10.0),
    ]
    assert q.bounding_boxes(BBox(west=-250.0, south=-95.0, east=250.0, north=95.0)) == [(-180.0, -90.0, 180.0, 90.0)]
    assert q.bounding_boxes(BBox(west=-10.0, south=0.0, east=180.0, north=1.0)) == [(-10.0, 0.0, 180.0, 1.0)]


# --------------------------------------------------------------------------- creators and ads


def test_creators_body_filters_text_and_sort() -> None:
    body = q.creators_body(CreatorQuery(text="@stud", countries=("FR",), categories=(2,), user_ids=(3,), sort=Sort.AZ))
    assert query_of(body)["bool"]["filter"] == [
        {"terms": {"countries": ["FR"]}},
        {"terms": {"category_ids": [2]}},
        {"terms": {"user_id": [3]}},
        {
            "multi_match": {
                "query": "stud",
                "type": "cross_fields",
                "operator": "and",
                "fields": ["creator_name.prefix^3", "platform_username.prefix^3", "body_prefix"],
            }
        },
    ]
    assert body["sort"] == [{"creator_name.sort": {"order": "asc"}}, {"id": {"order": "asc"}}]


@pytest.mark.parametrize(
    ("sort", "field"),
    [(Sort.VIEWS, "views"), (Sort.FAVORITE, "followers"), (Sort.POPULAR, "followers"), (Sort.TRENDING, "views")],
)
def test_creator_sorts(sort: Sort, field: str) -> None:
    assert q.creators_body(CreatorQuery(sort=sort))["sort"][0] == {field: {"order": "desc"}}


def test_creator_text_without_words_matches_no_one() -> None:
    assert query_of(q.creators_body(CreatorQuery(text="@!"))) == {"match_none": {}}


def test_ads_are_a_seeded_random_page() -> None:
    body = q.ads_body(3, "s")
    assert query_of(body)["function_score"]["functions"][0]["random_score"] == {
        "seed": q.seed_number("s"),
        "field": "id",
    }
    assert body["size"] == 3


# --------------------------------------------------------------------------- map


def test_map_at_low_zoom_asks_for_coarse_geotiles() -> None:
    world = BBox(west=-180.0, south=-85.0, east=180.0, north=85.0)
    body = q.map_clusters_body(MapQuery(filter=TourFilter(categories=(2,)), bbox=world, zoom=1.4))
    grid = body["aggs"]["cells"]
    assert grid["geotile_grid"] == {"field": "location", "precision": 3, "size": q.MAX_CLUSTER_CELLS}
    assert grid["aggs"] == {
        "centroid": {"geo_centroid": {"field": "location"}},
        "extent": {"geo_bounds": {"field": "location", "wrap_longitude": False}},
        "first_id": {"min": {"field": "id"}},
    }
    assert body["size"] == 0 and body["track_total_hits"] is True
    assert filters_of(body)[0] == {"terms": {"category_id": [2]}}
    assert "geo_bounding_box" in filters_of(body)[1]


def test_map_precision_is_zoom_plus_two_capped_at_twenty() -> None:
    box = BBox(west=2.0, south=48.0, east=2.1, north=48.1)
    assert (
        q.map_clusters_body(MapQuery(filter=TourFilter(), bbox=box, zoom=16.7))["aggs"]["cells"]["geotile_grid"][
            "precision"
        ]
        == 18
    )
    assert (
        q.map_clusters_body(MapQuery(filter=TourFilter(), bbox=box, zoom=21))["aggs"]["cells"]["geotile_grid"][
            "precision"
        ]
        == 20
    )


def test_map_points_body_at_high_zoom() -> None:
    box = BBox(west=2.29, south=48.85, east=2.30, north=48.86)
    body = q.map_points_body(MapQuery(filter=TourFilter(), bbox=box, zoom=17), 12)
    assert body["size"] == 12
    assert body["sort"] == [{"views": {"order": "desc"}}, {"id": {"order": "desc"}}]
    assert filters_of(body) == [q.bounds_clause(box)]


def test_expansion_zoom() -> None:
    # Two tours a few metres apart stay together until deep zooms; far apart ones split at once.
    near = q.expansion_zoom(6, (48.85840, 2.29450), (48.85830, 2.29460))
    assert 14 <= near <= 18
    assert q.expansion_zoom(4, (50.0, -5.0), (40.0, 10.0)) == 3  # apart at level 5 = precision + 1
    assert q.expansion_zoom(4, (10.0, 10.0), (10.0, 10.0)) == q.MAX_CLUSTER_ZOOM
    assert q.expansion_zoom(20, (10.0, 10.0), (10.0, 10.0001)) == q.MAX_CLUSTER_ZOOM


def test_expansion_zoom_is_never_before_the_next_zoom() -> None:
    for precision in range(2, 21):
        assert q.expansion_zoom(precision, (60.0, -100.0), (-60.0, 100.0)) == min(precision - 1, q.MAX_CLUSTER_ZOOM)


# --------------------------------------------------------------------------- suggestions


def test_suggest_plan_by_kind_prefix() -> None:
    assert q.suggest_plan(SuggestQuery(text="#beach")) == ("beach", (SuggestKind.TAG,))
    assert q.suggest_plan(SuggestQuery(text=" @studio ")) == ("studio", (SuggestKind.CREATOR,))
    everything = (SuggestKind.TOUR, SuggestKind.CREATOR, SuggestKind.TAG, SuggestKind.PLACE)
    assert q.suggest_plan(SuggestQuery(text="par")) == ("par", everything)


def test_suggest_tag_body_narrows_by_category_or_media_type() -> None:
    body = q.suggest_body(SuggestKind.TAG, "bea", SuggestQuery(text="#bea", category_id=2, media_type_id=1, limit=5))
    assert filters_of(body) == [
        {"match": {"name.prefix": {"query": "bea", "operator": "and"}}},
        {
            "bool": {
                "should": [
                    {"bool": {"filter": [{"term": {"topic_type": "category"}}, {"term": {"topic_id": 2}}]}},
                    {"bool": {"filter": [{"term": {"topic_type": "media_type"}}, {"term": {"topic_id": 1}}]}},
                ],
                "minimum_should_match": 1,
            }
        },
    ]
    assert body["sort"] == [{"vt_count": {"order": "desc"}}, {"id": {"order": "desc"}}]
    assert body["size"] == 5 * q.SUGGEST_CANDIDATES_PER_SLOT


def test_suggest_creator_tour_and_place_bodies() -> None:
    query = SuggestQuery(text="@stu", category_id=2, media_type_id=1)
    creator = q.suggest_body(SuggestKind.CREATOR, "stu", query)
    assert filters_of(creator) == [
        {
            "multi_match": {
                "query": "stu",
                "type": "cross_fields",
                "operator": "and",
                "fields": ["creator_name.prefix", "platform_username.prefix"],
            }
        }
    ]
    assert creator["sort"][0] == {"weight": {"order": "desc"}}
    tours = q.suggest_body(SuggestKind.TOUR, "eif", query)
    assert filters_of(tours) == [
        {"match": {"title.prefix": {"query": "eif", "operator": "and"}}},
        {"term": {"category_id": 2}},
        {"term": {"media_type_id": 1}},
    ]
    assert tours["sort"][0] == {"views": {"order": "desc"}}
    place = q.suggest_body(SuggestKind.PLACE, "par", query)
    assert filters_of(place) == [{"match": {"name.prefix": {"query": "par", "operator": "and"}}}]


def test_suggest_score_prefers_exact_then_prefix_names() -> None:
    assert q.suggest_score("Paris", "paris", 0) > q.suggest_score("Paris Zoo", "paris", 0)
    assert q.suggest_score("Paris Zoo", "paris", 0) > q.suggest_score("Old Paris", "paris", 0)
    assert q.suggest_score("Paris", "paris", 1000) > q.suggest_score("Paris", "paris", 10)
    assert q.typed_words(" Paris,  Zoo! ") == "paris zoo"


# --------------------------------------------------------------------------- similar


def test_similar_is_knn_with_the_filter_inside() -> None:
    vector = [0.1] * 384
    body = q.similar_body(
        SimilarQuery(vector=vector, limit=12, exclude_ids=(7,), filter=TourFilter(categories=(2,), text="tow"))
    )
    knn = body["knn"]
    assert knn["field"] == "vector"
    assert knn["query_vector"] == vector
    assert (knn["k"], knn["num_candidates"]) == (12, 120)
    assert knn["filter"]["bool"]["filter"][0] == {"terms": {"category_id": [2]}}
    assert knn["filter"]["bool"]["filter"][1]["multi_match"]["query"] == "tow"
    assert knn["filter"]["bool"]["must_not"] == [q.UNLISTED, {"terms": {"id": [7]}}]  # never an unlisted tour
    assert body["size"] == 12 and "query" not in body


def test_similar_candidates_are_bounded_and_vector_required() -> None:
    assert q.similar_body(SimilarQuery(vector=[1.0], limit=2))["knn"]["num_candidates"] == q.KNN_MIN_CANDIDATES
    assert q.similar_body(SimilarQuery(vector=[1.0], limit=5000))["knn"]["num_candidates"] == q.KNN_MAX_CANDIDATES
    with pytest.raises(ValueError, match="vector"):
        q.similar_body(SimilarQuery(vector=[]))


# --------------------------------------------------------------------------- sources and mappings


def mapped_fields(properties: dict[str, Any], prefix: str = "") -> set[str]:
    fields: set[str] = set()
    for name, mapping in properties.items():
        fields.add(prefix + name)
        for sub in mapping.get("fields", {}):
            fields.add(f"{prefix}{name}.{sub}")
        if "properties" in mapping:
            fields |= mapped_fields(mapping["properties"], f"{prefix}{name}.")
    return fields


def sample_documents() -> dict[str, Any]:
    return {
        "tours": tour_source(tour()),
        "creators": creator_source(
            CreatorDocument(
                id=1,
                user_id=3,
                creator_name="Studio",
                platform_username="studio1",
                description="We shoot",
                logo=None,
                img_settings={},
                followers=5,
                vt_count=2,
                views=9,
                likes=1,
                locations=("Paris",),
                countries=("FR",),
                category_ids=(2,),
                created_at=1.0,
                lat=1.0,
                lng=2.0,
            )
        ),
        "ads": ad_source(
            AdDocument(
                id=1, guid="a", user_id=3, title="Ad", preview_picture=None, link="https://x.test", created_at=1.0
            )
        ),
        "tags": tag_source(TagDocument(id=5, name="beach", topic_type="category", topic_id=2, vt_count=3)),
        "places": place_source(
            PlaceDocument(
                id="p1",
                name="Paris",
                kind="place",
                country="FR",
                lat=48.8,
                lng=2.3,
                bbox=(2.2, 48.8, 2.5, 48.9),
                population=2_000_000,
            )
        ),
    }


def test_mapping_files_are_versioned_and_complete() -> None:
    specs = index_specs()
    assert set(specs) == set(KINDS)
    for spec in specs.values():
        assert spec.mappings["dynamic"] == "strict"
        assert spec.settings["number_of_shards"] == 1  # random_score on _seq_no is per shard
        name = versioned_name("touratlas", spec, "20260101000000000000")
        assert version_of(name, "touratlas", spec.kind) == spec.version


def test_every_source_field_is_mapped() -> None:
    specs = index_specs()
    for kind, source in sample_documents().items():
        mapped = mapped_fields(specs[kind].mappings["properties"])
        assert set(source) <= mapped, (kind, set(source) - mapped)
        json.dumps(source)  # what the bulk body will carry


def test_tour_mapping_has_the_required_field_types() -> None:
    properties = index_specs()["tours"].mappings["properties"]
    assert properties["vector"] == {
        "type": "dense_vector",
        "dims": 384,
        "index": True,
        "similarity": "cosine",
        "index_options": {"type": "hnsw", "m": 16, "ef_construction": 100},
    }
    assert properties["location"] == {"type": "geo_point"}
    assert properties["title"]["fields"]["prefix"]["analyzer"] == "prefix_index"
    assert properties["title"]["fields"]["sort"] == {"type": "keyword", "normalizer": "lowercase"}
    for field in ("category_id", "subcategory_id", "country", "vendor_id", "media_type_id", "tag_ids", "user_id"):
        assert properties[field]["type"] == "keyword"
    for field in ("description", "tag_names", "city", "country", "address"):
        assert properties[field]["copy_to"] == ["body", "body_prefix"]


def test_queried_fields_exist_in_the_mappings() -> None:
    specs = index_specs()
    tours = mapped_fields(specs["tours"].mappings["properties"])
    creators = mapped_fields(specs["creators"].mappings["properties"])
    for field, _order in q.TOUR_SORT_FIELDS.values():
        assert field in tours
    for field, _order in q.CREATOR_SORT_FIELDS.values():
        assert field in creators
    for field in [*q.TOUR_PREFIX_FIELDS, *q.TOUR_PHRASE_FIELDS]:
        assert field.split("^")[0] in tours
    for field in [*q.CREATOR_PREFIX_FIELDS, *q.CREATOR_PHRASE_FIELDS]:
        assert field.split("^")[0] in creators
    for kind, field in q.SUGGEST_WEIGHT_FIELDS.items():
        index = {SuggestKind.TOUR: "tours", SuggestKind.CREATOR: "creators"}.get(kind, kind.value + "s")
        assert field in mapped_fields(specs[index].mappings["properties"])


def test_sources_round_trip_to_documents() -> None:
    original = tour()
    source = json.loads(json.dumps({**tour_source(original), "vector": [0.5] * 384}))
    assert source["location"] == {"lat": 48.8584, "lon": 2.2945}
    assert source["favorite"] == 14
    assert document_from_source(TourDocument, source) == original
    unlocated = tour_source(dataclasses.replace(original, lat=None, lng=None))
    assert unlocated["location"] is None


def test_counter_and_vector_validation() -> None:
    assert counter_params({"views": 3.0, "trending": 2}) == {"views": 3, "trending": 2.0}
    assert isinstance(counter_params({"views": 3.0})["views"], int)
    with pytest.raises(ValueError, match="unknown tour counters: favorite"):
        counter_params({"favorite": 1})
    with pytest.raises(ValueError, match="384"):
        checked_vector(1, [0.1] * 3)
    with pytest.raises(ValueError, match="zero vector"):
        checked_vector(1, [0.0] * 384)


# ------------------------------------------------------------------ review against the Elasticsearch 8 reference


@pytest.mark.parametrize("offset", [0, 96, MAX_RESULT_WINDOW - 48, MAX_RESULT_WINDOW - 10, MAX_RESULT_WINDOW, 150_000])
def test_feed_and_creator_pages_never_reach_past_max_result_window(offset: int) -> None:
    """Review (a): `from + size` past `index.max_result_window` is a 400; the page is cut at the
    window, and a page beyond it only counts (from 0, size 0) so the total stays true."""
    inside = max(0, min(48, MAX_RESULT_WINDOW - offset))
    for body in (
        q.feed_body(FeedQuery(limit=48, offset=offset)),
        q.creators_body(CreatorQuery(limit=48, offset=offset)),
    ):
        assert body["from"] + body["size"] <= MAX_RESULT_WINDOW
        assert body["size"] == inside
        assert body["from"] == (offset if inside else 0)
        assert body["track_total_hits"] is True


def test_the_window_is_the_max_result_window_of_the_paged_indices() -> None:
    specs = index_specs()
    for kind in ("tours", "creators"):
        assert specs[kind].settings["max_result_window"] == MAX_RESULT_WINDOW


def test_random_scores_are_seeded_on_a_mapped_numeric_field() -> None:
    """random_score reads the field's doc values: it must be mapped (with doc values) in each index."""
    specs = index_specs()
    for kind, body in (("tours", q.feed_body(FeedQuery(sort=Sort.RANDOM))), ("ads", q.ads_body(3))):
        (function,) = query_of(body)["function_score"]["functions"]
        field = function["random_score"]["field"]
        assert specs[kind].mappings["properties"][field]["type"] == "long"


@pytest.mark.parametrize("limit", [1, 12, 999, 1_000, 5_000, 10_000, 10_001, 12_048, 100_048])
def test_knn_k_never_exceeds_num_candidates_nor_its_ceiling(limit: int) -> None:
    """Review (c): For You asks offset + limit neighbours; k > num_candidates (or num_candidates >
    10,000) is an Elasticsearch error. k is cut at MAX_SIMILAR_RESULTS and For You pages within it."""
    body = q.similar_body(SimilarQuery(vector=[1.0], limit=limit))
    knn = body["knn"]
    assert 1 <= knn["k"] <= knn["num_candidates"] <= q.KNN_MAX_CANDIDATES == MAX_SIMILAR_RESULTS
    assert knn["k"] == min(limit, MAX_SIMILAR_RESULTS)
    assert body["size"] == knn["k"]


def test_saves_and_follows_filter_by_followed_users_or_saved_tours() -> None:
    """Review (d): the followed creators' user ids, not every one of their tour ids, in the request."""
    either = SavedOrFollowed(followed_user_ids=(3, 4), saved_tour_ids=(7, 9))
    body = q.feed_body(FeedQuery(filter=TourFilter(categories=(2,), saved_or_followed=either)))
    assert filters_of(body) == [
        {"terms": {"category_id": [2]}},
        {"bool": {"should": [{"terms": {"user_id": [3, 4]}}, {"terms": {"id": [7, 9]}}], "minimum_should_match": 1}},
    ]
    assert filters_of(q.feed_body(FeedQuery(filter=TourFilter(saved_or_followed=SavedOrFollowed())))) == [
        {"match_none": {}}
    ]


def test_id_lists_longer_than_max_terms_count_are_split() -> None:
    """`index.max_terms_count` (65,536) bounds one `terms` query; a longer list (a heavy saver's
    tours) becomes several, any of which may match."""
    ids = tuple(range(1, q.MAX_TERMS_COUNT * 2 + 10))
    (clause,) = filters_of(q.feed_body(FeedQuery(filter=TourFilter(tour_ids=ids))))
    parts = clause["bool"]["should"]
    assert clause["bool"]["minimum_should_match"] == 1
    assert all(len(part["terms"]["id"]) <= q.MAX_TERMS_COUNT for part in parts)
    assert [value for part in parts for value in part["terms"]["id"]] == list(ids)
    excluded = q.similar_body(SimilarQuery(vector=[1.0], limit=5, exclude_ids=ids))["knn"]["filter"]["bool"]["must_not"]
    assert excluded[0] == q.UNLISTED
    assert all(len(part["terms"]["id"]) <= q.MAX_TERMS_COUNT for part in excluded[1:])


def test_total_hits_are_counted_only_as_far_as_the_answer_uses_them() -> None:
    """Review (h): exact where the API returns an exact `total_items`, bounded at the README's 1,000
    for text searches, not at all where the answer does not read the total."""
    box = BBox(west=2.0, south=48.0, east=3.0, north=49.0)
    map_query = MapQuery(filter=TourFilter(), bbox=box, zoom=10)
    assert q.feed_body(FeedQuery())["track_total_hits"] is True
    assert q.feed_body(FeedQuery(filter=TourFilter(text="eiff")))["track_total_hits"] == TEXT_TOTAL_CAP
    near = FeedQuery(filter=TourFilter(text="eiff"), sort=Sort.NEAR_ME, near=(48.0, 2.0))
    assert q.feed_body(near)["track_total_hits"] is True  # Near Me counts text matches exactly, as embedded
    assert q.creators_body(CreatorQuery())["track_total_hits"] is True
    assert q.map_clusters_body(map_query)["track_total_hits"] is True  # points or clusters, and the map's total
    assert q.map_points_body(map_query, 12)["track_total_hits"] is False
    assert q.tours_by_ids_body([1, 2])["track_total_hits"] is False
    assert q.ads_body(3)["track_total_hits"] is False
    assert q.similar_body(SimilarQuery(vector=[1.0], limit=5))["track_total_hits"] is False
    assert q.suggest_body(SuggestKind.TOUR, "eif", SuggestQuery(text="eif"))["track_total_hits"] is False


def test_similar_candidates_are_counted_up_to_the_ranking_window() -> None:
    """Review (i): similar().total counts the tours the ranking draws from (filter passed, not
    excluded, with an embedding), up to MAX_SIMILAR_RESULTS, the same on both adapters."""
    query = SimilarQuery(vector=[1.0], limit=5, exclude_ids=(7,), filter=TourFilter(categories=(2,)))
    body = q.similar_count_body(query)
    assert body["size"] == 0
    assert body["track_total_hits"] == MAX_SIMILAR_RESULTS
    assert query_of(body)["bool"]["filter"] == [{"terms": {"category_id": [2]}}, {"exists": {"field": "vector"}}]
    assert query_of(body)["bool"]["must_not"] == [q.UNLISTED, {"terms": {"id": [7]}}]
