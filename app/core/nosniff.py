"""`X-Content-Type-Options: nosniff` on the answers under a path prefix (the uploads): a browser then
never reads an uploaded file as something other than its declared type (an image as HTML, say)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEADER = (b"x-content-type-options", b"nosniff")


class NoSniffMiddleware:
    def __init__(self, app: ASGIApp, *, path_prefix: str) -> None:
        self.app = app
        self.path_prefix = path_prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.path_prefix):
            await self.app(scope, receive, send)
            return

        async def send_with_nosniff(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.setdefault("headers", [])
                if all(name.lower() != HEADER[0] for name, _ in headers):
                    headers.append(HEADER)
            await send(message)

        await self.app(scope, receive, send_with_nosniff)
