"""The committed figures (docs/img) belong to the committed audit results (docs/audit-results.json).

They are drawn by ``python -m reference audit --from-json docs/audit-results.json --plots docs/img``; each PNG
carries, in its text chunk ``Source``, the results file's sha256 and the run it came from. A figure left over
from an older run (the issue: privacy_online.png showing controls the audit no longer has) fails here. The PNG
chunks are read with the standard library, so this runs without the optional matplotlib.
"""

from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path

import pytest

from reference.audit.runner import PLOT_STAMP_KEY, plot_names, read_json, results_stamp

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "docs" / "audit-results.json"
IMG = ROOT / "docs" / "img"


def png_text(path: Path) -> dict[str, str]:
    """The tEXt / zTXt / iTXt chunks of a PNG, by keyword."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    out, at = {}, 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        at += 12 + length
        if kind == b"tEXt":
            key, _, value = body.partition(b"\0")
            out[key.decode("latin-1")] = value.decode("latin-1")
        elif kind == b"zTXt":
            key, _, rest = body.partition(b"\0")
            out[key.decode("latin-1")] = zlib.decompress(rest[1:]).decode("latin-1")
        elif kind == b"iTXt":
            key, _, rest = body.partition(b"\0")
            flag, _method, rest = rest[0], rest[1], rest[2:]
            _lang, _, rest = rest.partition(b"\0")
            _tkey, _, text = rest.partition(b"\0")
            out[key.decode("latin-1")] = (zlib.decompress(text) if flag else text).decode("utf-8")
        elif kind == b"IEND":
            break
    return out


def _audit_figures() -> set[str]:
    return {p.name for p in IMG.glob("*.png") if re.match(r"(privacy|rate)_", p.name)}


def test_the_committed_figures_are_exactly_those_of_the_committed_results():
    _, rows = read_json(str(RESULTS))
    assert _audit_figures() == set(plot_names(rows))


@pytest.mark.parametrize("name", sorted(_audit_figures()))
def test_each_committed_figure_is_stamped_with_the_committed_results(name):
    metadata, _ = read_json(str(RESULTS))
    assert png_text(IMG / name).get(PLOT_STAMP_KEY) == results_stamp(str(RESULTS), metadata), \
        f"docs/img/{name} was not drawn from docs/audit-results.json: redraw with " \
        "python -m reference audit --from-json docs/audit-results.json --plots docs/img"


def test_every_image_the_docs_link_exists():
    missing = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for link in re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", page.read_text(encoding="utf-8")):
            if not (page.parent / link).exists():
                missing.append(f"{page.name}: {link}")
    assert not missing, missing


def test_the_stamp_check_can_fail(tmp_path):
    """A results file with one byte changed has another stamp (the check is not vacuous)."""
    metadata, _ = read_json(str(RESULTS))
    changed = tmp_path / RESULTS.name
    changed.write_bytes(RESULTS.read_bytes() + b" ")
    assert results_stamp(str(changed), metadata) != results_stamp(str(RESULTS), metadata)
