"""Every command the README and docs/architecture.md show exists, with the options shown.

The fenced code blocks of those pages are parsed: each line that starts with
``python -m reference`` names a subcommand and options (``--name``); the command line's own
parser must know the subcommand and every option, so a renamed or dropped option makes a
documented command fail here before a user types it. The pages must also show each
subcommand at least once (a command the docs never show is one no newcomer finds).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reference.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("README.md", "docs/architecture.md")


def _subparsers() -> dict:
    parser = build_parser()
    action = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return dict(action.choices)


def documented_commands(page: str) -> list[tuple[int, str, list[str]]]:
    """(line number, subcommand, options) of each ``python -m reference`` line in a fenced block."""
    out, fenced = [], False
    for number, line in enumerate((ROOT / page).read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            continue
        for match in re.finditer(r"python -m reference (\{?[a-z,]+\}?)([^#&|;]*(?:\|[^#&;]*)?)", line):
            names, rest = match.group(1), match.group(2)
            options = re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", rest)
            for name in names.strip("{}").split(","):
                out.append((number, name, options))
    return out


@pytest.mark.parametrize("page", PAGES)
def test_every_documented_command_and_option_exists(page):
    parsers = _subparsers()
    problems = []
    found = documented_commands(page)
    assert found, f"{page} shows no 'python -m reference' command in a code block"
    for number, name, options in found:
        if name not in parsers:
            problems.append(f"{page}:{number}: no subcommand {name!r}")
            continue
        known = {s for a in parsers[name]._actions for s in a.option_strings}
        problems += [f"{page}:{number}: {name} has no option {o}" for o in options if o not in known]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", PAGES)
def test_every_subcommand_is_shown(page):
    shown = {name for _, name, _ in documented_commands(page)}
    missing = sorted(set(_subparsers()) - shown)
    assert not missing, f"{page} never shows: {missing}"


def test_the_parser_of_this_test_can_fail():
    """A made-up option and subcommand are caught (the check is not vacuous)."""
    parsers = _subparsers()
    known = {s for a in parsers["audit"]._actions for s in a.option_strings}
    assert "--quick" in known and "--no-such-option" not in known
    assert "nosuch" not in parsers
