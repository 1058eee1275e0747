"""What JavaScript each screen makes the browser download, measured in Debian's Chromium.

Opens each route of a running TourAtlas (signed out, a phone-sized window), waits for the network to
settle, and sums the scripts requested: their gzipped size (zlib level 9 of the body, so the figure
does not depend on how the server encodes) and the bytes actually transferred.

    .venv/bin/python -m bench.bench_route_js --base http://127.0.0.1:8000 [--routes / /map]

The test command holds the same budget without a browser (scripts/check-bundle-budget.mjs, from the
Vite manifest); this is the ground truth that check is compared with.
"""

from __future__ import annotations

import argparse
import gzip
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # one set of Chromium flags for tests and benches

if TYPE_CHECKING:
    from playwright.sync_api import Page, Response

DEFAULT_ROUTES = ["/", "/map", "/registration"]


@dataclass
class RouteScripts:
    route: str
    gzipped: dict[str, int] = field(default_factory=dict)
    transferred: dict[str, int] = field(default_factory=dict)

    @property
    def gzipped_total(self) -> int:
        return sum(self.gzipped.values())

    @property
    def transferred_total(self) -> int:
        return sum(self.transferred.values())


def _collect_responses(page: Page) -> list[Response]:
    responses: list[Response] = []

    def keep(response: Response) -> None:
        responses.append(response)

    page.on("response", keep)
    return responses


def measure(base: str, routes: list[str]) -> list[RouteScripts]:
    from playwright.sync_api import sync_playwright

    results = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            for route in routes:
                # A fresh context per route: nothing cached, nothing loaded by an earlier screen.
                context = browser.new_context(viewport={"width": 390, "height": 844})
                page = context.new_page()
                scripts = RouteScripts(route)
                responses = _collect_responses(page)
                page.goto(base + route, wait_until="networkidle")
                for response in responses:
                    if response.request.resource_type != "script":
                        continue
                    name = response.url.removeprefix(base)
                    scripts.gzipped[name] = len(gzip.compress(response.body(), compresslevel=9))
                    scripts.transferred[name] = response.request.sizes()["responseBodySize"]
                results.append(scripts)
                context.close()
        finally:
            browser.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the running server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--routes", nargs="*", default=DEFAULT_ROUTES)
    args = parser.parse_args()
    for scripts in measure(args.base.rstrip("/"), args.routes):
        print(
            f"{scripts.route}: {len(scripts.gzipped)} scripts, {scripts.gzipped_total / 1000:.1f} kB gzipped, "
            f"{scripts.transferred_total / 1000:.1f} kB transferred"
        )
        for name, size in sorted(scripts.gzipped.items(), key=lambda item: -item[1]):
            print(f"    {size / 1000:8.1f} kB  {name}  (sent {scripts.transferred[name] / 1000:.1f} kB)")


if __name__ == "__main__":
    main()
