"""The same ledgers through certify and through peer accountants, as each peer's users call it.

Ledgers (:func:`ledgers`) are this package's ``Ledger`` objects; each peer is handed the same events in its
own vocabulary (noise multiplier = noise scale / sensitivity):

* ``certify``: reference.privacy.accounting.certify (the exact GDP route for all-Gaussian ledgers, the PLD
  for Laplace and mixed ones).
* ``tfp-rdp``: TF Privacy's RDP accounting, i.e. ``dp_accounting.rdp.RdpAccountant`` (dp-accounting 0.4.3,
  the version tensorflow-privacy 0.9.0 pins and calls in ``compute_dp_sgd_privacy_lib``) with default orders:
  ``GaussianDpEvent(sigma / sensitivity)`` and ``LaplaceDpEvent(b / sensitivity)`` per event, ``get_epsilon``.
* ``tfp-tree``: TF Privacy's ``tree_aggregation_accountant.compute_rdp_tree_restart(noise_multiplier,
  steps_list, orders)`` with the orders of its docstring, converted by ``dp_accounting.rdp.compute_epsilon``
  (its docstring's ``rdp_accountant.get_privacy_spent`` no longer exists in 0.9.0): for tree ledgers, the noise
  multiplier is sigma over the change of one leaf (2R under replace-one) and ``steps_list`` the trees' item
  counts (PQFTL: two trees of T - 1 items each; the accountant adds their depths, which is the composition
  of the two trees).
* ``prv``: prv-accountant 0.2.0, ``PRVAccountant(prvs, eps_error, delta_error, max_self_compositions)`` with
  ``GaussianMechanism(noise_multiplier, l2_sensitivity)`` / ``LaplaceMechanism(mu = sensitivity / b)``;
  ``compute_epsilon(delta, counts)`` returns (lower, estimate, upper): only the upper one is a guarantee.
  ``eps_error = 0.01`` and ``delta_error = delta / 1000`` (what its deprecated ``Accountant`` wrapper uses
  for delta_error; eps_error 0.1 is its docstring's "typical", 0.01 is tighter).
* ``dp-pld``: Google's dp-accounting PLD, pessimistic (an upper bound) and optimistic (a lower bound of the
  exact value) at value_discretization_interval 1e-4: the independent bracket of the exact epsilon.

Each ledger is described by blocks ``(kind, sensitivity, scale, count)`` (kind ``gaussian`` or ``laplace``) and,
for trees, ``trees`` = (sigma, leaf change, items per tree, number of trees).
"""

from __future__ import annotations

import dataclasses
import math
import sys

import numpy as np

from reference.privacy.ledger import Ledger, MechanismEvent

DELTA = 1e-6
PRV_EPS_ERROR = 0.01
TREE_ORDERS = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))    # tree_aggregation_accountant's docstring


@dataclasses.dataclass(frozen=True)
class LedgerSpec:
    name: str
    family: str
    blocks: tuple            # ((kind, sensitivity, scale, count), ...)
    trees: tuple | None = None   # (sigma, leaf_change, items, n_trees)

    def ledger(self) -> Ledger:
        led = Ledger()
        for kind, sens, scale, count in self.blocks:
            norm = "l2" if kind == "gaussian" else "l1"
            event = MechanismEvent(kind, sensitivity=sens, norm=norm, noise_scale=scale, label=self.name)
            for _ in range(count):
                led.record(event)
        return led

    @property
    def events(self) -> int:
        return sum(b[3] for b in self.blocks)


def _tree_spec(name, family, T, items, n_trees, R=1.0, epsilon=1.0, delta=DELTA) -> LedgerSpec:
    """A ledger as PrivateSum (one tree, T items) or PQFTL (two trees of T - 1 items, items of norm R^2) records
    it: one Gaussian event per tree of sensitivity 2 bound sqrt(floor(log2 n) + 1), sigma the certified one."""
    from reference.algorithms.online import tree_sigma

    bound = R if n_trees == 1 else R * R
    sigma = tree_sigma(R, T, epsilon, delta, "certified", bound=bound, trees=n_trees, items=items)
    sens = 2.0 * bound * math.sqrt(items.bit_length())
    return LedgerSpec(name, family, (("gaussian", sens, sigma, n_trees),), (sigma, 2.0 * bound, items, n_trees))


def ledgers(max_events: int = 10 ** 5, max_T: int = 2 ** 20) -> list[LedgerSpec]:
    """Gaussian and Laplace compositions of k = 10 .. 1e5 events (total GDP mu = 1: sigma = sqrt(k); Laplace
    b = 2 sqrt(k), eps0 = 1 / (2 sqrt k)), PrivateSum and PQFTL tree ledgers at T = 16 .. 2^20 (certified sigma
    at (1, 1e-6), R = 1.3), and mixed ledgers (k/2 Gaussian + k/2 Laplace, plus one PrivateSum tree)."""
    out = []
    for k in (10, 100, 1000, 10 ** 4, 10 ** 5):
        if k <= max_events:
            out.append(LedgerSpec(f"{k} Gaussian, sigma = sqrt(k)", "gaussian", (("gaussian", 1.0, math.sqrt(k), k),)))
    for k in (10, 100, 1000, 10 ** 4, 10 ** 5):
        if k <= max_events:
            out.append(LedgerSpec(f"{k} Laplace, b = 2 sqrt(k)", "laplace", (("laplace", 1.0, 2 * math.sqrt(k), k),)))
    for T in (16, 1000, 2 ** 15, 2 ** 20):
        if T <= max_T:
            out.append(_tree_spec(f"PrivateSum T = {T}", "tree", T, T, 1, R=1.3))
            out.append(_tree_spec(f"PQFTL T = {T}", "tree", T, T - 1, 2, R=1.3))
    for k in (10, 1000, 10 ** 5):
        if k <= max_events:
            tree = _tree_spec("tree", "mixed", 1024, 1024, 1, R=1.0)
            blocks = (("gaussian", 1.0, math.sqrt(k), k // 2), ("laplace", 1.0, 2 * math.sqrt(k), k // 2)) + tree.blocks
            out.append(LedgerSpec(f"{k // 2} Gaussian + {k // 2} Laplace + PrivateSum T = 1024", "mixed", blocks))
    return out


# ---- the accountants --------------------------------------------------------------------------------------

def certify_epsilon(spec: LedgerSpec, delta: float = DELTA):
    from reference.privacy.accounting import certify

    cert = certify(spec.ledger(), delta)
    return {"epsilon": cert.epsilon, "method": cert.method}


def tfp_rdp_epsilon(spec: LedgerSpec, delta: float = DELTA):
    import dp_accounting

    acc = dp_accounting.rdp.RdpAccountant()
    for kind, sens, scale, count in spec.blocks:
        event = (dp_accounting.GaussianDpEvent(scale / sens) if kind == "gaussian"
                 else dp_accounting.LaplaceDpEvent(scale / sens))
        acc.compose(event, count)
    eps, order = acc.get_epsilon_and_optimal_order(delta)
    return {"epsilon": float(eps), "order": float(order)}


def tfp_tree_epsilon(spec: LedgerSpec, delta: float = DELTA):
    if spec.trees is None:
        return None
    sys.skip_tf_privacy_import = True        # the package's own switch: the accountant without TensorFlow
    from dp_accounting.rdp import rdp_privacy_accountant as rdp
    from tensorflow_privacy.privacy.analysis import tree_aggregation_accountant as taa

    sigma, leaf_change, items, n_trees = spec.trees
    orders = TREE_ORDERS
    r = taa.compute_rdp_tree_restart(sigma / leaf_change, [items] * n_trees, orders)
    eps, order = rdp.compute_epsilon(orders, r, delta)
    return {"epsilon": float(eps), "order": float(order)}


def prv_epsilon(spec: LedgerSpec, delta: float = DELTA, eps_error: float = PRV_EPS_ERROR):
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import GaussianMechanism, LaplaceMechanism

    prvs, counts = [], []
    for kind, sens, scale, count in spec.blocks:
        prvs.append(GaussianMechanism(noise_multiplier=scale / sens) if kind == "gaussian"
                    else LaplaceMechanism(mu=sens / scale))
        counts.append(count)
    acc = PRVAccountant(prvs=prvs, eps_error=eps_error, delta_error=delta / 1000, max_self_compositions=counts)
    lower, estimate, upper = acc.compute_epsilon(delta=delta, num_self_compositions=counts)
    return {"epsilon": float(upper), "lower": float(lower), "estimate": float(estimate)}


def dp_pld_bracket(spec: LedgerSpec, delta: float = DELTA, interval: float = 1e-4):
    from dp_accounting.pld import privacy_loss_distribution as pld

    out = {}
    for key, pess in (("epsilon", True), ("optimistic", False)):
        total = None
        for kind, sens, scale, count in spec.blocks:
            make = pld.from_gaussian_mechanism if kind == "gaussian" else pld.from_laplace_mechanism
            kw = {} if pess else {"use_connect_dots": False}
            d = make(scale, sensitivity=sens, pessimistic_estimate=pess, value_discretization_interval=interval,
                     **kw).self_compose(count)
            total = d if total is None else total.compose(d)
        out[key] = float(total.get_epsilon_for_delta(delta))
    return out


ACCOUNTANTS = {"certify": certify_epsilon, "tfp-rdp": tfp_rdp_epsilon, "tfp-tree": tfp_tree_epsilon,
               "prv": prv_epsilon, "dp-pld": dp_pld_bracket}


def exact_epsilon(spec: LedgerSpec, delta: float = DELTA):
    """The exact epsilon where one is known: an all-Gaussian ledger is one Gaussian of mu = sqrt(sum mu_i^2)
    (DRS22 Cor 3.3); its profile delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu) (Balle-Wang 2018,
    Thm 8) is inverted here in mpmath at 50 digits by bisection (independently of the package's own
    gaussian_epsilon). None otherwise."""
    if any(kind != "gaussian" for kind, *_ in spec.blocks):
        return None
    import mpmath

    with mpmath.workdps(50):
        mu = mpmath.sqrt(mpmath.fsum(count * (mpmath.mpf(sens) / scale) ** 2 for _, sens, scale, count in spec.blocks))
        target = mpmath.mpf(delta)

        def profile(e):
            return mpmath.ncdf(mu / 2 - e / mu) - mpmath.exp(e) * mpmath.ncdf(-mu / 2 - e / mu)

        lo, hi = mpmath.mpf(0), mpmath.mpf(1)
        if profile(lo) <= target:
            return 0.0
        while profile(hi) > target:
            hi *= 2
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if profile(mid) > target else (lo, mid)
        return float(hi)


def _opacus_history(spec: LedgerSpec):
    """Opacus accounts only (Poisson-subsampled) Gaussian steps: history rows (noise_multiplier, sample_rate = 1,
    steps), as its accountants' ``step`` builds them (and ``get_noise_multiplier`` sets them). None for a ledger
    with another kind."""
    if any(kind != "gaussian" for kind, *_ in spec.blocks):
        return None
    return [(scale / sens, 1.0, count) for _, sens, scale, count in spec.blocks]


def opacus_rdp_epsilon(spec: LedgerSpec, delta: float = DELTA):
    history = _opacus_history(spec)
    if history is None:
        return None
    from opacus.accountants import RDPAccountant

    acc = RDPAccountant()
    acc.history = history
    return {"epsilon": float(acc.get_epsilon(delta))}


def opacus_prv_epsilon(spec: LedgerSpec, delta: float = DELTA):
    history = _opacus_history(spec)
    if history is None:
        return None
    from opacus.accountants import PRVAccountant

    acc = PRVAccountant()
    acc.history = history
    return {"epsilon": float(acc.get_epsilon(delta, eps_error=PRV_EPS_ERROR))}


ACCOUNTANTS.update({"opacus-rdp": opacus_rdp_epsilon, "opacus-prv": opacus_prv_epsilon})
