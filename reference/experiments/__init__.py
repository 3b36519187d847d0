"""Papers' experiments reproduced on data the package generates: ``python -m reference experiments KEY``.

Each paper with experiments has a module ``reference.experiments.<key>`` with ``run(quick, plots) -> str``
(the report, as Markdown tables) ; :func:`run_experiments` finds it by name.
"""

from __future__ import annotations

import importlib

from ..errors import ParameterError


def available() -> list[str]:
    """The paper keys whose experiments are reproduced (one module each in this folder)."""
    import pkgutil

    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def run_experiments(key: str, *, quick: bool = False, plots: str | None = None) -> str:
    if key not in available():
        raise ParameterError("key", f"be a paper whose experiments are reproduced: {', '.join(available())} "
                                    "(the other papers' experiments are not reproduced here)", key)
    module = importlib.import_module(f"{__name__}.{key}")
    return module.run(quick=quick, plots=plots)
