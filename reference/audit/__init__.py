"""Empirical privacy, exact profiles, convergence-rate fits and the audit report."""
