"""The deterministic demo corpus: accounts, creators, tours at real places, engagement and ads.

Everything is drawn from `random.Random` generators seeded with (seed, section), so the same seed
and sizes give the same rows, and the people do not change when only the number of tours does.
Rows are plain dicts keyed by column name, with explicit ids (offset past what the database holds),
so the loader can insert them with SQLAlchemy Core in batches. Tours are produced as a stream of
batches: a million tours never live in memory at once.

Engagement rows (likes, saves, views) are written for the first `engagement_rows_up_to` tours and
their counters equal their rows; beyond that, counters are synthetic (power-law) so that a huge
corpus loads in minutes.
"""

from __future__ import annotations

import math
import random
import re
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from app.classifications.dictionaries import (
    CAPTURE_DEVICES,
    CATEGORIES,
    TAGS,
    TOPIC_CATEGORY,
    VENDORS,
    CategorySpec,
    VendorSpec,
    normalise_link,
)
from demo import texts
from demo.images import PREVIEWS_PER_CATEGORY, logo_url, preview_url
from demo.places import Address, City, city_picker, country_names, make_address
from indexer.scores import ENGAGEMENT_WEIGHTS, TRENDING_WINDOW_HOURS, decayed_weight, trending_score

DEFAULT_SEED = 20261122
CORPUS_SPAN = timedelta(days=730)  # tours are spread over the two years before the anchor

ADMIN_EMAIL, ADMIN_PASSWORD = "admin@touratlas.local", "Admin123!"
CM_EMAIL, CM_PASSWORD = "cm@touratlas.local", "Content123!"
DEMO_EMAIL, DEMO_PASSWORD = "demo@touratlas.local", "Demo123!"
# Every other demo account (creators and members) signs in with the demo user's password.
MEMBER_PASSWORD = DEMO_PASSWORD
MEMBER_EMAIL_DOMAIN = "example.com"  # reserved for documentation (RFC 2606): never a real inbox

# Shares of tours by kind of owner; the rest are added by the CM account for third-party creators.
CREATOR_TOUR_SHARE = 0.85
MEMBER_TOUR_SHARE = 0.12
DRAFT_SHARE, PENDING_SHARE, REJECTED_SHARE = 0.05, 0.03, 0.005
FEATURED_TOURS = 24
# Older tours (a month or more) whose audience comes back lately: the Trending feed's own.
REVIVAL_SHARE = 0.1
# Tours whose description ends with hashtags of their tags.
HASHTAG_SHARE = 0.3
MAX_FEATURED_PER_CREATOR = 10

Row = dict[str, Any]
T = TypeVar("T")


def default_anchor() -> datetime:
    """Today at midnight UTC: the corpus's 'now', so its dates stay fresh but a day's runs agree."""
    return datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


@dataclass(frozen=True, slots=True)
class CorpusConfig:
    tours: int = 2000
    creators: int = 100
    plain_users: int = 300
    ads: int = 12
    seed: int = DEFAULT_SEED
    anchor: datetime = field(default_factory=default_anchor)
    engagement_rows_up_to: int = 2000
    previews_per_category: int = PREVIEWS_PER_CATEGORY


@dataclass(frozen=True, slots=True)
class DictionaryIds:
    """Database ids of the dictionary rows, by natural key."""

    categories: Mapping[str, int]
    subcategories: Mapping[tuple[str, str], int]  # (category name, subcategory name)
    media_types: Mapping[str, int]
    vendors: Mapping[str, int]
    capture_devices: Mapping[str, int]
    tags: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class IdOffsets:
    """Ids already used in the target tables; generated ids start right after them."""

    users: int = 0
    creators: int = 0
    tours: int = 0
    ads: int = 0


@dataclass(slots=True)
class Account:
    id: int
    email: str
    first_name: str
    last_name: str
    username: str
    created_at: datetime
    password: str = MEMBER_PASSWORD
    is_admin: bool = False
    roles: tuple[str, ...] = ()
    trusted: bool = False
    profile_img: str | None = None


@dataclass(slots=True)
class CreatorPlan:
    id: int
    number: int  # 1-based position in the corpus; names the logo file whatever the database ids are
    account: Account
    name: str
    handle: str  # lowercase, used in the website, socials and Cupix team names
    city: City
    focus: tuple[CategorySpec, ...]
    favourite_vendors: tuple[VendorSpec, ...]
    weight: float  # share of creator tours (Zipf over creators)
    featured_quota: int

    @property
    def logo_key(self) -> str:
        return f"creator-{self.number:04d}"

    @property
    def website(self) -> str:
        return f"https://{self.handle}.example"


@dataclass(frozen=True, slots=True)
class _Pulse:
    """When a tour's likes, saves and views happen (DemoCorpus._pulse)."""

    created_at: datetime
    fade_days: float  # the mean delay of an interaction after publication
    revival: datetime | None  # a late second wind starts here, if the tour has one
    revival_share: float  # the share of its interactions in that second wind


@dataclass(slots=True)
class TourBatch:
    """Rows of one batch of tours, by table, in insertion order (parents first)."""

    tours: list[Row] = field(default_factory=list)
    tour_tags: list[Row] = field(default_factory=list)
    creator_featured_tours: list[Row] = field(default_factory=list)
    tour_likes: list[Row] = field(default_factory=list)
    tour_saves: list[Row] = field(default_factory=list)
    tour_views: list[Row] = field(default_factory=list)
    analytics_events: list[Row] = field(default_factory=list)

    def tables(self) -> list[tuple[str, list[Row]]]:
        return [
            ("tours", self.tours),
            ("tour_tags", self.tour_tags),
            ("creator_featured_tours", self.creator_featured_tours),
            ("tour_likes", self.tour_likes),
            ("tour_saves", self.tour_saves),
            ("tour_views", self.tour_views),
            ("analytics_events", self.analytics_events),
        ]


@dataclass(slots=True)
class _TourRun:
    """What one pass over the tours remembers: the featured tours so far, platform-wide and per creator."""

    creator_weights: list[float]
    featured: int = 0
    featured_by_creator: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class _TourDraft:
    owner: Account
    creator: CreatorPlan | None
    category: CategorySpec
    subcategory: str
    vendor: VendorSpec
    media_type: str
    device: str | None
    address: Address
    words: texts.TourWords

    @property
    def slug(self) -> str:
        return texts.slugify(self.words.title.split(" — ")[0], 40)

    @property
    def team(self) -> str:
        # A Cupix workspace is named after its owner.
        return self.creator.handle if self.creator else "touratlas-demo"


# --- unique, random-looking link tokens --------------------------------------------------------------------

ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
BASE64_URL = ALPHANUMERIC + "-_"
LOWER_ALPHANUMERIC = "0123456789abcdefghijklmnopqrstuvwxyz"
HEX = "0123456789abcdef"
DIGITS = "0123456789"


class TokenMint:
    """Unique, random-looking tokens without remembering any.

    The last characters are the index through an affine bijection modulo alphabet**k (multiplier
    coprime with the space), so two indexes never share them; the first characters are random. k is
    the least length whose space holds UNIQUE_INDEXES, i.e. unique for corpora up to ten million tours.
    """

    UNIQUE_INDEXES = 10_000_000

    def __init__(self, seed: int) -> None:
        self._seed = seed
        self._parameters_by_space: dict[tuple[int, str], tuple[int, int]] = {}

    def token(self, index: int, alphabet: str, length: int, salt: str, rng: random.Random) -> str:
        unique_length = min(length, self._unique_length(len(alphabet)))
        random_part = "".join(rng.choice(alphabet) for _ in range(length - unique_length))
        return random_part + self._encode(index, alphabet, unique_length, salt)

    def number(self, index: int, digits: int, salt: str, rng: random.Random) -> int:
        """A `digits`-digit number without a leading zero."""
        return int(str(rng.randint(1, 9)) + self.token(index, DIGITS, digits - 1, salt, rng))

    def _unique_length(self, base: int) -> int:
        length = 1
        while base**length < self.UNIQUE_INDEXES:
            length += 1
        return length

    def _encode(self, index: int, alphabet: str, length: int, salt: str) -> str:
        space = len(alphabet) ** length
        multiplier, offset = self._parameters(space, salt)
        value = (index * multiplier + offset) % space
        characters = []
        for _ in range(length):
            value, digit = divmod(value, len(alphabet))
            characters.append(alphabet[digit])
        return "".join(reversed(characters))

    def _parameters(self, space: int, salt: str) -> tuple[int, int]:
        key = (space, salt)
        if key not in self._parameters_by_space:
            multiplier = int(space * 0.6180339887) | 1  # a golden-ratio stride scatters consecutive indexes
            while math.gcd(multiplier, space) != 1:
                multiplier += 2
            self._parameters_by_space[key] = (multiplier, random.Random(f"{self._seed}:token:{salt}").randrange(space))
        return self._parameters_by_space[key]


@dataclass(frozen=True, slots=True)
class LinkContext:
    index: int
    slug: str
    lat: float
    lng: float
    team: str


LinkMaker = Callable[[TokenMint, LinkContext, random.Random], str]


def _matterport(mint: TokenMint, ctx: LinkContext, rng: random.Random) -> str:
    return f"https://my.matterport.com/show/?m={mint.token(ctx.index, ALPHANUMERIC, 11, 'mp', rng)}"


def _cupix(mint: TokenMint, ctx: LinkContext, rng: random.Random) -> str:
    return f"https://{ctx.team}.cupix.works/sv/{mint.token(ctx.index, LOWER_ALPHANUMERIC, 8, 'cx', rng)}"


def _street_view(mint: TokenMint, ctx: LinkContext, rng: random.Random) -> str:
    camera = f"3a,75y,{rng.randint(0, 359)}h,90t"
    pano = mint.token(ctx.index, BASE64_URL, 22, "sv", rng)
    return f"https://www.google.com/maps/@{ctx.lat:.7f},{ctx.lng:.7f},{camera}/data=!3m6!1e1!3m4!1s{pano}!2e0!7i16384!8i8192"


def _youtube(mint: TokenMint, ctx: LinkContext, rng: random.Random) -> str:
    video = mint.token(ctx.index, BASE64_URL, 11, "yt", rng)
    return f"https://youtu.be/{video}" if rng.random() < 0.3 else f"https://www.youtube.com/watch?v={video}"


def _vimeo(mint: TokenMint, ctx: LinkContext, rng: random.Random) -> str:
    return f"https://vimeo.com/{mint.number(ctx.index, 9, 'vm', rng)}"


def _veer(mint: TokenMint, ctx: LinkContext, rng: random.Random) -> str:
    return f"https://veer.tv/videos/{ctx.slug}-{mint.number(ctx.index, 8, 'vr', rng)}"


def _sketchfab(mint: TokenMint, ctx: LinkContext, rng: random.Random) -> str:
    return f"https://sketchfab.com/3d-models/{ctx.slug}-{mint.token(ctx.index, HEX, 32, 'sf', rng)}"


def _kuula(mint: TokenMint, ctx: LinkContext, rng: random.Random) -> str:
    return f"https://kuula.co/share/{mint.token(ctx.index, ALPHANUMERIC, 5, 'ku', rng)}"


def _roundme(mint: TokenMint, ctx: LinkContext, rng: random.Random) -> str:
    return f"https://roundme.com/tour/{mint.number(ctx.index, 8, 'rm', rng)}/view/{rng.randint(1_000_000, 9_999_999)}/"


def _momento360(mint: TokenMint, ctx: LinkContext, rng: random.Random) -> str:
    return f"https://momento360.com/e/u/{mint.token(ctx.index, HEX, 32, 'mo', rng)}"


def _360cities(mint: TokenMint, ctx: LinkContext, rng: random.Random) -> str:
    return f"https://www.360cities.net/image/{ctx.slug}-{mint.token(ctx.index, LOWER_ALPHANUMERIC, 7, 'c3', rng)}"


# A share link in each host's real format, unique per tour index (by vendor slug).
LINK_MAKERS: dict[str, LinkMaker] = {
    "matterport": _matterport,
    "cupix": _cupix,
    "google-street-view": _street_view,
    "youtube-360": _youtube,
    "vimeo-360": _vimeo,
    "veer-vr": _veer,
    "sketchfab": _sketchfab,
    "kuula": _kuula,
    "roundme": _roundme,
    "momento360": _momento360,
    "360cities": _360cities,
}

# How often each host appears, before a category's preferred media types narrow the choice.
VENDOR_WEIGHTS: dict[str, float] = {
    "Matterport": 22,
    "Kuula": 16,
    "YouTube 360": 12,
    "Google Street View": 10,
    "Sketchfab": 7,
    "360Cities": 6,
    "Momento360": 6,
    "Roundme": 6,
    "Vimeo 360": 5,
    "Cupix": 4,
    "Veer VR": 3,
}
CATEGORY_WEIGHTS: dict[str, float] = {
    "Real Estate": 14,
    "Hotels & Resorts": 8,
    "Travel & Tourism": 8,
    "Landmarks": 7,
    "Nature & Parks": 7,
    "Museums & Galleries": 5,
    "Historic Sites": 5,
    "Restaurants & Bars": 4,
    "Religious Sites": 4,
    "Architecture": 4,
    "Cultural Heritage": 4,
    "Aerial": 4,
    "Events & Venues": 3,
    "Education": 3,
    "Retail": 3,
    "Sports": 3,
    "Entertainment": 3,
    "Offices & Coworking": 3,
    "Underwater": 2,
    "Transportation": 2,
    "Industrial": 2,
    "Healthcare": 2,
    "Science & Space": 2,
}


def _weighted_sample(rng: random.Random, items: Sequence[T], weights: Sequence[float], k: int) -> list[T]:
    """k distinct items, each drawn with probability growing with its weight (Efraimidis-Spirakis)."""
    keyed = sorted(((rng.random() ** (1.0 / weight), index) for index, weight in enumerate(weights)), reverse=True)
    return [items[index] for _, index in keyed[:k]]


def _guid(rng: random.Random) -> str:
    return uuid.UUID(int=rng.getrandbits(128), version=4).hex


def _between(rng: random.Random, start: datetime, end: datetime) -> datetime:
    if end <= start:
        return start
    return start + (end - start) * rng.random()


class People:
    """The accounts and creators of a corpus: they depend on the seed and sizes, never on the tours."""

    def __init__(self, config: CorpusConfig, offsets: IdOffsets = IdOffsets()) -> None:
        self.config = config
        self.offsets = offsets
        self._places = city_picker()
        self._used_usernames: set[str] = set()
        self.admin, self.content_manager, self.demo_user = self._plan_staff()
        self.creators = self._plan_creators()
        self.members = self._plan_members()

    def logo_requests(self) -> list[tuple[str, str]]:
        """(file key, creator name) of every creator logo the corpus refers to."""
        return [(plan.logo_key, plan.name) for plan in self.creators]

    def _rng(self, section: str) -> random.Random:
        return random.Random(f"{self.config.seed}:{section}")

    def _user_id(self, index: int) -> int:
        return self.offsets.users + 1 + index

    def _plan_staff(self) -> tuple[Account, Account, Account]:
        founded = self.config.anchor - timedelta(days=900)
        admin = Account(
            self._user_id(0),
            ADMIN_EMAIL,
            "Ada",
            "Admin",
            self._username("touratlas_admin"),
            founded,
            password=ADMIN_PASSWORD,
            is_admin=True,
            trusted=True,
        )
        content_manager = Account(
            self._user_id(1),
            CM_EMAIL,
            "Carla",
            "Content",
            self._username("content_manager"),
            founded,
            password=CM_PASSWORD,
            roles=("CM",),
            trusted=True,
        )
        demo = Account(
            self._user_id(2),
            DEMO_EMAIL,
            "Dana",
            "Demo",
            self._username("demo_user"),
            self.config.anchor - timedelta(days=400),
            password=DEMO_PASSWORD,
        )
        return admin, content_manager, demo

    def _plan_creators(self) -> list[CreatorPlan]:
        rng = self._rng("creators")
        used_names: set[str] = set()
        used_handles: set[str] = set()
        ranks = list(range(self.config.creators))
        rng.shuffle(ranks)  # popularity is not the order of creation
        plans = []
        for index in range(self.config.creators):
            first, last = rng.choice(texts.FIRST_NAMES), rng.choice(texts.LAST_NAMES)
            city = self._places.pick(rng)
            name = _unique(texts.creator_name(rng, first, last, city.name), used_names)
            handle = _unique(texts.slugify(name, 20).replace("-", ""), used_handles, separator="")
            account = Account(
                id=self._user_id(3 + index),
                email=f"{handle}@{MEMBER_EMAIL_DOMAIN}",
                first_name=first,
                last_name=last,
                username=self._username(handle),
                created_at=self.config.anchor - CORPUS_SPAN - timedelta(days=rng.uniform(10, 200)),
                trusted=rng.random() < 0.4,
            )
            plan = CreatorPlan(
                id=self.offsets.creators + 1 + index,
                number=index + 1,
                account=account,
                name=name,
                handle=handle,
                city=city,
                focus=tuple(rng.sample(CATEGORIES, k=rng.randint(1, 3))),
                favourite_vendors=tuple(rng.sample(VENDORS, k=rng.randint(1, 2))),
                weight=1.0 / (ranks[index] + 1) ** 0.9,
                featured_quota=rng.choice((0, 3, 4, 5, 6, 8, MAX_FEATURED_PER_CREATOR)),
            )
            account.profile_img = logo_url(plan.logo_key)
            plans.append(plan)
        return plans

    def _plan_members(self) -> list[Account]:
        rng = self._rng("members")
        used: set[str] = set()
        members = []
        first_index = 3 + self.config.creators
        for index in range(self.config.plain_users):
            first, last = rng.choice(texts.FIRST_NAMES), rng.choice(texts.LAST_NAMES)
            handle = _unique(texts.slugify(f"{first}.{last}", 18).replace("-", "."), used, separator="")
            members.append(
                Account(
                    id=self._user_id(first_index + index),
                    email=f"{handle}@{MEMBER_EMAIL_DOMAIN}",
                    first_name=first,
                    last_name=last,
                    username=self._username(handle.replace(".", "_")),
                    created_at=self.config.anchor - CORPUS_SPAN * rng.random() ** 0.8,
                )
            )
        return members

    def _username(self, handle: str) -> str:
        return _unique(_platform_username(handle), self._used_usernames, separator="")


class DemoCorpus:
    """Plans the people once, then yields rows table by table."""

    def __init__(
        self,
        config: CorpusConfig,
        ids: DictionaryIds,
        offsets: IdOffsets = IdOffsets(),
        hash_password: Callable[[str], str] | None = None,
    ) -> None:
        self.config = config
        self.ids = ids
        self.offsets = offsets
        self._hash_password = hash_password or _argon2_hash
        self._hashes: dict[str, str] = {}
        self._mint = TokenMint(config.seed)
        self._places = city_picker()
        self._countries = country_names()
        self._tags_by_topic = _tags_by_topic()
        self._tag_names = {tag_id: name for name, tag_id in ids.tags.items()}
        self.people = people = People(config, offsets)
        self.admin, self.content_manager, self.demo_user = people.admin, people.content_manager, people.demo_user
        self.creators, self.members = people.creators, people.members
        # Who likes, saves and views: every account except the admin and the CM account.
        self.engaging_users = [self.demo_user, *(plan.account for plan in self.creators), *self.members]

    def _rng(self, section: str) -> random.Random:
        return random.Random(f"{self.config.seed}:{section}")

    # --- people ----------------------------------------------------------------------------------------------

    def user_rows(self) -> list[Row]:
        accounts = [
            self.admin,
            self.content_manager,
            self.demo_user,
            *(plan.account for plan in self.creators),
            *self.members,
        ]
        rng = self._rng("user-rows")
        return [self._user_row(rng, account) for account in accounts]

    def _user_row(self, rng: random.Random, account: Account) -> Row:
        is_creator = account.profile_img is not None
        return {
            "id": account.id,
            "email": account.email.lower(),
            "password_hash": self._password_hash(account.password),
            "first_name": account.first_name,
            "last_name": account.last_name,
            "phone": f"+1555{rng.randint(1000000, 9999999)}" if rng.random() < 0.3 else None,
            "platform_username": account.username,
            "auth_system": "email",
            "user_system_id": None,
            "is_admin": account.is_admin,
            "roles": list(account.roles),
            "potential_creator": is_creator,
            "is_active": True,
            "user_active": True,
            "is_deleted": False,
            "deleted_at": None,
            "user_settings": {"imageScale": 10, "bgColor": "white"},
            "guide_steps": {"completeGuide": account.is_admin or is_creator or rng.random() < 0.6},
            "profile_img": account.profile_img,
            "consent_emails": rng.random() < 0.5,
            "trusted": account.trusted,
            "editing_creator_pending": False,
            "profile_edit_pending": False,
            "tour_edit_pending": False,
            "token_version": 0,
            "last_location": None,
            "created_at": account.created_at,
            "updated_at": account.created_at,
        }

    def _password_hash(self, password: str) -> str:
        # Hashing is deliberately slow; every account sharing a password shares one (salted) hash.
        if password not in self._hashes:
            self._hashes[password] = self._hash_password(password)
        return self._hashes[password]

    def creator_rows(self) -> list[Row]:
        rng = self._rng("creator-rows")
        return [self._creator_row(rng, plan) for plan in self.creators]

    def _creator_row(self, rng: random.Random, plan: CreatorPlan) -> Row:
        country = self._countries.get(plan.city.country_code, "")
        socials = {
            "social_instagram": f"https://www.instagram.com/{plan.handle}",
            "social_twitter": f"https://x.com/{plan.handle}",
            "social_youtube": f"https://www.youtube.com/@{plan.handle}",
            "social_facebook": f"https://www.facebook.com/{plan.handle}",
            "social_linkedin": f"https://www.linkedin.com/company/{plan.handle}",
        }
        area = [
            plan.city.name,
            *(self._places.pick_in(rng, plan.city.country_code).name for _ in range(rng.randint(0, 3))),
        ]
        return {
            "id": plan.id,
            "user_id": plan.account.id,
            "creator_name": plan.name,
            "description": texts.creator_bio(
                rng, name=plan.name, city=plan.city.name, country=country, focus=[c.name for c in plan.focus]
            ),
            "logo": logo_url(plan.logo_key),
            "trusted": plan.account.trusted,
            "services": rng.sample(texts.SERVICES, k=rng.randint(2, 5)),
            "website": plan.website,
            "phone": f"+1555{rng.randint(1000000, 9999999)}" if rng.random() < 0.5 else None,
            "contact_email": f"hello@{plan.handle}.example",
            **{key: (url if rng.random() < 0.6 else None) for key, url in socials.items()},
            "area_served": [*dict.fromkeys(area), country] if country else list(dict.fromkeys(area)),
            "default_view": "map" if rng.random() < 0.25 else "grid",
            "img_settings": {"bgColor": rng.choice(("black", "white")), "logoScale": 10, "profileScale": 10},
            "is_active": True,
            "joined_fb_group": rng.random() < 0.3,
            "views": 0,  # the counters are set from the loaded rows once the tours are in
            "likes": 0,
            "followers": 0,
            "vt_count": 0,
            "created_at": plan.account.created_at,
            "updated_at": plan.account.created_at,
        }

    def interest_rows(self) -> list[Row]:
        rng = self._rng("interests")
        rows: list[Row] = []
        for account in [self.demo_user, *self.members]:
            count = 5 if account is self.demo_user else (rng.randint(1, 6) if rng.random() < 0.5 else 0)
            for position, category in enumerate(rng.sample(CATEGORIES, k=count)):
                rows.append(
                    {"user_id": account.id, "category_id": self.ids.categories[category.name], "position": position}
                )
        return rows

    def follow_rows(self) -> list[Row]:
        rng = self._rng("follows")
        weights = [plan.weight for plan in self.creators]
        rows: list[Row] = []
        for account in self.engaging_users:
            count = (
                8
                if account is self.demo_user
                else min(len(self.creators), int(rng.paretovariate(1.6)) - 1 + rng.randint(0, 3))
            )
            for plan in _weighted_sample(rng, self.creators, weights, count):
                if plan.account.id != account.id:
                    since = max(account.created_at, plan.account.created_at)
                    rows.append(
                        {
                            "user_id": account.id,
                            "creator_id": plan.id,
                            "created_at": _between(rng, since, self.config.anchor),
                        }
                    )
        return rows

    # --- tours -------------------------------------------------------------------------------------------------

    def tour_batches(self, batch_size: int = 5000) -> Iterator[TourBatch]:
        """The tours in batches of `batch_size`, each with its tags, featured slots and engagement."""
        rng = self._rng("tours")
        run = _TourRun(creator_weights=[plan.weight for plan in self.creators])
        batch = TourBatch()
        for index in range(self.config.tours):
            batch.tours.append(self._tour(rng, index, run, batch))
            if len(batch.tours) >= batch_size:
                yield batch
                batch = TourBatch()
        if batch.tours:
            yield batch

    def _tour(self, rng: random.Random, index: int, run: _TourRun, batch: TourBatch) -> Row:
        tour_id = self.offsets.tours + 1 + index
        draft = self._draft(rng, run)
        ctx = LinkContext(index, draft.slug, draft.address.lat, draft.address.lng, draft.team)
        link = LINK_MAKERS[draft.vendor.slug](self._mint, ctx, rng)
        created_at = self._tour_created_at(rng, draft.owner)
        status, approval = self._moderation_state(rng)
        listed = status == "active" and approval == "approved"
        engaged = (len(batch.tour_likes), len(batch.tour_saves), len(batch.tour_views))
        counters = self._engagement(rng, index, tour_id, draft.owner, created_at, batch) if listed else _zero_counters()
        trending = counters.pop("trending", 0.0)
        if listed:
            creator_id = draft.creator.id if draft.creator else None
            batch.analytics_events.extend(_analytics_events(batch, engaged, creator_id))
        featured_order = self._featured_order(rng, run, listed)
        if listed and draft.creator is not None:
            batch.creator_featured_tours.extend(self._creator_featured(run, draft.creator, tour_id))
        tag_rows = self._tour_tags(rng, tour_id, draft.category.name, draft.media_type)
        batch.tour_tags.extend(tag_rows)
        hashtags = self._hashtags(rng, tag_rows)
        return {
            "id": tour_id,
            "guid": _guid(rng),
            **self._classification_columns(draft, hashtags),
            "link": link,
            "link_normalised": normalise_link(link),
            "preview_picture": preview_url(draft.category.slug, rng.randrange(self.config.previews_per_category)),
            "vt_website": self._vt_website(rng, draft, index),
            **self._third_party(rng, draft.owner),
            "is_ai_generated": rng.random() < 0.02,
            **_address_columns(draft.address),
            "status": status,
            "approval_state": approval,
            "provider_version": None,
            **counters,
            "featured_order": featured_order,
            "is_featured": featured_order is not None,
            "trending_score": trending,
            "created_by_user_id": draft.owner.id,
            "created_at": created_at,
            "updated_at": created_at,
            "published_at": created_at + timedelta(minutes=rng.randint(5, 2880)) if listed else None,
        }

    def _draft(self, rng: random.Random, run: _TourRun) -> _TourDraft:
        """Who owns the tour, what it shows, where, and its words."""
        owner, creator = self._owner(rng, run.creator_weights)
        category = self._category(rng, creator)
        subcategory = rng.choice(category.subcategories)
        vendor, media_type = self._vendor_and_media_type(rng, category, creator)
        device = self._device(rng, media_type)
        # Creators mostly work in their own country.
        at_home = creator is not None and rng.random() < 0.65
        city = self._places.pick_in(rng, creator.city.country_code) if creator and at_home else self._places.pick(rng)
        address = make_address(rng, city)
        words = texts.compose_tour_text(
            rng,
            category=category.name,
            subcategory=subcategory,
            media_type=media_type,
            device=device,
            city=city.name,
            country=self._countries.get(city.country_code, ""),
        )
        return _TourDraft(owner, creator, category, subcategory, vendor, media_type, device, address, words)

    def _hashtags(self, rng: random.Random, tag_rows: list[Row]) -> str:
        """Some creators end their description with hashtags of their tags, as on Kuula (issue 18
        part 6): those tag links remember the hashtag, as saving such a description would."""
        if not tag_rows or rng.random() >= HASHTAG_SHARE:
            return ""
        words = []
        for row in rng.sample(tag_rows, k=min(len(tag_rows), rng.randint(1, 3))):
            name = self._tag_names[row["tag_id"]]
            word = "".join(part[:1].upper() + part[1:] for part in re.findall(r"[A-Za-z0-9]+", name.replace("'", "")))
            row["hashtag"] = word
            words.append(f"#{word}")
        return " ".join(words)

    def _classification_columns(self, draft: _TourDraft, hashtags: str = "") -> Row:
        return {
            "user_id": draft.owner.id,
            "creator_id": draft.creator.id if draft.creator else None,
            "vendor_id": self.ids.vendors[draft.vendor.name],
            "media_type_id": self.ids.media_types[draft.media_type],
            "category_id": self.ids.categories[draft.category.name],
            "subcategory_id": self.ids.subcategories[(draft.category.name, draft.subcategory)],
            "camera_id": self.ids.capture_devices[draft.device] if draft.device else None,
            "title": draft.words.title,
            "description": f"{draft.words.description}\n\n{hashtags}" if hashtags else draft.words.description,
        }

    def _vt_website(self, rng: random.Random, draft: _TourDraft, index: int) -> str | None:
        if draft.creator is None or rng.random() >= 0.3:
            return None
        return f"{draft.creator.website}/tours/{draft.slug}-{index + 1}"

    def _featured_order(self, rng: random.Random, run: _TourRun, listed: bool) -> int | None:
        """A few listed tours are featured platform-wide, spread over the corpus, numbered in order."""
        chance = min(0.5, 2 * FEATURED_TOURS / max(self.config.tours, 1))
        if rng.random() >= chance or not listed or run.featured >= FEATURED_TOURS:
            return None
        run.featured += 1
        return run.featured

    def _creator_featured(self, run: _TourRun, creator: CreatorPlan, tour_id: int) -> list[Row]:
        """A creator's first listed tours fill its featured slots, up to its quota."""
        position = run.featured_by_creator.get(creator.id, 0)
        if position >= creator.featured_quota:
            return []
        run.featured_by_creator[creator.id] = position + 1
        return [{"creator_id": creator.id, "tour_id": tour_id, "position": position}]

    def _owner(self, rng: random.Random, creator_weights: list[float]) -> tuple[Account, CreatorPlan | None]:
        draw = rng.random()
        if self.creators and draw < CREATOR_TOUR_SHARE:
            creator = rng.choices(self.creators, weights=creator_weights)[0]
            return creator.account, creator
        if self.members and draw < CREATOR_TOUR_SHARE + MEMBER_TOUR_SHARE:
            return rng.choice(self.members), None
        return self.content_manager, None

    def _third_party(self, rng: random.Random, owner: Account) -> Row:
        """The CM account adds tours on behalf of third-party creators (spec §6 Content Management)."""
        if owner is not self.content_manager:
            return {"third_party_creator": None, "creator_website": None}
        name = f"{rng.choice(texts.CREATOR_WORDS)} {rng.choice(texts.CREATOR_SUFFIXES)}"
        return {"third_party_creator": name, "creator_website": f"https://{texts.slugify(name, 30)}.example"}

    def _category(self, rng: random.Random, creator: CreatorPlan | None) -> CategorySpec:
        if creator is not None and rng.random() < 0.7:
            return rng.choice(creator.focus)
        return rng.choices(CATEGORIES, weights=[CATEGORY_WEIGHTS.get(category.name, 2) for category in CATEGORIES])[0]

    def _vendor_and_media_type(
        self, rng: random.Random, category: CategorySpec, creator: CreatorPlan | None
    ) -> tuple[VendorSpec, str]:
        preferred = set(category.preferred_media_types)
        candidates = [vendor for vendor in VENDORS if not preferred or preferred & set(vendor.media_types)]
        favourites = [vendor for vendor in (creator.favourite_vendors if creator else ()) if vendor in candidates]
        if favourites and rng.random() < 0.6:
            vendor = rng.choice(favourites)
        else:
            vendor = rng.choices(candidates, weights=[VENDOR_WEIGHTS.get(vendor.name, 3) for vendor in candidates])[0]
        media_types = [media for media in vendor.media_types if not preferred or media in preferred]
        # The host's first media type is its usual one.
        media_type = rng.choices(media_types, weights=[3.0 / (position + 1) for position in range(len(media_types))])[0]
        return vendor, media_type

    def _device(self, rng: random.Random, media_type: str) -> str | None:
        devices = [device.name for device in CAPTURE_DEVICES if media_type in device.media_types]
        return rng.choice(devices) if devices and rng.random() < 0.85 else None

    def _tour_created_at(self, rng: random.Random, owner: Account) -> datetime:
        # Recent tours are more common than old ones (the platform grows).
        start = max(owner.created_at, self.config.anchor - CORPUS_SPAN)
        recency: float = rng.random() ** 1.4
        return self.config.anchor - (self.config.anchor - start) * recency

    def _moderation_state(self, rng: random.Random) -> tuple[str, str]:
        draw = rng.random()
        if draw < DRAFT_SHARE:
            return "draft", "approved"
        if draw < DRAFT_SHARE + PENDING_SHARE:
            return "active", "pending"
        if draw < DRAFT_SHARE + PENDING_SHARE + REJECTED_SHARE:
            return "draft", "rejected"
        return "active", "approved"

    def _engagement(
        self, rng: random.Random, index: int, tour_id: int, owner: Account, created_at: datetime, batch: TourBatch
    ) -> Row:
        """Counters and, for the first tours, the rows behind them, spread over time as a tour's
        audience comes (`_Pulse`); `trending` is the score the rank calculation would give them."""
        pulse = self._pulse(rng, created_at)
        # A tour gathers its audience over weeks: a new one has seen only part of it; a revived one
        # gains a new audience on top.
        age_days = (self.config.anchor - created_at).total_seconds() / 86400
        reached = (1 - math.exp(-age_days / pulse.fade_days)) / (1 - pulse.revival_share)
        views = min(5_000_000, max(1, int(12 * rng.paretovariate(1.15) * reached)))
        likes = round(views * rng.uniform(0.02, 0.12))
        saves = round(views * rng.uniform(0.01, 0.05))
        shared = round(views * rng.uniform(0.002, 0.02))
        if index >= self.config.engagement_rows_up_to:
            weighted = views * ENGAGEMENT_WEIGHTS["view"] + likes * ENGAGEMENT_WEIGHTS["like"]
            weighted += saves * ENGAGEMENT_WEIGHTS["save"] + shared * ENGAGEMENT_WEIGHTS["share"]
            trending = trending_score(weighted * self._recent_share(rng, pulse))
            return {"views": views, "likes": likes, "saves": saves, "shared": shared, "trending": trending}
        likers = self._audience(rng, likes, owner)
        savers = self._audience(rng, saves, owner)
        extra_viewers = self._audience(rng, rng.randint(0, 12), owner)
        viewers = list({account.id: account for account in [*likers, *savers, *extra_viewers]}.values())
        like_rows = self._reaction_rows(rng, pulse, likers, tour_id)
        save_rows = self._reaction_rows(rng, pulse, savers, tour_id)
        view_rows = self._view_rows(rng, pulse, viewers, tour_id)
        batch.tour_likes.extend(like_rows)
        batch.tour_saves.extend(save_rows)
        batch.tour_views.extend(view_rows)
        decayed = sum(
            self._decayed(ENGAGEMENT_WEIGHTS[kind], row["created_at"])
            for kind, rows in (("like", like_rows), ("save", save_rows), ("view", view_rows))
            for row in rows
        )
        return {
            "views": max(views, len(viewers)),
            "likes": len(likers),
            "saves": len(savers),
            "shared": shared,
            "trending": trending_score(decayed),
        }

    def _pulse(self, rng: random.Random, created_at: datetime) -> _Pulse:
        """When a tour's audience comes: most of it in the weeks after it is published, fewer later;
        a few older tours catch a second wind lately (shared somewhere, in the news), which is what the
        Trending feed is for, while Popular keeps ranking by all-time views and age."""
        anchor = self.config.anchor
        fade_days = rng.uniform(7, 60)
        old_enough = anchor - created_at > timedelta(days=30)
        if old_enough and rng.random() < REVIVAL_SHARE:
            revival = anchor - timedelta(days=rng.uniform(0.5, 10))
            new_audience = rng.uniform(1.0, 3.0)  # times the audience it had before
            return _Pulse(created_at, fade_days, revival, new_audience / (1 + new_audience))
        return _Pulse(created_at, fade_days, None, 0.0)

    def _moment(self, rng: random.Random, pulse: _Pulse, earliest: datetime) -> datetime:
        """One interaction's moment under the pulse, not before `earliest` (the tour or the account)."""
        anchor = self.config.anchor
        if pulse.revival is not None and rng.random() < pulse.revival_share:
            return _between(rng, max(earliest, pulse.revival), anchor)
        for _ in range(3):
            moment = pulse.created_at + timedelta(days=rng.expovariate(1 / pulse.fade_days))
            if earliest <= moment <= anchor:
                return moment
        return _between(rng, earliest, anchor)

    def _recent_share(self, rng: random.Random, pulse: _Pulse, samples: int = 24) -> float:
        """The trending weight of a tour without rows: its interactions' mean decayed weight, from a
        few moments drawn under its pulse."""
        moments = [self._moment(rng, pulse, pulse.created_at) for _ in range(samples)]
        return sum(self._decayed(1.0, moment) for moment in moments) / samples

    def _decayed(self, weight: float, moment: datetime) -> float:
        """What one interaction adds to the trending sum at the anchor (indexer/scores.py)."""
        age_hours = (self.config.anchor - moment).total_seconds() / 3600
        return decayed_weight(weight, 1, age_hours) if age_hours <= TRENDING_WINDOW_HOURS else 0.0

    def _audience(self, rng: random.Random, size: int, owner: Account) -> list[Account]:
        chosen = rng.sample(self.engaging_users, k=min(size, len(self.engaging_users)))
        return [account for account in chosen if account.id != owner.id]

    def _reaction_rows(self, rng: random.Random, pulse: _Pulse, accounts: list[Account], tour_id: int) -> list[Row]:
        return [
            {
                "user_id": account.id,
                "tour_id": tour_id,
                "created_at": self._moment(rng, pulse, max(pulse.created_at, account.created_at)),
            }
            for account in accounts
        ]

    def _view_rows(self, rng: random.Random, pulse: _Pulse, accounts: list[Account], tour_id: int) -> list[Row]:
        rows = []
        for account in accounts:
            seen_at = self._moment(rng, pulse, max(pulse.created_at, account.created_at))
            rows.append(
                {
                    "tour_id": tour_id,
                    "user_id": account.id,
                    "guest_id": None,
                    "viewer_key": f"u:{account.id}",
                    "window_start": seen_at.replace(hour=0, minute=0, second=0, microsecond=0),
                    "created_at": seen_at,
                }
            )
        return rows

    def _tour_tags(self, rng: random.Random, tour_id: int, category: str, media_type: str) -> list[Row]:
        category_tags = self._tags_by_topic.get((TOPIC_CATEGORY, category), [])
        media_tags = self._tags_by_topic.get(("media_type", media_type), [])
        chosen = rng.sample(category_tags, k=min(len(category_tags), rng.randint(1, 4)))
        chosen += rng.sample(media_tags, k=min(len(media_tags), rng.randint(1, 2)))
        return [
            {"tour_id": tour_id, "tag_id": self.ids.tags[name], "position": position, "hashtag": None}
            for position, name in enumerate(chosen)
        ]

    # --- ads -----------------------------------------------------------------------------------------------------

    def ad_rows(self) -> tuple[list[Row], list[Row], list[Row]]:
        """(ads, ad_tags, ad_engagements) for the most popular creators."""
        rng = self._rng("ads")
        sponsors = sorted(self.creators, key=lambda plan: plan.weight, reverse=True)[: self.config.ads]
        ads: list[Row] = []
        ad_tags: list[Row] = []
        engagements: list[Row] = []
        for index, plan in enumerate(sponsors):
            ad_id = self.offsets.ads + 1 + index
            ad, likers, savers = self._ad(rng, ad_id, index, plan)
            ads.append(ad)
            category = plan.focus[0].name
            tag_names = rng.sample(self._tags_by_topic[(TOPIC_CATEGORY, category)], k=2)
            ad_tags.extend(
                {"ad_id": ad_id, "tag_id": self.ids.tags[name], "position": position}
                for position, name in enumerate(tag_names)
            )
            for kind, accounts in (("like", likers), ("save", savers)):
                engagements.extend(
                    {
                        "ad_id": ad_id,
                        "user_id": account.id,
                        "guest_id": None,
                        "kind": kind,
                        "created_at": _between(rng, max(ad["created_at"], account.created_at), self.config.anchor),
                    }
                    for account in accounts
                )
        return ads, ad_tags, engagements

    def _ad(
        self, rng: random.Random, ad_id: int, index: int, plan: CreatorPlan
    ) -> tuple[Row, list[Account], list[Account]]:
        created_at = self.config.anchor - timedelta(days=rng.uniform(5, 200))
        status, approval = (
            ("draft", "approved") if index == 1 else ("active", "pending") if index == 2 else ("active", "approved")
        )
        live = status == "active" and approval == "approved"
        likers = self._audience(rng, rng.randint(3, 40), plan.account) if live else []
        savers = self._audience(rng, rng.randint(1, 15), plan.account) if live else []
        views = rng.randint(200, 20000) if live else 0
        title = rng.choice(texts.AD_TITLES).format(name=plan.name)
        country = self._countries.get(plan.city.country_code, "")
        row: Row = {
            "id": ad_id,
            "guid": _guid(rng),
            "user_id": plan.account.id,
            "creator_id": plan.id,
            "title": title,
            "description": rng.choice(texts.AD_DESCRIPTIONS).format(city=plan.city.name, country=country),
            "link": f"{plan.website}/offers/{texts.slugify(title, 40)}-{index + 1}",
            "preview_picture": preview_url(plan.focus[0].slug, rng.randrange(self.config.previews_per_category)),
            "status": status,
            "approval_state": approval,
            "views": views,
            "likes": len(likers),
            "saves": len(savers),
            "shared": rng.randint(0, views // 100) if live else 0,
            "clicks": rng.randint(0, views // 10) if live else 0,
            "created_at": created_at,
            "updated_at": created_at,
        }
        return row, likers, savers


# --- helpers ---------------------------------------------------------------------------------------------------


ANALYTICS_BUCKET_SECONDS = 900  # app/analytics/models.py BUCKET_SECONDS


def _analytics_events(batch: TourBatch, engaged_before: tuple[int, int, int], creator_id: int | None) -> list[Row]:
    """The analytics events of one tour's engagement rows written since `engaged_before` (the lengths
    of the batch's likes, saves and views then): a like, save or view event each, at the same moment,
    so the creators' Analytics of the demo shows the same activity as the tours' lists."""
    likes, saves, views = engaged_before
    events = []
    for kind, rows in (
        ("like", batch.tour_likes[likes:]),
        ("save", batch.tour_saves[saves:]),
        ("view", batch.tour_views[views:]),
    ):
        for row in rows:
            moment = row["created_at"]
            events.append(
                {
                    "kind": kind,
                    "value": 1,
                    "occurred_at": moment,
                    "bucket": int(moment.timestamp()) // ANALYTICS_BUCKET_SECONDS,
                    "tour_id": row["tour_id"],
                    "ad_id": None,
                    "creator_id": creator_id,
                    "user_id": row["user_id"],
                    "viewer_key": f"u:{row['user_id']}",
                }
            )
    return events


def _address_columns(address: Address) -> Row:
    return {
        "address_street": address.street,
        "address_city": address.city,
        "address_province": address.province or None,
        "address_zip": address.zip or None,
        "address_country": address.country,
        "address_str": address.text,
        "address_id": address.address_id,
        "lat": address.lat,
        "lng": address.lng,
    }


def _zero_counters() -> Row:
    return {"views": 0, "likes": 0, "saves": 0, "shared": 0}


def _tags_by_topic() -> dict[tuple[str, str], list[str]]:
    grouped: dict[tuple[str, str], list[str]] = {}
    for tag in TAGS:
        grouped.setdefault((tag.topic_type, tag.topic_name), []).append(tag.name)
    return grouped


def _unique(candidate: str, used: set[str], separator: str = " ") -> str:
    value, number = candidate, 2
    while value.lower() in used:
        value = f"{candidate}{separator}{number}"
        number += 1
    used.add(value.lower())
    return value


def _platform_username(handle: str) -> str:
    """5 to 25 characters of letters, digits and underscores (spec §5)."""
    cleaned = "".join(char for char in handle if char.isalnum() or char == "_")[:25]
    return cleaned if len(cleaned) >= 5 else f"{cleaned}_360"[:25]


def _argon2_hash(password: str) -> str:
    from app.core.security import hash_password

    return hash_password(password)
