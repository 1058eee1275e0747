"""TourAtlas: discovery and publishing of virtual tours."""
