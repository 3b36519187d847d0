"""The law of a deterministic algorithm is a point mass at the reference's output, and it decides by default.

For the eight deterministic ids (lasso Algorithm 1, erm_geometry Algorithm 3, heavy_tailed Algorithms 1 and 3,
online eq. (13), (20), (21) and GIGA) conform's law property (reference.oracle.properties.PointMass) runs the
candidate with fresh generators at three seeds and compares its output with the reference's within 1e-9 of the
output's largest entry (docs/conformance.md, "Deterministic ids: the law is a point mass"). Before, the law was
n/a there and only replay, which does not decide by default, saw a wrong port: a Frank-Wolfe stepping with
2/(t+1) exited 0. The ports are independent vectorised reimplementations (tests/deterministic_ports.py); no
expected value is copied from the reference: each port is compared with the reference by conform itself.
Every check here is exact (no false alarm).
"""

from __future__ import annotations

import numpy as np
import pytest

from reference.oracle.conform import check_implementation, format_report
from reference.oracle.properties import POINT_MASS_RTOL, PointMass
from reference.oracle.suite import cases
from reference.oracle.vectors import resolve

from tests import deterministic_ports as ports

DETERMINISTIC = {   # id -> the correct independent port
    "lasso:Algorithm 1": ports.lasso_fw,
    "erm_geometry:Algorithm 3": ports.erm_fw,
    "heavy_tailed:Algorithm 1": ports.scof,
    "heavy_tailed:Algorithm 3": ports.cwme,
    "online:eq. (13)": ports.igd,
    "online:eq. (20)": ports.ftl,
    "online:eq. (21)": ports.qftl,
    "online:GIGA": ports.giga,
}

# every wrong variant of tests/deterministic_ports.py, with its id: among them the Frank-Wolfe with 2/(t+1)
# (lasso_fw_2_over_t_plus_1), IGD with its step index off by one (igd_step_index), CWME's upper middle bucket for
# even m (cwme_upper_middle); ftl_count_not_curvature and giga_unit_constant agree with the reference exactly on
# the earlier cases (a_t = 1, step constant 1) and are seen only on the generic ones
WRONG = [(a, name) for a, fn in DETERMINISTIC.items() for name in sorted(dir(ports))
         if name.startswith(fn.__name__ + "_") and callable(getattr(ports, name))]


def _report(candidate, algorithm, **kwargs):
    return check_implementation(candidate, algorithm, as_json=True, **kwargs)


def _law(report):
    (law,) = [v for v in report["properties"] if v["property"] == "law"]
    return law


def test_every_deterministic_id_declares_a_point_mass_and_no_law_na():
    """The point mass is declared on every case of the eight ids (not inferred from an n/a reason), and the
    old n/a text ("deterministic: replay compares it exactly") is gone."""
    for algorithm in DETERMINISTIC:
        for case in cases(algorithm):
            assert any(isinstance(inv, PointMass) for inv in case.invariants), (algorithm, case.name)
            assert case.statistic is None and "law" not in case.not_applicable, (algorithm, case.name)
    for case in cases():
        assert "replay compares it exactly" not in " ".join(case.not_applicable.values()), case.name


@pytest.mark.parametrize("algorithm", sorted(DETERMINISTIC))
def test_an_independent_vectorised_port_conforms_by_default(algorithm):
    """A correct port that reassociates the floating point (BLAS products, cumulative sums, numpy's median over
    an axis) and never touches rng exits 0 in the default mode; its law row is a point mass, with the largest
    deviation reported and far inside the tolerance."""
    report = _report(DETERMINISTIC[algorithm], algorithm)
    assert report["passed"], format_report(report)
    law = _law(report)
    assert law["verdict"] == "pass" and law["decides"], law
    assert "point mass" in law["detail"] and "largest deviation" in law["detail"], law


@pytest.mark.parametrize("algorithm,name", WRONG, ids=[f"{a}-{n}" for a, n in WRONG])
def test_a_wrong_deterministic_port_fails_by_default_naming_law(algorithm, name):
    """Exit 1 under the default mode (replay not required), with law among the failed deciding properties, for
    each of the 18 wrong variants."""
    report = _report(getattr(ports, name), algorithm)
    assert not report["passed"], format_report(report)
    assert "law" in report["failed"], report["failed"]
    law = _law(report)
    assert law["verdict"] == "fail" and "largest deviation" in law["detail"], law


def _reference_of(algorithm):
    return resolve(cases(algorithm)[0].reference)


@pytest.mark.parametrize("algorithm", ["lasso:Algorithm 1", "online:eq. (21)"])
def test_the_reference_perturbed_by_a_relative_1e_13_passes(algorithm):
    """Rounding-level differences (a relative 1e-13 on every entry, a hundred times what the ports above show)
    are not a different law."""
    reference = _reference_of(algorithm)

    def perturbed(**kwargs):
        out = np.asarray(cases(algorithm)[0].output(reference(**kwargs)), dtype=float)
        signs = np.where(np.arange(out.size).reshape(out.shape) % 2, 1.0, -1.0)
        return out * (1.0 + 1e-13 * signs)

    report = _report(perturbed, algorithm, mode="law")
    assert report["passed"], format_report(report)


@pytest.mark.parametrize("algorithm", ["erm_geometry:Algorithm 3", "online:eq. (13)"])
def test_an_output_that_depends_on_the_seed_fails(algorithm):
    """A deterministic algorithm's output does not depend on rng: the reference's output plus a small draw from
    rng (1e-6, far below the wrong variants' deviations) fails the law, named as seed dependence."""
    reference = _reference_of(algorithm)

    def seeded(**kwargs):
        rng = kwargs["rng"]
        out = np.asarray(cases(algorithm)[0].output(reference(**kwargs)), dtype=float)
        return out + 1e-6 * rng.standard_normal(out.shape)

    report = _report(seeded, algorithm)
    assert not report["passed"] and "law" in report["failed"], format_report(report)
    assert "changes with the seed" in _law(report)["detail"], _law(report)


def test_the_tolerance_is_normwise_and_states_itself():
    """PointMass's own arithmetic: within rtol x max|output| + atol passes, beyond fails, either way the
    largest deviation is named; a different shape fails."""
    inv = PointMass()
    want = np.array([2.0, 0.0, -1.0])
    ok, detail = inv.check(want, [(1, want + np.array([0.0, 1.5 * POINT_MASS_RTOL, 0.0]))])
    assert ok and "largest deviation" in detail        # an entry 0 in the reference: judged against max|output| = 2
    ok, detail = inv.check(want, [(1, want + np.array([0.0, 3.0 * POINT_MASS_RTOL, 0.0]))])
    assert not ok and "largest deviation 3e-09" in detail
    ok, detail = inv.check(want, [(1, want[:2])])
    assert not ok and "shape" in detail


def _deviation(algorithm, candidate):
    """The candidate's largest deviation from the reference over the id's cases, relative to each output's
    largest entry (computed here directly, without conform)."""
    worst = 0.0
    for case in cases(algorithm):
        want = np.asarray(case.output(resolve(case.reference)(**case.make_kwargs(), rng=np.random.default_rng(0))),
                          dtype=float)
        got = np.asarray(candidate(**case.make_kwargs(), rng=np.random.default_rng(1)), dtype=float)
        worst = max(worst, float(np.max(np.abs(got - want)) / np.max(np.abs(want))))
    return worst


@pytest.mark.parametrize("algorithm,name", WRONG, ids=[f"{a}-{n}" for a, n in WRONG])
def test_the_cases_separate_every_wrong_variant_from_rounding(algorithm, name):
    """The degeneracy audit: on some case of its id, every wrong variant of tests/deterministic_ports.py moves the
    output by more than 1e-3 of its largest entry (a million times the tolerance), while the correct port stays
    within 1e-14 (the measured reassociation is <= 4.5e-16). A case with x_1 = 0, a_t = 1, a step constant 1, only
    even m or T never a power of two would let some of them agree with the reference exactly."""
    assert _deviation(algorithm, DETERMINISTIC[algorithm]) <= 1e-14
    assert _deviation(algorithm, getattr(ports, name)) > 1e-3
