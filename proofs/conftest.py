"""proofs/: every test says what kind of check it is, and rigorous tests report their certificate.

* ``@pytest.mark.rigorous(method=..., domain=... | points=...)``: every mathematical assertion of the
  test is settled by certified enclosures (Arb balls, through proofs/verifier.py), exact arithmetic
  (integers, fractions.Fraction) or symbolic algebra (sympy), over what the test states, and the
  marker says which of two kinds that is: ``domain="..."`` when it covers the whole domain the
  claim's statement names (every parameter it quantifies over; for a claim about one point, that
  point), ``points="..."`` when it covers named points, a finite range or a part of that domain
  (a sub-box, a listed k). The registry (reference/claims.py) derives each claim's kind of rigorous
  evidence from these (``claims --json``: ``rigorous`` is ``domain``, ``point`` or ``none``).
  Comparisons of the package's floats against such enclosures are certified statements about
  those floats. The test reports its certificate size through the ``certificate`` fixture
  (boxes settled, witnesses, exact/point checks); ``-m rigorous`` prints them.
* ``@pytest.mark.evidence(reason)``: at least one assertion rests on uncertified numerics
  (mpmath quadrature, float arithmetic) or on sampling a domain (a grid, hypothesis examples, a
  seeded Monte Carlo): evidence, not proof.

A test in proofs/ without exactly one of the two markers is a collection error.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config, items):
    bad, unscoped = [], []
    for item in items:
        if "proofs" not in item.path.parts:
            continue
        kinds = {m.name for m in item.iter_markers() if m.name in ("rigorous", "evidence")}
        if len(kinds) != 1:
            bad.append(item.nodeid)
        rig = item.get_closest_marker("rigorous")
        if rig is not None and len({"domain", "points"} & set(rig.kwargs)) != 1:
            unscoped.append(item.nodeid)
    if bad:
        raise pytest.UsageError(f"proofs/ tests need exactly one of @rigorous / @evidence: {bad[:10]}")
    if unscoped:
        raise pytest.UsageError("a @rigorous test names what it covers with exactly one of domain= (the whole domain the "
                                f"claim's statement names) or points= (named points, a range, a part): {unscoped[:10]}")


class _Certificate:
    """Collects a rigorous test's certificate: settled boxes, witnesses and exact checks."""

    def __init__(self):
        self.boxes = 0
        self.witnesses = 0
        self.exact = 0
        self.lines: list[str] = []

    def add(self, cert, expect="proved"):
        """Record a verifier Certificate; assert it has the expected status (proved / refuted)."""
        assert cert.status == expect, cert.summary()
        if cert.proved:
            self.boxes += cert.size
        else:
            self.witnesses += 1
        self.lines.append(cert.summary())
        return cert

    def point(self, n=1):
        """Record n certified point or exact checks (a ball evaluation, a Fraction identity...)."""
        self.exact += n

    @property
    def size(self):
        return self.boxes + self.witnesses + self.exact


@pytest.fixture
def certificate(request):
    cert = _Certificate()
    yield cert
    if request.node.get_closest_marker("rigorous") is not None:
        assert cert.size > 0, "a rigorous test must record its certificate (boxes, witnesses or exact checks)"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """The certificate's counts go into the call report as plain integers (read by the summary below;
    under pytest-xdist reports cross a process boundary, so they carry no objects)."""
    outcome = yield
    cert = getattr(item, "funcargs", {}).get("certificate")
    if call.when == "call" and isinstance(cert, _Certificate):
        outcome.get_result().user_properties.append(("certificate", (cert.boxes, cert.witnesses, cert.exact)))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    rows = []
    for rep in terminalreporter.stats.get("passed", []):
        for key, value in getattr(rep, "user_properties", []):
            if key == "certificate":
                rows.append((rep.nodeid, tuple(value)))
    if not rows:
        return
    boxes = sum(v[0] for _, v in rows)
    wit = sum(v[1] for _, v in rows)
    exact = sum(v[2] for _, v in rows)
    terminalreporter.write_sep("-", f"certificates: {len(rows)} rigorous tests, {boxes} boxes settled, "
                                    f"{wit} witnesses, {exact} certified point/exact checks")
    if config.getoption("verbose") > 0:
        for nodeid, (b, w, e) in rows:
            terminalreporter.write_line(f"  {nodeid}: {b} boxes, {w} witnesses, {e} point/exact")
