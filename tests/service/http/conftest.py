"""The browser tests' fixtures (tests/support/browser.py), here so that the
modules that use them share one session-scoped stack and browser: a
fixture a test module imports is that module's own."""
from tests.support.browser import browser, shots, stack, tab  # noqa: F401 (fixtures)
