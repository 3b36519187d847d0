"""Mutants of the building blocks: mechanisms, accountant, tree, geometry, losses, audit harness.

See reference/mutants/__init__.py for the shape of a mutant and how it runs. Each entry names
the narrow checks that should reject it; the whole catalogue runs with
``python -m reference mutants --paper core`` (and under ``--deep`` in tests/test_kill_matrix.py).
"""

from __future__ import annotations

from . import Mutant

MECH = "reference/privacy/mechanisms.py"
ACC = "reference/privacy/accounting.py"
TREE = "reference/privacy/tree.py"
SETS = "reference/geometry/sets.py"
MIRROR = "reference/geometry/mirror.py"
LOSSES = "reference/losses.py"
STATS = "reference/audit/stats.py"
EXACT = "reference/audit/exact.py"
WIDTH = "reference/geometry/width.py"
RUNNER = "reference/audit/runner.py"
RATES = "reference/audit/rates.py"

T_MECH = "tests/privacy/test_mechanisms.py"
T_ACC = "tests/privacy/test_accounting.py"
T_TREE = "tests/privacy/test_tree.py"
T_SETS = "tests/geometry/test_sets.py"
T_MIRROR = "tests/geometry/test_mirror.py"
T_LOSSES = "tests/test_losses.py"
T_STATS = "tests/audit/test_stats.py"
T_RUNNER = "tests/audit/test_runner.py"
T_RATES = "tests/audit/test_rates.py"
T_CORE_CASES = "tests/audit/test_core_cases.py"
T_EXACT = "tests/audit/test_exact.py"
T_WIDTH = "tests/geometry/test_width.py"
P_ACC = "proofs/proof_accounting.py"

_LAPLACE_KS = f"{T_MECH}::test_laplace_noise_passes_ks_and_wrong_scale_is_rejected"
_GAUSS_KS = f"{T_MECH}::test_gaussian_noise_passes_ks_and_wrong_sigma_is_rejected"
_LAW_SENS = f"{T_MECH}::test_noise_law_does_not_scale_with_the_sensitivity"
_ROUNDING = f"{T_ACC}::test_guarantees_are_rounded_against_the_user"

MUTANTS = (
    # ---------------------------------------------------------------- additive noise
    Mutant(
        id="core-M01", target="core:laplace_mechanism", bug_class="noise-scale",
        description="Laplace noise at half the scale the event records",
        file=MECH,
        find="out = arr + rng.laplace(0.0, scale, shape)",
        replace="out = arr + rng.laplace(0.0, 0.5 * scale, shape)",
        checks=(_LAPLACE_KS,),
        fast=True,
    ),
    Mutant(
        id="core-M02", target="core:laplace_mechanism", bug_class="noise-scale",
        description="Laplace noise at 0.8 of the scale the event records",
        file=MECH,
        find="out = arr + rng.laplace(0.0, scale, shape)",
        replace="out = arr + rng.laplace(0.0, 0.8 * scale, shape)",
        checks=(_LAPLACE_KS,),
    ),
    Mutant(
        id="core-M03", target="core:gaussian_mechanism", bug_class="noise-scale",
        description="Gaussian noise at half the sigma the event records",
        file=MECH,
        find="out = arr + sigma * rng.standard_normal(shape)",
        replace="out = arr + 0.5 * sigma * rng.standard_normal(shape)",
        checks=(_GAUSS_KS,),
    ),
    Mutant(
        id="core-M04", target="core:gaussian_mechanism", bug_class="noise-scale",
        description="Gaussian noise at 0.8 of the sigma the event records",
        file=MECH,
        find="out = arr + sigma * rng.standard_normal(shape)",
        replace="out = arr + 0.8 * sigma * rng.standard_normal(shape)",
        checks=(_GAUSS_KS,),
    ),
    Mutant(
        id="core-M05", target="core:gaussian_mechanism", bug_class="noise-not-added",
        description="Gaussian noise drawn (the generator advances) but not added to the value",
        file=MECH,
        find="out = arr + sigma * rng.standard_normal(shape)",
        replace="noise = sigma * rng.standard_normal(shape)\n    out = arr + np.zeros(shape)",
        checks=(_GAUSS_KS,),
    ),
    Mutant(
        id="core-M06", target="core:laplace_mechanism", bug_class="noise-not-added",
        description="Laplace noise drawn (the generator advances) but not added to the value",
        file=MECH,
        find="out = arr + rng.laplace(0.0, scale, shape)",
        replace="noise = rng.laplace(0.0, scale, shape)\n    out = arr + np.zeros(shape)",
        checks=(_LAPLACE_KS,),
    ),
    Mutant(
        id="core-M07", target="core:gaussian_mechanism", bug_class="sensitivity",
        description="sigma read as a noise multiplier: the noise is sigma * Delta * N(0, 1)",
        file=MECH,
        find="out = arr + sigma * rng.standard_normal(shape)",
        replace="out = arr + sigma * sensitivity * rng.standard_normal(shape)",
        checks=(_LAW_SENS,),
    ),
    Mutant(
        id="core-M08", target="core:laplace_mechanism", bug_class="sensitivity",
        description="the scale read as a noise multiplier: the noise is Lap(b * Delta)",
        file=MECH,
        find="out = arr + rng.laplace(0.0, scale, shape)",
        replace="out = arr + rng.laplace(0.0, scale * sensitivity, shape)",
        checks=(_LAW_SENS,),
    ),
    # ---------------------------------------------------------------- selection
    Mutant(
        id="core-M09", target="core:exponential_mechanism", bug_class="exp-mech-factor",
        description="the exponential mechanism's factor 2 lost: exp(eps * u / Delta) on general scores",
        file=MECH,
        find="c_exponent = eps_e - sen_e - (0 if monotone else 1)",
        replace="c_exponent = eps_e - sen_e - 0",
        checks=(f"{T_MECH}::test_exponential_privacy_is_tight_and_monotone_form_fails_without_monotonicity",
                f"{T_MECH}::test_exponential_sampling_frequencies_match_probabilities"),
    ),
    Mutant(
        id="core-M10", target="core:exponential_mechanism", bug_class="exp-mech-factor",
        description="the monotone flag ignored: the monotone form keeps the general factor 2 (half the utility)",
        file=MECH,
        find="c_exponent = eps_e - sen_e - (0 if monotone else 1)",
        replace="c_exponent = eps_e - sen_e - 1",
        checks=(f"{T_MECH}::test_exponential_privacy_is_tight_and_monotone_form_fails_without_monotonicity",),
    ),
    Mutant(
        id="core-M11", target="core:report_noisy_max", bug_class="exp-mech-factor",
        description="report-noisy-max certified as (Delta/b)-DP on general scores (the non-monotone factor 2 lost)",
        file=ACC,
        find="factor = 1 if event.monotone else 2",
        replace="factor = 1",
        checks=(f"{T_ACC}::test_event_guarantees_per_kind",
                f"{T_CORE_CASES}::test_laplace_noisy_max_exact_audit"),
    ),
    Mutant(
        id="core-M12", target="core:report_noisy_max", bug_class="exp-mech-factor",
        description="report-noisy-max monotone and general factors swapped",
        file=ACC,
        find="factor = 1 if event.monotone else 2",
        replace="factor = 2 if event.monotone else 1",
        checks=(f"{T_ACC}::test_event_guarantees_per_kind",),
    ),
    Mutant(
        # the edit is in report_noisy_min (the function Frank-Wolfe selects with), which has its own id
        id="core-M13", target="core:report_noisy_min", bug_class="selection",
        description="report-noisy-min selects the noisy maximum of the scores (sign of the scores not flipped)",
        file=MECH,
        find="return report_noisy_max(-s, sensitivity",
        replace="return report_noisy_max(s, sensitivity",
        checks=(f"{T_MECH}::test_laplace_report_noisy_max_frequencies_match_quadrature",),
    ),
    Mutant(
        id="core-M14", target="core:truncated_geometric", bug_class="step-index",
        description="truncated geometric sampler off by one: N drawn on 1..M+1 (clipped to M) instead of 0..M",
        file=MECH,
        find='idx = np.minimum(np.searchsorted(cdf, u, side="right"), top)',
        replace='idx = np.minimum(np.searchsorted(cdf, u, side="right") + 1, top)',
        checks=(f"{T_MECH}::test_truncated_geometric_frequencies_pass_chi_square",),
    ),
    Mutant(
        id="core-M15", target="core:truncated_geometric", bug_class="step-index",
        description="truncated geometric normaliser off by one: C_M from sum_{k<M} 2^-k",
        file=MECH,
        find="c = 1.0 / (2.0 * (1.0 - 2.0 ** (-(M + 1))))",
        replace="c = 1.0 / (2.0 * (1.0 - 2.0 ** (-M)))",
        checks=(f"{T_MECH}::test_truncated_geometric_pmf_and_moments_match_mpmath",),
    ),
    # ---------------------------------------------------------------- binary tree
    Mutant(
        id="core-M16", target="core:binary_tree", bug_class="tree",
        description="the node an item completes is indexed one to the right (leaf off by one)",
        file=TREE,
        find="j = t // (1 << h) - 1",
        replace="j = t // (1 << h)",
        checks=(f"{T_TREE}::test_each_node_is_populated_once_with_one_noise_draw",),
    ),
    Mutant(
        id="core-M17", target="core:binary_tree", bug_class="tree",
        description="the prefix is tiled without its leaf level (odd t loses its last item)",
        file=TREE,
        find="for h in range(t.bit_length() - 1, -1, -1):",
        replace="for h in range(t.bit_length() - 1, 0, -1):",
        checks=(f"{T_TREE}::test_prefix_nodes_tile_the_prefix_with_popcount_nodes",),
    ),
    Mutant(
        id="core-M18", target="core:binary_tree", bug_class="tree",
        description="an item is counted in floor(log2 T) nodes instead of floor(log2 T) + 1 (sensitivity too small)",
        file=TREE,
        find="return T.bit_length()          # == floor(log2 T) + 1",
        replace="return max(1, T.bit_length() - 1)          # == floor(log2 T) + 1",
        checks=(f"{T_TREE}::test_recorded_tree_sensitivity_is_attained_by_the_first_item",),
    ),
    Mutant(
        id="core-M19", target="core:binary_tree", bug_class="noise-not-added",
        description="node noise drawn but the exact node sum stored as the noisy one",
        file=TREE,
        find="noisy_new[node] = exact + self.sigma * self.rng.standard_normal(self.shape)",
        replace="noise = self.sigma * self.rng.standard_normal(self.shape)\n"
                "                    noisy_new[node] = exact + 0.0 * noise",
        checks=(f"{T_TREE}::test_prefix_noise_variance_is_nodes_used_times_sigma_squared",),
    ),
    # ---------------------------------------------------------------- accountant
    Mutant(
        id="core-M20", target="core:accounting", bug_class="composition",
        description="advanced composition's drift term over sqrt(k) instead of k",
        file=ACC,
        find="total = mpmath.sqrt(2 * k * mpmath.log(1 / _mp(delta_prime))) * e + k * e * mpmath.expm1(e)",
        replace="total = mpmath.sqrt(2 * k * mpmath.log(1 / _mp(delta_prime))) * e "
                "+ mpmath.sqrt(k) * e * mpmath.expm1(e)",
        checks=(f"{P_ACC}::test_advanced_against_exact_optimal_composition",),
    ),
    Mutant(
        id="core-M21", target="core:accounting", bug_class="composition",
        description="advanced composition over k - 1 steps",
        file=ACC,
        find="total = mpmath.sqrt(2 * k * mpmath.log(1 / _mp(delta_prime))) * e + k * e * mpmath.expm1(e)",
        replace="total = mpmath.sqrt(2 * (k - 1) * mpmath.log(1 / _mp(delta_prime))) * e "
                "+ (k - 1) * e * mpmath.expm1(e)",
        checks=(f"{P_ACC}::test_advanced_against_exact_optimal_composition",),
    ),
    Mutant(
        id="core-M22", target="core:accounting", bug_class="composition",
        description="basic composition forgets the first step (sum over T - 1 steps)",
        file=ACC,
        find="return _sum_up(eps.tolist()), d_total",
        replace="return _sum_up(eps.tolist()[1:]), d_total",
        checks=(f"{T_ACC}::test_basic_is_the_exact_sum_rounded_up",),
    ),
    Mutant(
        id="core-M23", target="core:accounting", bug_class="composition",
        description="zCDP to DP conversion without the factor 2: rho + sqrt(rho ln(1/delta))",
        file=ACC,
        find="standard = r + 2 * mpmath.sqrt(r * L)",
        replace="standard = r + mpmath.sqrt(r * L)",
        checks=(f"{P_ACC}::test_zcdp_conversions_reference_points",),
    ),
    Mutant(
        id="core-M24", target="core:accounting", bug_class="composition",
        description="zCDP of the Gaussian mechanism Delta/(2 sigma) instead of Delta^2/(2 sigma^2)",
        file=ACC,
        find="return _up_ratio(sn * sn * gd * gd, 2 * sd * sd * gn * gn)",
        replace="return _up_ratio(sn * gd, 2 * sd * gn)",
        checks=(f"{T_ACC}::test_zcdp_of_gaussian_formula",),
    ),
    Mutant(
        id="core-M25", target="core:accounting", bug_class="composition",
        description="GDP composition averages the mu_i^2 instead of summing them (the composition forgotten)",
        file=ACC,
        find="return _sqrt_up_q(_sum_of_squares_q(m.tolist()))",
        replace="return _sqrt_up_q(_sum_of_squares_q(m.tolist()) / len(m))",
        checks=(f"{T_ACC}::test_gdp_compose",),
    ),
    Mutant(
        id="core-M26", target="core:accounting", bug_class="composition",
        description="the fully adaptive filter's concentration term sqrt(ln(1/delta') sum eps^2) (factor 2 lost)",
        file=ACC,
        find="return mpmath.sqrt(4 * log_inv_delta * sum_rho) + sum_rho",
        replace="return mpmath.sqrt(2 * log_inv_delta * sum_rho) + sum_rho",
        checks=(f"{P_ACC}::test_filter_expression_equals_the_zcdp_conversion",),
    ),
    Mutant(
        id="core-M27", target="core:accounting", bug_class="composition",
        description="KOV heterogeneous composition's concentration term without the factor 2",
        file=ACC,
        find="third = drift + mpmath.sqrt(2 * sq * mpmath.log(1 / d))",
        replace="third = drift + mpmath.sqrt(sq * mpmath.log(1 / d))",
        checks=(f"{T_ACC}::test_certify_heterogeneous_pure_steps_meet_the_exact_rr_profile",),
    ),
    Mutant(
        id="core-M28", target="core:accounting", bug_class="accountant",
        description="the accountant rounds toward the user: mpmath values go to the float below",
        file=ACC,
        find="    x = x + abs(x) * _MARGIN\n    f = float(x)\n    if math.isfinite(f) and mpmath.mpf(f) < x:\n"
             "        f = math.nextafter(f, math.inf)",
        replace="    x = x - abs(x) * _MARGIN\n    f = float(x)\n    if math.isfinite(f) and mpmath.mpf(f) > x:\n"
                "        f = math.nextafter(f, -math.inf)",
        checks=(_ROUNDING,),
    ),
    Mutant(
        id="core-M29", target="core:accounting", bug_class="accountant",
        description="the accountant rounds exact rationals to the nearest float instead of up",
        file=ACC,
        find="    f = float(x)\n    if math.isfinite(f) and Fraction(f) < x:\n        f = math.nextafter(f, math.inf)",
        replace="    f = float(x)",
        checks=(_ROUNDING,),
    ),
    Mutant(
        id="core-M30", target="core:accounting", bug_class="accountant",
        description="the certified calibration returns the uncertified end of its bracket",
        file=ACC,
        find="            lo = mid\n    return hi\n\n\n@lru_cache",
        replace="            lo = mid\n    return lo\n\n\n@lru_cache",
        checks=(f"{T_ACC}::test_calibrate_noise_scale_finds_the_boundary_from_a_bad_guess",),
    ),
    Mutant(
        id="core-M31", target="core:accounting", bug_class="accountant",
        description="an invalid method in certify's minimum: advanced/optimal composition at the first "
                    "epsilon applied to heterogeneous pure steps",
        file=ACC,
        find="homogeneous = not gaussian_mus and len(set(pure_eps)) == 1",
        replace="homogeneous = not gaussian_mus",
        checks=(f"{T_ACC}::test_certify_heterogeneous_pure_steps_meet_the_exact_rr_profile",),
    ),
    Mutant(
        id="core-M32", target="core:accounting", bug_class="accountant",
        description="certify adds the exact-GDP candidate of the Gaussian events even when pure events are present",
        file=ACC,
        find="if gaussian_mus and not pure_eps and not any(d > 0 for d in pure_deltas):",
        replace="if gaussian_mus and not any(d > 0 for d in pure_deltas):",
        checks=(f"{T_ACC}::test_certify_mixed_ledger_is_never_below_its_pure_part",),
    ),
    Mutant(
        id="core-M33", target="core:accounting", bug_class="accountant",
        description="certify leaves out the exact-GDP candidate for all-Gaussian ledgers (loose, not exact)",
        file=ACC,
        find='candidates.append(("GDP (exact)", gaussian_epsilon(delta, gdp_compose(gaussian_mus))))',
        replace="pass",
        checks=(f"{T_ACC}::test_certify_all_gaussian_equals_the_exact_gdp_value",),
    ),
    Mutant(
        id="core-M34", target="core:accounting", bug_class="accountant",
        description="the delta of approximate events not subtracted before converting the rest",
        file=ACC,
        find="delta_c_q = _q(delta) - delta_events_q",
        replace="delta_c_q = _q(delta)",
        checks=(f"{T_ACC}::test_certify_approximate_events_consume_delta",),
    ),
    # ---------------------------------------------------------------- geometry
    Mutant(
        id="core-M35", target="core:geometry", bug_class="geometry",
        description="the wrong mirror map for the l1 ball: the Euclidean p = 2 potential instead of p = 1 + 1/ln d",
        file=MIRROR,
        find="p = 1.0 + 1.0 / math.log(dim) if dim >= 3 else 2.0",
        replace="p = 2.0",
        checks=(f"{T_MIRROR}::test_pnorm_map_for_l1_ball_modulus_wrt_l1",),
    ),
    Mutant(
        id="core-M36", target="core:geometry", bug_class="geometry",
        description="the l1 ball's support function with the l1 norm of g instead of its dual, the linf norm",
        file=SETS,
        find='return self.r * float(np.max(np.abs(self._point(g, "g"))))',
        replace='return self.r * float(np.sum(np.abs(self._point(g, "g"))))',
        checks=(f"{T_SETS}::test_lmo_is_feasible_and_optimal",
                f"{T_MIRROR}::test_pnorm_step_on_l1_ball_and_simplex_satisfies_first_order_optimality"),
    ),
    Mutant(
        id="core-M37", target="core:geometry", bug_class="geometry",
        description="the box's support function with the linf norm of g instead of its dual, the l1 norm",
        file=SETS,
        find='return self.r * float(np.sum(np.abs(self._point(g, "g"))))',
        replace='return self.r * float(np.max(np.abs(self._point(g, "g"))))',
        checks=(f"{T_SETS}::test_lmo_is_feasible_and_optimal",),
    ),
    Mutant(
        id="core-M38", target="core:geometry", bug_class="geometry",
        description="l1-ball projection by rescaling x onto the sphere instead of the Euclidean projection",
        file=SETS,
        find="return np.sign(x) * project_simplex(np.abs(x), radius)",
        replace="return x * (radius / np.sum(np.abs(x)))",
        checks=(f"{T_SETS}::test_simplex_and_l1_projection_match_a_scipy_qp",),
    ),
    Mutant(
        id="core-M39", target="core:geometry", bug_class="geometry",
        description="simplex projection threshold off by one (divides by rho + 1)",
        file=SETS,
        find="tau = cumulative[rho - 1] / rho",
        replace="tau = cumulative[rho - 1] / (rho + 1)",
        checks=(f"{T_SETS}::test_simplex_and_l1_projection_match_a_scipy_qp",),
    ),
    Mutant(
        id="core-M40", target="core:geometry", bug_class="geometry",
        description="the box projection clips to [0, r] instead of [-r, r]",
        file=SETS,
        find="return np.clip(x, -self.r, self.r)",
        replace="return np.clip(x, 0.0, self.r)",
        checks=(f"{T_SETS}::test_projection_is_feasible_and_satisfies_the_variational_inequality",),
    ),
    Mutant(
        id="core-M41", target="core:geometry", bug_class="step-size",
        description="the entropic mirror step forgets the step size (x_i exp(-g_i))",
        file=MIRROR,
        find="logits = np.log(x) - eta * g",
        replace="logits = np.log(x) - g",
        checks=(f"{T_MIRROR}::test_entropy_step_is_exponentiated_gradient",),
    ),
    Mutant(
        id="core-M42", target="core:geometry", bug_class="geometry",
        description="the Euclidean map's l1 modulus taken as 1 (the 1/d of ||v||_2^2 >= ||v||_1^2/d lost)",
        file=MIRROR,
        find="            return 1.0 / dim\n",
        replace="            return 1.0\n",
        checks=(f"{T_MIRROR}::test_euclidean_modulus_wrt_other_norms",),
    ),
    Mutant(
        id="core-M43", target="core:geometry", bug_class="geometry",
        description="the p-norm dual map uses the exponent p instead of the dual exponent q",
        file=MIRROR,
        find="self.q = math.inf if p == 1.0 else p / (p - 1.0)      # dual exponent",
        replace="self.q = p      # dual exponent",
        checks=(f"{T_MIRROR}::test_dual_gradient_inverts_the_gradient",),
    ),
    Mutant(
        id="core-M44", target="core:losses", bug_class="geometry",
        description="the l1 norm taken as its own dual: features bounded in l1 instead of linf",
        file=LOSSES,
        find='_DUAL = {"l1": "linf", "l2": "l2", "linf": "l1"}',
        replace='_DUAL = {"l1": "l1", "l2": "l2", "linf": "linf"}',
        checks=(f"{T_LOSSES}::test_dual_norms_and_data_checks",),
    ),
    Mutant(
        id="core-M45", target="core:losses", bug_class="clip",
        description="the Huber derivative's clip dropped (phi' = r for every residual)",
        file=LOSSES,
        find="return np.clip(z - y, -self.delta, self.delta)",
        replace="return z - y",
        checks=(f"{T_LOSSES}::test_gradient_matches_finite_differences",
                f"{T_LOSSES}::test_lipschitz_constant_bounds_every_gradient"),
    ),
    # ---------------------------------------------------------------- audit harness
    Mutant(
        id="core-M46", target="core:audit", bug_class="audit",
        description="Bonferroni at beta instead of beta/m over the declared grid",
        file=STATS,
        find="level = beta / len(tests)",
        replace="level = beta",
        checks=(f"{T_STATS}::test_bonferroni_bound_is_computed_at_beta_over_m",),
        fast=True,
    ),
    Mutant(
        id="core-M47", target="core:audit", bug_class="audit",
        description="the two Clopper-Pearson bounds of the epsilon bound each at level alpha (no split)",
        file=STATS,
        find="lo = np.asarray(clopper_pearson_lower(k_num, n_num, alpha / 2)) - delta",
        replace="lo = np.asarray(clopper_pearson_lower(k_num, n_num, alpha)) - delta",
        checks=(f"{T_STATS}::test_bonferroni_bound_is_computed_at_beta_over_m",),
    ),
    Mutant(
        id="core-M48", target="core:audit", bug_class="audit",
        description="the held-out rule evaluates its chosen test on all the data, the choosing part included",
        file=STATS,
        find="rest_d, rest_dp = x_d[h_d:], x_dp[h_dp:]",
        replace="rest_d, rest_dp = x_d, x_dp",
        checks=(f"{T_STATS}::test_held_out_rule_evaluates_on_the_rest_only",),
    ),
    Mutant(
        id="core-M49", target="core:audit", bug_class="audit",
        description="an exact case's negative control reported detected unconditionally",
        file=RUNNER,
        find="row.negative_control_detected = bool(control > case.claimed_epsilon * (1 + REL_TOL))",
        replace="row.negative_control_detected = True",
        checks=(f"{T_RUNNER}::test_exact_case_with_a_correct_control_reports_it_undetected",),
        fast=True,
    ),
    Mutant(
        id="core-M50", target="core:audit", bug_class="audit",
        description="an empirical case's negative control reported detected unconditionally",
        file=RUNNER,
        find="row.negative_control_detected = bool(detected)",
        replace="row.negative_control_detected = True",
        checks=(f"{T_RUNNER}::test_undetected_negative_control_fails_the_audit",),
    ),
    Mutant(
        id="core-M51", target="core:audit", bug_class="audit",
        description="a lower bound above the claim not reported as refuted",
        file=RUNNER,
        find="refuted = eps.epsilon_lower_bound > case.claimed_epsilon",
        replace="refuted = False",
        checks=(f"{T_RUNNER}::test_verdicts_unproven_and_refuted",),
    ),
    Mutant(
        id="core-M52", target="core:audit", bug_class="audit",
        description="an upper-bound rate claim ('at_most') accepts every fitted slope",
        file=RATES,
        find="            return self.lower <= exponent + tolerance\n",
        replace="            return True\n",
        checks=(f"{T_RATES}::test_fit_recovers_slope_and_rejects_a_wrong_one",),
    ),
    # ---------------------------------------------------------------- more building blocks
    Mutant(
        id="core-M53", target="core:audit", bug_class="audit",
        description="the exact epsilon of a pair computed in one direction only (P against Q, not Q against P)",
        file=EXACT,
        find="return max(_epsilon_one_direction(P, Q, d), _epsilon_one_direction(Q, P, d))",
        replace="return _epsilon_one_direction(P, Q, d)",
        checks=(T_EXACT,),
    ),
    Mutant(
        id="core-M54", target="core:report_noisy_max", bug_class="noise-scale",
        description="report-noisy-max draws its noise at half the scale the event records",
        file=MECH,
        find="out[start:start + k] = np.argmax(s + draw(0.0, scale, (k, m)), axis=1)",
        replace="out[start:start + k] = np.argmax(s + draw(0.0, 0.5 * scale, (k, m)), axis=1)",
        checks=(f"{T_MECH}::test_laplace_report_noisy_max_frequencies_match_quadrature",),
    ),
    Mutant(
        id="core-M55", target="core:report_noisy_max", bug_class="noise-not-added",
        description="report-noisy-max draws its noise but returns the exact argmax",
        file=MECH,
        find="out[start:start + k] = np.argmax(s + draw(0.0, scale, (k, m)), axis=1)",
        replace="out[start:start + k] = np.argmax(s + 0.0 * draw(0.0, scale, (k, m)), axis=1)",
        checks=(f"{T_MECH}::test_laplace_report_noisy_max_frequencies_match_quadrature",),
    ),
    Mutant(
        id="core-M56", target="core:exponential_mechanism", bug_class="selection",
        description="inverse-CDF sampling with side='left' (index i iff cdf[i-1] < u <= cdf[i])",
        file=MECH,
        find='return np.searchsorted(cdf, u, side="right")',
        replace='return np.searchsorted(cdf, u, side="left")',
        checks=(f"{T_MECH}::test_exponential_sampling_never_selects_probability_zero_candidates",),
        equivalent="the two rules differ only when u lands exactly on a cdf value, an event of probability "
                   "at most m * 2^-53 for 53-bit uniforms (and u = 0 exactly, probability 2^-53); no test "
                   "can tell the laws apart, and no privacy or utility statement depends on them",
    ),
    Mutant(
        id="core-M57", target="core:gaussian_mechanism", bug_class="sensitivity",
        description="the Gaussian event records half the sensitivity it was called with (the accountant "
                    "then certifies twice the privacy)",
        file=MECH,
        find='_record(ledger, MechanismEvent("gaussian", sensitivity=sensitivity, norm="l2"',
        replace='_record(ledger, MechanismEvent("gaussian", sensitivity=sensitivity / 2, norm="l2"',
        checks=(f"{T_MECH}::test_additive_mechanisms_record_the_sensitivity_they_were_called_with",),
    ),
    Mutant(
        id="core-M58", target="core:binary_tree", bug_class="sensitivity",
        description="the tree's event records the item sensitivity, forgetting that an item lies in "
                    "floor(log2 T) + 1 nodes",
        file=TREE,
        find='ledger.record(MechanismEvent("gaussian", sensitivity=tree_sensitivity(self.T, self.sensitivity),',
        replace='ledger.record(MechanismEvent("gaussian", sensitivity=self.sensitivity,',
        checks=(f"{T_TREE}::test_online_queries_reuse_node_noise_and_ledger_has_one_event",
                f"{T_CORE_CASES}::test_tree_aggregation_audit"),
    ),
    Mutant(
        id="core-M59", target="core:binary_tree", bug_class="clip",
        description="the item norm bound no longer checked: items beyond the bound the privacy proof needs "
                    "are accepted silently",
        file=TREE,
        find="if norm > self.norm_bound * (1 + 1e-12):",
        replace="if False:",
        checks=(f"{T_TREE}::test_stream_misuse_is_refused",),
    ),
    Mutant(
        id="core-M60", target="core:exponential_mechanism", bug_class="noise-scale",
        description="the exponential mechanism samples at twice the epsilon its event records",
        file=MECH,
        find="logp = exponential_mechanism_log_probabilities(scores, sensitivity, epsilon, monotone=monotone)",
        replace="logp = exponential_mechanism_log_probabilities(scores, sensitivity, 2 * epsilon, monotone=monotone)",
        checks=(f"{T_MECH}::test_exponential_sampling_frequencies_match_probabilities",),
    ),
    Mutant(
        id="core-M61", target="core:geometry", bug_class="geometry",
        description="the Gaussian width of the l2 ball as sqrt(d) (the upper bound) instead of E||g||_2",
        file=WIDTH,
        find="return float(radius) * math.sqrt(2.0) * _gamma_half_ratio(dim / 2.0)",
        replace="return float(radius) * math.sqrt(dim)",
        checks=(T_WIDTH,),
    ),
    Mutant(
        id="core-M62", target="core:laplace_mechanism", bug_class="sensitivity",
        description="the Laplace event records half the l1 sensitivity it was called with",
        file=MECH,
        find='_record(ledger, MechanismEvent("laplace", sensitivity=sensitivity, norm="l1"',
        replace='_record(ledger, MechanismEvent("laplace", sensitivity=sensitivity / 2, norm="l1"',
        checks=(f"{T_MECH}::test_additive_mechanisms_record_the_sensitivity_they_were_called_with",
                f"{T_CORE_CASES}::test_laplace_mechanism_audit"),
    ),
    Mutant(
        id="core-M63", target="core:binary_tree", bug_class="noise-scale",
        description="node noise at half the sigma the tree's event records",
        file=TREE,
        find="noisy_new[node] = exact + self.sigma * self.rng.standard_normal(self.shape)",
        replace="noisy_new[node] = exact + 0.5 * self.sigma * self.rng.standard_normal(self.shape)",
        checks=(f"{T_TREE}::test_prefix_noise_variance_is_nodes_used_times_sigma_squared",),
    ),
    Mutant(
        id="core-M64", target="core:binary_tree", bug_class="noise-scale",
        description="node noise at 0.8 of the sigma the tree's event records",
        file=TREE,
        find="noisy_new[node] = exact + self.sigma * self.rng.standard_normal(self.shape)",
        replace="noisy_new[node] = exact + 0.8 * self.sigma * self.rng.standard_normal(self.shape)",
        checks=(f"{T_TREE}::test_prefix_noise_variance_is_nodes_used_times_sigma_squared",),
    ),
    Mutant(
        id="core-M65", target="core:binary_tree", bug_class="noise-not-added",
        description="the leaves released without noise (noise only on the inner nodes: one step of the "
                    "stream unprotected)",
        file=TREE,
        find="            if self.sigma > 0:\n                with np.errstate(over=\"ignore\"):",
        replace="            if self.sigma > 0 and node[0] > 0:\n                with np.errstate(over=\"ignore\"):",
        checks=(f"{T_TREE}::test_prefix_noise_variance_is_nodes_used_times_sigma_squared",),
    ),
    Mutant(
        id="core-M66", target="core:report_noisy_max", bug_class="noise-scale",
        description="report-noisy-max draws its noise at 0.8 of the scale the event records",
        file=MECH,
        find="out[start:start + k] = np.argmax(s + draw(0.0, scale, (k, m)), axis=1)",
        replace="out[start:start + k] = np.argmax(s + draw(0.0, 0.8 * scale, (k, m)), axis=1)",
        checks=(f"{T_MECH}::test_laplace_report_noisy_max_frequencies_match_quadrature",
                f"{T_MECH}::test_gumbel_report_noisy_max_has_the_exponential_mechanism_law"),
    ),
    Mutant(
        id="core-M67", target="core:audit", bug_class="audit",
        description="retired rows (controls no size can flag) run anyway and are reported as checks",
        file=RUNNER,
        find="    if retired:                            # a retired row keeps its key (never reused) but never runs",
        replace="    if False:",
        checks=(f"{T_RUNNER}::test_retired_rows_never_run_and_keep_their_key",),
        fast=True,
    ),
    Mutant(
        id="core-M226", target="core:Mirror step optimality", bug_class="geometry",
        description="the off-centre Euclidean map's range on the l1 ball takes the vertex nearest the centre "
                    "(min |c_j|) instead of the farthest (max |c_j|): R_Psi too small, so every step size and "
                    "utility bound built on it",
        file=MIRROR,
        find="2.0 * C.r * float(np.max(np.abs(c))))",
        replace="2.0 * C.r * float(np.min(np.abs(c))))",
        checks=(f"{T_MIRROR}::test_ranges_on_the_l1_ball_and_simplex_equal_the_vertex_enumeration",),
    ),
)
