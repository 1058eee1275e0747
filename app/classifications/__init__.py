"""Classifications: categories, subcategories, media types, capture devices, tags, vendors (hosts), ranks."""
