"""Mutants of saddle_point (Gonzalez-Guzman-Paquette): Algorithms 1, 2, 3, 5 and the fully adaptive filter.

See reference/mutants/__init__.py for the shape of a mutant and how it runs.
"""

from __future__ import annotations

from . import Mutant

_ALG = "reference/algorithms/saddle_point.py"
_T = "tests/saddle_point/"

MUTANTS = (
    Mutant(
        id="saddle_point-M01", target="saddle_point:Algorithm 1", bug_class="selection",
        description="the vertex drawn from the wrong law (inverse CDF over the sorted iterate)",
        file=_ALG, find="cdf = np.cumsum(x)", replace="cdf = np.cumsum(np.sort(x))",
        checks=(_T + "test_privacy.py::test_output_vertices_are_drawn_from_the_iterates_along_whole_runs",
                _T + "test_privacy.py::test_vertex_sampler_frequencies_match_x"),
        fast=True,
    ),
    Mutant(
        id="saddle_point-M02", target="saddle_point:Algorithm 2", bug_class="step-index",
        description="the multilevel weight 1/p_N taken at the truncated geometric level N + 1",
        file=_ALG, find="weight = 1.0 / truncated_geometric_pmf(M)[N]",
        replace="weight = 1.0 / truncated_geometric_pmf(M + 1)[N + 1]",
        checks=(_T + "test_algorithms.py::test_algorithm2_is_the_multilevel_combination_of_its_four_terms",
                _T + "test_utility.py::test_bias_reduced_gradient_telescopes_to_2_to_the_M_plus_1_vertices"),
    ),
    Mutant(
        id="saddle_point-M03", target="saddle_point:Algorithm 3", bug_class="step-index",
        description="the truncated geometric level drawn off by one (N + 1, capped at M)",
        file=_ALG, find="N = truncated_geometric(M, rng)", replace="N = min(truncated_geometric(M, rng) + 1, M)",
        checks=(_T + "test_privacy.py::test_algorithm3_levels_follow_the_truncated_geometric_law",),
    ),
    Mutant(
        id="saddle_point-M04", target="saddle_point:Algorithm 3", bug_class="stopping",
        description="the stopping rule ignores the worst-case reserve of the next step",
        file=_ALG, find="while spent + reserve <= Gamma:", replace="while spent <= Gamma:",
        checks=(_T + "test_privacy.py::test_algorithm3_runs_stay_within_the_data_and_the_filter",
                _T + "test_algorithms.py::test_algorithm3_step_count_follows_the_stopping_rule"),
        fast=True,
    ),
    Mutant(
        id="saddle_point-M05", target="core:FullyAdaptiveFilter", bug_class="stopping",
        description="the fully adaptive filter does not stop at its budget (admits up to 2 epsilon)",
        file="reference/privacy/accounting.py", find="return e <= self.epsilon and d <= self.delta_for_steps",
        replace="return e <= 2 * self.epsilon and d <= self.delta_for_steps",
        checks=(_T + "test_privacy.py::test_filter_never_lets_adversarial_steps_exceed_the_budget",),
    ),
    Mutant(
        id="saddle_point-M06", target="saddle_point:Algorithm 1", bug_class="noise-scale",
        description="half the noise: Proposition 3.3's step doubled (each vertex 2 eps0-DP)",
        file=_ALG, find="return eps0 * B / (4.0 * L0)", replace="return eps0 * B / (2.0 * L0)",
        checks=(_T + "test_privacy.py::test_algorithm1_ledger_is_proposition_3_3",
                "proofs/proof_saddle_point.py::test_proposition_3_3_step_is_corollary_3_6_at_2_K_plus_1_T_draws"),
    ),
    Mutant(
        id="saddle_point-M07", target="saddle_point:Algorithm 1", bug_class="noise-not-added",
        description="no vertex sampling in the output: the average of the iterates is returned",
        file=_ALG, find="x_out, y_out = _vertex_mean(sx, problem.dx), _vertex_mean(sy, problem.dy)",
        replace="x_out, y_out = np.mean(xs, axis=0), np.mean(ys, axis=0)",
        checks=(_T + "test_algorithms.py::test_outputs_are_averages_of_sampled_vertices",),
    ),
    Mutant(
        id="saddle_point-M08", target="saddle_point:Algorithm 1", bug_class="sensitivity",
        description="the replace-one factor 2 lost: batch-gradient sensitivity L0 / B (algorithm1_sensitivity, the "
                    "one source of the certified step and the ledger): eps0 recorded at half, the certified step "
                    "twice too large",
        file=_ALG, find="    return 2.0 * L0 / B\n", replace="    return 1.0 * L0 / B\n",
        checks=(_T + "test_privacy.py::test_per_vertex_privacy_loss_is_at_most_eps0_and_reaches_it",
                _T + "test_privacy.py::test_algorithm1_certified_calibration_is_tight_and_larger_than_the_papers",
                "tests/test_recompute_certified_noise.py::test_saddle_point_certified_eta_recomputed_by_the_recipe"),
        fast=True,
    ),
    Mutant(
        id="saddle_point-M09", target="saddle_point:Algorithm 1", bug_class="sign",
        description="line 6 with the wrong sign for the y-player (it descends)",
        file=_ALG, find="y = entropic_step(y, -gy, step)", replace="y = entropic_step(y, gy, step)",
        checks=(_T + "test_algorithms.py::test_algorithm1_y_player_ascends_and_x_player_descends",),
    ),
    Mutant(
        id="saddle_point-M10", target="saddle_point:Algorithm 1", bug_class="averaging",
        description="the output is the last sampled vertex instead of the average of the T vertices",
        file=_ALG, find="sx, sy = np.asarray(out_x).ravel(), np.asarray(out_y).ravel()",
        replace="sx, sy = np.asarray(out_x).ravel()[-1:], np.asarray(out_y).ravel()[-1:]",
        checks=(_T + "test_algorithms.py::test_outputs_are_averages_of_sampled_vertices",),
    ),
    Mutant(
        id="saddle_point-M11", target="saddle_point:Algorithm 5", bug_class="averaging",
        description="uniform averaging instead of the anytime online-to-batch weights alpha_t = t",
        file=_ALG, find="x = (A * x + (t + 1) * w) / A_next", replace="x = (t * x + w) / (t + 1)",
        checks=(_T + "test_algorithms.py::test_algorithm5_averages_are_the_anytime_online_to_batch_weights",),
    ),
    Mutant(
        id="saddle_point-M12", target="saddle_point:Algorithm 5", bug_class="sensitivity",
        description="the weight alpha_T forgotten in the sensitivity of the cumulative gradient (2 L0, not 2 L0 T)",
        file=_ALG, find="    return 2.0 * L0 * T\n", replace="    return 2.0 * L0\n",
        checks=(_T + "test_privacy.py::test_algorithm5_ledger_and_exact_per_vertex_loss",
                "tests/test_conformance_constants.py::test_saddle_point_certified_steps_are_the_largest_the_accountant_certifies",
                "tests/test_recompute_certified_noise.py::test_saddle_point_algorithm5_certified_eta_recomputed_by_the_recipe"),
    ),
    Mutant(
        id="saddle_point-M13", target="saddle_point:Algorithm 3", bug_class="noise-scale",
        description="half the noise: Proposition 3.17's step doubled",
        file=_ALG, find="return epsilon * B / (PROP_3_17_CONSTANT * L0", replace="return epsilon * B / (PROP_3_17_CONSTANT / 2 * L0",
        checks=(_T + "test_privacy.py::test_algorithm3_runs_stay_within_the_data_and_the_filter",
                "proofs/proof_saddle_point.py::test_proposition_3_17_step_admits_2_Gamma_draws_in_the_filter"),
    ),
    Mutant(
        id="saddle_point-M14", target="saddle_point:Algorithm 3", bug_class="sensitivity",
        description="Algorithm 2's sensitivity taken as Algorithm 1's (2 L0 / B instead of 5 L0 / B)",
        file=_ALG, find="    return 5.0 * L0 / B\n", replace="    return 2.0 * L0 / B\n",
        checks=(_T + "test_privacy.py::test_algorithm3_runs_stay_within_the_data_and_the_filter",
                "tests/test_conformance_constants.py::test_saddle_point_certified_steps_are_the_largest_the_accountant_certifies",
                "tests/test_recompute_certified_noise.py::test_saddle_point_algorithm3_certified_eta_recomputed_by_the_recipe"),
    ),
    Mutant(
        id="saddle_point-M15", target="saddle_point:Algorithm 1", bug_class="data-use",
        description="the same first batch reused at every step (not a single pass over disjoint batches)",
        file=_ALG, find="batch = np.arange((t - 1) * B, t * B)", replace="batch = np.arange(0, B)",
        checks=(_T + "test_algorithms.py::test_one_record_moves_only_the_iterates_after_its_batch",
                _T + "test_algorithms.py::test_algorithm1_iterates_are_the_closed_form_entropic_steps"),
    ),
    Mutant(
        id="saddle_point-M16", target="saddle_point:Algorithm 4", bug_class="sensitivity",
        description="the score sensitivity of the selection halved (2 B0 / m: one of the gap's two terms forgotten)",
        file=_ALG, find="sens_s = 4.0 * B0 / m", replace="sens_s = 2.0 * B0 / m",
        checks=(_T + "test_boosting.py::test_selection_law_is_the_exponential_mechanism_with_sensitivity_4_B0_over_m",),
    ),
    Mutant(
        id="saddle_point-M17", target="saddle_point:Algorithm 4", bug_class="exp-mech-factor",
        description="the selection sampled with the monotone form exp(eps s / Delta) (the factor 2 lost)",
        file=_ALG, find="i_star = exponential_mechanism(-scores, sens_s, epsilon, rng, ledger=ledger,",
        replace="i_star = exponential_mechanism(-scores, sens_s, epsilon, rng, ledger=ledger, monotone=True,",
        checks=(_T + "test_boosting.py::test_selection_law_is_the_exponential_mechanism_with_sensitivity_4_B0_over_m",),
    ),
    Mutant(
        id="saddle_point-M18", target="saddle_point:Algorithm 4", bug_class="data-use",
        description="the Algorithm 3 parts overlap (each starts half a part after the previous)",
        file=_ALG, find="        start += size3", replace="        start += size3 // 2",
        checks=(_T + "test_boosting.py::test_parts_are_disjoint_and_sized_as_line_2",),
    ),
    # Review (issue 12): mutants the first tests did not kill; each with the focused test that now does.
    Mutant(
        id="saddle_point-M19", target="saddle_point:Algorithm 1", bug_class="noise-not-added",
        description="line 5 takes the batch gradient at the iterates (x_t, y_t), not at the means of the sampled "
                    "vertices (the trajectory no longer runs through the private draws)",
        file=_ALG, find="gx, gy = problem.batch_gradient(x_hat, y_hat, batch)",
        replace="gx, gy = problem.batch_gradient(x, y, batch)",
        checks=(_T + "test_review.py::test_algorithm1_line_5_gradient_is_at_the_sampled_vertices_and_each_vertex_"
                "stays_eps0_private",),
    ),
    Mutant(
        id="saddle_point-M20", target="saddle_point:Algorithm 3", bug_class="step-index",
        description="line 8 run in the box's order after lines 6-7: the output vertex of step t drawn from "
                    "(x_{t+1}, y_{t+1})",
        file=_ALG,
        find="""        out_x.append(sample_vertices(x_t, 1, rng, **kw)[0])
        out_y.append(sample_vertices(y_t, 1, rng, **kw)[0])
""",
        replace="""        out_x.append(sample_vertices(x, 1, rng, **kw)[0])
        out_y.append(sample_vertices(y, 1, rng, **kw)[0])
""",
        checks=(_T + "test_review.py::test_output_vertex_of_step_1_is_drawn_from_x_1_not_x_2",),
    ),
    Mutant(
        id="saddle_point-M21", target="saddle_point:Algorithm 3", bug_class="data-use",
        description="line 4 reads the first B 2^(N_t+1) records at every step (the batch is not fresh)",
        file=_ALG, find="batch = np.arange(used, used + size)", replace="batch = np.arange(0, size)",
        checks=(_T + "test_review.py::test_algorithm3_one_record_moves_only_the_iterates_after_its_batch",),
    ),
    Mutant(
        id="saddle_point-M22", target="saddle_point:Algorithm 1", bug_class="noise-not-added",
        description="at step 2 only, line 5 skips the vertex sampling (gradient at the iterates)",
        file=_ALG, find="gx, gy = problem.batch_gradient(x_hat, y_hat, batch)",
        replace="gx, gy = problem.batch_gradient(*((x_hat, y_hat) if t != 2 else (x, y)), batch)",
        checks=(_T + "test_review.py::test_algorithm1_line_5_gradient_is_at_the_sampled_vertices_and_each_vertex_"
                "stays_eps0_private",),
    ),
    Mutant(
        id="saddle_point-M23", target="saddle_point:Algorithm 2", bug_class="estimator",
        description="the 'even' half is the first half again (the O and E means overlap; unbiased, wrong law)",
        file=_ALG, find="_vertex_mean(ix[h:], dx)", replace="_vertex_mean(ix[:h], dx)",
        checks=(_T + "test_review.py::test_algorithm2_correction_vanishes_for_affine_gradients_and_g0_is_at_"
                "one_vertex",),
    ),
    Mutant(
        id="saddle_point-M24", target="saddle_point:Algorithm 5", bug_class="step-index",
        description="line 9 sparsifies x_{T+1} (the average after the last update) instead of x_T",
        file=_ALG, find="out = _vertex_mean(sample_vertices(x_T, K, rng, **kw), d)",
        replace="out = _vertex_mean(sample_vertices(x, K, rng, **kw), d)",
        checks=(_T + "test_review.py::test_algorithm5_estimates_and_output_are_means_of_vertices_of_x_t",),
    ),
    Mutant(
        id="saddle_point-M25", target="saddle_point:Algorithm 5", bug_class="estimator",
        description="line 3 samples the private estimate from the learner's w_t instead of the average x_t",
        file=_ALG, find="x_hat = _vertex_mean(sample_vertices(x, K, rng, **kw), d)",
        replace="x_hat = _vertex_mean(sample_vertices(w, K, rng, **kw), d)",
        checks=(_T + "test_review.py::test_algorithm5_estimates_and_output_are_means_of_vertices_of_x_t",),
    ),
    Mutant(
        id="saddle_point-M26", target="saddle_point:Algorithm 5", bug_class="step-size",
        description="the stability constraint without tau: eta <= 1/(8 L0 T)",
        file=_ALG, find='* L0 * tau * T))', replace="* L0 * T))",
        checks=(_T + "test_review.py::test_algorithm5_step_is_capped_by_the_stability_constraint",),
    ),
    Mutant(
        id="saddle_point-M27", target="saddle_point:Algorithm 1", bug_class="composition",
        description="an explicit step's claimed epsilon composes N = 2(K+1)T draws where Prop 3.3 has (K+1)T "
                    "(claim sqrt(2) too large)",
        file=_ALG, find="math.sqrt((N / 2) * math.log(1 / delta)) / B",
        replace="math.sqrt(N * math.log(1 / delta)) / B",
        checks=(_T + "test_review.py::test_explicit_steps_claim_the_propositions_inverted",),
    ),
    Mutant(
        id="saddle_point-M28", target="saddle_point:Algorithm 4", bug_class="data-use",
        description="the Frank-Wolfe run minimising F(., y_i) reads the y-run's part (one part used twice)",
        file=_ALG, find='A, u, v = problem.batch_mean(parts[("fw_x", i, j)])',
        replace='A, u, v = problem.batch_mean(parts[("fw_y", i, j)])',
        checks=(_T + "test_review.py::test_algorithm4_each_part_is_read_by_its_own_mechanism_only",),
    ),
    Mutant(
        id="saddle_point-M29", target="saddle_point:Algorithm 4", bug_class="sign",
        description="the selection's sampler gets the scores with the sign flipped (prefers the largest estimated "
                    "gap); the recorded law, computed beside it, is unchanged",
        file=_ALG, find="i_star = exponential_mechanism(-scores, sens_s, epsilon, rng",
        replace="i_star = exponential_mechanism(scores, sens_s, epsilon, rng",
        checks=(_T + "test_boosting.py::test_selected_index_is_drawn_from_the_recorded_selection_law",),
    ),
    Mutant(
        id="saddle_point-M30", target="saddle_point:Algorithm 3", bug_class="sign",
        description="line 7 with the wrong sign: Algorithm 3's y-player descends",
        file=_ALG, find="y = entropic_step(y_t, -g.gy, step)", replace="y = entropic_step(y_t, g.gy, step)",
        checks=(_T + "test_review.py::test_algorithm3_y_player_ascends_and_x_player_descends",),
    ),
    Mutant(
        id="saddle_point-M31", target="saddle_point:Algorithm 4", bug_class="data-use",
        description="a candidate's Algorithm 3 runs on the whole data set, not on its own part (its records overlap "
                    "the Frank-Wolfe and held-out parts)",
        file=_ALG, find='res = private_smd_bias_reduced(_subproblem(problem, parts[("alg3", i)]), epsilon',
        replace="res = private_smd_bias_reduced(problem, epsilon",
        checks=(_T + "test_review.py::test_algorithm4_each_part_is_read_by_its_own_mechanism_only",),
    ),
    # Second pass (issue 23): privacy bugs the suite let through, each with the test that now kills it.
    Mutant(
        id="saddle_point-M32", target="saddle_point:Algorithm 2", bug_class="data-use",
        description="the multilevel correction G^+ - (G^O + G^E)/2 computed on the first B records of the batch instead "
                    "of all B 2^(N+1) (its sensitivity grows like 2^N; invisible on games whose curvature does not "
                    "depend on the record)",
        file=_ALG,
        find="""    Gp = problem.batch_gradient(xp, yp, batch)
    Go = problem.batch_gradient(xo, yo, batch)
    Ge = problem.batch_gradient(xe, ye, batch)""",
        replace="""    Gp = problem.batch_gradient(xp, yp, batch[:batch.size // m])
    Go = problem.batch_gradient(xo, yo, batch[:batch.size // m])
    Ge = problem.batch_gradient(xe, ye, batch[:batch.size // m])""",
        checks=(_T + "test_second_pass.py::test_algorithm2_moves_by_at_most_the_bound_when_its_correction_depends_on_"
                "the_record",
                _T + "test_second_pass.py::test_algorithm3_replays_line_by_line_every_iterate_x_and_y",
                "tests/test_vectors_independent.py::test_saddle_point_algorithm_2"),
    ),
    Mutant(
        id="saddle_point-M33", target="saddle_point:Algorithm 3", bug_class="step-size",
        description="line 7's y-player step doubled (the y log-ratio between neighbours doubles while the ledger "
                    "records eps0)",
        file=_ALG, find="y = entropic_step(y_t, -g.gy, step)", replace="y = entropic_step(y_t, -g.gy, 2 * step)",
        checks=(_T + "test_second_pass.py::test_algorithm3_replays_line_by_line_every_iterate_x_and_y",),
    ),
    Mutant(
        id="saddle_point-M34", target="saddle_point:Algorithm 4", bug_class="sensitivity",
        description="the selection's range bound B0 reduced to max|A| (the quadratic and linear terms of f forgotten: "
                    "the scores move several times the recorded sensitivity on games with linear terms)",
        file=_ALG,
        find="""    return float(np.abs(problem.atoms).max() + 0.5 * (np.abs(problem.P).max() + np.abs(problem.R).max())
                 + np.abs(problem.u).max() + np.abs(problem.v).max())""",
        replace="""    return float(np.abs(problem.atoms).max())""",
        checks=(_T + "test_second_pass.py::test_selection_sensitivity_counts_the_linear_terms_and_a_held_out_pair_"
                "attains_it",
                _T + "test_second_pass.py::test_range_bound_includes_the_quadratic_and_linear_terms_and_a_smaller_"
                "declared_bound_is_refused"),
    ),
    Mutant(
        id="saddle_point-M35", target="saddle_point:Algorithm 1", bug_class="composition",
        description="Proposition 3.3's count N = 2KT: the output vertices of line 3 forgotten (the step is computed "
                    "for fewer draws than the loop makes)",
        file=_ALG, find='return 2 * (K + 1) * T if output == "independent" else 2 * K * T', replace="return 2 * K * T",
        checks=(_T + "test_second_pass.py::test_proposition_3_3_from_measured_loss_and_counted_draws",
                _T + "test_privacy.py::test_algorithm1_ledger_is_proposition_3_3"),
    ),
    Mutant(
        id="saddle_point-M36", target="saddle_point:Algorithm 1", bug_class="noise-not-added",
        description="on the default output path only (output='independent'), line 5 takes the batch gradient at the "
                    "iterates instead of the sampled vertices (the test of line 5 runs with output='reuse')",
        file=_ALG, find="gx, gy = problem.batch_gradient(x_hat, y_hat, batch)",
        replace='gx, gy = problem.batch_gradient(*((x, y) if output == "independent" else (x_hat, y_hat)), batch)',
        checks=(_T + "test_second_pass.py::test_algorithm1_replays_line_by_line_on_the_default_output_path",
                _T + "test_utility.py::test_lemma_3_8_holds_pathwise_on_algorithm_1_runs"),
    ),
    # Issue 34: independent mutants written from the paper and the catalogue's reconstruction without reading
    # this catalogue or the tests (its exact duplicates of M06 and M16 are not repeated here).
    Mutant(
        id="saddle_point-M37", target="saddle_point:Algorithm 3", bug_class="data-use",
        description="line 4's fresh batch of B 2^N_t records where Algorithm 2 needs B 2^(N_t+1) (the catalogue's "
                    "A6): the oracle's sensitivity is 10 L0 / B while the ledger records 5 L0 / B",
        file=_ALG, find="size = B * 2 ** (N + 1)", replace="size = B * 2 ** N",
        checks=(_T + "test_algorithms.py::test_algorithm3_step_count_follows_the_stopping_rule",),
    ),
    Mutant(
        id="saddle_point-M38", target="saddle_point:Algorithm 5", bug_class="step-size",
        description="line 6 plays exponentiated gradient on <g_t, .> instead of alpha_t <g_t, .> (Lemma 4.1's "
                    "weights alpha_t = t dropped from the learner)",
        file=_ALG, find="w = entropic_step(w, alpha * g, step)", replace="w = entropic_step(w, g, step)",
        checks=(_T + "test_algorithms.py::test_algorithm5_averages_are_the_anytime_online_to_batch_weights",),
    ),
    Mutant(
        id="saddle_point-M39", target="saddle_point:Algorithm 2", bug_class="estimator",
        description="the base term G^0 taken at the mean of the 2^(N+1) vertices instead of the single vertex "
                    "x_tilde^(0): the multilevel sum no longer telescopes",
        file=_ALG, find="G0 = problem.batch_gradient(_vertex_mean(ix0, dx), _vertex_mean(iy0, dy), batch)",
        replace="G0 = problem.batch_gradient(xp, yp, batch)",
        checks=(_T + "test_lemmas.py::test_lemma_3_15_telescopes_on_a_non_separable_record_dependent_game",),
    ),
    Mutant(
        id="saddle_point-M40", target="saddle_point:Algorithm 5", bug_class="step-index",
        description="line 3 refreshes the private estimate at t = 0 mod tau instead of t - t0 = 0 mod tau (the "
                    "refresh clock not restarted after the warm-up)",
        file=_ALG, find="if t <= t0 or (t - t0) % tau == 0:", replace="if t <= t0 or t % tau == 0:",
        checks=(_T + "test_algorithms.py::test_algorithm5_averages_are_the_anytime_online_to_batch_weights",),
    ),
    Mutant(
        id="saddle_point-M41", target="saddle_point:Algorithm 4", bug_class="sensitivity",
        description="the Frank-Wolfe selections' score sensitivity without the replace-one factor 2 (L0 / size_fw in "
                    "boosting_score_sensitivity, the one source of the certified scale and the selections' ledger)",
        file=_ALG, find="    return 2.0 * L0 / size_fw\n", replace="    return 1.0 * L0 / size_fw\n",
        checks=(_T + "test_boosting.py::test_parallel_composition_of_the_parts",
                "tests/test_conformance_constants.py::test_saddle_point_algorithm4_counts_split_and_noise_are_the_named_functions",
                "tests/test_recompute_certified_noise.py::test_saddle_point_algorithm4_frank_wolfe_scale_recomputed_by_kov"),
    ),
)
