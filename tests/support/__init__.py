"""What the tests share: helpers (no tests here). The fixtures that start
servers for any test are in tests/conftest.py; the browser tests' own in
browser.py, the webhook receivers' in receivers.py."""
