"""The portal tests' budget for Playwright's `expect`: 20 s, not its default of 5 s.

`wait_for` already waits up to the context's 30 s; `expect` gave a refetch 5 s. Under
`make test` (four xdist workers, each with Chromium and a server, on two cores) a filter's
refetch once took longer than that in CI, and the assertion failed on a page that was right.
The bound is for a slow host, not a delay: a passing `expect` returns as soon as it holds.
"""

from playwright.async_api import expect

from tests.portal.harness import portal_page  # noqa: F401 - the portal tests' page fixture

expect.set_options(timeout=20_000)
