"""The browser tests' fixtures (tests/support/browser.py), here so that the
modules that use them share one session-scoped stack and browser: a
fixture a test module imports is that module's own."""
import pytest

from tests.support.browser import CHROMIUM, browser, shots, stack, tab  # noqa: F401 (fixtures)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """Chromium stopped after the last of a run of tests that use it: the
    process's next test may run an event loop of its own (Playwright's sync
    API holds one on the main thread while it is started)."""
    try:
        return (yield)
    finally:
        if nextitem is None or "browser" not in getattr(nextitem, "fixturenames", ()):
            CHROMIUM.stop()
