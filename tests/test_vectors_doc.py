"""docs/vectors.md stays true: its Python reader (which imports nothing from the package) replays vector
files written by ``python -m reference vectors``, rejects a port with the wrong noise scale or the wrong
selection sign, and the page documents every id that ``python -m reference list`` shows."""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from reference.cli import list_entries

DOC = Path(__file__).resolve().parents[1] / "docs" / "vectors.md"


@pytest.fixture(scope="module")
def reader():
    text = DOC.read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```python\n(.*?)```", text, flags=re.S) if "docs/vectors.md reader" in b)
    assert "import reference" not in block and "from reference" not in block
    namespace: dict = {}
    exec(compile(block, str(DOC), "exec"), namespace)   # noqa: S102 - the page's own code
    return namespace


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    out = tmp_path_factory.mktemp("vectors")
    for ident in ("core:laplace_mechanism", "lasso:Corollary 2.7"):
        subprocess.run([sys.executable, "-m", "reference", "vectors", "--out", str(out), "--algorithm", ident],
                       check=True, capture_output=True)
    return out


def test_the_pages_reader_replays_the_vector_files(reader, files):
    assert reader["check"](files / "core_laplace_mechanism__vector-3d.json", reader["laplace_mechanism"])
    assert reader["check"](files / "lasso_Corollary_2.7__laplace-paper-n400-p6.json", reader["private_lasso_paper"])


def test_the_pages_reader_rejects_a_wrong_scale_and_a_wrong_sign(reader, files):
    path = files / "lasso_Corollary_2.7__laplace-paper-n400-p6.json"

    def four_fifths_of_the_noise(inputs, stream):
        return reader["private_lasso_paper"]({**inputs, "epsilon": inputs["epsilon"] / 0.8}, stream)

    with pytest.raises(ValueError, match="stream element 0"):
        reader["check"](path, four_fifths_of_the_noise)

    class PlusNoise:   # the paper's '+ Lap' read literally: argmin(score + z) instead of argmax(-score + z)
        def __init__(self, stream):
            self.stream = stream

        def take(self, dist, n, **params):
            return -self.stream.take(dist, n, **params)

        def exhausted(self):
            return self.stream.exhausted()

    def plus_sign(inputs, stream):
        return reader["private_lasso_paper"](inputs, PlusNoise(stream))

    assert not reader["check"](path, plus_sign)


def test_every_listed_id_has_an_entry_on_the_page():
    text = DOC.read_text(encoding="utf-8")
    missing = [e["id"] for e in list_entries() if f"`{e['id']}`" not in text]
    assert not missing, f"docs/vectors.md says nothing about {missing}"


def test_the_pages_objective_perturbation_tolerance_is_the_cases():
    """The page derives Algorithm 2's tolerance 2 sqrt(2 gap / zeta) with zeta = 2 / (n eps); the case uses it."""
    from reference.oracle.suite import cases

    for case in cases("erm_geometry:Algorithm 2"):
        kw = case.make_kwargs()
        zeta = 2.0 / (np.asarray(kw["X"]).shape[0] * kw["epsilon"])
        assert case.atol == pytest.approx(2 * math.sqrt(2 * 1e-12 / zeta)) and case.rtol == 0.0
