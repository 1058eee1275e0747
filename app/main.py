"""create_app(): the FastAPI application, the Socket.IO server and the built front end on one port."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import socketio
from fastapi import APIRouter, Depends, FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Lifespan

from app.ads.router import router as ads_router
from app.analytics.router import router as analytics_router
from app.auth.router import router as auth_router
from app.billing.router import router as billing_router
from app.classifications.router import router as classifications_router
from app.core.access import unrestricted
from app.core.concurrency import RequestConcurrencyLimit
from app.core.deps import DbSession, guard_request
from app.core.errors import KeepConnectionAfterError, install_error_handlers
from app.core.methods import answer_every_method
from app.core.openapi import install_openapi
from app.core.request_id import RequestIdMiddleware
from app.core.security_headers import SecurityHeadersMiddleware
from app.core.settings import APP_VERSION, get_settings
from app.core.static import add_response_compression, mount_frontend
from app.core.tasks import start_periodic_tasks
from app.crawler.router import router as crawler_router
from app.creators.router import router as creators_router
from app.discovery.previews import page_meta
from app.discovery.router import router as discovery_router
from app.engagement.router import router as engagement_router
from app.locations import basemap
from app.locations.router import router as locations_router
from app.mailing.router import router as mailing_router
from app.moderation.router import router as moderation_router
from app.notifications.router import router as notifications_router
from app.platform import service as platform_service
from app.platform.router import router as platform_router
from app.platform.schemas import HealthOut
from app.realtime.server import get_sio, realtime_lifespan
from app.releases.router import router as releases_router
from app.support.router import router as support_router
from app.task_modules import load_task_modules
from app.tours.router import router as tours_router
from app.users.router import router as users_router
from app.vendors.router import router as vendors_router

# One router per domain that has calls (each includes its own sub-routers in the order its paths
# need); a domain joins this list when it gets its first call. No path of one domain can be taken by
# another's, so the order only decides how soon a request finds its route
# (tests/api/test_router_order.py checks both).
DOMAIN_ROUTERS: list[APIRouter] = [
    # First: requests are matched against the routes in this order, and the feed is the most
    # frequent call.
    discovery_router,
    # discovery/router.py holds a second router, for its /v2/locations calls: to be folded into
    # discovery_router once the feed route there is rewritten.
    platform_router,
    classifications_router,
    vendors_router,
    locations_router,
    auth_router,
    users_router,
    moderation_router,
    notifications_router,
    engagement_router,
    creators_router,
    analytics_router,
    tours_router,
    ads_router,
    billing_router,
    mailing_router,
    crawler_router,
    releases_router,
    support_router,
]

# Paths the single-page app must never swallow: unknown API paths answer 404 JSON.
API_PREFIXES = ("v2/", "pending-api/", "health", "openapi.json", "docs", "redoc", "socket.io", "uploads/")


def _operation_id(route: APIRoute) -> str:
    """`<domain>-<function>`: stable, readable names for the generated TypeScript client."""
    tag = route.tags[0] if route.tags else "default"
    return f"{tag}-{route.name}"


def create_app(domain_routers: Sequence[APIRouter] = DOMAIN_ROUTERS) -> FastAPI:
    """The application; `domain_routers` in another order is how a test shows the order does not matter."""
    settings = get_settings()
    # Every domain's tasks registered before a request or the in-process beat submits one.
    load_task_modules()
    app = FastAPI(
        title="TourAtlas API",
        version=APP_VERSION,
        generate_unique_id_function=_operation_id,
        # FastAPI's own OpenTelemetry hooks: TourAtlas configures no provider, yet left on they look the
        # three global providers up on every request (some 10 µs of the feed's event-loop time).
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    install_error_handlers(app)
    app.add_middleware(
        CORSMiddleware,
        allow_origins=settings.cors_origins,
        allow_credentials=True,
        allow_methods=["*"],
        allow_headers=["*"],
        expose_headers=["x-request-id"],
    )
    app.add_middleware(RequestIdMiddleware)
    app.add_middleware(RequestConcurrencyLimit, limit=settings.max_requests_in_flight)
    app.add_middleware(SecurityHeadersMiddleware)
    add_api_routes(app, domain_routers)
    # Security and error answers of each operation, from its access declaration (defect 8).
    install_openapi(app)
    _mount_uploads(app, settings.uploads_dir)
    _mount_frontend(app, settings.frontend_dist)
    # Last: its HEAD middleware goes outside every other one.
    answer_every_method(app)
    return app


def add_api_routes(app: FastAPI, domain_routers: Sequence[APIRouter] = DOMAIN_ROUTERS) -> None:
    """Every operation of the API (tests/api/test_access.py lists them from a bare app this way)."""
    for router in domain_routers:
        # Spec §6 "Restricted access": every call refuses signed-out callers unless declared
        # Access.UNRESTRICTED. No text input carries NUL: PostgreSQL cannot store it (app/core/text_input.py).
        app.include_router(router, dependencies=[Depends(guard_request)])
    _add_health(app)


def _add_health(app: FastAPI) -> None:
    @app.get(
        "/health",
        response_model=HealthOut,
        tags=["platform"],
        operation_id="platform-health",
        dependencies=[Depends(unrestricted)],
    )
    def health(db: DbSession) -> HealthOut:
        from app.search.registry import get_index
        from app.search.shared_index import shared_index_warnings

        database = platform_service.database_status(db)
        index = get_index().health()
        redis = platform_service.redis_status()
        warnings = shared_index_warnings()
        healthy = database == "ok" and index.startswith("ok") and not redis.startswith("error") and not warnings
        return HealthOut(
            status="ok" if healthy else "degraded", database=database, index=index, redis=redis, warnings=warnings
        )


def _mount_uploads(app: FastAPI, uploads_dir: Path) -> None:
    uploads_dir.mkdir(parents=True, exist_ok=True)
    # Re-encoded images; SecurityHeadersMiddleware sends nosniff and a policy that runs nothing.
    app.mount("/uploads", StaticFiles(directory=uploads_dir), name="uploads")


def _mount_frontend(app: FastAPI, dist: Path) -> None:
    """The built React app (precompressed, cacheable assets; index.html for client-side routes) and
    compressed JSON answers: app/core/static.py."""
    add_response_compression(app)
    mount_frontend(app, dist, api_prefixes=API_PREFIXES, page_meta=page_meta)


def create_asgi_app() -> ASGIApp:
    """The process entry point: Socket.IO in front, FastAPI for everything else."""
    api = create_app()
    api.router.lifespan_context = _serving_lifespan(api.router.lifespan_context)
    asgi: ASGIApp = socketio.ASGIApp(get_sio(), other_asgi_app=api, socketio_path="socket.io")
    # Outermost too: Socket.IO's own answers and the 500s Starlette's error middleware writes get the
    # headers as well (the app's answers already have them and are left alone).
    return KeepConnectionAfterError(SecurityHeadersMiddleware(asgi))


def _serving_lifespan(inner: Lifespan[FastAPI]) -> Lifespan[FastAPI]:
    """What a serving process runs beside the app: the realtime start-up (version notice, emitter
    bound to this loop), without Redis the in-process beat, and the basemap's warm-up. Tests'
    TestClient(create_app()) runs none of it."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[Any]:
        scheduler = start_periodic_tasks()
        # The offline basemap's shapes and names take seconds to load: not on the first visitor's time.
        threading.Thread(target=basemap.warm_up, name="touratlas-basemap-warm-up", daemon=True).start()
        try:
            async with realtime_lifespan(), inner(app) as state:
                yield state
        finally:
            if scheduler is not None:
                scheduler.stop()

    return lifespan
