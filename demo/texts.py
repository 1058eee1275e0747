"""The words of the demo corpus: people's and creators' names, bios, tour titles and descriptions.

Titles and descriptions are composed from category-specific templates, the subcategory's noun and
the place: "Sunrise over the Old Town of Kraków — 360° panorama". Every choice goes through the
caller's `random.Random`, so the same seed writes the same words.
"""

from __future__ import annotations

import random
import re
import unicodedata
from dataclasses import dataclass

from app.classifications.dictionaries import (
    AERIAL_360,
    MEDIA_TYPES,
    MODEL_3D,
    PANORAMA,
    PANORAMA_TOUR,
    STREET_VIEW,
    VIDEO_360,
    VR_EXPERIENCE,
    WALKTHROUGH,
)

FIRST_NAMES: tuple[str, ...] = (
    "Anna",
    "Liam",
    "Sofia",
    "Noah",
    "Emma",
    "Mateo",
    "Olivia",
    "Lucas",
    "Mia",
    "Elias",
    "Chloe",
    "Hugo",
    "Amelia",
    "Leo",
    "Isabella",
    "Oscar",
    "Ava",
    "Jakub",
    "Zoe",
    "Luca",
    "Maja",
    "Felix",
    "Nora",
    "Arjun",
    "Aiko",
    "Kenji",
    "Priya",
    "Omar",
    "Layla",
    "Diego",
    "Camila",
    "Tomás",
    "Ingrid",
    "Lars",
    "Freya",
    "Mateusz",
    "Zuzanna",
    "Marek",
    "Elena",
    "Dmitri",
    "Yara",
    "Kofi",
    "Amara",
    "Chen",
    "Mei",
    "Hiroshi",
    "Sara",
    "Jonas",
    "Clara",
    "Emil",
    "Ines",
    "Rafael",
    "Beatriz",
    "Ahmed",
    "Fatima",
    "Noor",
    "Daniel",
    "Grace",
    "Samuel",
    "Ruby",
)
LAST_NAMES: tuple[str, ...] = (
    "Kowalski",
    "Nowak",
    "Smith",
    "Johnson",
    "García",
    "Martínez",
    "Rossi",
    "Bianchi",
    "Müller",
    "Schmidt",
    "Dubois",
    "Lefèvre",
    "Silva",
    "Santos",
    "Jansen",
    "de Vries",
    "Andersson",
    "Nielsen",
    "Virtanen",
    "Novák",
    "Horváth",
    "Popescu",
    "Ivanova",
    "Petrov",
    "Yilmaz",
    "Kaya",
    "Cohen",
    "Haddad",
    "Tanaka",
    "Sato",
    "Kim",
    "Park",
    "Nguyen",
    "Tran",
    "Wang",
    "Li",
    "Sharma",
    "Patel",
    "Okafor",
    "Mensah",
    "Brown",
    "Taylor",
    "Walker",
    "Hughes",
    "O'Brien",
    "Murphy",
    "Costa",
    "Ferreira",
    "Lopez",
    "Hernández",
    "Fischer",
    "Weber",
)
CREATOR_WORDS: tuple[str, ...] = (
    "Blue Horizon",
    "Northern Light",
    "Silver Lens",
    "Open Door",
    "Wide Angle",
    "True North",
    "Bright Room",
    "Golden Hour",
    "Skyline",
    "Panorama Point",
    "First Light",
    "Deep Blue",
    "Vista",
    "Atlas",
    "Compass",
    "Summit",
    "Harbour",
    "Lighthouse",
    "Orbit",
    "Nomad",
    "Pixel Peak",
    "Echo",
    "Cornerstone",
    "Meridian",
)
CREATOR_SUFFIXES: tuple[str, ...] = (
    "360",
    "VR",
    "Visuals",
    "Studio",
    "Media",
    "Tours",
    "Immersive",
    "3D",
    "Spaces",
    "Digital",
    "Virtual Tours",
)

SERVICES: tuple[str, ...] = (
    "3D virtual tours",
    "360° photography",
    "Drone panoramas",
    "Floor plans",
    "Virtual staging",
    "Google Street View publishing",
    "360° video production",
    "Photogrammetry",
    "Laser scanning",
    "Real estate photography",
    "Hotel and venue marketing",
    "Construction documentation",
    "VR experiences",
)

BIO_OPENINGS: tuple[str, ...] = (
    "We are a small team of {specialty} specialists based in {city}.",
    "Based in {city}, {country}, we capture places so people can visit them from anywhere.",
    "{name} has been creating immersive {specialty} content in {country} since {year}.",
    "Photographer and 3D capture enthusiast from {city}.",
    "Award-winning {specialty} studio working across {country} and beyond.",
)
BIO_MIDDLES: tuple[str, ...] = (
    "Our work covers {focus} and much more.",
    "Most of our projects are {focus}.",
    "We love {focus}, and we travel for them.",
    "Clients hire us for {focus}.",
)
BIO_CLOSINGS: tuple[str, ...] = (
    "Get in touch for a quote: we usually answer within a day.",
    "Follow us to see new tours every week.",
    "Every tour is captured with professional gear and edited by hand.",
    "Ask us about Matterport, 360° video and drone packages.",
    "",
)

MEDIA_SUFFIX: dict[str, str] = {media_type.name: media_type.title_suffix for media_type in MEDIA_TYPES}

MEDIA_SENTENCES: dict[str, tuple[str, ...]] = {
    PANORAMA: ("Look around in every direction from a single spot.", "Drag to look around; zoom in for the details."),
    PANORAMA_TOUR: (
        "Move from scene to scene with the hotspots.",
        "The tour links {scenes} panoramas with hotspots and a map.",
    ),
    WALKTHROUGH: (
        "Walk through every room and switch to the dollhouse view to see the whole layout.",
        "Measure rooms, open the floor plan and move freely through the 3D model.",
    ),
    VIDEO_360: (
        "A {minutes}-minute 360° video: drag while it plays to look around.",
        "Best watched in a headset or full screen.",
    ),
    MODEL_3D: (
        "Rotate the model, zoom in and inspect every detail.",
        "A textured 3D model you can turn in any direction.",
    ),
    STREET_VIEW: ("Step into the street and follow the route.", "Street-level imagery you can walk along."),
    AERIAL_360: ("Seen from {altitude} m above the ground.", "A drone panorama from high above."),
    VR_EXPERIENCE: ("Put on a headset for the full experience.", "Designed for VR headsets; works on desktop too."),
}
CAPTURE_SENTENCES: tuple[str, ...] = (
    "Captured with {a_device}.",
    "Shot on {a_device} in {season}.",
    "Captured in {season} with {a_device}.",
)
SEASONS: tuple[str, ...] = ("spring", "summer", "autumn", "winter", "early spring", "late summer")
TIMES: tuple[str, ...] = ("Sunrise", "Morning light", "Golden hour", "Sunset", "Blue hour", "Night")


@dataclass(frozen=True, slots=True)
class CategoryText:
    adjectives: tuple[str, ...]
    titles: tuple[str, ...]  # placeholders: {adj} {Adj} {noun} {Noun} {a_noun} {city} {time}
    sentences: tuple[str, ...]  # also {A_adj} ('An open-plan'), {country}, {year} and a few numbers


CATEGORY_TEXTS: dict[str, CategoryText] = {
    "Real Estate": CategoryText(
        ("bright", "spacious", "modern", "renovated", "sunny", "elegant", "cosy"),
        (
            "{Adj} {noun} in {city}",
            "Inside {a_noun} in central {city}",
            "Open house: {adj} {noun}, {city}",
            "{Adj} {noun} with a view over {city}",
        ),
        (
            "This {adj} {noun} is on the market in {city}.",
            "Large windows, high ceilings and a quiet street.",
            "Walk through every room before you book a viewing.",
            "Close to shops, schools and public transport.",
        ),
    ),
    "Hotels & Resorts": CategoryText(
        ("luxury", "seaside", "boutique", "family-friendly", "historic", "tranquil"),
        (
            "{Adj} {noun} in {city}",
            "A stay at {a_noun} in {city}",
            "Suites and pool of {a_noun}, {city}",
            "{Time} at {a_noun} near {city}",
        ),
        (
            "Tour the rooms, the lobby and the pool before you book.",
            "{A_adj} {noun} a few minutes from {city}.",
            "Guests love the terrace and the breakfast room.",
            "Every room type is included in the tour.",
        ),
    ),
    "Museums & Galleries": CategoryText(
        ("famous", "contemporary", "historic", "hidden", "renowned", "small"),
        (
            "Inside the {adj} {noun} of {city}",
            "{Noun} of {city}: the main halls",
            "A walk through {a_noun} in {city}",
            "Masterpieces of {a_noun}, {city}",
        ),
        (
            "The collection of this {adj} {noun} fills several halls.",
            "Stand in front of the works as if you were there.",
            "Opened in {year}, it is one of the cultural highlights of {city}.",
            "Labels and details can be read up close.",
        ),
    ),
    "Nature & Parks": CategoryText(
        ("wild", "quiet", "misty", "green", "untouched", "breathtaking"),
        (
            "{Time} at the {noun} near {city}",
            "{Adj} {noun} outside {city}",
            "Hiking to the {noun} above {city}",
            "The {adj} {noun} of {country}",
        ),
        (
            "{A_adj} {noun} less than an hour from {city}.",
            "Listen to the wind and look across the valley.",
            "The trail starts at the visitor centre and takes about two hours.",
            "One of the most beautiful spots in {country}.",
        ),
    ),
    "Landmarks": CategoryText(
        ("iconic", "historic", "famous", "towering", "monumental"),
        (
            "{Time} at the {adj} {noun} of {city}",
            "The {noun} of {city} from every side",
            "{Adj} {noun}, {city}",
            "Standing at the {noun} in {city}",
        ),
        (
            "The {adj} {noun} is the symbol of {city}.",
            "Built in {year}, it draws visitors from around the world.",
            "Come early to enjoy it without the crowds.",
            "The view from the top reaches across {city}.",
        ),
    ),
    "Education": CategoryText(
        ("modern", "historic", "international", "award-winning", "green"),
        (
            "Campus tour: {a_noun} in {city}",
            "Inside the {adj} {noun} of {city}",
            "{Adj} {noun}, {city} — open day",
            "Visit {a_noun} in {city}",
        ),
        (
            "Explore lecture halls, labs and the library.",
            "Students of the {adj} {noun} show you around.",
            "Founded in {year}, it welcomes students from {country} and abroad.",
            "Plan your visit before the open day.",
        ),
    ),
    "Restaurants & Bars": CategoryText(
        ("cosy", "stylish", "family-run", "candle-lit", "vibrant", "rustic"),
        (
            "{Adj} {noun} in {city}",
            "Dinner at {a_noun} in {city}",
            "{Time} at {a_noun}, {city}",
            "A table at the {adj} {noun} of {city}",
        ),
        (
            "{A_adj} {noun} serving local dishes in {city}.",
            "Book your favourite table after a look around.",
            "The kitchen opened in {year} and the terrace is open all summer.",
            "Wine cellar, bar and dining room in one tour.",
        ),
    ),
    "Retail": CategoryText(
        ("flagship", "busy", "elegant", "modern", "colourful"),
        (
            "{Adj} {noun} in {city}",
            "Shopping at {a_noun} in {city}",
            "Inside the {noun} of {city}",
            "Virtual visit: {adj} {noun}, {city}",
        ),
        (
            "Browse the aisles of this {adj} {noun} from home.",
            "Find products on the shelves before you visit.",
            "Open every day in the centre of {city}.",
            "The showroom was redesigned in {year}.",
        ),
    ),
    "Events & Venues": CategoryText(
        ("grand", "intimate", "historic", "modern", "versatile"),
        (
            "{Adj} {noun} in {city}",
            "The stage of {a_noun}, {city}",
            "Plan your event: {noun} in {city}",
            "{Time} at the {noun} of {city}",
        ),
        (
            "{A_adj} {noun} for up to {guests} guests.",
            "See the hall, the stage and the backstage areas.",
            "A favourite venue of {city} since {year}.",
            "Check the seating and sight lines before you book.",
        ),
    ),
    "Religious Sites": CategoryText(
        ("ancient", "majestic", "peaceful", "baroque", "gothic", "sacred"),
        (
            "Inside the {adj} {noun} of {city}",
            "{Time} at the {noun} of {city}",
            "{Adj} {noun}, {city}",
            "The {noun} of {city} and its treasures",
        ),
        (
            "Built in {year}, the {noun} is one of the oldest in {country}.",
            "Look up at the vaults and the stained glass.",
            "A place of prayer and a monument of {city}.",
            "The interior is rarely open to visitors.",
        ),
    ),
    "Sports": CategoryText(
        ("legendary", "packed", "modern", "floodlit", "historic"),
        (
            "Match day at the {noun} of {city}",
            "{Adj} {noun} in {city}",
            "Behind the scenes: {noun}, {city}",
            "{Time} at the {noun}, {city}",
        ),
        (
            "Stand on the pitch and look up at the stands.",
            "Home of the local club since {year}.",
            "{A_adj} {noun} with room for {guests} fans.",
            "Visit the changing rooms and the players' tunnel.",
        ),
    ),
    "Industrial": CategoryText(
        ("vast", "high-tech", "historic", "automated", "busy"),
        (
            "Inside {a_noun} near {city}",
            "{Adj} {noun}, {city}",
            "Digital twin of {a_noun} in {city}",
            "Site visit: {noun} outside {city}",
        ),
        (
            "{A_adj} {noun} captured for documentation and training.",
            "Follow the production line from start to finish.",
            "In operation since {year}.",
            "Safety-critical areas can be visited without a hard hat.",
        ),
    ),
    "Healthcare": CategoryText(
        ("modern", "welcoming", "bright", "new", "specialist"),
        (
            "{Adj} {noun} in {city}",
            "Visit our {noun} in {city}",
            "Inside the {adj} {noun}, {city}",
            "Patient tour: {noun}, {city}",
        ),
        (
            "Patients can see the rooms before their first visit.",
            "{A_adj} {noun} serving {city} since {year}.",
            "Reception, waiting room and treatment rooms in one tour.",
            "Step-free access throughout the building.",
        ),
    ),
    "Cultural Heritage": CategoryText(
        ("ancient", "traditional", "timeless", "remarkable", "well-preserved"),
        (
            "The {adj} {noun} near {city}",
            "{Time} at {a_noun}, {country}",
            "Heritage walk: {noun} of {city}",
            "{Adj} {noun} outside {city}",
        ),
        (
            "{A_adj} {noun} that tells the story of {country}.",
            "Preserved by the community for generations.",
            "The oldest parts date back to {year}.",
            "Guides in traditional dress welcome visitors in summer.",
        ),
    ),
    "Architecture": CategoryText(
        ("striking", "modernist", "award-winning", "bold", "elegant", "sculptural"),
        (
            "{Adj} {noun} in {city}",
            "Architecture walk: {noun}, {city}",
            "Inside {a_noun} in {city}",
            "Lines and light: {noun} of {city}",
        ),
        (
            "Designed in {year}, it changed the skyline of {city}.",
            "Look at the details of the facade and the stairs.",
            "{A_adj} {noun} studied by architecture students.",
            "Light changes the spaces throughout the day.",
        ),
    ),
    "Travel & Tourism": CategoryText(
        ("charming", "colourful", "sunny", "historic", "picturesque", "lively"),
        (
            "Sunrise over the Old Town of {city}",
            "{Time} in {city}",
            "A day in {city}: the {noun}",
            "{Adj} {noun} of {city}",
            "Exploring the {noun} near {city}",
        ),
        (
            "One of the most {adj} places to visit in {country}.",
            "Cafés, narrow streets and views at every corner.",
            "Plan your trip to {city} with this tour.",
            "Locals recommend coming early in the morning.",
        ),
    ),
    "Transportation": CategoryText(
        ("historic", "busy", "modern", "restored", "iconic"),
        (
            "Inside the {noun} of {city}",
            "{Adj} {noun}, {city}",
            "All aboard: {noun} in {city}",
            "{Time} at the {noun}, {city}",
        ),
        (
            "{A_adj} {noun} that connects {city} with the rest of {country}.",
            "Step inside and look at every detail.",
            "Opened in {year} and restored recently.",
            "Thousands of travellers pass through every day.",
        ),
    ),
    "Entertainment": CategoryText(
        ("thrilling", "family", "colourful", "legendary", "spectacular"),
        (
            "A day at the {noun} of {city}",
            "{Adj} {noun} in {city}",
            "{Time} at {a_noun}, {city}",
            "Behind the scenes at {a_noun}, {city}",
        ),
        (
            "{A_adj} {noun} for the whole family.",
            "Rides, shows and restaurants in one tour.",
            "Open since {year}, it is a favourite of {city}.",
            "Plan your day before you go.",
        ),
    ),
    "Offices & Coworking": CategoryText(
        ("flexible", "bright", "modern", "open-plan", "creative"),
        (
            "{Adj} {noun} in {city}",
            "Work from {a_noun} in {city}",
            "Office tour: {noun}, {city}",
            "Desks with a view: {noun} in {city}",
        ),
        (
            "Hot desks, meeting rooms and a kitchen on one floor.",
            "{A_adj} {noun} in the business district of {city}.",
            "Available to rent by the day or the month.",
            "Fast internet, quiet booths and a roof terrace.",
        ),
    ),
    "Underwater": CategoryText(
        ("vibrant", "mysterious", "crystal-clear", "deep", "colourful"),
        (
            "Diving the {noun} off {city}",
            "{Adj} {noun} near {city}",
            "Beneath the surface: {noun}, {country}",
            "A dive to the {adj} {noun}",
        ),
        (
            "Dive into {a_adj} {noun} at {depth} metres.",
            "Turtles, rays and reef fish swim by the camera.",
            "One of the best dive sites of {country}.",
            "Visibility was over 20 metres on the day of the dive.",
        ),
    ),
    "Aerial": CategoryText(
        ("sweeping", "dramatic", "golden", "breathtaking", "vast"),
        ("{City} from above", "{Time} over {city}", "{Adj} {noun} above {city}", "Flying over the {noun} of {country}"),
        (
            "{A_adj} {noun} from {altitude} metres.",
            "See how the city meets the landscape around it.",
            "Flown at {time_of_day} for the softest light.",
            "Zoom in to find the landmarks of {city}.",
        ),
    ),
    "Historic Sites": CategoryText(
        ("medieval", "ancient", "royal", "fortified", "legendary"),
        (
            "The {adj} {noun} of {city}",
            "{Time} at the {noun}, {city}",
            "Inside {a_noun} near {city}",
            "Walls and towers: {noun} of {city}",
        ),
        (
            "Built in {year}, the {noun} guarded {city} for centuries.",
            "Climb the towers and walk along the walls.",
            "{A_adj} {noun} that shaped the history of {country}.",
            "The great hall is open to visitors again.",
        ),
    ),
    "Science & Space": CategoryText(
        ("remote", "modern", "historic", "stellar", "cutting-edge"),
        (
            "Under the stars at the {noun} near {city}",
            "{Adj} {noun}, {city}",
            "Inside the {noun} of {city}",
            "Night sky over the {noun}, {country}",
        ),
        (
            "The telescopes of this {adj} {noun} look deep into space.",
            "See the instruments scientists use every day.",
            "Open to the public since {year}.",
            "Clear skies make it one of the best places to stargaze in {country}.",
        ),
    ),
}

# Singular nouns where the subcategory's name does not singularise by itself.
_NOUN_OVERRIDES: dict[str, str] = {
    "Land & Lots": "building plot",
    "Bed & Breakfast": "bed & breakfast",
    "Squares & Plazas": "main square",
    "Lakes & Rivers": "lake",
    "Gyms & Fitness": "gym",
    "Climbing": "climbing wall",
    "Surfing": "surf beach",
    "Zoos & Aquariums": "aquarium",
    "Bars & Pubs": "pub",
    "Ships & Ferries": "ferry",
    "Aircraft": "aircraft",
    "Metro Systems": "metro station",
    "Hot Air Balloons": "balloon flight",
    "Marine Life": "reef",
    "Natural Phenomena": "volcano",
    "Interior Design": "designed interior",
    "Residential Design": "residence",
    "Modern Architecture": "modern building",
    "Senior Living": "senior residence",
    "Folk Architecture": "folk house",
    "Heritage Crafts": "craft workshop",
    "Campus Tours": "campus",
    "Old Towns": "old town",
    "Road Trips": "scenic road",
    "Cruises": "cruise ship",
    "City Tours": "city centre",
    "Ruins": "ruins",
    "Commercial Property": "commercial property",
    "Drone Panoramas": "skyline",
    "Exhibitions": "exhibition hall",
    "Private Collections": "private collection",
    "Construction Sites": "construction site",
}


def noun_of(subcategory: str) -> str:
    """The subcategory as a singular noun for titles: 'Universities' → 'university'."""
    if subcategory in _NOUN_OVERRIDES:
        return _NOUN_OVERRIDES[subcategory]
    words = subcategory.split()
    last = words[-1]
    if last.endswith("ies"):
        last = last[:-3] + "y"
    elif last.endswith(("sses", "ches", "shes")):
        last = last[:-2]
    elif last.endswith("s"):
        last = last[:-1]
    words[-1] = last
    # Acronyms (UNESCO) keep their case; other words are lowercased for use inside a sentence.
    return " ".join(word if word.isupper() else word.lower() for word in words)


def with_article(noun: str) -> str:
    lowered = noun.lower()
    starts_with_vowel_sound = lowered[:1] in "aeio" or (
        lowered[:1] == "u" and not lowered.startswith(("uni", "une", "eu"))
    )
    return f"{'an' if starts_with_vowel_sound and not noun.isupper() else 'a'} {noun}"


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True, slots=True)
class TourWords:
    title: str
    description: str


def compose_tour_text(
    rng: random.Random,
    *,
    category: str,
    subcategory: str,
    media_type: str,
    device: str | None,
    city: str,
    country: str,
) -> TourWords:
    text = CATEGORY_TEXTS[category]
    noun = noun_of(subcategory)
    adjective = rng.choice(text.adjectives)
    values = {
        "adj": adjective,
        "Adj": _capitalise(adjective),
        "a_adj": with_article(adjective),
        "A_adj": _capitalise(with_article(adjective)),
        "noun": noun,
        "Noun": _capitalise(noun),
        "a_noun": with_article(noun),
        "city": city,
        "City": city,
        "country": country,
        "time": rng.choice(TIMES).lower(),
        "Time": rng.choice(TIMES),
        "year": str(rng.randint(1650, 2022)),
        "guests": str(rng.choice((120, 250, 400, 800, 1500, 5000, 20000))),
        "depth": str(rng.randint(6, 35)),
        "altitude": str(rng.choice((80, 120, 150, 300, 500))),
        "time_of_day": rng.choice(("sunrise", "sunset", "golden hour")),
        "scenes": str(rng.randint(6, 40)),
        "minutes": str(rng.randint(2, 12)),
        "a_device": with_article(device) if device else "",
        "season": rng.choice(SEASONS),
    }
    title = f"{_capitalise(rng.choice(text.titles).format(**values))} — {MEDIA_SUFFIX[media_type]}"
    sentences = rng.sample(text.sentences, k=2)
    sentences.append(rng.choice(MEDIA_SENTENCES[media_type]))
    if device:
        sentences.append(rng.choice(CAPTURE_SENTENCES))
    description = " ".join(sentence.format(**values) for sentence in sentences)
    return TourWords(title=title, description=description)


def slugify(text: str, max_length: int = 60) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")
    return slug[:max_length].rstrip("-") or "tour"


def creator_name(rng: random.Random, first_name: str, last_name: str, city: str) -> str:
    pattern = rng.random()
    suffix = rng.choice(CREATOR_SUFFIXES)
    if pattern < 0.35:
        return f"{rng.choice(CREATOR_WORDS)} {suffix}"
    if pattern < 0.6:
        return f"{last_name} {suffix}"
    if pattern < 0.8:
        return f"{city} {suffix}"
    return f"{first_name} {last_name}"


def creator_bio(rng: random.Random, *, name: str, city: str, country: str, focus: list[str]) -> str:
    specialty = rng.choice(("360°", "3D", "virtual tour", "drone", "VR"))
    focus_text = " and ".join(item.lower() for item in focus[:2]) if focus else "places worth visiting"
    values = {
        "name": name,
        "city": city,
        "country": country,
        "specialty": specialty,
        "focus": focus_text,
        "year": str(rng.randint(2008, 2021)),
    }
    parts = (rng.choice(BIO_OPENINGS), rng.choice(BIO_MIDDLES), rng.choice(BIO_CLOSINGS))
    return " ".join(part.format(**values) for part in parts if part)


AD_TITLES: tuple[str, ...] = (
    "Book a 3D tour of your property — {name}",
    "Sell faster with a virtual tour by {name}",
    "Drone panoramas for your venue — {name}",
    "Show your hotel in 360° — {name}",
    "Virtual open days for schools — {name}",
    "Street View for your business — {name}",
)
AD_DESCRIPTIONS: tuple[str, ...] = (
    "Professional capture, editing and hosting in one package. Serving {city} and {country}.",
    "Let buyers walk through before they visit. First shoot within a week in {city}.",
    "Immersive tours that bring more bookings. Ask for our seasonal offer.",
)
