"""Mutants of the PLD accountant (reference/privacy/pld.py and its place in certify) and of the
bounded-range composition (reference/privacy/bounded_range.py).

Ids core-M200 upward (the rest of the core catalogue uses core-M01..M199). Each is a wrong
line a PLD implementation plausibly contains; the checks compare with exact profiles computed
independently (quadrature, enumeration) in tests/privacy/test_pld.py, and with brute-force optimal
compositions of bounded-range steps in tests/privacy/test_bounded_range.py.
"""

from __future__ import annotations

from . import Mutant

PLD = "reference/privacy/pld.py"
ACC = "reference/privacy/accounting.py"
T_PLD = "tests/privacy/test_pld.py"
BR = "reference/privacy/bounded_range.py"
T_BR = "tests/privacy/test_bounded_range.py"
T_ROBUST = "tests/privacy/test_accountant_robust.py"

MUTANTS = (
    Mutant(
        id="core-M200", target="core:certify", bug_class="accountant",
        description="optimistic discretisation: every loss rounded down to the grid point below it "
                    "(instead of connect-the-dots, which keeps the P- and Q-mass)",
        file=PLD,
        find="hi = masses * (-np.expm1(-r)) / (-math.expm1(-h))",
        replace="hi = 0.0 * masses",
        checks=(f"{T_PLD}::test_certify_meets_the_exact_laplace_profile",
                f"{T_PLD}::test_pld_delta_is_never_below_the_exact_laplace_profile"),
    ),
    Mutant(
        id="core-M201", target="core:certify", bug_class="accountant",
        description="wrong Laplace privacy loss: the continuous part's density written as "
                    "(1/2) e^{-(eps0 - l)} instead of (1/4) e^{-(eps0 - l)/2}",
        file=PLD,
        find="lambda l: 0.25 * np.exp(-(e0 - l) / 2)",
        replace="lambda l: 0.5 * np.exp(-(e0 - l))",
        checks=(f"{T_PLD}::test_pld_delta_is_never_below_the_exact_laplace_profile",
                f"{T_PLD}::test_certify_meets_the_exact_laplace_profile"),
    ),
    Mutant(
        id="core-M202", target="core:certify", bug_class="sensitivity",
        description="a Laplace event handed to the PLD with eps0 = Delta / (2b) (the l1 sensitivity halved)",
        file=ACC,
        find='items.append(("laplace", eps) if kind == "laplace" else ("rr", eps, delta_i))',
        replace='items.append(("laplace", eps / 2) if kind == "laplace" else ("rr", eps, delta_i))',
        checks=(f"{T_PLD}::test_certify_meets_the_exact_laplace_profile",),
    ),
    Mutant(
        id="core-M203", target="core:certify", bug_class="accountant",
        description="a tail mass dropped: the mass at loss +inf (the approximate events' deltas, the "
                    "Gaussian's upper tail) left out of the composition",
        file=PLD,
        find="log_keep += c * math.log1p(-p.inf_mass) if p.inf_mass < 1 else -math.inf",
        replace="log_keep += 0.0",
        checks=(f"{T_PLD}::test_approximate_events_as_mass_at_infinity",),
    ),
    Mutant(
        id="core-M204", target="core:certify", bug_class="accountant",
        description="the tilt undone with the wrong sign (e^{+lambda l} instead of e^{-lambda l}) when "
                    "the composed masses are read back",
        file=PLD,
        find="+ self.log_z - self.lam * loss",
        replace="+ self.log_z + self.lam * loss",
        checks=(f"{T_PLD}::test_issue_13_examples_match_the_independent_pld_within_one_percent",
                f"{T_PLD}::test_fft_error_bound_covers_the_direct_convolution"),
    ),
    Mutant(
        id="core-M205", target="core:certify", bug_class="accountant",
        description="the BR envelope's loss density mirrored, e^{(eps - l)/2} instead of e^{(l - eps)/2} "
                    "(its mass moved to negative losses)",
        file=PLD,
        find="lambda l: c * np.exp((l - e) / 2)",
        replace="lambda l: c * np.exp((e - l) / 2)",
        checks=(f"{T_BR}::test_discretised_envelope_pld_is_an_upper_bound",
                f"{T_BR}::test_certify_meets_the_adaptive_optimum_of_br_steps"),
    ),
    Mutant(
        id="core-M206", target="core:certify", bug_class="exp-mech-factor",
        description="a bounded-range event handed to the PLD at eps/2 (the exponential mechanism's "
                    "2 Delta read as Delta)",
        file=ACC,
        find='items.append(("br", eps))',
        replace='items.append(("br", eps / 2))',
        checks=(f"{T_BR}::test_certify_meets_the_adaptive_optimum_of_br_steps",
                f"{T_BR}::test_certify_of_long_br_ledgers_against_the_nonadaptive_optimum"),
    ),
    Mutant(
        id="core-M207", target="core:certify", bug_class="accountant",
        description="the BR concentration bound's Hoeffding term with the range halved: "
                    "sqrt(ln(1/delta) sum eps_i^2 / 8) instead of / 2",
        file=BR,
        find="return _up(drift + mpmath.sqrt(sq * mpmath.log(1 / mpmath.mpf(delta_prime)) / 2))",
        replace="return _up(drift + mpmath.sqrt(sq * mpmath.log(1 / mpmath.mpf(delta_prime)) / 8))",
        checks=(f"{T_BR}::test_certify_of_long_br_ledgers_against_the_nonadaptive_optimum",),
    ),
    Mutant(
        id="core-M208", target="core:certify", bug_class="accountant",
        description="the BR concentration bound without its drift sum mu(eps_i) (the mean privacy loss "
                    "forgotten, as if the loss were centred)",
        file=BR,
        find="return _up(drift + mpmath.sqrt(",
        replace="return _up(0 * drift + mpmath.sqrt(",
        checks=(f"{T_BR}::test_certify_of_long_br_ledgers_against_the_nonadaptive_optimum",),
    ),
    Mutant(
        id="core-M209", target="core:certify", bug_class="accountant",
        description="parameter quantisation rounds toward the user: an epsilon rounded down to the grid "
                    "point below it (issue 24)",
        file=PLD,
        find="j = math.ceil(math.log2(e) * per_octave)\n    q = 2.0 ** (j / per_octave)\n    while q < e:",
        replace="j = math.floor(math.log2(e) * per_octave)\n    q = 2.0 ** (j / per_octave)\n    while q < e / 2:",
        checks=(f"{T_ROBUST}::test_quantisation_rounds_up_onto_a_fixed_grid",),
    ),
    Mutant(
        id="core-M210", target="core:certify", bug_class="accountant",
        description="the windowed composition drops the mass above its window instead of carrying it into "
                    "delta at +inf (issue 24)",
        file=PLD,
        find="inf_mass = min(1.0, (inf_mass + upper_tail_bound(parts, (start + n) * h)) * (1 + 1e-12))",
        replace="inf_mass = min(1.0, inf_mass * (1 + 1e-12))",
        checks=(f"{T_ROBUST}::test_windowed_composition_stays_above_the_exact_rr_profile",),
    ),
    Mutant(
        id="core-M211", target="core:certify", bug_class="accountant",
        description="pld_delta reads a windowed composition below its window's floor (where it knows "
                    "nothing) as if no loss lay there (issue 24)",
        file=PLD,
        find="        return 1.0                      # below a window: no bound but the trivial one",
        replace="        pass",
        checks=(f"{T_ROBUST}::test_windowed_delta_below_the_window_floor_is_the_trivial_bound",),
    ),
    Mutant(
        id="core-M213", target="core:certify", bug_class="accountant",
        description="the FFT tilt's target not kept inside the support: at small delta the tilt goes to its "
                    "cap and the floating-point allowance dominates delta (issue 24; loose, not wrong)",
        file=PLD,
        find="target = min(eps, mean0 + 0.9 * (top - mean0))",
        replace="target = eps",
        checks=(f"{T_ROBUST}::test_tilt_is_chosen_inside_the_support",
                f"{T_ROBUST}::test_tilt_reproduction_through_certify"),
    ),
    Mutant(
        id="core-M214", target="core:certify", bug_class="accountant",
        description="the heterogeneous KOV bound applied at the smallest epsilon of the ledger instead of "
                    "the largest (issue 24)",
        file=ACC,
        find="e0, k = max(pure_eps), len(pure_eps)",
        replace="e0, k = min(pure_eps), len(pure_eps)",
        checks=(f"{T_ROBUST}::test_heterogeneous_kov_candidate_is_never_below_the_exact_profile",),
    ),
    Mutant(
        id="core-M215", target="core:certify", bug_class="accountant",
        description="certify trusts its events: the constructor's checks are not re-run where an event is "
                    "certified (a tampered negative scale certifies epsilon 0; issue 24)",
        file=ACC,
        find="    MechanismEvent.__post_init__(event)          # the constructor's checks, each naming its field",
        replace="    pass",
        checks=(f"{T_ROBUST}::test_a_tampered_event_is_refused_naming_its_field",),
    ),
    Mutant(
        id="core-M216", target="core:optimal composition", bug_class="accountant",
        description="KOV's sum started at i0 without the Chernoff bound of the head it leaves out (the profile "
                    "then lies below the exact one)",
        file=ACC,
        find="    return total / mpmath.power(1 + up, k) + head",
        replace="    return total / mpmath.power(1 + up, k)",
        checks=("tests/privacy/test_accountant_scale.py::test_kov_with_the_head_bounded_is_the_full_sum",),
    ),
    Mutant(
        id="core-M217", target="core:PLD composition", bug_class="accountant",
        description="the grouped window leaves the groups' own rounding out of its error bound",
        file=PLD,
        find="        block_err += c * x_err",
        replace="        block_err += 0.0",
        checks=("tests/privacy/test_accountant_scale.py::test_grouped_window_error_bound_counts_the_groups_rounding",),
    ),
    Mutant(
        id="core-M218", target="core:PLD composition", bug_class="accountant",
        description="the grouped window drops the first of its groups of parts (those events never composed)",
        file=PLD,
        find="    for group in members:",
        replace="    for group in members[1:]:",
        checks=("tests/privacy/test_accountant_scale.py::test_grouped_window_is_tight_against_the_exact_lattice_epsilon",),
    ),
    Mutant(
        id="core-M219", target="core:PLD composition", bug_class="accountant",
        description="the spectrum's power by squaring keeps only the last factor it meets (each odd bit overwrites "
                    "the product instead of multiplying into it)",
        file=PLD,
        find="            result = base.copy() if result is None else result * base",
        replace="            result = base.copy()",
        checks=("tests/privacy/test_accountant_scale.py::test_spectrum_power_meets_its_rounding_bound",),
    ),
    Mutant(
        id="core-M220", target="core:PLD composition", bug_class="accountant",
        description="the long ledgers' window at +- 2 tilted sds instead of 12 (valid, but its Chernoff tail and "
                    "aliasing become a visible part of delta: a looser certificate)",
        file=PLD,
        find="WINDOW_SDS = 12.0",
        replace="WINDOW_SDS = 2.0",
        checks=("tests/privacy/test_accountant_scale.py::test_window_width_leaves_a_negligible_tail",),
    ),
    Mutant(
        id="core-M221", target="core:PLD composition", bug_class="accountant",
        description="the window counts a part's infinite mass (its approximate events' delta_i) once instead of count "
                    "times (an independent review's mutant; certified 4.372 where the ledger needs >= 5.022)",
        file=PLD,
        find="        log_keep += c * (math.log1p(-x_inf) if x_inf < 1 else -math.inf)",
        replace="        log_keep += (math.log1p(-x_inf) if x_inf < 1 else -math.inf)",
        checks=("tests/privacy/test_accountant_scale.py::test_windowed_approximate_events_count_their_delta_every_time",),
    ),
    Mutant(
        id="core-M222", target="core:PLD composition", bug_class="accountant",
        description="the window rotated into place one cell off (every loss read one grid step low; an independent "
                    "review's mutant: 1.0e-6 relative below the exact epsilon on a lattice ledger)",
        file=PLD,
        find="    y = np.roll(y, -((start - offset) % n))",
        replace="    y = np.roll(y, -((start - offset + 1) % n))",
        checks=("tests/privacy/test_accountant_scale.py::test_windowed_epsilon_is_not_below_the_exact_one_on_a_lattice",),
    ),
    Mutant(
        id="core-M223", target="core:certify", bug_class="accountant",
        description="certify's one-pass conversion cached by (kind, noise scale) only: events differing in "
                    "``monotone`` share the first one's epsilon (an independent review's mutant: 83.53 where the "
                    "exact epsilon is 141.40)",
        file=ACC,
        find="        v = value.get(e)\n",
        replace="        v = value.get(e) or next((w for f, w in value.items()\n"
                "                                  if (f.kind, f.noise_scale) == (e.kind, e.noise_scale)), None)\n",
        checks=("tests/privacy/test_accountant_scale.py::test_events_differing_only_in_monotone_are_certified_apart",),
    ),
    Mutant(
        id="core-M224", target="core:PLD composition", bug_class="accountant",
        description="a block folded onto the window keeps its unfolded error bound (the sqrt(ceil(size / n)) of "
                    "the fold left out; an independent review's mutant)",
        file=PLD,
        find="            x_err *= math.sqrt(math.ceil(x.size / n))\n",
        replace="",
        checks=("tests/privacy/test_accountant_scale.py::test_a_folded_block_carries_its_error_times_the_fold",),
    ),
    Mutant(
        id="core-M225", target="core:heterogeneous composition", bug_class="accountant",
        description="KOV Theorem 3.5's exact sum of squares with each count squared too (looser: 300.0, the basic "
                    "sum, where the formula gives 62.10; an independent review's mutant)",
        file=ACC,
        find="    total = sum(c * (n * (big // d)) ** 2 for (n, d), c in zip(ratios, counts))",
        replace="    total = sum((c * n * (big // d)) ** 2 for (n, d), c in zip(ratios, counts))",
        checks=("tests/privacy/test_accountant_scale.py::test_kov_35_on_a_two_valued_ledger_is_the_closed_form",),
    ),
)
