"""Locations (spec §7 Location): countries, place search, reverse geocoding and addresses behind the
`Geocoder` port — the offline gazetteer by default, a Mapbox-v5-compatible service when GEOCODER_URL
is set. Routes: `app.locations.router.router`."""
