from __future__ import annotations

from fastapi import APIRouter, Depends

from app.core.access import unrestricted
from app.core.deps import AdminUser, DbSession
from app.platform import service
from app.platform.schemas import AppVersionOut, PlatformConfigOut, PlatformConfigUpdate

router = APIRouter(prefix="/v2/config", tags=["platform"])


@router.get("/", response_model=PlatformConfigOut, dependencies=[Depends(unrestricted)])
def get_config(db: DbSession) -> PlatformConfigOut:
    config = service.get_config(db)
    return PlatformConfigOut(restrict_access=config.restrict_access, images_approval=config.images_approval)


@router.put("/", response_model=PlatformConfigOut)
def update_config(body: PlatformConfigUpdate, db: DbSession, _admin: AdminUser) -> PlatformConfigOut:
    config = service.update_config(db, restrict_access=body.restrict_access, images_approval=body.images_approval)
    return PlatformConfigOut(restrict_access=config.restrict_access, images_approval=config.images_approval)


@router.get("/app-version", response_model=AppVersionOut, dependencies=[Depends(unrestricted)])
def get_app_version(db: DbSession) -> AppVersionOut:
    return AppVersionOut(gui_version=service.get_config(db).gui_version)
