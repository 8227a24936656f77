"""What the tests share: helpers (no tests here). Fixtures are in tests/conftest.py."""
