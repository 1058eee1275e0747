"""One contract for every SearchIndex adapter: the same cases, the same expected answers, computed
here in plain Python from the documents."""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import replace
from typing import Any

import pytest

import indexer.queries as port_queries
from indexer.documents import AdDocument, CreatorDocument, PlaceDocument, TagDocument, TourDocument
from indexer.geo import haversine_km
from indexer.port import SearchIndex
from indexer.queries import (
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

CITIES = [
    ("Paris", "FR", 48.8566, 2.3522),
    ("Lyon", "FR", 45.764, 4.8357),
    ("Berlin", "DE", 52.52, 13.405),
    ("Tokyo", "JP", 35.6762, 139.6503),
    ("Sydney", "AU", -33.8688, 151.2093),
    ("Fiji Suva", "FJ", -18.1248, 178.4501),
    ("Apia", "WS", -13.8333, -171.75),
    ("New York", "US", 40.7128, -74.006),
]
WORDS = ["castle", "harbour", "museum", "garden", "cathedral", "canyon", "market", "lighthouse"]
TAG_NAMES = {1: "Sunset", 2: "Architecture", 3: "Nature", 4: "Night", 5: "Drone"}


def make_tours(count: int = 240) -> list[TourDocument]:
    rng = random.Random(7)
    docs = []
    for number in range(1, count + 1):
        city, country, lat, lng = CITIES[number % len(CITIES)]
        word = WORDS[number % len(WORDS)]
        tags = tuple(sorted(rng.sample(sorted(TAG_NAMES), k=rng.randint(1, 3))))
        views = int(rng.paretovariate(1.2) * 10)
        docs.append(
            TourDocument(
                id=number,
                guid=f"g{number:05d}",
                user_id=100 + number % 12,
                creator_id=number % 12 or None,
                title=f"{word.title()} of {city} #{number:03d}",
                description=f"A 360 walk through the {word} in {city}",
                category_id=1 + number % 4,
                subcategory_id=10 + number % 3,
                media_type_id=1 + number % 2,
                vendor_id=1 + number % 5,
                country=country,
                city=city,
                address=f"{city}, {country}",
                address_id=None,
                lat=lat + rng.uniform(-0.05, 0.05),
                lng=max(-180.0, min(180.0, lng + rng.uniform(-0.05, 0.05))),
                tag_ids=tags,
                tag_names=tuple(TAG_NAMES[tag] for tag in tags),
                created_at=1_700_000_000 + number * 3_600 + (number % 7) * 86_400,
                views=views,
                likes=rng.randint(0, 50),
                saves=rng.randint(0, 30),
                shared=rng.randint(0, 10),
                trending=rng.random(),
                popular=rng.random(),
                is_featured=number % 20 == 0,
                featured_order=number // 20 if number % 20 == 0 else None,
                link=f"https://kuula.co/share/{number:05d}",
                preview_picture=f"/uploads/demo/previews/{number % 9}.jpg",
                third_party_creator=None,
                creator_website=None,
                creator_name=f"Creator {number % 12}",
                platform_username=f"creator{number % 12}",
                logo=None,
            )
        )
    return docs


def make_creators() -> list[CreatorDocument]:
    return [
        CreatorDocument(
            id=number,
            user_id=100 + number,
            creator_name=name,
            platform_username=name.lower().replace(" ", "_"),
            description="",
            logo=None,
            img_settings={"bgColor": "black", "logoScale": 10},
            followers=number * 3,
            vt_count=20,
            views=1000 - number,
            likes=number,
            locations=(CITIES[number % len(CITIES)][0],),
            countries=(CITIES[number % len(CITIES)][1],),
            category_ids=(1 + number % 4,),
            created_at=1_700_000_000 + number,
            # The Full Profile fields (mapping creators.v2): every one set on some creator.
            trusted=number % 2 == 0,
            services=("Drone", "Matterport scans")[: number % 3],
            website=f"https://{name.lower().replace(' ', '')}.example" if number != 3 else None,
            instagram=f"https://instagram.com/c{number}" if number % 2 else None,
            twitter="https://x.com/blue" if number == 2 else None,
            youtube="https://youtube.com/@blue" if number == 2 else None,
            facebook="https://facebook.com/blue" if number == 2 else None,
            linkedin="https://linkedin.com/in/blue" if number == 2 else None,
            default_view="map" if number == 2 else "grid",
            joined_fb_group=number == 2,
        )
        for number, name in enumerate(["Alpine Views", "Blue Lens", "City Scans", "Deep Dive 360", "Echo Tours"], 1)
    ]


TAGS = [
    TagDocument(id=tag_id, name=name, topic_type="category", topic_id=1 + tag_id % 4, vt_count=5)
    for tag_id, name in TAG_NAMES.items()
]
PLACES = [
    PlaceDocument(
        id="country:FR",
        name="France",
        kind="country",
        country="FR",
        lat=46.6,
        lng=2.4,
        bbox=(-5.1, 41.3, 9.6, 51.1),
        population=67_000_000,
    ),
    PlaceDocument(
        id="place:2988507",
        name="Paris",
        kind="place",
        country="FR",
        lat=48.8566,
        lng=2.3522,
        bbox=None,
        population=2_100_000,
    ),
    PlaceDocument(
        id="place:2950159",
        name="Berlin",
        kind="place",
        country="DE",
        lat=52.52,
        lng=13.405,
        bbox=None,
        population=3_400_000,
    ),
]
ADS = [
    AdDocument(
        id=n,
        guid=f"ad{n}",
        user_id=100,
        title=f"Ad {n}",
        preview_picture=None,
        link=f"https://example.com/{n}",
        created_at=1_700_000_000,
    )
    for n in range(1, 4)
]


@pytest.fixture
def corpus(index: SearchIndex) -> list[TourDocument]:
    docs = make_tours()
    index.rebuild(
        tours=sorted(docs, key=lambda d: (-d.views, -d.id)), creators=make_creators(), ads=ADS, tags=TAGS, places=PLACES
    )
    return docs


def expected_ids(docs: list[TourDocument], keep: Any, key: Any) -> list[int]:
    return [doc.id for doc in sorted((doc for doc in docs if keep(doc)), key=key)]


SORT_KEYS: dict[Sort, Any] = {
    Sort.AZ: lambda d: (d.title.lower(), d.id),
    Sort.NEWEST: lambda d: (-d.created_at, -d.id),
    Sort.LIKES: lambda d: (-d.likes, -d.id),
    Sort.SAVES: lambda d: (-d.saves, -d.id),
    Sort.SHARES: lambda d: (-d.shared, -d.id),
    Sort.VIEWS: lambda d: (-d.views, -d.id),
    Sort.TRENDING: lambda d: (-d.trending, -d.id),
    Sort.POPULAR: lambda d: (-d.popular, -d.id),
    Sort.FAVORITE: lambda d: (-(d.likes + d.saves), -d.id),
}


@pytest.mark.parametrize("sort", list(SORT_KEYS))
def test_every_sort_orders_the_whole_corpus(index: SearchIndex, corpus: list[TourDocument], sort: Sort) -> None:
    page = index.feed(FeedQuery(sort=sort, limit=48, offset=48))
    assert page.total == len(corpus)
    assert page.ids == expected_ids(corpus, lambda d: True, SORT_KEYS[sort])[48:96]
    assert [doc["id"] for doc in page.docs] == page.ids


def test_za_is_reverse_title_order(index: SearchIndex, corpus: list[TourDocument]) -> None:
    titles = [doc["title"].lower() for doc in index.feed(FeedQuery(sort=Sort.ZA, limit=100)).docs]
    assert titles == sorted(titles, reverse=True)


FILTERS: list[tuple[str, TourFilter, Any]] = [
    ("categories", TourFilter(categories=(2,)), lambda d: d.category_id == 2),
    ("two categories", TourFilter(categories=(1, 3)), lambda d: d.category_id in (1, 3)),
    ("subcategories", TourFilter(subcategories=(11,)), lambda d: d.subcategory_id == 11),
    ("countries", TourFilter(countries=("FR", "JP")), lambda d: d.country in ("FR", "JP")),
    ("vendors", TourFilter(vendors=(3,)), lambda d: d.vendor_id == 3),
    ("media types", TourFilter(media_types=(2,)), lambda d: d.media_type_id == 2),
    ("tags: any of", TourFilter(tags=(4, 5)), lambda d: bool({4, 5} & set(d.tag_ids))),
    ("text prefix", TourFilter(text="cathed"), lambda d: "cathedral" in d.title.lower()),
    ("text two words", TourFilter(text="harbour syd"), lambda d: "harbour" in d.title.lower() and d.city == "Sydney"),
    ("text in tags", TourFilter(text="drone"), lambda d: 5 in d.tag_ids),
    ("exact phrase", TourFilter(text="'museum of tokyo"), lambda d: d.title.lower().startswith("museum of tokyo")),
    ("bounds", TourFilter(bounds=BBox(west=-1, south=44, east=6, north=50)), lambda d: d.country == "FR"),
    (
        "antimeridian",
        TourFilter(bounds=BBox(west=170, south=-30, east=-160, north=0)),
        lambda d: d.country in ("FJ", "WS"),
    ),
    ("user ids", TourFilter(user_ids=(101, 102)), lambda d: d.user_id in (101, 102)),
    ("tour ids", TourFilter(tour_ids=(5, 6, 7, 999)), lambda d: d.id in (5, 6, 7)),
    (
        "saved or followed",
        TourFilter(saved_or_followed=SavedOrFollowed(followed_user_ids=(101, 102), saved_tour_ids=(5, 6, 999))),
        lambda d: d.user_id in (101, 102) or d.id in (5, 6),
    ),
    (
        "followed only",
        TourFilter(saved_or_followed=SavedOrFollowed(followed_user_ids=(103,))),
        lambda d: d.user_id == 103,
    ),
    ("saved only", TourFilter(saved_or_followed=SavedOrFollowed(saved_tour_ids=(8, 9))), lambda d: d.id in (8, 9)),
    ("neither saved nor followed", TourFilter(saved_or_followed=SavedOrFollowed()), lambda d: False),
    (
        "saved or followed, in a category",
        TourFilter(categories=(2,), saved_or_followed=SavedOrFollowed(followed_user_ids=(101,), saved_tour_ids=(4, 5))),
        lambda d: d.category_id == 2 and (d.user_id == 101 or d.id in (4, 5)),
    ),
    ("featured only", TourFilter(featured_only=True), lambda d: d.is_featured),
    (
        "combined",
        TourFilter(categories=(1, 2), countries=("FR",), tags=(1,)),
        lambda d: d.category_id in (1, 2) and d.country == "FR" and 1 in d.tag_ids,
    ),
    ("nothing matches", TourFilter(countries=("ZZ",)), lambda d: False),
]


@pytest.mark.parametrize(("name", "tour_filter", "keep"), FILTERS, ids=[case[0] for case in FILTERS])
def test_filters(index: SearchIndex, corpus: list[TourDocument], name: str, tour_filter: TourFilter, keep: Any) -> None:
    page = index.feed(FeedQuery(filter=tour_filter, sort=Sort.VIEWS, limit=500))
    expected = expected_ids(corpus, keep, SORT_KEYS[Sort.VIEWS])
    assert page.ids == expected
    assert page.total == len(expected)


def test_featured_sort_follows_featured_order(index: SearchIndex, corpus: list[TourDocument]) -> None:
    page = index.feed(FeedQuery(sort=Sort.FEATURED, limit=100))
    assert page.ids == expected_ids(corpus, lambda d: d.is_featured, lambda d: (d.featured_order, -d.id))


def test_pages_never_repeat_and_cover_everything(index: SearchIndex, corpus: list[TourDocument]) -> None:
    for sort in (Sort.NEWEST, Sort.VIEWS, Sort.RANDOM, Sort.AZ):
        seen: list[int] = []
        for offset in range(0, 300, 48):
            seen += index.feed(FeedQuery(sort=sort, limit=48, offset=offset, seed="session-1")).ids
        assert len(seen) == len(set(seen)) == len(corpus), sort


def test_random_is_stable_for_a_seed_and_differs_between_seeds(index: SearchIndex, corpus: list[TourDocument]) -> None:
    first = index.feed(FeedQuery(sort=Sort.RANDOM, limit=48, seed="abc")).ids
    again = index.feed(FeedQuery(sort=Sort.RANDOM, limit=48, seed="abc")).ids
    other = index.feed(FeedQuery(sort=Sort.RANDOM, limit=48, seed="xyz")).ids
    assert first == again
    assert first != other


def test_near_me_orders_by_distance(index: SearchIndex, corpus: list[TourDocument]) -> None:
    here = (48.85, 2.35)
    page = index.feed(FeedQuery(sort=Sort.NEAR_ME, near=here, limit=60))
    by_id = {doc.id: doc for doc in corpus}
    distances = [haversine_km(*here, by_id[i].lat, by_id[i].lng) for i in page.ids]  # type: ignore[arg-type]
    assert len(page.ids) == 60
    assert all(a <= b + 1.0 for a, b in itertools.pairwise(distances))
    assert by_id[page.ids[0]].city == "Paris"


def test_upsert_delete_and_counters_reach_queries(index: SearchIndex, corpus: list[TourDocument]) -> None:
    changed = replace(corpus[0], title="Zeppelin hangar", views=10**6)
    index.upsert_tours([changed])
    top = index.feed(FeedQuery(sort=Sort.VIEWS, limit=1))
    assert top.ids == [changed.id] and top.docs[0]["title"] == "Zeppelin hangar"
    assert index.feed(FeedQuery(filter=TourFilter(text="zeppelin"), limit=5)).ids == [changed.id]
    index.update_counters({corpus[1].id: {"views": 10**7, "likes": 3}})
    top = index.feed(FeedQuery(sort=Sort.VIEWS, limit=1))
    assert top.ids == [corpus[1].id] and top.docs[0]["views"] == 10**7
    index.update_counters({corpus[2].id: {"likes": 10**6}, corpus[3].id: {"saves": 10**6 + 1}})
    assert index.feed(FeedQuery(sort=Sort.FAVORITE, limit=2)).ids == [corpus[3].id, corpus[2].id]
    index.delete_tours([corpus[1].id, changed.id])
    assert corpus[1].id not in index.feed(FeedQuery(sort=Sort.VIEWS, limit=500)).ids
    assert index.document_count() == len(corpus) - 2


def test_new_tour_is_listed_and_counted(index: SearchIndex, corpus: list[TourDocument]) -> None:
    new = replace(corpus[5], id=10_000, guid="new", title="Brand new tower", created_at=1_900_000_000)
    index.upsert_tours([new])
    page = index.feed(FeedQuery(sort=Sort.NEWEST, limit=1))
    assert page.ids == [10_000] and page.total == len(corpus) + 1


def test_map_world_view_clusters_everything(index: SearchIndex, corpus: list[TourDocument]) -> None:
    answer = index.map_area(MapQuery(filter=TourFilter(), bbox=BBox(-180, -85, 180, 85), zoom=1, max_points=50))
    assert answer.total == len(corpus)
    assert sum(cluster.count for cluster in answer.clusters) + len(answer.points) == len(corpus)
    assert len(answer.clusters) + len(answer.points) <= 64
    for cluster in answer.clusters:
        assert 1 < cluster.expansion_zoom <= 18


def test_map_category_clusters_and_city_points(index: SearchIndex, corpus: list[TourDocument]) -> None:
    answer = index.map_area(
        MapQuery(filter=TourFilter(categories=(1,)), bbox=BBox(-180, -85, 180, 85), zoom=2, max_points=10)
    )
    assert sum(c.count for c in answer.clusters) + len(answer.points) == sum(1 for d in corpus if d.category_id == 1)
    paris = BBox(west=2.2, south=48.7, east=2.5, north=48.95)
    city = index.map_area(MapQuery(filter=TourFilter(), bbox=paris, zoom=12, max_points=500))
    assert city.clusters == []
    assert sorted(point["id"] for point in city.points) == sorted(d.id for d in corpus if d.city == "Paris")
    point = city.points[0]
    assert {"id", "guid", "title", "lat", "lng", "category_id", "media_type_id"} <= set(point)


def test_map_filters_other_than_category_group_live(index: SearchIndex, corpus: list[TourDocument]) -> None:
    answer = index.map_area(MapQuery(filter=TourFilter(tags=(2,)), bbox=BBox(-180, -85, 180, 85), zoom=1, max_points=5))
    assert sum(c.count for c in answer.clusters) + len(answer.points) == sum(1 for d in corpus if 2 in d.tag_ids)


def test_map_pyramid_follows_upserts_and_deletes(index: SearchIndex, corpus: list[TourDocument]) -> None:
    world = MapQuery(filter=TourFilter(), bbox=BBox(-180, -85, 180, 85), zoom=0, max_points=5)
    before = index.map_area(world)
    index.delete_tours([corpus[0].id])
    moved = replace(corpus[1], lat=-54.8, lng=-68.3)  # to Ushuaia
    index.upsert_tours([moved])
    after = index.map_area(world)
    assert sum(c.count for c in after.clusters) + len(after.points) == len(corpus) - 1
    assert after.total == before.total - 1


@pytest.mark.parametrize("categories", [(), (1,)], ids=["no filter", "category"])
def test_a_city_view_shows_an_added_tour_and_drops_a_removed_one(
    index: SearchIndex, corpus: list[TourDocument], categories: tuple[int, ...]
) -> None:
    """Zoom 12 over Paris, clustered (max_points 0) and as points: the tile pyramid's city levels
    follow single writes."""
    paris = BBox(west=2.2, south=48.7, east=2.5, north=48.95)

    def shown(max_points: int) -> set[int] | int:
        answer = index.map_area(
            MapQuery(filter=TourFilter(categories=categories), bbox=paris, zoom=12, max_points=max_points)
        )
        if max_points:
            return {point["id"] for point in answer.points}
        return sum(cluster.count for cluster in answer.clusters) + len(answer.points)

    in_paris = [d for d in corpus if d.city == "Paris" and (not categories or d.category_id in categories)]
    assert shown(0) == len(in_paris) and shown(500) == {d.id for d in in_paris}
    added = replace(in_paris[0], id=7_000, guid="city-new", lat=48.8584, lng=2.2945)  # the Eiffel Tower
    index.upsert_tours([added])
    assert shown(0) == len(in_paris) + 1 and shown(500) == {d.id for d in in_paris} | {7_000}
    index.delete_tours([in_paris[1].id, 7_000])
    assert shown(0) == len(in_paris) - 1 and shown(500) == {d.id for d in in_paris[2:]} | {in_paris[0].id}


def test_suggest_tags_creators_places_and_tours(index: SearchIndex, corpus: list[TourDocument]) -> None:
    tags = index.suggest(SuggestQuery(text="#sun"))
    assert [(s.type, s.text) for s in tags] == [(SuggestKind.TAG, "Sunset")]
    assert index.suggest(SuggestQuery(text="#SUNSET"))[0].id == "1"
    creators = index.suggest(SuggestQuery(text="@blue"))
    assert [s.text.split(" @")[0] for s in creators] == ["Blue Lens"] and creators[0].creator_id == 2
    places = index.suggest(SuggestQuery(text="par", kinds=(SuggestKind.PLACE,)))
    assert places[0].text == "Paris" and places[0].center == (2.3522, 48.8566)
    tours = index.suggest(SuggestQuery(text="lighth", kinds=(SuggestKind.TOUR,), limit=5))
    assert tours and all("lighthouse" in s.text.lower() for s in tours)
    assert index.suggest(SuggestQuery(text="#zzzz")) == []


def test_tag_suggestions_narrow_by_topic(index: SearchIndex, corpus: list[TourDocument]) -> None:
    # Tag 1 (Sunset) belongs to category 2 in TAGS; asking within category 3 must not return it.
    assert index.suggest(SuggestQuery(text="#sun", category_id=2))
    assert index.suggest(SuggestQuery(text="#sun", category_id=3)) == []


def test_creators_query(index: SearchIndex, corpus: list[TourDocument]) -> None:
    everyone = index.creators(CreatorQuery(sort=Sort.VIEWS, limit=10))
    assert everyone.total == 5 and everyone.ids == [1, 2, 3, 4, 5]
    assert index.creators(CreatorQuery(text="deep", limit=10)).ids == [4]
    assert index.creators(CreatorQuery(sort=Sort.AZ, limit=2, offset=1)).ids == [2, 3]
    assert set(index.creators(CreatorQuery(countries=("DE",), limit=10)).ids) == {2}


def test_a_creator_document_keeps_the_card_and_full_profile_fields(
    index: SearchIndex, corpus: list[TourDocument]
) -> None:
    creators = make_creators()
    assert index.outdated() == []
    for creator in creators:
        assert index.creator_document(creator.id) == creator
    assert index.creator_document(99) is None

    # An approved edit arrives as a whole new document: every field follows it, the card too.
    edited = replace(
        creators[1], creator_name="Blue Lens Studio", services=("Aerial",), website=None, twitter=None, trusted=False
    )
    index.upsert_creators([edited])
    assert index.creator_document(2) == edited
    card = next(doc for doc in index.creators(CreatorQuery(limit=10)).docs if doc["id"] == 2)
    assert card["creator_name"] == "Blue Lens Studio"

    index.delete_creators([2])
    assert index.creator_document(2) is None


def test_ads_rotate_with_the_seed(index: SearchIndex, corpus: list[TourDocument]) -> None:
    ads = index.ads(limit=2, seed="x")
    assert len(ads.ids) == 2 and all(doc["type"] == "ad" for doc in ads.docs)


def test_similar_returns_nearest_vectors(index: SearchIndex, corpus: list[TourDocument]) -> None:
    rng = random.Random(3)
    vectors = {doc.id: [rng.gauss(0, 1) for _ in range(384)] for doc in corpus[:100]}
    index.set_vectors(vectors)
    target = vectors[corpus[10].id]
    page = index.similar(SimilarQuery(vector=target, limit=5, exclude_ids=(corpus[10].id,)))

    def cosine(a: list[float], b: list[float]) -> float:
        return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))

    expected = sorted((i for i in vectors if i != corpus[10].id), key=lambda i: -cosine(vectors[i], target))[:5]
    assert page.ids == expected
    only_fr = index.similar(SimilarQuery(vector=target, limit=50, filter=TourFilter(countries=("FR",))))
    by_id = {doc.id: doc for doc in corpus}
    assert only_fr.ids and all(by_id[i].country == "FR" for i in only_fr.ids)


def test_similar_total_counts_the_candidates_up_to_the_ranking_window(
    index: SearchIndex, corpus: list[TourDocument], monkeypatch: pytest.MonkeyPatch
) -> None:
    """similar().total is how many tours the ranking draws from (they pass the filter, are not
    excluded and have an embedding), counted up to MAX_SIMILAR_RESULTS; `limit` is cut there too."""
    rng = random.Random(5)
    with_vectors = corpus[:100]
    index.set_vectors({doc.id: [rng.gauss(0, 1) for _ in range(384)] for doc in with_vectors})
    target = [rng.gauss(0, 1) for _ in range(384)]
    page = index.similar(SimilarQuery(vector=target, limit=5, exclude_ids=(corpus[10].id, 999_999)))
    assert len(page.ids) == 5 and page.total == len(with_vectors) - 1
    french = index.similar(SimilarQuery(vector=target, limit=5, filter=TourFilter(countries=("FR",))))
    assert french.total == sum(1 for doc in with_vectors if doc.country == "FR")
    monkeypatch.setattr(port_queries, "MAX_SIMILAR_RESULTS", 20)
    capped = index.similar(SimilarQuery(vector=target, limit=50))
    assert len(capped.ids) == 20 and capped.total == 20


def test_no_page_reaches_past_the_result_window(
    index: SearchIndex, corpus: list[TourDocument], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages stop at MAX_RESULT_WINDOW (Elasticsearch's max_result_window) on every adapter: a page
    across it is cut, one beyond it is empty, and the total stays the true count."""
    queries = [
        FeedQuery(sort=Sort.VIEWS),
        FeedQuery(sort=Sort.RANDOM, seed="s"),
        FeedQuery(sort=Sort.NEAR_ME, near=(48.85, 2.35)),
        FeedQuery(sort=Sort.AZ, filter=TourFilter(text="of")),
    ]
    whole = [index.feed(replace(query, limit=len(corpus))) for query in queries]
    monkeypatch.setattr(port_queries, "MAX_RESULT_WINDOW", 100)
    for query, full in zip(queries, whole, strict=True):
        cut = index.feed(replace(query, limit=48, offset=80))
        assert cut.ids == full.ids[80:100] and cut.total == full.total, query
        assert [doc["id"] for doc in cut.docs] == cut.ids
        beyond = index.feed(replace(query, limit=48, offset=100))
        assert beyond.ids == [] and beyond.total == full.total, query
    monkeypatch.setattr(port_queries, "MAX_RESULT_WINDOW", 3)
    creators = index.creators(CreatorQuery(sort=Sort.VIEWS, limit=10))
    assert creators.ids == [1, 2, 3] and creators.total == 5


def test_a_whole_underscored_name_is_found(index: SearchIndex, corpus: list[TourDocument]) -> None:
    index.upsert_tours([replace(corpus[0], id=30_000, guid="underscored", title="Rooftops with john_smith")])
    assert index.feed(FeedQuery(filter=TourFilter(text="john_smith"), limit=5)).ids == [30_000]


@pytest.mark.known_gap(
    "elasticsearch",
    reason="text analysis differs: the standard tokenizer keeps john_smith one token (UAX #29 joins words "
    "across _), the embedded index's unicode61 tokenizer splits it, so only there does 'smith' find it",
)
def test_a_word_inside_an_underscored_name_is_found(index: SearchIndex, corpus: list[TourDocument]) -> None:
    index.upsert_tours([replace(corpus[0], id=30_000, guid="underscored", title="Rooftops with john_smith")])
    assert index.feed(FeedQuery(filter=TourFilter(text="smith"), limit=5)).ids == [30_000]


def test_reset_empties_everything(index: SearchIndex, corpus: list[TourDocument]) -> None:
    index.reset()
    assert index.document_count() == 0
    assert index.feed(FeedQuery()).total == 0
    assert index.health().startswith("ok")


def test_near_me_through_tile_neighbourhoods(
    index: SearchIndex, corpus: list[TourDocument], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Large candidate sets take the tile-neighbourhood path; its order must match the whole-set sort."""
    import indexer.embedded.feed as feed_planner

    query = FeedQuery(sort=Sort.NEAR_ME, near=(35.6, 139.7), limit=20, offset=10)
    whole = index.feed(query)
    monkeypatch.setattr(feed_planner, "NEAR_SORT_WHOLE_SET", 0)
    monkeypatch.setattr(feed_planner, "NEAR_SORT_WHOLE_SET_IN_KEY", 0)
    assert index.feed(query).ids == whole.ids


def test_small_candidate_sets_sort_like_large_ones(
    index: SearchIndex, corpus: list[TourDocument], monkeypatch: pytest.MonkeyPatch
) -> None:
    import indexer.embedded.feed as feed_planner

    queries = [
        FeedQuery(filter=TourFilter(tags=(2,), countries=("FR", "JP")), sort=sort, limit=15, offset=5)
        for sort in (Sort.NEWEST, Sort.AZ, Sort.LIKES)
    ]
    # Random's rotation, pages on either side of its turn and across it.
    queries += [
        FeedQuery(
            filter=TourFilter(tags=(2,), countries=("FR", "JP")), sort=Sort.RANDOM, limit=7, offset=offset, seed=seed
        )
        for offset in (0, 7, 14, 21)
        for seed in ("a", "b")
    ]
    queries.append(FeedQuery(filter=TourFilter(text="museum"), sort=Sort.VIEWS, limit=10))
    driven = [index.feed(query).ids for query in queries]
    monkeypatch.setattr(feed_planner, "CANDIDATE_SORT_LIMIT", 0)
    assert [index.feed(query).ids for query in queries] == driven


def _by_distance(docs: list[TourDocument], here: tuple[float, float], keep: Any) -> list[int]:
    located = [doc for doc in docs if keep(doc) and doc.lat is not None and doc.lng is not None]
    return [doc.id for doc in sorted(located, key=lambda d: (haversine_km(*here, d.lat, d.lng), -d.id))]  # type: ignore[arg-type]


NEAR_CASES: list[tuple[str, tuple[float, float], TourFilter, Any]] = [
    ("no filter", (48.85, 2.35), TourFilter(), lambda d: True),
    ("a far country", (48.85, 2.35), TourFilter(countries=("US",)), lambda d: d.country == "US"),
    ("far countries", (48.85, 2.35), TourFilter(countries=("AU", "JP")), lambda d: d.country in ("AU", "JP")),
    (
        "category and a far country",
        (48.85, 2.35),
        TourFilter(categories=(2,), countries=("JP",)),
        lambda d: d.category_id == 2 and d.country == "JP",
    ),
    (
        "categories and countries, all far away",
        (-33.9, 151.2),
        TourFilter(categories=(1, 4), countries=("US", "FR", "DE")),
        lambda d: d.category_id in (1, 4) and d.country in ("US", "FR", "DE"),
    ),
    ("category", (40.0, -70.0), TourFilter(categories=(3,)), lambda d: d.category_id == 3),
    ("across the antimeridian", (-18.1, 178.4), TourFilter(countries=("WS",)), lambda d: d.country == "WS"),
    ("from the far south", (-80.0, -100.0), TourFilter(countries=("FR", "DE")), lambda d: d.country in ("FR", "DE")),
    ("a country without tours", (48.85, 2.35), TourFilter(countries=("ZZ",)), lambda d: False),
]


@pytest.mark.parametrize(("name", "here", "tour_filter", "keep"), NEAR_CASES, ids=[case[0] for case in NEAR_CASES])
def test_near_me_orders_any_filter_by_great_circle_distance(
    index: SearchIndex,
    corpus: list[TourDocument],
    name: str,
    here: tuple[float, float],
    tour_filter: TourFilter,
    keep: Any,
) -> None:
    """Nearest first along the sphere (then id descending), whether the filter's tours sit next to the
    visitor or on the other side of the world, and pages continue each other."""
    expected = _by_distance(corpus, here, keep)
    first = index.feed(FeedQuery(filter=tour_filter, sort=Sort.NEAR_ME, near=here, limit=7))
    second = index.feed(FeedQuery(filter=tour_filter, sort=Sort.NEAR_ME, near=here, limit=7, offset=7))
    assert first.ids + second.ids == expected[:14]
    assert first.total == len(expected)
    assert [doc["id"] for doc in first.docs] == first.ids


@pytest.mark.parametrize("probe_rows", [1, 5, 64])
@pytest.mark.parametrize(("name", "here", "tour_filter", "keep"), NEAR_CASES, ids=[case[0] for case in NEAR_CASES])
def test_near_me_tile_walk_matches_the_whole_set_sort(
    index: SearchIndex,
    corpus: list[TourDocument],
    monkeypatch: pytest.MonkeyPatch,
    probe_rows: int,
    name: str,
    here: tuple[float, float],
    tour_filter: TourFilter,
    keep: Any,
) -> None:
    """Large candidate sets walk the Morton quadtree (embedded index); small tiles read at once, or
    split down to single tours, give the order of the plain sort, deep pages included."""
    import indexer.embedded.feed as feed_planner
    import indexer.embedded.nearby as nearby

    monkeypatch.setattr(feed_planner, "NEAR_SORT_WHOLE_SET", 0)
    monkeypatch.setattr(feed_planner, "NEAR_SORT_WHOLE_SET_IN_KEY", 0)
    monkeypatch.setattr(nearby, "PROBE_ROWS", probe_rows)
    expected = _by_distance(corpus, here, keep)
    for offset in (0, 40):
        page = index.feed(FeedQuery(filter=tour_filter, sort=Sort.NEAR_ME, near=here, limit=25, offset=offset))
        assert page.ids == expected[offset : offset + 25]
        assert page.total == len(expected)


def test_near_me_orders_tours_at_one_spot_by_id(
    index: SearchIndex, corpus: list[TourDocument], monkeypatch: pytest.MonkeyPatch
) -> None:
    """More tours at one point than a tile probe takes: the deepest tile is read whole, ties by id."""
    import indexer.embedded.feed as feed_planner
    import indexer.embedded.nearby as nearby

    monkeypatch.setattr(feed_planner, "NEAR_SORT_WHOLE_SET", 0)
    monkeypatch.setattr(feed_planner, "NEAR_SORT_WHOLE_SET_IN_KEY", 0)
    monkeypatch.setattr(nearby, "PROBE_ROWS", 2)
    spot = [replace(corpus[0], id=20_000 + n, guid=f"spot{n}", lat=-33.0, lng=151.0, country="AU") for n in range(6)]
    index.upsert_tours(spot)
    page = index.feed(FeedQuery(filter=TourFilter(countries=("AU",)), sort=Sort.NEAR_ME, near=(-33.0, 151.0), limit=8))
    assert page.ids[:6] == [20_005, 20_004, 20_003, 20_002, 20_001, 20_000]
    assert page.ids[6:] == _by_distance(corpus, (-33.0, 151.0), lambda d: d.country == "AU")[:2]


@pytest.mark.parametrize("probe_rows", [1, 64])
def test_near_me_with_category_and_country_follows_adds_moves_and_removals(
    index: SearchIndex, corpus: list[TourDocument], monkeypatch: pytest.MonkeyPatch, probe_rows: int
) -> None:
    """Category + country walks its own Morton key on the embedded index (ix_tours_country_cat_cell):
    tours added into the pair, moved out of it (another country, another category), made unlisted or
    removed must reach that key as they reach the plain sort, for a visitor far from the country."""
    import indexer.embedded.feed as feed_planner
    import indexer.embedded.nearby as nearby

    monkeypatch.setattr(feed_planner, "NEAR_SORT_WHOLE_SET", 0)
    monkeypatch.setattr(feed_planner, "NEAR_SORT_WHOLE_SET_IN_KEY", 0)
    monkeypatch.setattr(nearby, "PROBE_ROWS", probe_rows)
    here, tour_filter = (48.85, 2.35), TourFilter(categories=(2, 4), countries=("JP", "US"))
    in_pair = [doc for doc in corpus if doc.category_id in (2, 4) and doc.country in ("JP", "US")]
    # Into the pair, and (category 1, the same spots) beside it: the walk must tell them apart.
    added = [
        replace(corpus[0], id=30_000 + n, guid=f"pair{n}", category_id=2 - n % 2, country="JP", lat=35 + n / 9, lng=139)
        for n in range(8)
    ]
    moved_country = replace(in_pair[0], country="FR", lat=48.0, lng=2.0)
    moved_category = replace(in_pair[1], category_id=1)
    hidden = replace(in_pair[2], unlisted=True)
    index.upsert_tours([*added, moved_country, moved_category, hidden])
    index.delete_tours([in_pair[3].id, added[4].id])
    changed = {doc.id: doc for doc in (moved_country, moved_category, hidden)}
    docs = [changed.get(doc.id, doc) for doc in corpus if doc.id != in_pair[3].id] + added[:4] + added[5:]

    def keep(doc: TourDocument) -> bool:
        return doc.category_id in (2, 4) and doc.country in ("JP", "US") and not doc.unlisted

    expected = _by_distance(docs, here, keep)
    for offset in (0, 25):
        page = index.feed(FeedQuery(filter=tour_filter, sort=Sort.NEAR_ME, near=here, limit=25, offset=offset))
        assert page.ids == expected[offset : offset + 25]
        assert page.total == len(expected)
