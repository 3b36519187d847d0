"""Reference specification of differentially private optimization.

Five papers, each algorithm line by line, each checkable claim registered in
:mod:`reference.claims` and checked by a named test. See README.md and
docs/architecture.md.
"""

__version__ = "0.1.0"
