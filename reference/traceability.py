"""Per-paper traceability pages, generated from the registry (never hand-copied).

For a paper key, the page lists:

- each registered algorithm, with every ``# Line k: ...`` comment of its function
  and the file and line where that paper line is implemented;
- each registered claim, with its kind, statement, the tests that check it and the
  verdict of the last recorded audit (docs/audit-results.json, written by
  ``python -m reference audit --json docs/audit-results.json``), if any.

The generated part of docs/<key>.md sits between two markers; what surrounds it is
written by hand and kept. ``python -m reference trace --paper KEY --write`` rewrites
it; ``--check`` fails when the page is stale (a test runs the check).
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
from pathlib import Path

from . import claims as registry
from .errors import ParameterError

BEGIN = "<!-- BEGIN GENERATED: python -m reference trace --paper {key} --write -->"
END = "<!-- END GENERATED -->"
LINE_COMMENT = re.compile(r"#\s*Line\s+([0-9][0-9a-z.\-–]*)\s*:\s*(.*)")


def _resolve(function: str):
    module, _, name = function.partition(":")
    return getattr(importlib.import_module(module), name)


def algorithm_lines(function: str, root: Path) -> list[tuple[str, str, str]]:
    """(paper line, text, 'path:lineno') for every '# Line k:' comment of a function."""
    func = inspect.unwrap(_resolve(function))
    source, start = inspect.getsourcelines(func)
    path = Path(inspect.getsourcefile(func)).resolve()
    try:
        shown = path.relative_to(root.resolve()).as_posix()
    except ValueError:
        shown = path.name
    rows = []
    for offset, text in enumerate(source):
        match = LINE_COMMENT.search(text)
        if match:
            rows.append((match.group(1), match.group(2).strip(), f"{shown}:{start + offset}"))
    return rows


def _audit_verdicts(root: Path) -> dict[str, str]:
    path = root / "docs" / "audit-results.json"
    if not path.is_file():
        return {}
    verdicts: dict[str, list[str]] = {}
    for row in json.loads(path.read_text(encoding="utf-8")).get("rows", []):
        verdicts.setdefault(row.get("claim", ""), []).append(str(row.get("verdict", "")))
    return {cid: ", ".join(sorted(set(v))) for cid, v in verdicts.items()}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def generate(key: str, root: Path | None = None) -> str:
    """The generated section of docs/<key>.md, markers included."""
    if key not in registry.PAPERS:
        raise ParameterError("paper", f"one of {sorted(registry.PAPERS)}", key)
    root = registry.project_root() if root is None else root
    out = [BEGIN.format(key=key), "", f"_Generated from the registry for `{key}`; do not edit by hand._", ""]

    algorithms = [a for a in registry.all_algorithms() if a.paper == key]
    out.append("### Algorithms, line by line")
    out.append("")
    if not algorithms:
        out.append("No algorithm registered.")
        out.append("")
    for alg in algorithms:
        out.append(f"#### {alg.number}: {alg.name}" + (f" ({alg.section})" if alg.section else ""))
        out.append("")
        out.append(f"Implemented by `{alg.function}`.")
        out.append("")
        lines = algorithm_lines(alg.function, root)
        if lines:
            out.append("| paper line | what it does | code |")
            out.append("|---|---|---|")
            out.extend(f"| {k} | {_cell(text)} | `{where}` |" for k, text, where in lines)
        else:
            out.append("(no `# Line k:` comments in this function)")
        out.append("")

    verdicts = _audit_verdicts(root)
    rows = registry.claims_table(key)
    checked = sum(r["status"] == "checked" for r in rows)
    out.append("### Claims")
    out.append("")
    out.append(f"{checked} of {len(rows)} registered claims are checked by a test.")
    out.append("")
    out.append("Proof: the kind of the claim's rigorous evidence in proofs/ (`domain`: proved over the domain its "
               "statement names; `point`: certified at named points or on a part of that domain; `-`: none).")
    out.append("")
    out.append("| claim | kind | statement | tests | proof | last audit verdict |")
    out.append("|---|---|---|---|---|---|")
    for r in rows:
        tests = "<br>".join(f"`{t}`" for t in r["tests"]) or "**none**"
        proof = {"domain": "domain", "point": "point"}.get(r.get("rigorous", "none"), "-")
        out.append(f"| `{r['id']}` | {r['kind']} | {_cell(r['statement'])} | {tests} | {proof} | "
                   f"{verdicts.get(r['id'], 'not audited')} |")
    out.append("")
    out.append(END)
    return "\n".join(out) + "\n"


def page_path(key: str, root: Path | None = None) -> Path:
    root = registry.project_root() if root is None else root
    return root / "docs" / f"{key}.md"


def updated_page(key: str, root: Path | None = None) -> str:
    """The whole page with its generated section replaced (or appended)."""
    path = page_path(key, root)
    generated = generate(key, root)
    if not path.is_file():
        return f"# `{key}`: {registry.PAPERS[key]}\n\n{generated}"
    text = path.read_text(encoding="utf-8")
    begin = text.find("<!-- BEGIN GENERATED")
    end = text.find(END)
    if begin == -1 or end == -1:
        return text.rstrip("\n") + "\n\n## Traceability\n\n" + generated
    return text[:begin] + generated + text[end + len(END):].lstrip("\n")


def is_current(key: str, root: Path | None = None) -> bool:
    path = page_path(key, root)
    return path.is_file() and path.read_text(encoding="utf-8") == updated_page(key, root)
