"""The worked examples (examples/): vectorised ports that conform, and broken copies that do not.

Each port is run through the oracle as a user would (``reference.oracle.conform.check_implementation``,
what ``python -m reference conform`` runs): replay on every vector case of its algorithm id (exact: the
port consumes the reference's draws as a stream of values, in its own batching) and one law check.
A deliberately broken copy of each port (the same source with half the noise, written to a temporary
module) must be rejected by the same checks. The law checks use fixed seeds (deterministic); each has
false-alarm rate alpha = 1e-3 against a correct port, and the half-noise copies are rejected at
p < 1e-5 (measured: lasso p ~ 1e-28, mirror descent p ~ 1e-5 to 1e-6), far from alpha.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from pathlib import Path

import pytest

from reference.oracle.conform import check_implementation
from reference.oracle.suite import cases
from reference.oracle.vectors import distribution_check, resolve

ROOT = Path(__file__).resolve().parents[1]

PORTS = {
    "lasso": ("examples.private_lasso:private_lasso", "lasso:Algorithm 2", "laplace-paper-n400-p6-T12",
              "    lam = noise_scale(", "    lam = 0.5 * noise_scale("),
    "mirror": ("examples.mirror_descent:noisy_mirror_descent", "erm_geometry:Algorithm 1",
               "l2-euclidean-certified-n60-p5-T8",
               "b = sigma * rng.standard_normal((T, p))", "b = 0.5 * sigma * rng.standard_normal((T, p))"),
}


@pytest.fixture(autouse=True)
def _quiet_paper_calibration():
    # private_lasso(calibration="paper") warns that its printed noise is not certified (lasso-E02): expected here
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"private_lasso\(calibration='paper'\)")
        yield


def _case(algorithm: str, name: str):
    (case,) = [c for c in cases(algorithm) if c.name == name]
    return case


def _edited_copy(tmp_path: Path, monkeypatch, target: str, find: str, replace: str, name: str) -> str:
    """The port's source with one edit, importable as ``name``; returns the conform target string."""
    module, _, function = target.partition(":")
    text = (ROOT / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")
    assert text.count(find) == 1, f"{find!r} must occur once in {module}"
    (tmp_path / f"{name}.py").write_text(text.replace(find, replace), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    monkeypatch.delitem(sys.modules, name, raising=False)
    return f"{name}:{function}"


CHEAP = "replay,accounting,feasibility,sparsity,zero-noise,finite-shape,determinism,validation"


@pytest.mark.parametrize("port", sorted(PORTS))
def test_port_replays_every_vector_case_and_keeps_the_invariants(port):
    target, algorithm, *_ = PORTS[port]
    rows = check_implementation(target, algorithm, mode=CHEAP)
    replayed = [r for r in rows if r.check == "replay"]
    assert len(replayed) == len(cases(algorithm)) >= 4
    assert all(r.passed for r in rows), [(r.check, r.case, r.detail) for r in rows if not r.passed]
    # the invariants the cases declare apply to the port (not only n/a)
    assert {r.check for r in rows if r.status == "pass"} >= {"replay", "feasibility", "zero-noise", "finite-shape"}


@pytest.mark.parametrize("port", sorted(PORTS))
def test_port_passes_the_law_check(port):
    target, algorithm, case_name, *_ = PORTS[port]
    ok, p_value, detail = distribution_check(_case(algorithm, case_name), resolve(target))
    assert ok, detail


@pytest.mark.parametrize("port", sorted(PORTS))
def test_half_noise_copy_of_the_port_is_rejected(port, tmp_path, monkeypatch):
    target, algorithm, case_name, find, replace = PORTS[port]
    broken = _edited_copy(tmp_path, monkeypatch, target, find, replace, f"half_noise_{port}")
    rows = check_implementation(broken, algorithm, mode="replay")
    assert rows and not any(r.passed for r in rows), [(r.case, r.detail) for r in rows if r.passed]
    if port == "lasso":   # it asks for Lap(lambda/2): the stream parts at the first draw, naming both scales;
        # the exponential selection draws uniforms (the same values) and selects otherwise with them
        assert all(("max |difference|" in r.detail) if r.case.startswith("exponential") else
                   ("stream element 0" in r.detail and ("laplace(loc=0.0, scale=" in r.detail or
                                                        "gumbel(loc=0.0, scale=" in r.detail)) for r in rows), \
            [(r.case, r.detail) for r in rows]
    else:                 # it asks for standard normals, as the reference does, and scales them by sigma/2
        assert all("max |difference|" in r.detail for r in rows)


@pytest.mark.parametrize("port", ["lasso", pytest.param("mirror", marks=pytest.mark.deep)])
def test_half_noise_copy_of_the_port_fails_the_law_check(port, tmp_path, monkeypatch):
    """The black-box side of the same rejection (mirror descent's costs ~5 s of reference runs: --deep)."""
    target, algorithm, case_name, find, replace = PORTS[port]
    broken = _edited_copy(tmp_path, monkeypatch, target, find, replace, f"half_noise_law_{port}")
    ok, p_value, detail = distribution_check(_case(algorithm, case_name), resolve(broken))
    assert not ok and p_value < 1e-4, detail


def test_paper_sign_of_the_laplace_noise_passes_the_law_and_not_replay(tmp_path, monkeypatch):
    """Line 3 prints alpha_s = <s, g> + Lap(lambda); the reference uses <s, g> - Z (same law, Lap is
    symmetric). On the reference's own draws the two select differently: replay, which compares outputs on
    the same values, rejects the '+' port although it is the paper's algorithm; the law check passes it.
    The README of examples/ says so."""
    target, algorithm, case_name, *_ = PORTS["lasso"]
    plus = _edited_copy(tmp_path, monkeypatch, target, "np.argmin(scores - draw(0.0, lam, 2 * p))",
                        "np.argmin(scores + draw(0.0, lam, 2 * p))", "paper_sign_lasso")
    case = _case(algorithm, case_name)
    (row,) = [r for r in check_implementation(plus, algorithm, mode="replay") if r.case == case_name]
    assert not row.passed and "max |difference|" in row.detail
    ok, _, detail = distribution_check(case, resolve(plus))
    assert ok, detail
