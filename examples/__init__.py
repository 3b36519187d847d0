"""Worked examples of the oracle: fast ports checked by ``python -m reference conform`` (see README.md)."""
