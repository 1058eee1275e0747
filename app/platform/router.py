from __future__ import annotations

from fastapi import APIRouter, Depends

from app.core.access import unrestricted
from app.core.deps import AdminUser, DbSession
from app.platform import service
from app.platform.models import PlatformConfig
from app.platform.schemas import AppVersionOut, PlatformConfigOut, PlatformConfigUpdate

router = APIRouter(prefix="/v2/config", tags=["platform"])


def _config_out(config: PlatformConfig) -> PlatformConfigOut:
    return PlatformConfigOut(
        restrict_access=config.restrict_access, images_approval=config.images_approval, gui_version=config.gui_version
    )


@router.get("/", response_model=PlatformConfigOut, dependencies=[Depends(unrestricted)])
def get_config(db: DbSession) -> PlatformConfigOut:
    return _config_out(service.get_config(db))


@router.put("/", response_model=PlatformConfigOut)
def update_config(body: PlatformConfigUpdate, db: DbSession, _admin: AdminUser) -> PlatformConfigOut:
    """restrict_access and images_approval; a new gui_version is announced to every open page."""
    config = service.update_config(
        db, restrict_access=body.restrict_access, images_approval=body.images_approval, gui_version=body.gui_version
    )
    return _config_out(config)


@router.get("/app-version", response_model=AppVersionOut, dependencies=[Depends(unrestricted)])
def get_app_version(db: DbSession) -> AppVersionOut:
    return AppVersionOut(gui_version=service.get_config(db).gui_version)
