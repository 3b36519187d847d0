"""Mutants of erm_geometry (seed 000): Algorithms 1 (and its Section 3.3 variant), 2, 3, 4, 5.

Each is a realistic wrong line (see reference/mutants/__init__.py for the shape). Algorithms 3-5
are written in this paper's numbering in reference/algorithms/erm_geometry.py on the loop shared
with ``lasso`` (frank_wolfe.FrankWolfeRun); tests/erm_geometry/test_loops.py runs them on the
audit's own instance and ties their draws to the exact law the privacy rows compute.
"""

from __future__ import annotations

from . import Mutant

_EG = "reference/algorithms/erm_geometry.py"
_FW = "reference/algorithms/frank_wolfe.py"
_T = "tests/erm_geometry/"
_MD = _T + "test_mirror_descent.py::"
_LOOPS = _T + "test_loops.py::"
_FWT = _T + "test_frank_wolfe_erm.py::"
_OP = _T + "test_objective_perturbation.py::"
_UT = _T + "test_utility.py::"
_XC = _T + "test_cross_checks.py::"

_LEDGER1 = _MD + "test_ledger_is_T_gaussian_events_certified_within_the_claim"
_REPLAY1 = _LOOPS + "test_algorithm_1_replays_from_its_recorded_noise_with_decaying_steps"
_AUDIT1 = _MD + "test_empirical_audit_of_algorithm_1_with_negative_control"
_REPLAY_NP = _LOOPS + "test_nonprivate_variant_replays_and_its_noise_has_the_given_covariance"
_LAW4 = _LOOPS + "test_algorithm_4_loop_draws_follow_the_exact_law_of_the_audit"
_SENS4 = _LOOPS + "test_algorithm_4_selection_law_at_a_sensitive_scale"
_LEDGER4 = _FWT + "test_paper_scale_is_certified_only_near_2_eps_and_certified_scale_is_within"
_LAW5 = _LOOPS + "test_algorithm_5_loop_draws_follow_the_exact_law_of_the_audit"
_SENS5 = _LOOPS + "test_algorithm_5_selection_law_at_a_sensitive_scale"
_LEDGER5 = _FWT + "test_algorithm_5_ledger_certified_and_printed_sigma_not_scale_correct"

MUTANTS = (
    # ---------------------------------------------------------------- Algorithm 1
    Mutant(
        id="erm_geometry-M01", target="erm_geometry:Algorithm 1", bug_class="noise-scale",
        description="line 1 with 8 for 32: half the printed sigma",
        file=_EG, find="return math.sqrt(32.0 * lipschitz ** 2 * T",
        replace="return math.sqrt(8.0 * lipschitz ** 2 * T",
        checks=(_LEDGER1,), fast=True,
    ),
    Mutant(
        id="erm_geometry-M02", target="erm_geometry:Algorithm 1", bug_class="noise-scale",
        description="certified calibration at 0.8 of the accountant's sigma",
        file=_EG, find="sigma = certified_gaussian_sigma(epsilon, delta, sensitivity, T)",
        replace="sigma = 0.8 * certified_gaussian_sigma(epsilon, delta, sensitivity, T)",
        checks=(_LEDGER1, _AUDIT1),
    ),
    Mutant(
        id="erm_geometry-M03", target="erm_geometry:Algorithm 1", bug_class="noise-not-added",
        description="the noise b_t is drawn and recorded but the mirror step uses the exact gradient (all steps)",
        file=_EG, find="theta = potential.mirror_step(theta, noisy_gradient, etas[t + 1])",
        replace="theta = potential.mirror_step(theta, gradient, etas[t + 1])",
        checks=(_REPLAY1, _XC + "test_noise_actually_added_has_the_recorded_scale_and_is_fresh_each_step", _AUDIT1),
    ),
    Mutant(
        id="erm_geometry-M04", target="erm_geometry:Algorithm 1", bug_class="noise-not-added",
        description="the noise is dropped at the first step only",
        file=_EG, find="theta = potential.mirror_step(theta, noisy_gradient, etas[t + 1])",
        replace="theta = potential.mirror_step(theta, gradient if t == 1 else noisy_gradient, etas[t + 1])",
        checks=(_REPLAY1, _AUDIT1),
    ),
    Mutant(
        id="erm_geometry-M05", target="erm_geometry:Algorithm 1", bug_class="sensitivity",
        description="gradient sensitivity L/n: the replace-one factor 2 lost",
        file=_EG, find="sensitivity = 2.0 * L / n  # replace-one",
        replace="sensitivity = L / n  # replace-one",
        checks=(_LEDGER1, _AUDIT1),
    ),
    Mutant(
        id="erm_geometry-M06", target="erm_geometry:Algorithm 1", bug_class="composition",
        description="line 1 composes over sqrt(T) instead of T (sigma^2 ~ sqrt(T) log^2(T/delta))",
        file=_EG, find="lipschitz ** 2 * T * math.log(T / delta) ** 2)",
        replace="lipschitz ** 2 * math.sqrt(T) * math.log(T / delta) ** 2)",
        checks=(_LEDGER1, "proofs/proof_erm_geometry.py::test_paper_sigma_of_algorithm_1_is_within_the_claim_exactly"),
    ),
    Mutant(
        id="erm_geometry-M07", target="erm_geometry:Algorithm 1", bug_class="composition",
        description="the certified sigma composes T - 1 steps although the loop runs T",
        file=_EG, find="sigma = certified_gaussian_sigma(epsilon, delta, sensitivity, T)",
        replace="sigma = certified_gaussian_sigma(epsilon, delta, sensitivity, max(T - 1, 1))",
        checks=(_LEDGER1,),
    ),
    Mutant(
        id="erm_geometry-M08", target="erm_geometry:Algorithm 1", bug_class="step-index",
        description="line 4 with eta_t instead of eta_(t+1)",
        file=_EG, find="noisy_gradient, etas[t + 1])",
        replace="noisy_gradient, etas[t])",
        checks=(_REPLAY1,),
    ),
    Mutant(
        id="erm_geometry-M09", target="erm_geometry:Algorithm 1", bug_class="averaging",
        description="line 5 outputs the last iterate theta_(T+1) instead of the average",
        file=_EG, find="theta_priv = np.mean(np.array(iterates[:T]), axis=0)",
        replace="theta_priv = iterates[T]",
        checks=(_REPLAY1, _MD + "test_jensen_and_linearisation_hold_on_every_run"),
    ),
    Mutant(
        id="erm_geometry-M10", target="erm_geometry:Algorithm 1", bug_class="averaging",
        description="line 5 averages theta_2..theta_(T+1) (index off by one)",
        file=_EG, find="theta_priv = np.mean(np.array(iterates[:T]), axis=0)",
        replace="theta_priv = np.mean(np.array(iterates[1:]), axis=0)",
        checks=(_REPLAY1, _MD + "test_jensen_and_linearisation_hold_on_every_run"),
    ),
    Mutant(
        id="erm_geometry-M11", target="erm_geometry:Algorithm 1", bug_class="geometry",
        description="the l_q potential measured against the l2 ball: G_Q the width of the l2 ball, not of the l1 ball",
        file=_EG, find="super().__init__(PNormMap(self.q, scale=self.c), ball, r, r * width_l1_ball(ball.dim)[0])",
        replace="super().__init__(PNormMap(self.q, scale=self.c), ball, r, r * width_l2_ball(ball.dim))",
        checks=(_UT + "test_l1_ball_beats_l2_ball_at_the_same_p_and_grows_slower",
                _XC + "test_widths_the_theorems_use_are_the_geometry_widths_of_Q"),
    ),
    Mutant(
        id="erm_geometry-M12", target="erm_geometry:Algorithm 1", bug_class="geometry",
        description="the simplex potential is the Euclidean map (projected gradient) instead of the negative entropy",
        file=_EG, find="super().__init__(NegativeEntropyMap(), ball, 1.0, width_l1_ball(ball.dim)[0])",
        replace="super().__init__(EuclideanMap(center=np.full(ball.dim, 1.0 / ball.dim)), ball, 1.0, "
                "width_l1_ball(ball.dim)[0])",
        checks=(_MD + "test_entropy_step_is_exponentiated_gradient",),
    ),
    Mutant(
        id="erm_geometry-M13", target="erm_geometry:Algorithm 1", bug_class="geometry",
        description="the exponent of Claim 3.5 replaced by q = 2 (the Euclidean norm in l_q clothes)",
        file=_EG, find="self.q = lq_exponent(self.k) if q is None else float(q)",
        replace="self.q = 2.0 if q is None else float(q)",
        checks=(_UT + "test_l1_ball_beats_l2_ball_at_the_same_p_and_grows_slower",
                _MD + "test_numerical_mirror_steps_are_optimal_against_a_generic_solver"),
    ),
    # ------------------------------------------------ Algorithm 1, Section 3.3 (non-private, noisy)
    Mutant(
        id="erm_geometry-M14", target="erm_geometry:Algorithm 1 (Section 3.3)", bug_class="noise-not-added",
        description="the oracle's noise b_t is drawn and recorded but not added",
        file=_EG, find="theta = potential.mirror_step(theta, grads.mean(axis=0) + b, etas[t + 1])",
        replace="theta = potential.mirror_step(theta, grads.mean(axis=0), etas[t + 1])",
        checks=(_REPLAY_NP,),
    ),
    Mutant(
        id="erm_geometry-M15", target="erm_geometry:Algorithm 1 (Section 3.3)", bug_class="noise-scale",
        description="the noise has covariance Sigma/4 (half its square root)",
        file=_EG, find="root = (v * np.sqrt(np.maximum(w, 0.0))) @ v.T",
        replace="root = 0.5 * (v * np.sqrt(np.maximum(w, 0.0))) @ v.T",
        checks=(_REPLAY_NP,),
    ),
    Mutant(
        id="erm_geometry-M16", target="erm_geometry:Algorithm 1 (Section 3.3)", bug_class="step-index",
        description="the non-private variant steps with eta_t instead of eta_(t+1)",
        file=_EG, find="grads.mean(axis=0) + b, etas[t + 1])",
        replace="grads.mean(axis=0) + b, etas[t])",
        checks=(_REPLAY_NP,),
    ),
    # ---------------------------------------------------------------- Algorithm 2
    Mutant(
        id="erm_geometry-M17", target="erm_geometry:Algorithm 2", bug_class="noise-scale",
        description="the printed variance with log(1/delta)/2: half the printed sigma",
        file=_EG, find="return lipschitz * math.sqrt(2.0 * math.log(1.0 / delta)) / (n * epsilon)",
        replace="return lipschitz * math.sqrt(0.5 * math.log(1.0 / delta)) / (n * epsilon)",
        checks=(_OP + "test_paper_noise_violates_1_1e3_dp_exactly_and_kst_noise_does_not",
                _OP + "test_ledger_records_what_is_claimed_and_by_whom"),
    ),
    Mutant(
        id="erm_geometry-M18", target="erm_geometry:Algorithm 2", bug_class="noise-scale",
        description="KST12's sigma at 0.8",
        file=_EG, find="return lipschitz * math.sqrt(8.0 * math.log(2.0 / delta) + 4.0 * epsilon) / (n * epsilon)",
        replace="return 0.8 * lipschitz * math.sqrt(8.0 * math.log(2.0 / delta) + 4.0 * epsilon) / (n * epsilon)",
        checks=(_OP + "test_ledger_records_what_is_claimed_and_by_whom",
                _T + "test_audit_cases.py::test_exact_rows_of_algorithm_2"),
    ),
    Mutant(
        id="erm_geometry-M19", target="erm_geometry:Algorithm 2", bug_class="noise-not-added",
        description="b is drawn and returned but the objective is minimised without <b, theta>",
        file=_EG, find="objective = _perturbed_objective(loss, X, y, zeta, theta0, b)",
        replace="objective = _perturbed_objective(loss, X, y, zeta, theta0, 0.0 * b)",
        checks=(_OP + "test_output_is_the_closed_form_minimiser_for_its_own_noise_draw",),
    ),
    Mutant(
        id="erm_geometry-M20", target="erm_geometry:Algorithm 2", bug_class="sensitivity",
        description="line 1's zeta with lambda_max/(n eps): the factor 2 lost",
        file=_EG, find="zeta = max(2.0 * lam_max / (n * epsilon) - lam_min, 0.0)",
        replace="zeta = max(lam_max / (n * epsilon) - lam_min, 0.0)",
        checks=(_OP + "test_zeta_line_1_and_zero_under_theorem_4_1_case_2",
                _OP + "test_output_is_the_closed_form_minimiser_for_its_own_noise_draw"),
    ),
    Mutant(
        id="erm_geometry-M21", target="erm_geometry:Algorithm 2", bug_class="sensitivity",
        description="the ledger records sensitivity L/n (replace-one factor 2 lost)",
        file=_EG, find='"approximate" if proved else "claimed", 2.0 * L / n,',
        replace='"approximate" if proved else "claimed", L / n,',
        checks=(_OP + "test_ledger_records_what_is_claimed_and_by_whom",),
    ),
    # ---------------------------------------------------------------- Algorithm 3
    Mutant(
        id="erm_geometry-M22", target="erm_geometry:Algorithm 3", bug_class="sign",
        description="line 3 picks the vertex of largest <s, grad> (the wrong sign)",
        file=_EG, find="vertex = np.asarray(oracle(g), dtype=float)",
        replace="vertex = np.asarray(oracle(-g), dtype=float)",
        checks=(_LOOPS + "test_algorithm_3_replays_the_printed_update",),
    ),
    # ---------------------------------------------------------------- Algorithm 4
    Mutant(
        id="erm_geometry-M23", target="erm_geometry:Algorithm 4", bug_class="noise-scale",
        description="half line 3's printed Laplace scale",
        file=_EG, find="scale = fw.paper_laplace_scale(L1, S.l1_norm, T, n, epsilon, delta)",
        replace="scale = 0.5 * fw.paper_laplace_scale(L1, S.l1_norm, T, n, epsilon, delta)",
        checks=(_LEDGER4, _LAW4),
    ),
    Mutant(
        id="erm_geometry-M24", target="erm_geometry:Algorithm 4", bug_class="noise-scale",
        description="the certified Laplace scale at 0.8",
        file=_EG, find="scale = fw.certified_laplace_scale(sensitivity, T, epsilon, delta,",
        replace="scale = 0.8 * fw.certified_laplace_scale(sensitivity, T, epsilon, delta,",
        checks=(_LEDGER4, _LAW4),
    ),
    Mutant(
        id="erm_geometry-M25", target="erm_geometry:Algorithm 4", bug_class="sensitivity",
        description="score sensitivity L_1 ||C||_1 / n: the replace-one factor 2 lost",
        file=_EG, find="sensitivity = 2.0 * L1 * S.l1_norm / n",
        replace="sensitivity = L1 * S.l1_norm / n",
        checks=(_LEDGER4,),
    ),
    Mutant(
        id="erm_geometry-M26", target="erm_geometry:Algorithm 4", bug_class="selection",
        description="the noisy scores are drawn (and recorded) but the loop steps to the exact argmin",
        file=_EG, find="vertex = S.vertex(index)",
        replace="vertex = S.vertex(int(np.argmin(scores)))",
        checks=(_LAW4,), fast=True,
    ),
    Mutant(
        id="erm_geometry-M27", target="erm_geometry:Algorithm 4", bug_class="noise-not-added",
        description="the noise is not used at the first step (exact argmin at t = 1)",
        file=_EG, find="vertex = S.vertex(index)",
        replace="vertex = S.vertex(int(np.argmin(scores)) if t == 1 else index)",
        checks=(_LAW4,),
    ),
    Mutant(
        id="erm_geometry-M28", target="erm_geometry:Algorithm 4", bug_class="exp-mech-factor",
        description="the exponential-mechanism form with epsilon_s = sens/lambda (the factor 2 lost)",
        file=_EG, find="-scores, sensitivity, 2.0 * sensitivity / scale, rng,",
        replace="-scores, sensitivity, sensitivity / scale, rng,",
        checks=(_SENS4,),
    ),
    Mutant(
        id="erm_geometry-M29", target="erm_geometry:Algorithm 4", bug_class="composition",
        description="the certified scale composes over about sqrt(T) selections instead of T - 1",
        file=_EG, find="scale = fw.certified_laplace_scale(sensitivity, T, epsilon, delta,",
        replace="scale = fw.certified_laplace_scale(sensitivity, max(2, math.isqrt(T)), epsilon, delta,",
        checks=(_LEDGER4,),
    ),
    Mutant(
        id="erm_geometry-M30", target="erm_geometry:Algorithm 4", bug_class="noise-scale",
        description="the loop adds Laplace noise at 0.8 lambda",
        file=_EG, find="index = fw.noisy_argmin(scores, scale, rng,",
        replace="index = fw.noisy_argmin(scores, 0.8 * scale, rng,",
        checks=(_SENS4,),
    ),
    # ---------------------------------------------------------------- Algorithm 5
    Mutant(
        id="erm_geometry-M31", target="erm_geometry:Algorithm 5", bug_class="noise-not-added",
        description="the oracle is called on the exact gradient (b_t drawn, recorded and discarded)",
        file=_EG, find="vertex = np.asarray(ball.lmo(np.asarray(noisy, dtype=float)), dtype=float)",
        replace="vertex = np.asarray(ball.lmo(g), dtype=float)",
        checks=(_LAW5,), fast=True,
    ),
    Mutant(
        id="erm_geometry-M32", target="erm_geometry:Algorithm 5", bug_class="noise-not-added",
        description="the noise is dropped at the first step only",
        file=_EG, find="vertex = np.asarray(ball.lmo(np.asarray(noisy, dtype=float)), dtype=float)",
        replace="vertex = np.asarray(ball.lmo(g if t == 1 else np.asarray(noisy, dtype=float)), dtype=float)",
        checks=(_LAW5,),
    ),
    Mutant(
        id="erm_geometry-M33", target="erm_geometry:Algorithm 5", bug_class="noise-scale",
        description="half the printed sigma",
        file=_EG, find="sigma = paper_sigma_algorithm5(epsilon, delta, L2, n, T, literal=literal_sigma)",
        replace="sigma = 0.5 * paper_sigma_algorithm5(epsilon, delta, L2, n, T, literal=literal_sigma)",
        checks=(_LAW5,),
    ),
    Mutant(
        id="erm_geometry-M34", target="erm_geometry:Algorithm 5", bug_class="noise-scale",
        description="the certified sigma at 0.8",
        file=_EG, find="sigma = certified_gaussian_sigma(epsilon, delta, 2.0 * L2 / n, T - 1) if T > 1 else 1.0",
        replace="sigma = 0.8 * certified_gaussian_sigma(epsilon, delta, 2.0 * L2 / n, T - 1) if T > 1 else 1.0",
        checks=(_LEDGER5, _LAW5),
    ),
    Mutant(
        id="erm_geometry-M35", target="erm_geometry:Algorithm 5", bug_class="sensitivity",
        description="gradient sensitivity L_2/n: the replace-one factor 2 lost",
        file=_EG, find="sensitivity = 2.0 * L2 / n   # replace-one",
        replace="sensitivity = L2 / n   # replace-one",
        checks=(_LEDGER5,),
    ),
    Mutant(
        id="erm_geometry-M36", target="erm_geometry:Algorithm 5", bug_class="composition",
        description="the certified sigma composes over sqrt(T - 1) steps",
        file=_EG, find="sigma = certified_gaussian_sigma(epsilon, delta, 2.0 * L2 / n, T - 1) if T > 1 else 1.0",
        replace="sigma = certified_gaussian_sigma(epsilon, delta, 2.0 * L2 / n, max(1, math.isqrt(T - 1))) "
                "if T > 1 else 1.0",
        checks=(_LEDGER5,),
    ),
    Mutant(
        id="erm_geometry-M37", target="erm_geometry:Algorithm 5", bug_class="noise-scale",
        description="the loop draws b_t at 0.8 sigma while the result reports sigma",
        file=_EG, find="noisy = mechanisms.gaussian_mechanism(g, sensitivity, sigma, rng, ledger=ledger,",
        replace="noisy = mechanisms.gaussian_mechanism(g, sensitivity, 0.8 * sigma, rng, ledger=ledger,",
        checks=(_SENS5,),
    ),
    # ------------------------------------------------ step sizes as printed (issue 9 fidelity)
    Mutant(
        id="erm_geometry-M38", target="erm_geometry:Algorithm 4", bug_class="step-size",
        description="'paper' means the other paper's decaying 2/(t+2), not this paper's printed mu = 1/(T+2)",
        file=_EG, find='return printed if step_size == "paper" else step_size',
        replace='return "2/(t+2)" if step_size == "paper" else step_size',
        checks=(_T + "test_fidelity.py::test_paper_step_is_this_papers_printed_mu",),
    ),
    Mutant(
        id="erm_geometry-M39", target="erm_geometry:Algorithm 5", bug_class="step-size",
        description="Algorithm 5 steps with the decaying 2/(t+2) by default (line 4 prints mu = 1/(T+2))",
        file=_EG, find='_fw_schedule(step_size, "1/(T+2)"), keep_iterates)\n',
        replace='_fw_schedule(step_size, "2/(t+2)"), keep_iterates)\n',
        checks=(_T + "test_fidelity.py::test_paper_step_is_this_papers_printed_mu",),
    ),
    Mutant(
        id="erm_geometry-M40", target="erm_geometry:Algorithm 3", bug_class="step-size",
        description="Algorithm 3's 'paper' step is 1/(T+2) instead of Theorem 5.2's mu = 1/T",
        file=_EG, find='_fw_schedule(step_size, "1/T")',
        replace='_fw_schedule(step_size, "1/(T+2)")',
        checks=(_T + "test_fidelity.py::test_paper_step_is_this_papers_printed_mu",),
    ),
    Mutant(
        id="erm_geometry-M41", target="erm_geometry:Algorithm 1", bug_class="geometry",
        description="the printed Fact 3.4 potential measured in ||.||_q / r instead of the quotient norm",
        file=_EG, find="self.c = 2.0 ** (2.0 / self.q - 2.0) / (4.0 * (self.q - 1.0) * r * r)",
        replace="self.c = 1.0 / (4.0 * (self.q - 1.0) * r * r)",
        checks=(_T + "test_fidelity.py::test_lq_paper_constant_is_the_printed_psi_in_the_quotient_norm",),
    ),
    Mutant(
        id="erm_geometry-M42", target="erm_geometry:Algorithm 1", bug_class="noise-dependence",
        description="line 4's noise of step t reused at step t+1 for even t+1 (every draw still taken and "
                    "recorded, each release's marginal law intact)",
        file=_EG, find="        noise.append(noisy_gradient - gradient)\n",
        replace="        if t % 2 == 0:\n            noisy_gradient = gradient + noise[-1]\n"
                "        noise.append(noisy_gradient - gradient)\n",
        checks=(_T + "test_whitebox.py::test_line_by_line_transcript_noise_is_independent_across_steps",),
        fast=True,
    ),
)
