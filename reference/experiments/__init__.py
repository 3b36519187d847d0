"""Papers' experiments reproduced on data the package generates: ``python -m reference experiments KEY``.

Each paper with experiments has a module ``reference.experiments.<key>`` with ``run(quick, plots) -> str``
(the report, as Markdown tables) ; :func:`run_experiments` finds it by name.
"""

from __future__ import annotations

import importlib

from ..errors import ParameterError


def run_experiments(key: str, *, quick: bool = False, plots: str | None = None) -> str:
    try:
        module = importlib.import_module(f"{__name__}.{key}")
    except ModuleNotFoundError as exc:
        raise ParameterError("key", "a paper with reproduced experiments (reference/experiments/<key>.py)", key) from exc
    return module.run(quick=quick, plots=plots)
