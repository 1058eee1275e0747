"""The model registry: importing this module maps every table on `Base.metadata`.

Domain modules refer to each other only by table and class names (strings), so none imports
another; this module imports them all, which is what relationship resolution, Alembic
autogenerate and `create_all` need. Import it (not a single domain) before using the mappers.
"""

from __future__ import annotations

from app.ads import models as ads_models
from app.analytics import models as analytics_models
from app.billing import models as billing_models
from app.classifications import models as classifications_models
from app.core import outbox
from app.core.db import Base
from app.crawler import models as crawler_models
from app.creators import models as creators_models
from app.engagement import models as engagement_models
from app.mailing import models as mailing_models
from app.moderation import models as moderation_models
from app.notifications import models as notifications_models
from app.platform import models as platform_models
from app.releases import models as releases_models
from app.support import models as support_models
from app.tours import models as tours_models
from app.users import models as users_models
from app.vendors import models as vendors_models

MODEL_MODULES = (
    users_models,
    creators_models,
    classifications_models,
    vendors_models,
    tours_models,
    engagement_models,
    ads_models,
    moderation_models,
    support_models,
    notifications_models,
    releases_models,
    platform_models,
    billing_models,
    crawler_models,
    mailing_models,
    analytics_models,
    outbox,
)

metadata = Base.metadata

__all__ = ["MODEL_MODULES", "Base", "metadata"]
