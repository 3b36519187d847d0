"""Mutants of paper ``online`` (reference/algorithms/online.py): realistic wrong ports of Algorithms 1-6
and of the base learners, each with the checks that kill it. See reference/mutants/__init__.py."""

from __future__ import annotations

from . import Mutant

F = "reference/algorithms/online.py"
T_ALG = "tests/online/test_algorithms.py"
T_PRIV = "tests/online/test_privacy.py"
T_SENS = "tests/online/test_sensitivity.py"
T_TREE = "tests/online/test_tree.py"
T_LAW = "tests/online/test_release_law.py"
T_REG = "tests/online/test_regret.py"
# PIGD runs Algorithm 1 (pocp) with A = IGD: its line 8 is pocp's line 7, its lines 6-7 igd_update's step.
_L8 = ("        x_tilde = x + (beta / t) * rng.standard_normal(x.shape)\n"
       "        # Line 8: output xhat_{t+1} = Pi_C(xtilde_{t+1})\n        x_hat")
_L7_NOISE = "        # Line 7: noise addition xtilde_{t+1} = x_{t+1} + b_{t+1}, b ~ N(0, beta^2/t^2 I)\n"
_L6_UPDATE = "x = np.asarray(update(fs, xs, C), dtype=float)"
_L8_GIGA = ("        x_tilde = x + (beta / t) * rng.standard_normal(x.shape)\n"
            "        # Line 9: output xhat_{t+1} = Pi_C(xtilde_{t+1})\n        decisions.append(_project(C, x_tilde))")

MUTANTS = (
    Mutant(
        id="online-M01", target="online:Algorithm 2", bug_class="data-use",
        description="PIGD's IGD step starts from the released noisy points xhat_1..xhat_t (Algorithm 1 line 6 fed "
                    "the decisions): the noise is fed back into the state",
        file=F, find=_L6_UPDATE, replace="x = np.asarray(update(fs, decisions, C), dtype=float)",
        checks=(f"{T_ALG}::test_nonprivate_state_is_identical_across_noise_seeds",),
        fast=True,
    ),
    Mutant(
        id="online-M02", target="online:Algorithm 1", bug_class="noise-scale",
        description="POCP adds half the noise of line 7 (beta/2t)",
        file=F,
        find="# Line 7: noise addition xtilde_{t+1} = x_{t+1} + b_{t+1}, b ~ N(0, beta^2/t^2 I)\n"
             "        x_tilde = x + (beta / t) * rng.standard_normal(x.shape)",
        replace="# Line 7: noise addition xtilde_{t+1} = x_{t+1} + b_{t+1}, b ~ N(0, beta^2/t^2 I)\n"
                "        x_tilde = x + (0.5 * beta / t) * rng.standard_normal(x.shape)",
        checks=(f"{T_PRIV}::test_pocp_whole_stream_audit_with_half_noise_control",),
        fast=True,
    ),
    Mutant(
        id="online-M03", target="online:Algorithm 2", bug_class="sensitivity",
        description="the 1/alpha missing from IGD's sensitivity (Lemma 4 as printed: lambda = 2L)",
        file=F, find='return 2.0 * check_positive(L, "L") / check_positive(alpha, "alpha")',
        replace='return 2.0 * check_positive(L, "L")',
        checks=(f"{T_SENS}::test_igd_sensitivity_with_the_one_over_alpha", f"{T_SENS}::test_printed_igd_constant_fails"),
    ),
    Mutant(
        id="online-M04", target="online:Algorithm 2", bug_class="noise-not-added",
        description="PIGD draws the noise of line 8 but releases the non-private iterate",
        file=F,
        find=_L8, replace=_L8.replace("x + (beta / t)", "x + 0 * (beta / t)"),
        checks=(f"{T_ALG}::test_nonprivate_state_is_identical_across_noise_seeds",),
    ),
    Mutant(
        id="online-M05", target="online:Algorithm 2", bug_class="step-size",
        description="PIGD's learning rate 1/t instead of 1/(alpha t)",
        file=F, find="eta = 1.0 / (self.alpha * t)", replace="eta = 1.0 / t",
        checks=(f"{T_ALG}::test_nonprivate_state_is_identical_across_noise_seeds",),
    ),
    Mutant(
        id="online-M06", target="online:Algorithm 3", bug_class="step-size",
        description="PGIGA with the standard GIGA step 1/(alpha t) instead of line 6's 2/(alpha t)",
        file=F, find="# Line 6: step size eta_t = 2/(alpha t)\n        eta = 2.0 / (alpha * t)",
        replace="# Line 6: step size eta_t = 2/(alpha t)\n        eta = 1.0 / (alpha * t)",
        checks=(f"{T_ALG}::test_pgiga_and_giga_updates_are_line_7",),
    ),
    Mutant(
        id="online-M07", target="online:Algorithm 3", bug_class="sensitivity",
        description="GIGA's sensitivity 2G/alpha as Lemma 5 prints it (case 1 loses a factor 2)",
        file=F, find='return 4.0 * check_positive(G, "G") / check_positive(alpha, "alpha")',
        replace='return 2.0 * check_positive(G, "G") / check_positive(alpha, "alpha")',
        checks=(f"{T_SENS}::test_printed_giga_constant_fails", f"{T_SENS}::test_giga_sensitivity_after_warmup"),
    ),
    Mutant(
        id="online-M08", target="online:Algorithm 5", bug_class="tree",
        description="item t stored at leaf bin(t) (line 5 read literally) instead of bin(t - 1)",
        file=F, find='return format(t - 1, f"0{self.k}b")', replace='return format(t % (1 << self.k), f"0{self.k}b")',
        checks=(f"{T_TREE}::test_the_right_leaf_is_populated", f"{T_TREE}::test_line_13_example_and_leaf_labels"),
        fast=True,
    ),
    Mutant(
        id="online-M09", target="online:Algorithm 5", bug_class="noise-scale",
        description="every tree node gets half the noise",
        file=F, find="return self.sigma * self.rng.standard_normal(self.shape) if self.sigma > 0 else 0.0",
        replace="return 0.5 * self.sigma * self.rng.standard_normal(self.shape) if self.sigma > 0 else 0.0",
        checks=(f"{T_TREE}::test_prefix_noise_variance_is_popcount_sigma2",
                f"{T_TREE}::test_alg5_agrees_bit_for_bit_with_the_tree"),
    ),
    Mutant(
        id="online-M10", target="online:Algorithm 5", bug_class="noise-law",
        description="the certified tree noise scales with 1/sqrt(eps) (sigma calibrated at sqrt(eps))",
        file=F, find='return accounting.certified_gaussian_sigma(sens, check_int(trees, "trees", 1), eps, delta)',
        replace='return accounting.certified_gaussian_sigma(sens, check_int(trees, "trees", 1), math.sqrt(eps), delta)',
        checks=(f"{T_TREE}::test_certified_sigma_holds_and_is_tight",),
    ),
    Mutant(
        id="online-M11", target="online:Algorithm 4", bug_class="sensitivity",
        description="PQFTL's certified trees calibrated for ||y v|| <= R (line 8's R) instead of R^2",
        file=F, find='sig_V = sig_u = tree_sigma(R * R, T, eps, delta, "certified", trees=2, items=T - 1)',
        replace='sig_V = sig_u = tree_sigma(R, T, eps, delta, "certified", trees=2, items=T - 1)',
        checks=(f"{T_PRIV}::test_pqftl_u_tree_with_R_refuted",),
    ),
    Mutant(
        id="online-M12", target="online:Algorithm 6", bug_class="averaging",
        description="POL releases the last IGD iterate instead of the average (line 12)",
        file=F, find="x_avg = s / T", replace="x_avg = x",
        checks=(f"{T_ALG}::test_zero_noise_reductions", f"{T_SENS}::test_pol_sensitivity_attained_and_printed_bound_fails"),
    ),
    Mutant(
        id="online-M13", target="online:Algorithm 6", bug_class="sensitivity",
        description="POL's sensitivity without 1/alpha (eq. (35) as printed)",
        file=F, find="return 2.0 * L * H / (alpha * T)", replace="return 2.0 * L * H / T",
        checks=(f"{T_SENS}::test_pol_sensitivity_attained_and_printed_bound_fails",),
    ),
    Mutant(
        id="online-M14", target="online:eq. (20)", bug_class="data-use",
        description="FTL leads with the last loss only (the linear part is not accumulated)",
        file=F, find="S = S + f.a * f.c - f.g", replace="S = f.a * f.c - f.g",
        checks=(f"{T_ALG}::test_ftl_and_qftl_are_the_leaders",),
    ),
    Mutant(
        id="online-M15", target="online:eq. (21)", bug_class="step-index",
        description="QFTL regularises with alpha I instead of t alpha I",
        file=F, find="x = np.linalg.solve(t * alpha * np.eye(d) + V, u)", replace="x = np.linalg.solve(alpha * np.eye(d) + V, u)",
        checks=(f"{T_ALG}::test_ftl_and_qftl_are_the_leaders",),
    ),
    Mutant(
        id="online-M16", target="online:eq. (13)", bug_class="step-size",
        description="IGD with eta_t = 1/t (alpha dropped)",
        file=F, find="x = f.prox(x, 1.0 / (alpha * t), C)", replace="x = f.prox(x, 1.0 / t, C)",
        checks=(f"{T_ALG}::test_nonprivate_state_is_identical_across_noise_seeds",),
    ),
    Mutant(
        id="online-M17", target="online:GIGA", bug_class="sign",
        description="GIGA ascends: x_t + eta grad f_t(x_t)",
        file=F, find="x = _project(C, x - step_constant / (alpha * t) * f.grad(x))",
        replace="x = _project(C, x + step_constant / (alpha * t) * f.grad(x))",
        checks=(f"{T_ALG}::test_pgiga_and_giga_updates_are_line_7",),
    ),
    # Added by an independent mutant review (each survived tests/online and proofs/proof_online.py as they
    # stood, except where the checks name an older test).
    Mutant(
        id="online-M18", target="online:Algorithm 2", bug_class="noise-scale",
        description="PIGD draws line 8's noise at 0.8 beta while the ledger records beta",
        file=F, find=_L8, replace=_L8.replace("(beta / t)", "(0.8 * beta / t)"),
        checks=(f"{T_LAW}::test_pigd_line_8_noise_is_beta_over_t_at_every_round",),
    ),
    Mutant(
        id="online-M19", target="online:Algorithm 2", bug_class="noise-not-added",
        description="PIGD adds line 8's noise only at even rounds (drawn every round)",
        file=F, find=_L8,
        replace=_L8.replace("(beta / t) * rng.standard_normal(x.shape)",
                            "(beta / t) * rng.standard_normal(x.shape) * (t % 2 == 0)"),
        checks=(f"{T_LAW}::test_pigd_line_8_noise_is_beta_over_t_at_every_round",),
    ),
    Mutant(
        id="online-M20", target="online:Algorithm 3", bug_class="geometry",
        description="PGIGA releases xtilde_{t+1} without line 9's projection onto C",
        file=F, find="decisions.append(_project(C, x_tilde))", replace="decisions.append(x_tilde)",
        checks=(f"{T_LAW}::test_released_decisions_lie_in_C",),
    ),
    Mutant(
        id="online-M21", target="online:Algorithm 2", bug_class="data-use",
        description="PIGD adds line 8's noise to x_t (the decision released before the update of line 7)",
        file=F,
        find=_L6_UPDATE + "\n        xs.append(x)\n" + _L7_NOISE + "        x_tilde = x +",
        replace="x_prev = x\n        " + _L6_UPDATE + "\n        xs.append(x)\n" + _L7_NOISE + "        x_tilde = x_prev +",
        checks=(f"{T_LAW}::test_pigd_line_8_noise_is_beta_over_t_at_every_round",),
    ),
    Mutant(
        id="online-M22", target="online:Algorithm 4", bug_class="composition",
        description="PQFTL's printed V-tree noise at eps instead of line 7's eps/2",
        file=F, find='sig_V = tree_sigma(R * R, T, eps / 2, delta / 2, "paper", log_base=log_base,',
        replace='sig_V = tree_sigma(R * R, T, eps, delta / 2, "paper", log_base=log_base,',
        checks=(f"{T_LAW}::test_pqftl_paper_trees_split_eps_and_delta_in_half",),
    ),
    # The review's other mutants, killed by the tests that were already there.
    Mutant(
        id="online-M23", target="online:Algorithm 5", bug_class="tree",
        description="line 13 reads the prefix's nodes from bin(t - 1): W_t released as the sum of [1, t - 1]",
        file=F, find='s = format(t, f"0{self.k}b")', replace='s = format(t - 1, f"0{self.k}b")',
        checks=(f"{T_ALG}::test_zero_noise_reductions", f"{T_TREE}::test_alg5_agrees_bit_for_bit_with_the_tree"),
    ),
    Mutant(
        id="online-M24", target="online:Algorithm 2", bug_class="step-index",
        description="PIGD's learning rate 1/(alpha (t + 1)) instead of line 6's 1/(alpha t)",
        file=F, find="eta = 1.0 / (self.alpha * t)", replace="eta = 1.0 / (self.alpha * (t + 1))",
        checks=(f"{T_ALG}::test_nonprivate_state_is_identical_across_noise_seeds",),
    ),
    Mutant(
        id="online-M25", target="online:Algorithm 4", bug_class="data-use",
        description="PQFTL's line 9 without the regulariser t alpha I: xhat_{t+1} = Vhat_t^{-1} uhat_t",
        file=F, find="x_hat = np.linalg.solve(t * alpha * np.eye(d) + V_hat, u_hat)",
        replace="x_hat = np.linalg.solve(V_hat, u_hat)",
        checks=("tests/online/test_regret.py::test_pqftl_regret_is_polylog",),
    ),
    Mutant(
        id="online-M26", target="online:Algorithm 4", bug_class="composition",
        description="PQFTL's certified sigma certifies one tree, not the two trees of lines 7-8",
        file=F, find='"certified", trees=2, items=T - 1)', replace='"certified", trees=1, items=T - 1)',
        checks=(f"{T_PRIV}::test_pqftl_u_tree_with_R_refuted",),
    ),
    Mutant(
        id="online-M27", target="online:Algorithm 5", bug_class="sensitivity",
        description="the certified tree sigma counts floor(log2 T) nodes per item instead of floor(log2 T) + 1",
        file=F, find="sens = 2.0 * b * math.sqrt(n.bit_length())", replace="sens = 2.0 * b * math.sqrt(n.bit_length() - 1)",
        checks=("tests/online/test_audit_cases.py::test_row_certificates", f"{T_TREE}::test_certified_sigma_holds_and_is_tight"),
    ),
    Mutant(
        id="online-M28", target="online:Algorithm 5", bug_class="tree",
        description="line 11 noises a parent from its children's noisy sums (noise accumulates up the tree)",
        file=F, find="B.B_hat[s] = B.B[s] + B._noise()", replace='B.B_hat[s] = B.B_hat[s + "0"] + B.B_hat[s + "1"] + B._noise()',
        checks=(f"{T_TREE}::test_alg5_agrees_bit_for_bit_with_the_tree",),
    ),
    Mutant(
        id="online-M29", target="online:Algorithm 6", bug_class="noise-scale",
        description="POL's line 13 noise at 0.8 beta",
        file=F, find="beta = pol_noise_scale(L, alpha, B, T, eps, delta, calibration)",
        replace="beta = 0.8 * pol_noise_scale(L, alpha, B, T, eps, delta, calibration)",
        checks=("tests/online/test_audit_cases.py::test_row_certificates",
                f"{T_PRIV}::test_pol_printed_noise_refuted_and_certified_holds"),
    ),
    Mutant(
        id="online-M30", target="online:Algorithm 5", bug_class="noise-law",
        description="Alg 5 line 3's printed sigma^2 with log T instead of log^2 T",
        file=F, find="lT * lT * _log(lT / delta, inner_log_base)", replace="lT * _log(lT / delta, inner_log_base)",
        checks=(f"{T_PRIV}::test_pqftl_u_tree_with_R_refuted", f"{T_TREE}::test_printed_sigma_refuted_at_T1024_and_T16"),
    ),
    # PGIGA's drawn noise (its privacy tests read only the ledger, which records the beta meant).
    Mutant(
        id="online-M31", target="online:Algorithm 3", bug_class="noise-scale",
        description="PGIGA draws line 8's noise at 0.8 beta while the ledger records beta",
        file=F, find=_L8_GIGA, replace=_L8_GIGA.replace("(beta / t)", "(0.8 * beta / t)"),
        checks=(f"{T_LAW}::test_pgiga_line_8_noise_is_beta_over_t_at_every_round",),
    ),
    Mutant(
        id="online-M32", target="online:Algorithm 3", bug_class="noise-not-added",
        description="PGIGA adds line 8's noise only at even rounds (drawn every round)",
        file=F, find=_L8_GIGA,
        replace=_L8_GIGA.replace("(beta / t) * rng.standard_normal(x.shape)",
                                 "(beta / t) * rng.standard_normal(x.shape) * (t % 2 == 0)"),
        checks=(f"{T_LAW}::test_pgiga_line_8_noise_is_beta_over_t_at_every_round",),
    ),
    Mutant(
        id="online-M33", target="online:Algorithm 2", bug_class="noise-dependence",
        description="PIGD's line 8 draws one standard normal per two rounds and reuses it (every round's noise "
                    "still N(0, beta^2/t^2): marginal laws and ledger intact)",
        file=F, find=_L7_NOISE + "        x_tilde = x + (beta / t) * rng.standard_normal(x.shape)\n",
        replace=_L7_NOISE + "        z = rng.standard_normal(x.shape) if t % 2 == 1 else z\n"
                "        x_tilde = x + (beta / t) * z\n",
        checks=("tests/online/test_whitebox.py::test_pigd_line_by_line_noise_is_independent_across_rounds",
                T_LAW),
    ),
    Mutant(
        id="online-M34", target="online:Theorem 10", bug_class="audit",
        description="the POL rows' vectorised sampler drops line 14's projection onto [-B, B]",
        file="reference/audit/cases_online.py",
        find='    return np.clip(avg + factor * scale * rng.standard_normal(n), -POL["B"], POL["B"])',
        replace="    return avg + factor * scale * rng.standard_normal(n)",
        checks=("tests/online/test_audit_cases.py::test_pol_rows_vectorised_sampler_is_the_line_by_line_algorithm",),
    ),
    # Issue 22 (second review): data-blind releases, noise and sensitivity off by a constant, ledger and sums off
    # by one; each killed by a check that runs the wrong answer beside the algorithm or reaches the bound.
    Mutant(
        id="online-M35", target="online:Algorithm 1", bug_class="data-use",
        description="POCP releases a uniform point of C at every round (ignores the data; ledger unchanged)",
        file=F, find="# Line 8: output xhat_{t+1} = Pi_C(xtilde_{t+1})\n        x_hat = _project(C, x_tilde)",
        replace="# Line 8: output xhat_{t+1} = Pi_C(xtilde_{t+1})\n        x_hat = uniform_point(C, rng)",
        checks=(f"{T_REG}::test_pocp_expected_regret_within_theorem_2",
                f"{T_REG}::test_pocp_regret_quantile_within_corollary_1"),
    ),
    Mutant(
        id="online-M36", target="online:Algorithm 3", bug_class="data-use",
        description="PGIGA releases a uniform point of C after the warm-up (ignores the data; ledger unchanged)",
        file=F, find="decisions.append(_project(C, x_tilde))", replace="decisions.append(uniform_point(C, rng))",
        checks=(f"{T_REG}::test_pgiga_expected_regret_within_theorem_6",),
    ),
    Mutant(
        id="online-M37", target="online:Algorithm 1", bug_class="noise-scale",
        description="POCP draws line 7's noise at 0.8 beta while the ledger records beta",
        file=F,
        find="# Line 7: noise addition xtilde_{t+1} = x_{t+1} + b_{t+1}, b ~ N(0, beta^2/t^2 I)\n"
             "        x_tilde = x + (beta / t) * rng.standard_normal(x.shape)",
        replace="# Line 7: noise addition xtilde_{t+1} = x_{t+1} + b_{t+1}, b ~ N(0, beta^2/t^2 I)\n"
                "        x_tilde = x + (0.8 * beta / t) * rng.standard_normal(x.shape)",
        checks=(f"{T_LAW}::test_pocp_line_7_noise_is_the_printed_beta_over_t",),
    ),
    Mutant(
        id="online-M38", target="online:Algorithm 2", bug_class="sensitivity",
        description="IGD's lambda at half its value (L/alpha instead of Lemma 4's 2L/alpha)",
        file=F, find='return 2.0 * check_positive(L, "L") / check_positive(alpha, "alpha")',
        replace='return 1.0 * check_positive(L, "L") / check_positive(alpha, "alpha")',
        checks=(f"{T_SENS}::test_igd_sensitivity_worst_pair_reaches_the_bound",),
    ),
    Mutant(
        id="online-M39", target="online:Algorithm 2", bug_class="sensitivity",
        description="IGD's lambda at 0.8 of Lemma 4's 2L/alpha",
        file=F, find='return 2.0 * check_positive(L, "L") / check_positive(alpha, "alpha")',
        replace='return 1.6 * check_positive(L, "L") / check_positive(alpha, "alpha")',
        checks=(f"{T_SENS}::test_igd_sensitivity_worst_pair_reaches_the_bound",),
    ),
    Mutant(
        id="online-M40", target="online:Algorithm 3", bug_class="composition",
        description="PGIGA's ledger charges one noisy round fewer than line 4 releases (T - t_q - 1)",
        file=F, find='ledger.record(_stream_event(lam, beta, k - tq, "PGIGA line 8"))',
        replace='ledger.record(_stream_event(lam, beta, k - tq - 1, "PGIGA line 8"))',
        checks=(f"{T_LAW}::test_pgiga_ledger_counts_every_noisy_release",),
    ),
    Mutant(
        id="online-M41", target="online:Algorithm 6", bug_class="averaging",
        description="POL's running sum starts at 0 instead of line 6's s = x_1 (x_1 left out of the average)",
        file=F, find="s = x.copy()", replace="s = np.zeros_like(x)",
        checks=(f"{T_ALG}::test_pol_releases_the_average_of_x1_and_the_igd_iterates",),
    ),
    Mutant(
        id="online-M42", target="online:Algorithm 5", bug_class="noise-scale",
        description="line 11's inner nodes draw 0.8 sigma (the leaves sigma; ledger unchanged)",
        file=F, find="B.B_hat[s] = B.B[s] + B._noise()", replace="B.B_hat[s] = B.B[s] + 0.8 * B._noise()",
        checks=(f"{T_LAW}::test_pqftl_paper_trees_draw_the_printed_sigma_at_every_node",),
    ),
    Mutant(
        id="online-M43", target="online:Algorithm 4", bug_class="noise-scale",
        description="PQFTL's certified trees at 3 sigma (over-noised: private, but the regret of Theorem 8 is lost)",
        file=F, find='sig_V = sig_u = tree_sigma(R * R, T, eps, delta, "certified", trees=2, items=T - 1)',
        replace='sig_V = sig_u = 3 * tree_sigma(R * R, T, eps, delta, "certified", trees=2, items=T - 1)',
        checks=(f"{T_REG}::test_pqftl_regret_is_polylog",),
    ),
    Mutant(
        id="online-M44", target="online:Algorithm 1", bug_class="noise-scale",
        description="line 7's noise sd beta/(t+1) (the next round's index) while the ledger records beta/t",
        file=F, find=_L7_NOISE + "        x_tilde = x + (beta / t) * rng.standard_normal(x.shape)",
        replace=_L7_NOISE + "        x_tilde = x + (beta / (t + 1)) * rng.standard_normal(x.shape)",
        checks=(f"{T_LAW}::test_pocp_line_7_noise_sd_is_beta_over_t_round_by_round",),
        fast=True,
    ),
    # Issue 34: independent mutants written from the paper without reading this catalogue or the tests (its
    # exact duplicate of M44 and its near-duplicate of M22 are not repeated; M46 is M27's error only where
    # ceil(log2 n) and floor(log2 n) + 1 differ by more than M27's, at n a power of two).
    Mutant(
        id="online-M45", target="online:Algorithm 3", bug_class="step-index",
        description="PGIGA's warm-up t_q = 2 L_G / alpha (Lemma 5's 2 L_G^2 / alpha^2 without the squares): the "
                    "first noisy round starts too early whenever L_G != alpha",
        file=F, find="math.ceil(2.0 * LG * LG / (alpha * alpha) - 1e-9)", replace="math.ceil(2.0 * LG / alpha - 1e-9)",
        checks=(f"{T_ALG}::test_pgiga_and_giga_updates_are_line_7",),
    ),
    Mutant(
        id="online-M46", target="online:Algorithm 5", bug_class="sensitivity",
        description="the certified tree sigma counts ceil(log2 n) nodes per item (Theorem 9's 'at most log T') "
                    "instead of floor(log2 n) + 1: wrong only when the item count n is a power of two",
        file=F, find="sens = 2.0 * b * math.sqrt(n.bit_length())",
        replace="sens = 2.0 * b * math.sqrt(max(1, math.ceil(math.log2(n))))",
        checks=("tests/online/test_audit_cases.py::test_row_certificates",),
    ),
    Mutant(
        id="online-M47", target="online:Algorithm 4", bug_class="step-index",
        description="PQFTL's line 9 with (t + 1) alpha I where eq. (21) has t alpha I (one regulariser too many)",
        file=F, find="x_hat = np.linalg.solve(t * alpha * np.eye(d) + V_hat, u_hat)",
        replace="x_hat = np.linalg.solve((t + 1) * alpha * np.eye(d) + V_hat, u_hat)",
        checks=("tests/online/test_experiments.py::test_pqftl_sweep_is_the_reference_pqftl",),
    ),
    Mutant(
        id="online-M48", target="online:Algorithm 1", bug_class="noise-scale",
        description="line 7's c = ln((1/2) ln(1/delta)) / (2 ln T) where Theorem 1 has ln(2/delta): beta a few "
                    "per cent small",
        file=F, find="return math.log(0.5 * math.log(2.0 / delta)) / (2.0 * math.log(T))",
        replace="return math.log(0.5 * math.log(1.0 / delta)) / (2.0 * math.log(T))",
        checks=("tests/online/test_bounds.py::test_pocp_drawn_noise_norms_sum_to_eq_12_expectation",),
    ),
    Mutant(
        id="online-M49", target="online:Algorithm 6", bug_class="averaging",
        description="POL's line 12 divides the sum of x_1..x_T by the T - 1 updates instead of T",
        file=F, find="x_avg = s / T", replace="x_avg = s / (T - 1)",
        checks=(f"{T_ALG}::test_pol_releases_the_average_of_x1_and_the_igd_iterates",),
    ),
    Mutant(
        id="online-M50", target="online:Algorithm 1", bug_class="step-size",
        description="Section 4.1's perturbation weight a where the reconstruction has a / sqrt(t) (the strong "
                    "convexity the sensitivity argument uses does not decay)",
        file=F, find="        s = self.a / math.sqrt(t)", replace="        s = self.a",
        checks=("tests/online/test_section_4_1.py::test_section_4_1_update_sensitivity_and_lines",),
    ),
    Mutant(
        id="online-M51", target="online:Algorithm 1", bug_class="sensitivity",
        description="Section 4.1's lambda = 2 L / a without the sqrt(T) the contraction argument gives",
        file=F, find="    return 2.0 * L * math.sqrt(T) / a", replace="    return 2.0 * L / a",
        checks=("tests/online/test_section_4_1.py::test_section_4_1_update_sensitivity_and_lines",),
    ),
    Mutant(
        id="online-M52", target="online:Algorithm 3", bug_class="step-size",
        description="PGIGA checks alpha and L_G but keeps the caller's number: an np.float32 alpha computes the "
                    "steps in float32 (decisions off by about 3e-10 from the float's)",
        file=F, find='    G, LG, alpha = check_positive(G, "G"), check_positive(LG, "L_G"), check_positive(alpha, "alpha")',
        replace='    G = check_positive(G, "G")',
        checks=("tests/test_numeric_types_algorithms.py::test_numpy_scalars_give_the_float_result",),
    ),
)
