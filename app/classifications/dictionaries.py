"""The built-in dictionaries: hosts (vendors), categories, media types, capture devices, rank sources,
tags, billing plans and the platform defaults.

This module is data. `app.classifications.seed.load_dictionaries` inserts what is missing by natural key
(names), so editing an entry here never rewrites what administrators changed in the database.

Vendor link patterns are Python regular expressions, anchored, that real share links of the host
match and links of every other host fail. The named group `id` (and sometimes more groups) feeds the
vendor's `embed_template`: `{id}`, `{link}` and any other named group are its placeholders.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from urllib.parse import urlsplit, urlunsplit

from app.core.settings import APP_VERSION

# --- groups and media types -------------------------------------------------------------------------

GROUP_3D_CAPTURE = "3D capture"
GROUP_STREET_LEVEL = "Street-level imagery"
GROUP_360_VIDEO = "360 video"
GROUP_3D_MODELS = "3D models"
GROUP_PANORAMAS = "Panoramas"

PANORAMA = "360 Panorama"
PANORAMA_TOUR = "Panorama Tour"
WALKTHROUGH = "3D Walkthrough"
VIDEO_360 = "360 Video"
MODEL_3D = "3D Model"
STREET_VIEW = "Street View"
AERIAL_360 = "Aerial 360"
VR_EXPERIENCE = "VR Experience"


@dataclass(frozen=True, slots=True)
class MediaTypeSpec:
    name: str
    slug: str
    title_suffix: str  # what a tour title ends with: "Old Town of Kraków — 360° panorama"
    is_360: bool = False  # a panorama or 360 video: kept by the filters' "360° only" switch


MEDIA_TYPES: tuple[MediaTypeSpec, ...] = (
    MediaTypeSpec(PANORAMA, "360-panorama", "360° panorama", is_360=True),
    MediaTypeSpec(PANORAMA_TOUR, "panorama-tour", "virtual tour", is_360=True),
    MediaTypeSpec(WALKTHROUGH, "3d-walkthrough", "3D walkthrough"),
    MediaTypeSpec(VIDEO_360, "360-video", "360° video", is_360=True),
    MediaTypeSpec(MODEL_3D, "3d-model", "3D model"),
    MediaTypeSpec(STREET_VIEW, "street-view", "Street View", is_360=True),
    MediaTypeSpec(AERIAL_360, "aerial-360", "aerial 360°", is_360=True),
    MediaTypeSpec(VR_EXPERIENCE, "vr-experience", "VR experience"),
)


# --- vendors (hosts) ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class VendorSpec:
    name: str
    slug: str
    website: str
    group_name: str
    link_header: str  # placeholder text of the link field
    link_pattern: str
    embed_template: str
    media_types: tuple[str, ...]  # what tours on this host can be, most common first
    embed_kind: str = "iframe"
    preview_picture_required: bool = False
    is_white_label: bool = False

    @property
    def compiled_pattern(self) -> re.Pattern[str]:
        return _compile(self.link_pattern)


@lru_cache(maxsize=64)
def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


# Shared tails: an optional query string / fragment after the part that identifies the tour.
_QUERY_TAIL = r"(?:[?#&][^\s]*)?"

VENDORS: tuple[VendorSpec, ...] = (
    VendorSpec(
        name="Matterport",
        slug="matterport",
        website="https://matterport.com",
        group_name=GROUP_3D_CAPTURE,
        link_header="https://my.matterport.com/show/?m=SxQL3iGyoDo",
        link_pattern=(
            r"^https?://(?:my\.matterport\.com/show/?\?(?:[^#\s]*&)?m=|discover\.matterport\.com/space/)"
            r"(?P<id>[A-Za-z0-9]{11})" + _QUERY_TAIL + "$"
        ),
        embed_template="https://my.matterport.com/show/?m={id}&play=1",
        media_types=(WALKTHROUGH, VR_EXPERIENCE),
    ),
    VendorSpec(
        name="Cupix",
        slug="cupix",
        website="https://www.cupix.com",
        group_name=GROUP_3D_CAPTURE,
        link_header="https://yourteam.cupix.works/sv/q8gnw1",
        link_pattern=(
            r"^https?://(?P<team>[a-z0-9-]{2,40})\.cupix\.works/sv/(?P<id>[a-z0-9]{6,12})/?" + _QUERY_TAIL + "$"
        ),
        embed_template="https://{team}.cupix.works/sv/{id}",
        media_types=(WALKTHROUGH, PANORAMA_TOUR),
        preview_picture_required=True,
    ),
    VendorSpec(
        name="Google Street View",
        slug="google-street-view",
        website="https://www.google.com/streetview/",
        group_name=GROUP_STREET_LEVEL,
        link_header="https://www.google.com/maps/@48.8583701,2.2944813,3a,75y,90t/data=!3m6!1e1!3m4!1s…",
        link_pattern=(
            r"^https?://(?:www\.)?google\.(?:com|[a-z]{2}|co\.[a-z]{2}|com\.[a-z]{2})/maps/(?:place/[^/\s]+/)?"
            r"@(?P<lat>-?\d{1,2}(?:\.\d+)?),(?P<lng>-?\d{1,3}(?:\.\d+)?),[^/\s]*/data=[^\s]*?"
            r"!1s(?P<id>[A-Za-z0-9_%.-]{10,200})(?:![^\s]*)?$"
        ),
        embed_template="https://www.google.com/maps/embed?pb=!4v0!6m8!1m7!1s{id}!2m2!1d{lat}!2d{lng}!3f0!4f0!5f0.78",
        media_types=(STREET_VIEW, PANORAMA),
        preview_picture_required=True,
    ),
    VendorSpec(
        name="YouTube 360",
        slug="youtube-360",
        website="https://www.youtube.com",
        group_name=GROUP_360_VIDEO,
        link_header="https://www.youtube.com/watch?v=aqz-KE-bpKQ",
        link_pattern=(
            r"^https?://(?:(?:(?:www|m)\.)?youtube\.com/watch\?(?:[^#\s]*&)?v=|youtu\.be/)"
            r"(?P<id>[A-Za-z0-9_-]{11})" + _QUERY_TAIL + "$"
        ),
        embed_template="https://www.youtube.com/embed/{id}",
        media_types=(VIDEO_360, AERIAL_360, VR_EXPERIENCE),
    ),
    VendorSpec(
        name="Vimeo 360",
        slug="vimeo-360",
        website="https://vimeo.com",
        group_name=GROUP_360_VIDEO,
        link_header="https://vimeo.com/215984568",
        link_pattern=(
            r"^https?://(?:www\.)?vimeo\.com/(?:channels/[\w-]+/|video/)?(?P<id>\d{6,11})/?" + _QUERY_TAIL + "$"
        ),
        embed_template="https://player.vimeo.com/video/{id}",
        media_types=(VIDEO_360, AERIAL_360),
    ),
    VendorSpec(
        name="Veer VR",
        slug="veer-vr",
        website="https://veer.tv",
        group_name=GROUP_360_VIDEO,
        link_header="https://veer.tv/videos/fuzzy-beard-360-7514",
        link_pattern=r"^https?://(?:www\.)?veer\.tv/videos/(?:[a-z0-9-]+-)?(?P<id>\d{3,10})/?" + _QUERY_TAIL + "$",
        embed_template="https://h5.veer.tv/player?vid={id}&utm_medium=embed",
        media_types=(VIDEO_360, VR_EXPERIENCE),
    ),
    VendorSpec(
        name="Sketchfab",
        slug="sketchfab",
        website="https://sketchfab.com",
        group_name=GROUP_3D_MODELS,
        link_header="https://sketchfab.com/3d-models/old-town-hall-4b2f9e3c1d0a4e6f8a7b5c3d2e1f0a9b",
        link_pattern=(
            r"^https?://(?:www\.)?sketchfab\.com/(?:3d-models/(?:[a-z0-9-]+-)?|models/)"
            r"(?P<id>[0-9a-f]{32})(?:/embed)?/?" + _QUERY_TAIL + "$"
        ),
        embed_template="https://sketchfab.com/models/{id}/embed",
        media_types=(MODEL_3D, VR_EXPERIENCE),
    ),
    VendorSpec(
        name="Kuula",
        slug="kuula",
        website="https://kuula.co",
        group_name=GROUP_PANORAMAS,
        link_header="https://kuula.co/share/7lM2j",
        link_pattern=r"^https?://(?:www\.)?kuula\.co/(?:share|post)/(?P<id>[A-Za-z0-9]{5})/?" + _QUERY_TAIL + "$",
        embed_template="https://kuula.co/share/{id}?fs=1&vr=1&thumbs=1&info=0",
        media_types=(PANORAMA, PANORAMA_TOUR, AERIAL_360),
        # Kuula's paid plans serve tours under the customer's own domain and branding.
        is_white_label=True,
    ),
    VendorSpec(
        name="Roundme",
        slug="roundme",
        website="https://roundme.com",
        group_name=GROUP_PANORAMAS,
        link_header="https://roundme.com/tour/463798/view/1595277/",
        link_pattern=r"^https?://(?:www\.)?roundme\.com/tour/(?P<id>\d{3,9})(?:/view/\d{3,10})?/?" + _QUERY_TAIL + "$",
        embed_template="https://roundme.com/embed/{id}",
        media_types=(PANORAMA_TOUR, PANORAMA, AERIAL_360),
    ),
    VendorSpec(
        name="Momento360",
        slug="momento360",
        website="https://momento360.com",
        group_name=GROUP_PANORAMAS,
        link_header="https://momento360.com/e/u/a9b53aa8f8b0403ba7a4e18243aabc66",
        link_pattern=r"^https?://(?:www\.)?momento360\.com/e/u/(?P<id>[0-9a-f]{32})/?" + _QUERY_TAIL + "$",
        embed_template="https://momento360.com/e/u/{id}?utm_campaign=embed&utm_source=other&size=large",
        media_types=(PANORAMA, PANORAMA_TOUR),
        preview_picture_required=True,
    ),
    VendorSpec(
        name="360Cities",
        slug="360cities",
        website="https://www.360cities.net",
        group_name=GROUP_PANORAMAS,
        link_header="https://www.360cities.net/image/machu-picchu-peru-2011",
        link_pattern=(
            r"^https?://(?:www\.)?360cities\.net/(?:[a-z]{2}/)?image/(?P<id>[A-Za-z0-9_-]{3,120})/?" + _QUERY_TAIL + "$"
        ),
        embed_template="https://www.360cities.net/embed_iframe/{id}",
        media_types=(PANORAMA, AERIAL_360),
    ),
)


def vendor_by_name(name: str) -> VendorSpec:
    return next(vendor for vendor in VENDORS if vendor.name == name)


def match_vendor_link(vendor: VendorSpec, link: str) -> re.Match[str] | None:
    return vendor.compiled_pattern.match(link.strip())


def render_embed_url(embed_template: str, link_pattern: str, link: str) -> str | None:
    """The player URL of `link` on a host, or None when the link is not in the host's format.

    `{link}` is the link itself; every other placeholder is a named group of the pattern.
    """
    match = _compile(link_pattern).match(link.strip())
    if match is None:
        return None
    values = {name: value or "" for name, value in match.groupdict().items()}
    return embed_template.format(link=link.strip(), **values)


def normalise_link(link: str) -> str:
    """The form a link is compared in for uniqueness: scheme https, host lowercased without 'www.',
    no fragment, no trailing slash. Paths and queries keep their case, because tour ids are
    case-sensitive on most hosts (Matterport, Kuula, YouTube)."""
    parts = urlsplit(link.strip())
    host = parts.netloc.lower().removeprefix("www.")
    path = parts.path.rstrip("/")
    return urlunsplit(("https", host, path, parts.query, ""))


# --- categories -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CategorySpec:
    name: str
    slug: str
    icon: str  # a Tabler icon name, stored as the category's image_search (source 'local')
    subcategories: tuple[str, ...]
    # When set, tours of the category are mostly of these media types (e.g. Aerial → Aerial 360).
    preferred_media_types: tuple[str, ...] = field(default=())


CATEGORIES: tuple[CategorySpec, ...] = (
    CategorySpec(
        "Real Estate",
        "real-estate",
        "home",
        ("Apartments", "Houses", "Villas", "New Developments", "Commercial Property", "Land & Lots"),
        (WALKTHROUGH, PANORAMA_TOUR),
    ),
    CategorySpec(
        "Hotels & Resorts",
        "hotels-resorts",
        "bed",
        ("Hotels", "Resorts", "Boutique Hotels", "Hostels", "Bed & Breakfast", "Vacation Rentals", "Spas"),
        (WALKTHROUGH, PANORAMA_TOUR, PANORAMA),
    ),
    CategorySpec(
        "Museums & Galleries",
        "museums-galleries",
        "building-bank",
        ("Art Museums", "History Museums", "Science Museums", "Art Galleries", "Exhibitions", "Private Collections"),
    ),
    CategorySpec(
        "Nature & Parks",
        "nature-parks",
        "trees",
        ("National Parks", "Mountains", "Forests", "Lakes & Rivers", "Waterfalls", "Gardens", "Caves", "Deserts"),
    ),
    CategorySpec(
        "Landmarks",
        "landmarks",
        "building-monument",
        ("Monuments", "Towers", "Bridges", "Squares & Plazas", "Viewpoints", "Statues"),
    ),
    CategorySpec(
        "Education",
        "education",
        "school",
        ("Universities", "Schools", "Libraries", "Campus Tours", "Laboratories"),
        (WALKTHROUGH, PANORAMA_TOUR, VIDEO_360),
    ),
    CategorySpec(
        "Restaurants & Bars",
        "restaurants-bars",
        "tools-kitchen-2",
        ("Restaurants", "Cafés", "Bars & Pubs", "Wineries", "Breweries", "Rooftop Bars"),
        (WALKTHROUGH, PANORAMA, PANORAMA_TOUR),
    ),
    CategorySpec(
        "Retail",
        "retail",
        "shopping-bag",
        ("Shopping Malls", "Boutiques", "Showrooms", "Markets", "Car Dealerships"),
        (WALKTHROUGH, PANORAMA_TOUR),
    ),
    CategorySpec(
        "Events & Venues",
        "events-venues",
        "confetti",
        ("Concert Halls", "Conference Centers", "Wedding Venues", "Exhibition Halls", "Festivals", "Theaters"),
    ),
    CategorySpec(
        "Religious Sites",
        "religious-sites",
        "building-church",
        ("Churches", "Cathedrals", "Mosques", "Temples", "Synagogues", "Monasteries"),
    ),
    CategorySpec(
        "Sports",
        "sports",
        "ball-football",
        ("Stadiums", "Arenas", "Golf Courses", "Ski Resorts", "Gyms & Fitness", "Climbing", "Surfing"),
    ),
    CategorySpec(
        "Industrial",
        "industrial",
        "building-factory-2",
        ("Factories", "Warehouses", "Power Plants", "Construction Sites", "Mines", "Shipyards"),
        (WALKTHROUGH, PANORAMA_TOUR, AERIAL_360),
    ),
    CategorySpec(
        "Healthcare",
        "healthcare",
        "stethoscope",
        ("Hospitals", "Clinics", "Dental Practices", "Wellness Centers", "Senior Living"),
        (WALKTHROUGH, PANORAMA_TOUR),
    ),
    CategorySpec(
        "Cultural Heritage",
        "cultural-heritage",
        "building-arch",
        ("UNESCO Sites", "Archaeological Sites", "Traditional Villages", "Folk Architecture", "Heritage Crafts"),
    ),
    CategorySpec(
        "Architecture",
        "architecture",
        "building-skyscraper",
        ("Modern Architecture", "Skyscrapers", "Historic Buildings", "Interior Design", "Residential Design"),
    ),
    CategorySpec(
        "Travel & Tourism",
        "travel-tourism",
        "plane-departure",
        ("City Tours", "Beaches", "Islands", "Old Towns", "Road Trips", "Cruises", "Hiking Trails"),
    ),
    CategorySpec(
        "Transportation",
        "transportation",
        "train",
        ("Airports", "Train Stations", "Ships & Ferries", "Aircraft", "Classic Cars", "Metro Systems"),
    ),
    CategorySpec(
        "Entertainment",
        "entertainment",
        "masks-theater",
        ("Theme Parks", "Zoos & Aquariums", "Cinemas", "Nightclubs", "Casinos", "Escape Rooms"),
    ),
    CategorySpec(
        "Offices & Coworking",
        "offices-coworking",
        "briefcase",
        ("Corporate Offices", "Coworking Spaces", "Meeting Rooms", "Studios", "Startup Hubs"),
        (WALKTHROUGH, PANORAMA_TOUR),
    ),
    CategorySpec(
        "Underwater",
        "underwater",
        "ripple",
        ("Coral Reefs", "Shipwrecks", "Diving Sites", "Marine Life", "Underwater Caves"),
        (VIDEO_360, PANORAMA, VR_EXPERIENCE),
    ),
    CategorySpec(
        "Aerial",
        "aerial",
        "drone",
        ("Cityscapes", "Coastlines", "Landscapes", "Drone Panoramas", "Hot Air Balloons"),
        (AERIAL_360,),
    ),
    CategorySpec(
        "Historic Sites",
        "historic-sites",
        "building-castle",
        ("Castles", "Palaces", "Fortresses", "Ruins", "Battlefields", "Historic Houses"),
    ),
    CategorySpec(
        "Science & Space",
        "science-space",
        "planet",
        ("Observatories", "Planetariums", "Research Centers", "Space Centers", "Natural Phenomena"),
    ),
)


def category_by_name(name: str) -> CategorySpec:
    return next(category for category in CATEGORIES if category.name == name)


# --- capture devices ----------------------------------------------------------------------------------------

_CAMERA_360 = (PANORAMA, PANORAMA_TOUR, STREET_VIEW, VIDEO_360, VR_EXPERIENCE, WALKTHROUGH)


@dataclass(frozen=True, slots=True)
class CaptureDeviceSpec:
    name: str
    media_types: tuple[str, ...]  # what the device is used to make; the demo corpus pairs them


CAPTURE_DEVICES: tuple[CaptureDeviceSpec, ...] = (
    CaptureDeviceSpec("Matterport Pro2", (WALKTHROUGH,)),
    CaptureDeviceSpec("Matterport Pro3", (WALKTHROUGH,)),
    CaptureDeviceSpec("Leica BLK360", (WALKTHROUGH, MODEL_3D)),
    CaptureDeviceSpec("NavVis VLX", (WALKTHROUGH,)),
    CaptureDeviceSpec("iPhone LiDAR", (WALKTHROUGH, MODEL_3D)),
    CaptureDeviceSpec("iPad Pro LiDAR", (MODEL_3D, WALKTHROUGH)),
    CaptureDeviceSpec("Insta360 X3", _CAMERA_360),
    CaptureDeviceSpec("Insta360 X4", _CAMERA_360),
    CaptureDeviceSpec("Insta360 One RS 1-Inch 360", _CAMERA_360),
    CaptureDeviceSpec("Insta360 Pro 2", (VIDEO_360, VR_EXPERIENCE, PANORAMA)),
    CaptureDeviceSpec("Ricoh Theta X", _CAMERA_360),
    CaptureDeviceSpec("Ricoh Theta Z1", _CAMERA_360),
    CaptureDeviceSpec("Ricoh Theta SC2", _CAMERA_360),
    CaptureDeviceSpec("GoPro Max", (VIDEO_360, PANORAMA, STREET_VIEW, VR_EXPERIENCE)),
    CaptureDeviceSpec("Kandao QooCam 3", (VIDEO_360, PANORAMA, PANORAMA_TOUR)),
    CaptureDeviceSpec("Trisio Lite2", (PANORAMA, PANORAMA_TOUR, WALKTHROUGH)),
    CaptureDeviceSpec("DJI Mavic 3", (AERIAL_360,)),
    CaptureDeviceSpec("DJI Air 3", (AERIAL_360,)),
    CaptureDeviceSpec("DJI Mini 4 Pro", (AERIAL_360,)),
    CaptureDeviceSpec("Canon EOS R5 with fisheye lens", (PANORAMA, PANORAMA_TOUR)),
    CaptureDeviceSpec("Nikon Z6 II with panoramic head", (PANORAMA, PANORAMA_TOUR)),
    CaptureDeviceSpec("Sony A7 IV with fisheye lens", (PANORAMA, PANORAMA_TOUR)),
    CaptureDeviceSpec("Photogrammetry rig (DSLR)", (MODEL_3D,)),
    CaptureDeviceSpec("Polycam on smartphone", (MODEL_3D,)),
    CaptureDeviceSpec("Underwater 360 housing", (VIDEO_360, PANORAMA)),
)


# --- rank sources --------------------------------------------------------------------------------------------

RANK_SOURCES: tuple[str, ...] = ("Trending", "Popularity", "Featured")


# --- tags -------------------------------------------------------------------------------------------------------

TOPIC_CATEGORY = "category"
TOPIC_MEDIA_TYPE = "media_type"


@dataclass(frozen=True, slots=True)
class TagSpec:
    name: str
    description: str
    topic_type: str  # TOPIC_CATEGORY or TOPIC_MEDIA_TYPE
    topic_name: str  # the category's or media type's name


_CATEGORY_TAGS: dict[str, tuple[tuple[str, str], ...]] = {
    "Real Estate": (
        ("Apartment", "A flat or condominium unit shown room by room."),
        ("Family Home", "A detached or semi-detached house for a family."),
        ("Luxury Villa", "A high-end villa, often with a pool and garden."),
        ("Penthouse", "A top-floor apartment with terraces and views."),
        ("Open House", "A property tour published for a sale or viewing day."),
        ("For Rent", "A property offered for rent."),
        ("For Sale", "A property offered for sale."),
        ("Floor Plan", "The tour includes a measured floor plan."),
        ("Loft", "An open-plan loft, often in a converted building."),
    ),
    "Hotels & Resorts": (
        ("Hotel Room", "A guest room or suite of a hotel."),
        ("Beach Resort", "A resort on the seafront."),
        ("Boutique Hotel", "A small hotel with an individual design."),
        ("Spa", "Saunas, pools and treatment rooms."),
        ("Lobby", "The entrance hall and reception of a hotel."),
        ("Infinity Pool", "A pool whose edge seems to vanish into the view."),
        ("All Inclusive", "A resort where meals and drinks are included."),
        ("Mountain Lodge", "A lodge or chalet in the mountains."),
    ),
    "Museums & Galleries": (
        ("Art Exhibition", "Paintings, sculptures or installations on display."),
        ("Sculpture", "Three-dimensional artworks."),
        ("Ancient Artifacts", "Objects from antiquity shown in a collection."),
        ("Modern Art", "Art from the late 19th century to today."),
        ("Natural History", "Fossils, minerals and animal specimens."),
        ("Gallery Opening", "A newly opened show in a gallery."),
        ("Permanent Collection", "The works a museum always shows."),
        ("Photography Exhibition", "A show of photographs."),
    ),
    "Nature & Parks": (
        ("Hiking", "Trails and paths for walkers."),
        ("Waterfall", "A river falling over a cliff or steps of rock."),
        ("Forest", "Woodland and its trees."),
        ("Lake", "A lake or reservoir and its shores."),
        ("Mountain View", "A view across peaks and valleys."),
        ("Wildlife", "Animals in their habitat."),
        ("Botanical Garden", "A garden of plants grown for study and display."),
        ("Sunset", "The sun going down over the landscape."),
        ("Canyon", "A deep gorge carved by a river."),
    ),
    "Landmarks": (
        ("Famous Landmark", "A place known around the world."),
        ("Observation Deck", "A platform with a view over the city."),
        ("Iconic Bridge", "A bridge known for its design or history."),
        ("City Square", "A main square or plaza."),
        ("Monument", "A structure built to remember a person or event."),
        ("Skyline", "The outline of a city's buildings against the sky."),
        ("Night View", "The landmark lit up after dark."),
        ("Clock Tower", "A tower with a public clock."),
    ),
    "Education": (
        ("Campus", "The grounds and buildings of a university or school."),
        ("Lecture Hall", "A large room for lectures."),
        ("Library", "Reading rooms and stacks of books."),
        ("Classroom", "A room where classes are taught."),
        ("Science Lab", "A laboratory for teaching or research."),
        ("Student Housing", "Dormitories and student residences."),
        ("Virtual Open Day", "A tour made for prospective students."),
    ),
    "Restaurants & Bars": (
        ("Fine Dining", "A restaurant with a refined menu and service."),
        ("Cafe", "A coffee house or tea room."),
        ("Cocktail Bar", "A bar known for its cocktails."),
        ("Wine Cellar", "A cellar where wine is stored or tasted."),
        ("Craft Brewery", "A small brewery and its taproom."),
        ("Terrace", "Outdoor seating on a terrace or patio."),
        ("Street Food", "Food stalls and markets."),
        ("Rooftop Bar", "A bar on the roof with a view."),
    ),
    "Retail": (
        ("Flagship Store", "The main store of a brand."),
        ("Shopping Mall", "A covered shopping centre."),
        ("Showroom", "A room where products are displayed."),
        ("Farmers Market", "A market for local produce."),
        ("Boutique", "A small shop with selected goods."),
        ("Car Showroom", "A dealership's display hall."),
        ("Pop-up Store", "A shop open for a short time."),
    ),
    "Events & Venues": (
        ("Concert", "Live music on stage."),
        ("Conference", "A venue set up for talks and meetings."),
        ("Wedding Venue", "A place to hold a wedding and reception."),
        ("Trade Fair", "An exhibition of companies and products."),
        ("Festival", "A music, food or cultural festival."),
        ("Theater Stage", "The stage and auditorium of a theater."),
        ("Ballroom", "A hall for dances and banquets."),
    ),
    "Religious Sites": (
        ("Cathedral", "A bishop's principal church."),
        ("Mosque", "A place of worship in Islam."),
        ("Buddhist Temple", "A temple of the Buddhist faith."),
        ("Stained Glass", "Windows of coloured glass."),
        ("Pilgrimage", "A place that pilgrims travel to."),
        ("Chapel", "A small church or a room for prayer."),
        ("Monastery", "A community of monks or nuns and its buildings."),
        ("Sacred Art", "Religious paintings, icons and sculptures."),
    ),
    "Sports": (
        ("Football Stadium", "A stadium for football (soccer)."),
        ("Basketball Arena", "An indoor arena for basketball."),
        ("Golf", "A golf course and its club house."),
        ("Skiing", "Slopes, lifts and ski runs."),
        ("Surfing", "Waves and surf spots."),
        ("Climbing", "Climbing walls, crags and via ferratas."),
        ("Fitness", "Gyms and training studios."),
        ("Race Track", "A circuit for cars, motorbikes or horses."),
    ),
    "Industrial": (
        ("Factory Floor", "Production lines and machines."),
        ("Warehouse", "A building for storage and logistics."),
        ("Construction Progress", "A site captured as building work goes on."),
        ("Power Plant", "A plant generating electricity."),
        ("Wind Farm", "Wind turbines and their site."),
        ("Mine", "A mine or quarry."),
        ("Digital Twin", "A measured 3D copy of a facility."),
    ),
    "Healthcare": (
        ("Hospital", "Wards, theatres and public areas of a hospital."),
        ("Clinic", "A medical practice or outpatient clinic."),
        ("Dental Office", "A dental practice."),
        ("Wellness", "Wellness and rehabilitation centres."),
        ("Senior Living", "Homes and residences for older people."),
        ("Patient Room", "A room where patients stay."),
    ),
    "Cultural Heritage": (
        ("UNESCO World Heritage", "A site on UNESCO's World Heritage List."),
        ("Archaeology", "Excavations and archaeological remains."),
        ("Traditional Village", "A village keeping its traditional buildings."),
        ("Folk Art", "Crafts and art of a local tradition."),
        ("Ancient Ruins", "Remains of ancient buildings."),
        ("Heritage Trail", "A route linking heritage sites."),
        ("Living History", "Re-enactments and historic crafts shown live."),
    ),
    "Architecture": (
        ("Modernism", "Buildings of the modern movement."),
        ("Brutalism", "Raw concrete architecture."),
        ("Art Nouveau", "Buildings in the Art Nouveau style."),
        ("Gothic", "Gothic churches and town halls."),
        ("Baroque", "Baroque palaces and churches."),
        ("Skyscraper", "A very tall building."),
        ("Interior Design", "Designed interiors and furnishings."),
        ("Sustainable Design", "Green and energy-efficient buildings."),
    ),
    "Travel & Tourism": (
        ("Old Town", "The historic centre of a town."),
        ("Beach", "Sand, sea and the shore."),
        ("Island", "A place surrounded by water."),
        ("Road Trip", "Stops along a scenic road."),
        ("Cruise", "A cruise ship and its ports."),
        ("Hidden Gem", "A place few visitors know."),
        ("City Walk", "A walk through a city's streets."),
        ("Harbour", "A port and its waterfront."),
    ),
    "Transportation": (
        ("Airport Terminal", "Terminal halls and gates."),
        ("Railway Station", "Platforms and halls of a station."),
        ("Cockpit", "The flight deck of an aircraft."),
        ("Vintage Car", "A classic or historic car."),
        ("Ferry", "A ferry or passenger ship."),
        ("Subway", "An underground railway station or line."),
        ("Locomotive", "A railway engine."),
    ),
    "Entertainment": (
        ("Theme Park", "Rides and attractions of an amusement park."),
        ("Roller Coaster", "A roller coaster ride."),
        ("Aquarium", "Tanks of fish and sea life."),
        ("Zoo", "Animals kept for visitors to see."),
        ("Nightlife", "Clubs and bars at night."),
        ("Cinema", "A movie theater."),
        ("Escape Room", "A puzzle room game."),
    ),
    "Offices & Coworking": (
        ("Coworking", "Shared desks and workspaces."),
        ("Open Office", "An open-plan office floor."),
        ("Meeting Room", "A room for meetings and calls."),
        ("Headquarters", "A company's main office."),
        ("Creative Studio", "A studio for design, photo or music."),
        ("Office For Lease", "Office space offered for rent."),
    ),
    "Underwater": (
        ("Coral Reef", "A reef built by corals."),
        ("Shipwreck", "A sunken ship."),
        ("Scuba Diving", "Diving with breathing equipment."),
        ("Snorkeling", "Swimming at the surface with a mask."),
        ("Sea Turtles", "Turtles in the sea."),
        ("Kelp Forest", "A forest of giant seaweed."),
        ("Freediving", "Diving on a single breath."),
    ),
    "Aerial": (
        ("Drone View", "A view from a drone."),
        ("Bird's Eye View", "The place seen from high above."),
        ("Coastline", "The shore seen from the air."),
        ("City From Above", "A city seen from the air."),
        ("Hot Air Balloon", "A view from a balloon."),
        ("Golden Hour", "Warm light just after sunrise or before sunset."),
        ("Above The Clouds", "A view from above the cloud layer."),
    ),
    "Historic Sites": (
        ("Castle", "A fortified residence of the Middle Ages."),
        ("Palace", "A royal or noble residence."),
        ("Fortress", "A military stronghold."),
        ("Medieval", "From the Middle Ages."),
        ("Roman", "From the Roman Empire."),
        ("Battlefield", "Where a battle was fought."),
        ("Historic House", "A house kept as it was in the past."),
        ("Ruins", "Remains of a building."),
    ),
    "Science & Space": (
        ("Observatory", "A telescope and its dome."),
        ("Planetarium", "A dome where the night sky is projected."),
        ("Night Sky", "Stars and the Milky Way."),
        ("Space Center", "A launch or space exploration centre."),
        ("Research Lab", "A research laboratory."),
        ("Northern Lights", "The aurora in the night sky."),
        ("Volcano", "A volcano, active or dormant."),
    ),
}

_MEDIA_TYPE_TAGS: dict[str, tuple[tuple[str, str], ...]] = {
    PANORAMA: (
        ("Equirectangular", "A full-sphere image in equirectangular projection."),
        ("Photosphere", "A single 360° photo sphere."),
        ("HDR Panorama", "A panorama merged from several exposures."),
        ("Little Planet", "A stereographic 'tiny planet' view."),
        ("Gigapixel", "A panorama of a billion pixels or more."),
    ),
    PANORAMA_TOUR: (
        ("Hotspots", "Scenes linked by clickable hotspots."),
        ("Multi-Scene Tour", "A tour made of many linked panoramas."),
        ("Guided Tour", "A tour with narration or guided stops."),
        ("Interactive Map", "A tour with a map of the scenes."),
    ),
    WALKTHROUGH: (
        ("Dollhouse View", "A 3D view of the whole model from outside."),
        ("Measurements", "Distances can be measured in the model."),
        ("Mattertags", "Points of interest pinned inside the model."),
        ("Virtual Staging", "Rooms furnished digitally."),
        ("Point Cloud", "A model built from a laser scan."),
    ),
    VIDEO_360: (
        ("4K", "Video in 4K resolution or more."),
        ("8K", "Video in 8K resolution."),
        ("Spatial Audio", "Sound that follows the viewing direction."),
        ("Timelapse", "Time compressed into a short video."),
        ("Hyperlapse", "A moving timelapse."),
    ),
    MODEL_3D: (
        ("Photogrammetry", "A model built from many photographs."),
        ("Low Poly", "A model with few polygons."),
        ("Textured Mesh", "A mesh with photographic textures."),
        ("Animated Model", "A model with animation."),
        ("Scan", "A 3D scan of a real object or place."),
    ),
    STREET_VIEW: (
        ("Street Level", "Seen from the street."),
        ("Blue Line", "Connected imagery along a route."),
        ("Trekker", "Captured on foot with a backpack camera."),
        ("Indoor Street View", "Street View inside a business."),
    ),
    AERIAL_360: (
        ("Drone Panorama", "A 360° panorama taken by a drone."),
        ("FPV", "First-person-view drone flight."),
        ("High Altitude", "Shot from a great height."),
        ("Orbit", "The camera circles a point of interest."),
    ),
    VR_EXPERIENCE: (
        ("VR Headset", "Best viewed in a VR headset."),
        ("Stereoscopic", "3D stereo imagery for each eye."),
        ("Immersive", "A fully immersive experience."),
        ("WebXR", "Viewable in the browser's WebXR mode."),
        ("Six Degrees Of Freedom", "The viewer can move, not only look around."),
    ),
}


def _build_tags() -> tuple[TagSpec, ...]:
    category_tags = (
        TagSpec(name, description, TOPIC_CATEGORY, category)
        for category, entries in _CATEGORY_TAGS.items()
        for name, description in entries
    )
    media_type_tags = (
        TagSpec(name, description, TOPIC_MEDIA_TYPE, media_type)
        for media_type, entries in _MEDIA_TYPE_TAGS.items()
        for name, description in entries
    )
    return (*category_tags, *media_type_tags)


TAGS: tuple[TagSpec, ...] = _build_tags()


# --- billing plans ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlanFeature:
    name: str
    coming_soon: bool = False

    def as_json(self) -> dict[str, object]:
        return {"name": self.name, "coming_soon": self.coming_soon}


@dataclass(frozen=True, slots=True)
class BillingPlanSpec:
    plan_name: str
    description: str
    cost: Decimal
    discount_cost: Decimal | None
    interval: str  # 'month' or 'year'
    trial_period_days: int
    is_indefinite_trial: bool
    features: tuple[PlanFeature, ...]
    currency: str = "usd"
    active: bool = True


_FREE_FEATURES = (
    PlanFeature("Like, save and share tours"),
    PlanFeature("Follow creators"),
    PlanFeature("Add your own tours"),
    PlanFeature("Up to 20 interests for your feed"),
)
_CREATOR_FEATURES = (
    PlanFeature("Public creator profile with your branding"),
    PlanFeature("Up to 10 featured tours"),
    PlanFeature("Contact form for clients"),
    PlanFeature("Analytics for tours and ads"),
    PlanFeature("Custom hosts"),
    PlanFeature("Sponsored ads"),
    PlanFeature("Daily featured tour submissions"),
    PlanFeature("Team accounts", coming_soon=True),
)

BILLING_PLANS: tuple[BillingPlanSpec, ...] = (
    BillingPlanSpec(
        plan_name="Free",
        description="Discover, save and share tours, and add your own.",
        cost=Decimal("0.00"),
        discount_cost=Decimal("0.00"),
        interval="month",
        trial_period_days=0,
        is_indefinite_trial=True,
        features=_FREE_FEATURES,
    ),
    BillingPlanSpec(
        plan_name="Creator Monthly",
        description="Everything a creator needs to publish and promote tours, billed monthly.",
        cost=Decimal("19.00"),
        discount_cost=Decimal("12.00"),
        interval="month",
        trial_period_days=14,
        is_indefinite_trial=False,
        features=_CREATOR_FEATURES,
    ),
    BillingPlanSpec(
        plan_name="Creator Yearly",
        description="The Creator plan billed yearly: two months free.",
        cost=Decimal("190.00"),
        discount_cost=Decimal("120.00"),
        interval="year",
        trial_period_days=14,
        is_indefinite_trial=False,
        features=_CREATOR_FEATURES,
    ),
)


# --- platform -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlatformDefaults:
    restrict_access: bool = False
    images_approval: bool = False
    gui_version: str = APP_VERSION


PLATFORM_DEFAULTS = PlatformDefaults()
