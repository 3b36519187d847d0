"""The package is self-contained: a copy under another name imports only itself.

The conform kill matrix (reference/mutants/conform.py) imports a mutated copy of the package under
another name beside the clean one; an absolute ``reference.`` import inside the package would make the
copy run clean code (the mutant silently not applied). This test copies reference/ to a temporary
package, forbids importing ``reference`` in a fresh interpreter, and imports every module of the copy
(and walks its claims registry and audit cases, the two places that discover modules by name).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import reference

SCRIPT = textwrap.dedent("""
    import importlib, pkgutil, sys

    class Forbid:
        def find_spec(self, name, path=None, target=None):
            if name == "reference" or name.startswith("reference."):
                raise ImportError(f"the copy imported the original package: {name}")

    sys.meta_path.insert(0, Forbid())
    import refcopy
    failed = []
    for info in pkgutil.walk_packages(refcopy.__path__, prefix="refcopy."):
        if info.name.endswith(".__main__"):
            continue
        try:
            importlib.import_module(info.name)
        except Exception as exc:
            failed.append(f"{info.name}: {exc!r}")
    from refcopy import claims
    from refcopy.audit import runner
    assert claims.all_algorithms() and claims.all_claims() and runner.discover_cases()
    leaked = sorted(m for m in sys.modules if m == "reference" or m.startswith("reference."))
    assert not leaked, leaked
    print("\\n".join(failed) or "ok")
""")


def test_copy_under_another_name_imports_only_itself(tmp_path: Path):
    src = Path(reference.__file__).parent
    shutil.copytree(src, tmp_path / "refcopy", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    proc = subprocess.run([sys.executable, "-c", SCRIPT], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin",
                                            "PYTHONDONTWRITEBYTECODE": "1"})
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stdout + proc.stderr
