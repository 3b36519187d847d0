"""Output paths of the command line, checked before any work is done.

A command that runs for minutes and then cannot write its report has wasted those minutes and
left the user a traceback. Every option that names a file or a folder to write is checked here
first, by :func:`check_output_paths`, which the command line calls before dispatching:

- a FILE option (``audit --json``, ``mutants --json``, ``mutants --markdown``): ``-`` means
  standard output; otherwise the path must not be a folder, and its folder must exist and be
  writable (the file itself is created or replaced).
- a DIR option (``audit --plots``, ``experiments --plots``, ``vectors --out``): the path must not
  be an existing file; a missing folder is created when the command writes, so the nearest
  existing ancestor must be a writable folder.

A violation raises :class:`OutputPathError` (a ``ReferenceSpecError``): the command line prints
one line and exits 2.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import ReferenceSpecError

STDOUT = "-"

# (command, attribute, option as the user types it, "file" or "dir")
OUTPUT_OPTIONS = (
    ("audit", "json", "--json", "file"),
    ("audit", "plots", "--plots", "dir"),
    ("mutants", "json", "--json", "file"),
    ("mutants", "markdown", "--markdown", "file"),
    ("experiments", "plots", "--plots", "dir"),
    ("vectors", "out", "--out", "dir"),
)


class OutputPathError(ReferenceSpecError, ValueError):
    """An output path the command could not write to; raised before any work starts."""


def check_output_file(path: str, option: str) -> None:
    """``path`` can be created or replaced as a file (``-``: standard output)."""
    if path == STDOUT:
        return
    p = Path(path)
    if p.is_dir():
        raise OutputPathError(f"{option} {path}: is a directory; give a file name")
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.exists():
        raise OutputPathError(f"{option} {path}: the directory {folder} does not exist")
    if not folder.is_dir():
        raise OutputPathError(f"{option} {path}: {folder} is not a directory")
    if not os.access(folder, os.W_OK):
        raise OutputPathError(f"{option} {path}: the directory {folder} is not writable")
    if p.exists() and not os.access(p, os.W_OK):
        raise OutputPathError(f"{option} {path}: the file exists and is not writable")


def check_output_dir(path: str, option: str) -> None:
    """``path`` is a folder, or can be made one (its nearest existing ancestor is a writable folder)."""
    if path == STDOUT:
        raise OutputPathError(f"{option} -: a directory is needed here, not standard output")
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise OutputPathError(f"{option} {path}: is an existing file; a directory is needed")
    ancestor = p
    while not ancestor.exists():
        if ancestor.parent == ancestor:
            break
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise OutputPathError(f"{option} {path}: {ancestor} is a file, so the directory cannot be made")
    if not os.access(ancestor, os.W_OK):
        raise OutputPathError(f"{option} {path}: {ancestor} is not writable")


def check_output_paths(args) -> None:
    """Check every output option of the parsed command ``args`` (``argparse.Namespace``)."""
    for command, attribute, option, kind in OUTPUT_OPTIONS:
        if getattr(args, "command", None) != command:
            continue
        value = getattr(args, attribute, None)
        if not value or not isinstance(value, str):
            continue
        (check_output_file if kind == "file" else check_output_dir)(value, option)


# (attribute, option as the user types it, module it imports, the extra that installs it)
EXTRA_OPTIONS = (
    ("plots", "--plots", "matplotlib", "plots"),
    ("scheduler", "--scheduler", "distributed", "dask"),
)


class MissingExtraError(ReferenceSpecError, ImportError):
    """An option whose optional extra is not installed; raised before any work starts."""


def check_extras(args) -> None:
    """Every option given that needs an optional extra: refuse at once, naming the extra, when its module
    is missing (``experiments --plots`` without matplotlib once ran a minute and then died in a traceback)."""
    import importlib.util

    for attribute, option, module, extra in EXTRA_OPTIONS:
        if getattr(args, attribute, None) is None:
            continue
        if importlib.util.find_spec(module) is None:
            raise MissingExtraError(f"{option} needs the optional '{extra}' extra ({module}): "
                                    f"pip install 'dp-optimization-reference[{extra}]'")
