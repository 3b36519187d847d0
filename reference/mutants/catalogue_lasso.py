"""Mutants of the paper ``lasso``: Frank-Wolfe (Algorithm 1), private Frank-Wolfe over a polytope
(Algorithm 2), private LASSO (Corollary 2.7) and the general-convex variant (Theorem 2.6).

The Frank-Wolfe code is shared with ``erm_geometry`` (reference/algorithms/frank_wolfe.py); the
mutants here target the lines the lasso paper numbers. See reference/mutants/__init__.py for the
shape of a mutant and how it runs; docs/kill-matrix.md for the measured matrix.
"""

from __future__ import annotations

from . import Mutant

FW = "reference/algorithms/frank_wolfe.py"
LASSO = "reference/algorithms/lasso.py"

T_FW = "tests/algorithms/test_frank_wolfe.py"
T_FWP = "tests/algorithms/test_frank_wolfe_private.py"
T_LASSO = "tests/lasso/test_lasso.py"
T_PRIV = "tests/lasso/test_privacy.py"
T_UTIL = "tests/lasso/test_utility.py"

REPLAY_ALG2 = (f"{T_FWP}::test_algorithm_2_lines_3_to_6_replay_the_loop_draws",
               f"{T_FWP}::test_private_lasso_replays_algorithm_2_line_by_line")
LAW = f"{T_PRIV}::test_private_lasso_samples_the_exact_transcript_law"
AUDIT = f"{T_PRIV}::test_empirical_audit_of_a_full_run_with_negative_control"
ZERO_NOISE = f"{T_LASSO}::test_vanishing_noise_is_exact_frank_wolfe"
LINE_3 = f"{T_LASSO}::test_paper_noise_scale_is_line_3_verbatim"
RATE = f"{T_UTIL}::test_excess_risk_against_n_cheap"
THM_2_5 = f"{T_UTIL}::test_expected_excess_risk_within_the_explicit_bound"
REPLAY_GEN = f"{T_FWP}::test_general_variant_line_3_replays_the_gaussian_draws"
GEN_ZERO = f"{T_FWP}::test_general_variant_with_vanishing_noise_is_frank_wolfe"

_ALG2_SELECT = """            index = noisy_argmin(scores, lam, rng, noise=selection, sensitivity=sens, ledger=ledger,
                                 relation=relation, label=f"{label} step {t}")
"""
_SAMPLER = """    return int(mechanisms.report_noisy_min(scores, sensitivity, noise_scale, rng, noise=noise, ledger=ledger,
                                           relation=relation, label=label))
"""

MUTANTS = (
    # ------------------------------------------------------------------ Algorithm 1
    Mutant(
        id="lasso-M01", target="lasso:Algorithm 1", bug_class="step-size",
        description="mu_t = 2/(t+2) replaced by the constant 1/(T+2) in the schedule the paper's name selects",
        file=FW, find="        mu = 2.0 / (t + 2.0)\n", replace="        mu = np.full(T - 1, 1.0 / (T + 2.0))\n",
        checks=(f"{T_FW}::test_linear_loss_meets_the_bound_with_equality",
                f"{T_FW}::test_explicit_convergence_bound"),
    ),
    Mutant(
        id="lasso-M02", target="lasso:Algorithm 1", bug_class="step-index",
        description="the loop hands step t the step size mu_{t+1} (index off by one; the last step reuses mu_{T-1})",
        file=FW, find="self.mus[t - 1]\n", replace="self.mus[min(t, self.T - 2)]\n",
        checks=(f"{T_FW}::test_linear_loss_meets_the_bound_with_equality",),
        fast=True,
    ),
    Mutant(
        id="lasso-M03", target="lasso:Algorithm 1", bug_class="selection",
        description="line 3's argmin over the vertices replaced by argmax (ascent direction)",
        file=FW, find="        return int(np.argmin(self.scores(g)))\n",
        replace="        return int(np.argmax(self.scores(g)))\n",
        checks=(f"{T_FW}::test_vertex_argmin_is_the_lmo_of_the_l1_ball",
                f"{T_FW}::test_explicit_convergence_bound"),
    ),
    Mutant(
        id="lasso-M04", target="lasso:Algorithm 1", bug_class="sign",
        description="the vertex of index i of the l1 ball has the wrong sign (+c e_j for -c e_j and back)",
        file=FW, find="        v[j] = sign * self.radius\n", replace="        v[j] = -sign * self.radius\n",
        checks=(f"{T_FW}::test_signed_basis_order_and_ties",
                f"{T_FW}::test_vertex_argmin_is_the_lmo_of_the_l1_ball"),
    ),
    Mutant(
        id="lasso-M05", target="lasso:Algorithm 1", bug_class="averaging",
        description="the output is the average of theta_1..theta_T instead of theta_T (line 5)",
        file=FW, find="            theta=self.theta.copy(), iterates=self.iterates,",
        replace="            theta=(self.iterates.mean(axis=0) if self.keep else self.theta).copy(), iterates=self.iterates,",
        checks=(f"{T_FW}::test_linear_loss_meets_the_bound_with_equality",),
    ),
    Mutant(
        id="lasso-M06", target="lasso:Algorithm 1", bug_class="step-index",
        description="mu_t = 2/(t+3): the schedule shifted by one (mu_{t+1} at step t)",
        file=FW, find="        mu = 2.0 / (t + 2.0)\n", replace="        mu = 2.0 / (t + 3.0)\n",
        checks=(f"{T_FW}::test_closed_form_of_the_iterate_weights",
                f"{T_FW}::test_linear_loss_meets_the_bound_with_equality"),
    ),
    # ------------------------------------------------------------------ Algorithm 2
    Mutant(
        id="lasso-M07", target="lasso:Algorithm 2", bug_class="noise-scale",
        description="line 3's Laplace scale at half the printed value",
        file=FW, find="    return L1 * c1 * math.sqrt(8.0 * T * math.log(1.0 / d)) / (n * eps)",
        replace="    return 0.5 * L1 * c1 * math.sqrt(8.0 * T * math.log(1.0 / d)) / (n * eps)",
        checks=(LINE_3, RATE, f"{T_PRIV}::test_paper_noise_is_the_nominal_advanced_composition_chain"),
    ),
    Mutant(
        id="lasso-M08", target="lasso:Algorithm 2", bug_class="noise-scale",
        description="line 3's Laplace scale at 0.8 of the printed value",
        file=FW, find="    return L1 * c1 * math.sqrt(8.0 * T * math.log(1.0 / d)) / (n * eps)",
        replace="    return 0.8 * L1 * c1 * math.sqrt(8.0 * T * math.log(1.0 / d)) / (n * eps)",
        checks=(LINE_3, RATE, f"{T_PRIV}::test_paper_noise_is_the_nominal_advanced_composition_chain"),
    ),
    Mutant(
        id="lasso-M09", target="lasso:Algorithm 2", bug_class="noise-scale",
        description="the selection noise is half lambda relative to the scores (scores doubled), while the "
                    "ledger records lambda",
        file=FW, find="    return int(mechanisms.report_noisy_min(scores, sensitivity,",
        replace="    return int(mechanisms.report_noisy_min(2.0 * scores, sensitivity,",
        checks=REPLAY_ALG2 + (LAW, AUDIT),
    ),
    Mutant(
        id="lasso-M10", target="lasso:Algorithm 2", bug_class="noise-scale",
        description="the selection noise is 0.8 lambda relative to the scores, while the ledger records lambda",
        file=FW, find="    return int(mechanisms.report_noisy_min(scores, sensitivity,",
        replace="    return int(mechanisms.report_noisy_min(1.25 * scores, sensitivity,",
        checks=REPLAY_ALG2 + (LAW,),
    ),
    Mutant(
        id="lasso-M11", target="lasso:Algorithm 2", bug_class="noise-not-added",
        description="lines 3-4: the Laplace noise is drawn (and recorded) but the argmin is of the exact scores, "
                    "at every step",
        file=FW, find=_SAMPLER,
        replace=_SAMPLER.replace("    return int(mechanisms", "    int(mechanisms") + "    return int(np.argmin(scores))\n",
        checks=REPLAY_ALG2,
        fast=True,
    ),
    Mutant(
        id="lasso-M12", target="lasso:Algorithm 2", bug_class="noise-not-added",
        description="the noise is drawn but not used at the first step only (exact argmin at t = 1)",
        file=FW, find="        vertex = S.vertex(index)\n        # Line 5",
        replace="        if t == 1:\n            index = int(np.argmin(scores))\n        vertex = S.vertex(index)\n        # Line 5",
        checks=REPLAY_ALG2 + (LAW,),
    ),
    Mutant(
        id="lasso-M13", target="lasso:Algorithm 2", bug_class="selection",
        description="line 4 takes the argmax of the noisy scores instead of the argmin",
        file=FW, find="    return int(mechanisms.report_noisy_min(scores, sensitivity,",
        replace="    return int(mechanisms.report_noisy_min(-scores, sensitivity,",
        checks=REPLAY_ALG2 + (THM_2_5, LAW),
    ),
    Mutant(
        id="lasso-M14", target="lasso:Algorithm 2", bug_class="selection",
        description="the noisy choice is made (and recorded) but the step goes to the exact argmin vertex",
        file=FW, find=_ALG2_SELECT, replace=_ALG2_SELECT + "            index = S.argmin(g)\n",
        checks=REPLAY_ALG2 + (LAW, AUDIT),
    ),
    Mutant(
        id="lasso-M15", target="lasso:Algorithm 2", bug_class="step-size",
        description="line 5 with the constant step 1/(T+2) instead of mu_t = 2/(t+2)",
        file=FW, find="        run.advance(t, (1.0 - mu) * theta + mu * vertex, mu, vertex, index)\n",
        replace="        run.advance(t, (1.0 - 1.0 / (T + 2)) * theta + 1.0 / (T + 2) * vertex, mu, vertex, index)\n",
        checks=REPLAY_ALG2 + (ZERO_NOISE, LAW),
    ),
    Mutant(
        id="lasso-M16", target="lasso:Algorithm 2", bug_class="step-index",
        description="line 5 with mu_{t+1} = 2/(t+3) at step t",
        file=FW, find="        run.advance(t, (1.0 - mu) * theta + mu * vertex, mu, vertex, index)\n",
        replace="        run.advance(t, (1.0 - 2.0 / (t + 3)) * theta + 2.0 / (t + 3) * vertex, mu, vertex, index)\n",
        checks=REPLAY_ALG2 + (ZERO_NOISE,),
    ),
    Mutant(
        id="lasso-M17", target="lasso:Algorithm 2", bug_class="sign",
        description="the step moves toward the opposite of the selected vertex",
        file=FW, find="        vertex = S.vertex(index)\n        # Line 5",
        replace="        vertex = -S.vertex(index)\n        # Line 5",
        checks=REPLAY_ALG2 + (ZERO_NOISE, THM_2_5),
    ),
    Mutant(
        id="lasso-M18", target="lasso:Algorithm 2", bug_class="averaging",
        description="line 6 outputs the average of the iterates instead of theta_T",
        file=FW, find="    # Line 6: output theta_priv = theta_T\n",
        replace="    # Line 6: output theta_priv = theta_T\n"
                "    run.theta = run.iterates.mean(axis=0) if run.iterates is not None else run.theta\n",
        checks=REPLAY_ALG2 + (ZERO_NOISE,),
    ),
    Mutant(
        id="lasso-M19", target="lasso:Algorithm 2", bug_class="composition",
        description="line 3's scale composed over sqrt(T) steps instead of T (sqrt(8 sqrt(T) log(1/delta)))",
        file=FW, find="math.sqrt(8.0 * T * math.log(1.0 / d))",
        replace="math.sqrt(8.0 * math.sqrt(T) * math.log(1.0 / d))",
        checks=(LINE_3, f"{T_PRIV}::test_paper_noise_is_the_nominal_advanced_composition_chain"),
    ),
    Mutant(
        id="lasso-M20", target="lasso:Algorithm 2", bug_class="composition",
        description="line 3's scale with T - 1 under the root instead of the printed T",
        file=FW, find="math.sqrt(8.0 * T * math.log(1.0 / d))",
        replace="math.sqrt(8.0 * (T - 1) * math.log(1.0 / d))",
        checks=(LINE_3, f"{T_PRIV}::test_paper_noise_is_the_nominal_advanced_composition_chain"),
    ),
    Mutant(
        id="lasso-M21", target="lasso:Algorithm 2", bug_class="composition",
        description="the certified scale calibrated for sqrt(T - 1) selections instead of T - 1",
        file=FW, find="    steps = T - 1\n    if steps == 0:",
        replace="    steps = math.isqrt(T - 1)\n    if steps == 0:",
        checks=(f"{T_PRIV}::test_ledger_of_the_paper_noise_and_of_the_certified_noise",),
    ),
    Mutant(
        id="lasso-M22", target="lasso:Algorithm 2", bug_class="exp-mech-factor",
        description="selection='exponential': the mechanism run at epsilon = sens/lambda instead of "
                    "2 sens/lambda (the factor 2 of the score sensitivity lost: the law is not the Gumbel one)",
        file=FW, find="-scores, sens, 2.0 * sens / lam, rng,", replace="-scores, sens, sens / lam, rng,",
        checks=(f"{LAW}[exponential]",),
    ),
    # ------------------------------------------------------------------ Corollary 2.7 (private_lasso)
    Mutant(
        id="lasso-M23", target="lasso:Corollary 2.7", bug_class="sensitivity",
        description="the score sensitivity without the replace-one factor 2 (L_1 ||C||_1 / n = 4/n for 8/n)",
        file=LASSO, find="    return 2.0 * lipschitz_l1(c) * c / n\n", replace="    return lipschitz_l1(c) * c / n\n",
        checks=(f"{T_LASSO}::test_score_sensitivity_witness_is_tight_and_twice_the_nominal",
                f"{T_LASSO}::test_score_sensitivity_under_replace_one",
                f"{T_PRIV}::test_exact_privacy_at_the_tight_pair_flags_half_the_noise"),
    ),
    Mutant(
        id="lasso-M24", target="lasso:Corollary 2.7", bug_class="noise-scale",
        description="private LASSO's paper lambda halved (lambda/2)",
        file=LASSO, find="        return fw.paper_laplace_scale(lipschitz_l1(c), c, T, n, epsilon, delta)",
        replace="        return 0.5 * fw.paper_laplace_scale(lipschitz_l1(c), c, T, n, epsilon, delta)",
        checks=(RATE, LINE_3),
    ),
    Mutant(
        id="lasso-M25", target="lasso:Corollary 2.7", bug_class="noise-scale",
        description="private LASSO's paper lambda at 0.8 of the printed value",
        file=LASSO, find="        return fw.paper_laplace_scale(lipschitz_l1(c), c, T, n, epsilon, delta)",
        replace="        return 0.8 * fw.paper_laplace_scale(lipschitz_l1(c), c, T, n, epsilon, delta)",
        checks=(RATE, LINE_3),
    ),
    Mutant(
        id="lasso-M26", target="lasso:Corollary 2.7", bug_class="data-use",
        description="the gradient ignores the responses y (fits X theta to 0)",
        file=LASSO, find="        LassoGradient(X, y, incremental=incremental), fw.SignedBasis(p, c), start,",
        replace="        LassoGradient(X, 0.0 * y, incremental=incremental), fw.SignedBasis(p, c), start,",
        checks=(f"{T_FWP}::test_private_lasso_replays_algorithm_2_line_by_line", LAW, RATE),
    ),
    Mutant(
        id="lasso-M27", target="lasso:Corollary 2.7", bug_class="averaging",
        description="private LASSO returns the average iterate instead of theta_T",
        file=LASSO, find="        theta=res.theta, iterates=res.iterates,",
        replace="        theta=res.iterates.mean(axis=0) if res.iterates is not None else res.theta, iterates=res.iterates,",
        checks=(ZERO_NOISE, f"{T_FWP}::test_private_lasso_replays_algorithm_2_line_by_line"),
    ),
    Mutant(
        id="lasso-M28", target="lasso:Corollary 2.7", bug_class="stopping",
        description="calibration='paper' sets T with the exact Gamma = 8 instead of the printed 4 of §2.2",
        file=LASSO, find='        gamma = "paper" if calibration == "paper" else "exact"',
        replace='        gamma = "exact"',
        checks=(f"{T_LASSO}::test_paper_calibration_reproduces_every_printed_choice_of_section_2_2", RATE),
    ),
    Mutant(
        id="lasso-M29", target="lasso:Corollary 2.7", bug_class="noise-not-added",
        description="the incremental gradient cache skips the selected vertex's term (the step's data term "
                    "is not added): grad L(theta_{t+1}) = (1 - mu) grad L(theta_t)",
        file=LASSO, find="            self._g = (1.0 - mu) * self._g + mu * grad_s\n",
        replace="            self._g = (1.0 - mu) * self._g\n",
        checks=(f"{T_LASSO}::test_incremental_gradient_equals_the_direct_gradient",
                f"{T_FWP}::test_private_lasso_replays_algorithm_2_line_by_line"),
    ),
    # ------------------------------------------------------------------ Theorem 2.6 (general convex C)
    Mutant(
        id="lasso-M30", target="lasso:Theorem 2.6", bug_class="noise-not-added",
        description="line 3: b_t is drawn (and recorded) but the LMO is called on the exact gradient",
        file=FW, find="        vertex = np.asarray(oracle(np.asarray(noisy, dtype=float)), dtype=float)\n",
        replace="        vertex = np.asarray(oracle(np.asarray(g, dtype=float)), dtype=float)\n",
        checks=(REPLAY_GEN,),
        fast=True,
    ),
    Mutant(
        id="lasso-M31", target="lasso:Theorem 2.6", bug_class="noise-scale",
        description="the Gaussian perturbation at half sigma while the ledger records sigma",
        file=FW, find="        noisy = mechanisms.gaussian_mechanism(g, sens, sigma, rng, ledger=ledger,\n"
                      "                                              relation=relation, label=f\"{label} step {t}\")\n",
        replace="        noisy = mechanisms.gaussian_mechanism(g, sens, sigma, rng, ledger=ledger,\n"
                "                                              relation=relation, label=f\"{label} step {t}\")\n"
                "        noisy = g + 0.5 * (noisy - g)\n",
        checks=(REPLAY_GEN,),
    ),
    Mutant(
        id="lasso-M32", target="lasso:Theorem 2.6", bug_class="sensitivity",
        description="the squared-Lipschitz resolution of Algorithm 5's sigma dropped (L_2 for L_2^2)",
        file=FW, find="    L = L2 * L2 if square_lipschitz else L2\n", replace="    L = L2\n",
        checks=(f"{T_FWP}::test_printed_gaussian_noise_is_not_scale_invariant",
                f"{T_FWP}::test_printed_gaussian_noise_with_squared_lipschitz_is_certified"),
    ),
    Mutant(
        id="lasso-M33", target="lasso:Theorem 2.6", bug_class="composition",
        description="the certified sigma composed over sqrt(T - 1) steps instead of T - 1",
        file=FW, find="    return accounting.certified_gaussian_sigma(sens, T - 1, eps, d, rel_tol=rel_tol)",
        replace="    return accounting.certified_gaussian_sigma(sens, max(1, math.isqrt(T - 1)), eps, d, rel_tol=rel_tol)",
        checks=(f"{T_FWP}::test_printed_gaussian_noise_with_squared_lipschitz_is_certified",),
    ),
    Mutant(
        id="lasso-M34", target="lasso:Theorem 2.6", bug_class="step-size",
        description="line 4 with the constant 1/(T+2) instead of the schedule",
        file=FW, find="        run.advance(t, (1.0 - mu) * theta + mu * vertex, mu, vertex)\n",
        replace="        run.advance(t, (1.0 - 1.0 / (T + 2)) * theta + 1.0 / (T + 2) * vertex, mu, vertex)\n",
        checks=(REPLAY_GEN, GEN_ZERO),
    ),
    Mutant(
        id="lasso-M35", target="lasso:Theorem 2.6", bug_class="step-index",
        description="line 4 with mu_{t+1} = 2/(t+3) at step t",
        file=FW, find="        run.advance(t, (1.0 - mu) * theta + mu * vertex, mu, vertex)\n",
        replace="        run.advance(t, (1.0 - 2.0 / (t + 3)) * theta + 2.0 / (t + 3) * vertex, mu, vertex)\n",
        checks=(REPLAY_GEN, GEN_ZERO),
    ),
    Mutant(
        id="lasso-M36", target="lasso:Theorem 2.6", bug_class="sign",
        description="line 3 minimises <-(grad + b_t), theta> (ascent: the wrong sign of the linear objective)",
        file=FW, find="        vertex = np.asarray(oracle(np.asarray(noisy, dtype=float)), dtype=float)\n",
        replace="        vertex = np.asarray(oracle(-np.asarray(noisy, dtype=float)), dtype=float)\n",
        checks=(REPLAY_GEN, GEN_ZERO),
    ),
    Mutant(
        id="lasso-M37", target="lasso:Theorem 2.6", bug_class="averaging",
        description="line 5 outputs the average of the iterates instead of theta_T",
        file=FW, find="    # Line 5: output theta_priv = theta_T\n",
        replace="    # Line 5: output theta_priv = theta_T\n"
                "    run.theta = run.iterates.mean(axis=0) if run.iterates is not None else run.theta\n",
        checks=(REPLAY_GEN, GEN_ZERO),
    ),
)
