"""Test-suite options shared by tests/ and proofs/.

--deep     run the long statistical tests (marked ``deep``) and more hypothesis examples;
           the default run is derandomized (a failure it finds once, it finds every time),
           --deep explores with fresh random examples
--impl     MODULE:FUNCTION of another implementation to run the property suite against
-m clients
           also run the TF Privacy conform tests and the peer-accountant checks (tox -e clients)
-m crosscheck
           also run the cross-checks against Google's dp-accounting (tox -e crosscheck); they are
           skipped otherwise, even where dp-accounting is installed
--shuffle SEED
           run the collected tests in a random order (random.Random(SEED).shuffle), to show that no
           test depends on another's side effects (global mpmath precision, numpy state, caches)
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=40, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=500, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])


def pytest_addoption(parser):
    parser.addoption("--deep", action="store_true", default=False,
                     help="run long statistical tests and more hypothesis examples")
    parser.addoption("--impl", default=os.environ.get("REFERENCE_IMPL"),
                     help="MODULE:FUNCTION of an implementation to check against the reference "
                          "(or set REFERENCE_IMPL)")
    parser.addoption("--shuffle", type=int, default=None, metavar="SEED",
                     help="run the tests in the order random.Random(SEED).shuffle gives (order independence)")
    parser.addoption("--impl-algorithm", default=os.environ.get("REFERENCE_IMPL_ALGORITHM"),
                     help="the algorithm id the --impl implementation claims to implement")


def pytest_configure(config):
    settings.load_profile("deep" if config.getoption("--deep") else "default")


def pytest_collection_modifyitems(config, items):
    from reference.claims import all_claims

    known = all_claims()
    unknown = sorted({str(m.args[0]) if m.args else "<claim marker without an id>"
                      for item in items for m in item.iter_markers("claim")
                      if not m.args or m.args[0] not in known})
    if unknown:
        raise pytest.UsageError(f"tests name claims that are not registered: {unknown}")
    seed = config.getoption("--shuffle")
    if seed is not None:
        random.Random(seed).shuffle(items)
    if "crosscheck" not in (config.option.markexpr or ""):
        # the independent accountant's grid is slow (minutes): only where asked for (tox -e crosscheck),
        # even when dp-accounting happens to be installed
        skip_cc = pytest.mark.skip(reason="cross-check against dp-accounting: use -m crosscheck (tox -e crosscheck)")
        for item in items:
            if "crosscheck" in item.keywords:
                item.add_marker(skip_cc)
    if "clients" not in (config.option.markexpr or ""):
        # TF Privacy and the peer accountants (TensorFlow takes seconds to import, each conform run minutes):
        # only where asked for (tox -e clients), even when the libraries happen to be installed
        skip_cl = pytest.mark.skip(reason="TF Privacy / peer accountants: use -m clients (tox -e clients)")
        for item in items:
            if "clients" in item.keywords:
                item.add_marker(skip_cl)
    if not config.getoption("--deep"):
        skip = pytest.mark.skip(reason="long statistical run: use --deep")
        for item in items:
            if "deep" in item.keywords:
                item.add_marker(skip)
