"""What every JSON report carries so that two reports can be told apart later.

``report_metadata(**fields)`` returns the package's name and version, the git commit of
the checkout the package was imported from (when it is a git checkout; ``None`` otherwise,
with ``git_dirty`` saying whether tracked files differ from that commit), the UTC date and
time, and the Python, numpy, scipy and mpmath versions, plus any ``fields`` the command
adds (``quick``, the audit's root seed, ``beta``, the paper filter).
"""

from __future__ import annotations

import datetime as _dt
import platform
import subprocess
from pathlib import Path

PACKAGE = "dp-optimization-reference"


def _git(root: Path, *args: str) -> str | None:
    try:
        proc = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def git_state(root: Path | None = None) -> tuple[str | None, bool | None]:
    """(commit, dirty) of the checkout holding the package, or (None, None) outside a git checkout."""
    root = Path(__file__).resolve().parent.parent if root is None else root
    if not (root / ".git").exists():
        return None, None
    commit = _git(root, "rev-parse", "HEAD")
    if commit is None:
        return None, None
    status = _git(root, "status", "--porcelain", "--untracked-files=no")
    return commit, (None if status is None else bool(status))


def report_metadata(**fields) -> dict:
    """The metadata object of a JSON report (see the module docstring)."""
    import mpmath
    import numpy
    import scipy

    from . import __version__

    commit, dirty = git_state()
    meta = {
        "package": PACKAGE,
        "version": __version__,
        "git_commit": commit,
        "git_dirty": dirty,
        "date_utc": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "mpmath": mpmath.__version__,
        "platform": platform.platform(terse=True),
    }
    meta.update(fields)
    return meta
