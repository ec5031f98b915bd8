"""Test-only code shared by test modules (``tests/`` is on ``sys.path`` under pytest)."""
