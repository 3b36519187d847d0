"""Mutants of the paper ``heavy_tailed``: Algorithm 3 and its private adaptions, Algorithm 4, Algorithms 1 and 2.

See reference/mutants/__init__.py for the shape of a mutant and how it runs. Targets are the algorithm
ids of ``python -m reference list`` (``heavy_tailed:Algorithm 3``, ``heavy_tailed:CDPCWME``, ...).
"""

from __future__ import annotations

from . import Mutant

F = "reference/algorithms/heavy_tailed.py"
EST = "tests/heavy_tailed/test_estimators.py"
PRIV = "tests/heavy_tailed/test_privacy.py"
SCO = "tests/heavy_tailed/test_sco.py"
PROOF = "proofs/proof_heavy_tailed.py"

MUTANTS = (
    Mutant(
        id="heavy_tailed-M01", target="heavy_tailed:Algorithm 3", bug_class="clip",
        description="line 6's clip to [-3 tau, 3 tau] dropped: raw bucket means",
        file=F, find="Z = np.clip(block, lo, hi)", replace="Z = block",
        checks=(f"{EST}::test_algorithm3_equals_the_paper_lines",),
        fast=True,
    ),
    Mutant(
        id="heavy_tailed-M02", target="heavy_tailed:Algorithm 3", bug_class="estimator",
        description="line 9's coordinate-wise median replaced by the mean of the bucket means",
        file=F, find="mu_hat = np.median(means, axis=0)", replace="mu_hat = np.mean(means, axis=0)",
        checks=(f"{EST}::test_algorithm3_equals_the_paper_lines",
                f"{EST}::test_median_resists_one_wild_bucket_where_a_mean_would_not"),
    ),
    Mutant(
        id="heavy_tailed-M03", target="heavy_tailed:Algorithm 3", bug_class="clip",
        description="the samples are not clipped; the bucket means are (clip after averaging)",
        file=F,
        find="        Z = np.clip(block, lo, hi)\n"
             "        # Line 7: mu_hat_j^i = (m/n) sum_{x in Z_j^i} x: the paper's m/n is 1/b for its n/m samples per "
             "bucket; with\n"
             "        # whole buckets (b = floor(n/m), heavy_tailed-E04) the mean of the bucket is the sum divided by b\n"
             "        means[i] = Z.sum(axis=0) / b",
        replace="        Z = block\n"
                "        means[i] = np.clip(Z.sum(axis=0) / b, lo, hi)",
        checks=(f"{EST}::test_sensitivity_bound_with_the_changed_record_placed_worst",
                f"{EST}::test_algorithm3_equals_the_paper_lines"),
    ),
    Mutant(
        id="heavy_tailed-M04", target="heavy_tailed:Algorithm 2", bug_class="composition",
        description="every oracle call gets rho instead of rho / T",
        file=F, find="rho_step = rho / T", replace="rho_step = rho",
        checks=(f"{PRIV}::test_algorithm2_ledger_composes_to_rho",),
        fast=True,
    ),
    Mutant(
        id="heavy_tailed-M05", target="heavy_tailed:CDPCWME", bug_class="noise-scale",
        description="CDPCWME draws half the noise it reports",
        file=F, find="out = gaussian_mechanism(mu_hat, sens, sigma, rng, ledger=own, label=label)",
        replace="out = gaussian_mechanism(mu_hat, sens, 0.5 * sigma, rng, ledger=own, label=label)",
        checks=(f"{EST}::test_the_recorded_noise_is_the_noise_added",
                f"{PRIV}::test_cdpcwme_audit_at_the_worst_pair_with_control"),
    ),
    Mutant(
        id="heavy_tailed-M06", target="heavy_tailed:CDPCWME", bug_class="noise-not-added",
        description="CDPCWME draws the noise (and records it) but releases mu_hat",
        file=F, find="out = gaussian_mechanism(mu_hat, sens, sigma, rng, ledger=own, label=label)",
        replace="gaussian_mechanism(mu_hat, sens, sigma, rng, ledger=own, label=label); out = mu_hat",
        checks=(f"{EST}::test_the_recorded_noise_is_the_noise_added",
                f"{PRIV}::test_cdpcwme_audit_at_the_worst_pair_with_control"),
    ),
    Mutant(
        id="heavy_tailed-M07", target="heavy_tailed:Algorithm 4", bug_class="noise-scale",
        description="the certified Algorithm 4 uses the paper's line-7 noise tau^2 d / (rho n^2)",
        file=F, find="sigma = certified_sigma(sens, rho)          # = 2 S(c)",
        replace="sigma = nsme_paper_sigma(n, d, tau, rho)          # = 2 S(c)",
        checks=(f"{PRIV}::test_paper_noise_is_2S2_rho_and_refuted_below_c_star",),
        fast=True,
    ),
    Mutant(
        id="heavy_tailed-M08", target="heavy_tailed:Algorithm 4", bug_class="sensitivity",
        description="Algorithm 4's sensitivity loses the replace-one factor 2 (S(c) tau / n)",
        file=F, find="per = 2.0 * smoothed_influence_sup(c) * tau / n",
        replace="per = smoothed_influence_sup(c) * tau / n",
        checks=(f"{EST}::test_noise_scales_equal_independent_formulas",
                f"{PRIV}::test_nsme_audit_flags_the_paper_noise_at_small_c_and_passes_certified"),
    ),
    Mutant(
        id="heavy_tailed-M09", target="heavy_tailed:CDPCWME", bug_class="sensitivity",
        description="Algorithm 3's sensitivity taken as kappa 3 tau / b (the factor 2 of the clip range lost)",
        file=F, find="per = cwme_parity_factor(m) * 6.0 * tau / bucket_size(n, m)",
        replace="per = cwme_parity_factor(m) * 3.0 * tau / bucket_size(n, m)",
        checks=(f"{EST}::test_sensitivity_6_tau_over_b_is_attained",
                f"{PRIV}::test_cdpcwme_audit_at_the_worst_pair_with_control"),
    ),
    Mutant(
        id="heavy_tailed-M10", target="heavy_tailed:Algorithm 1", bug_class="step-size",
        description="line 10 with a decaying step eta / t instead of the theorems' constant eta",
        file=F, find="w = domain.project(w - eta * g)", replace="w = domain.project(w - eta / t * g)",
        checks=(f"{SCO}::test_scof_iterates_follow_line_10",),
    ),
    Mutant(
        id="heavy_tailed-M11", target="heavy_tailed:Algorithm 1", bug_class="averaging",
        description="convex mode outputs the last iterate instead of the average of w^1..w^T",
        file=F, find="w_priv = its[1:].mean(axis=0)", replace="w_priv = its[-1].copy()",
        checks=(f"{SCO}::test_scof_iterates_follow_line_10",),
    ),
    Mutant(
        id="heavy_tailed-M12", target="heavy_tailed:Algorithm 1", bug_class="data-use",
        description="strongly convex mode reuses the first batch at every step",
        file=F, find="S = X[(t - 1) * batch:t * batch]", replace="S = X[:batch]",
        checks=(f"{SCO}::test_scof_batches_and_projection",),
    ),
    Mutant(
        id="heavy_tailed-M13", target="heavy_tailed:DPCWME", bug_class="sensitivity",
        description="DPCWME calibrates its Laplace noise to the l2 sensitivity instead of the l1",
        file=F, find='sens = cwme_sensitivity(n, d, tau, m, norm="l1", which="tight")',
        replace='sens = cwme_sensitivity(n, d, tau, m, norm="l2", which="tight")',
        checks=(f"{PRIV}::test_dpcwme_ledger", f"{EST}::test_noise_scales_equal_independent_formulas"),
    ),
    Mutant(
        id="heavy_tailed-M14", target="heavy_tailed:Algorithm 4", bug_class="sign",
        description="the smoothed influence's cubic term added instead of subtracted",
        file=F, find="out[small] = first - third / 6.0 + tails[small]",
        replace="out[small] = first + third / 6.0 + tails[small]",
        checks=(f"{PROOF}::test_closed_form_agrees_with_quadrature",),
    ),
    Mutant(
        id="heavy_tailed-M15", target="heavy_tailed:Theorem 1.4", bug_class="composition",
        description="the CDP Fano term with n a^2 instead of n^2 a^2 (the squared Hamming distance misread)",
        file=F, find="rho * (n * n * a * a + n * a * (1.0 - a))", replace="rho * (n * a * a + n * a * (1.0 - a))",
        checks=("tests/heavy_tailed/test_appendix_b.py::test_theorem_b7_private_lower_bound_on_the_linear_instance",
                "tests/heavy_tailed/test_lower_bound.py::test_expected_squared_hamming_is_the_binomial_second_moment",),
    ),
    Mutant(
        id="heavy_tailed-M16", target="heavy_tailed:Lemma 6.3", bug_class="noise-law",
        description="the packing's far atom at p^(-1) nu instead of p^(-1/k) nu (moment bound broken)",
        file=F, find="np.vstack([np.zeros_like(nu), p ** (-1.0 / k) * nu])",
        replace="np.vstack([np.zeros_like(nu), p ** (-1.0) * nu])",
        checks=("tests/heavy_tailed/test_lower_bound.py::test_packing_law_facts",),
    ),
    Mutant(
        id="heavy_tailed-M17", target="heavy_tailed:Algorithm 1", bug_class="sign",
        description="line 10 steps along the oracle's gradient (ascent)",
        file=F, find="w = domain.project(w - eta * g)", replace="w = domain.project(w + eta * g)",
        checks=("tests/heavy_tailed/test_framework.py::test_theorem_3_1_with_a_biased_noisy_oracle",
                "tests/heavy_tailed/test_framework.py::test_theorem_3_2_distance_bound"),
    ),
    # Independent review (rev-ht): each run first against the whole tests/heavy_tailed folder and the proof.
    Mutant(
        id="heavy_tailed-M18", target="heavy_tailed:CDPCWME", bug_class="noise-scale",
        description="Theorem 4.1's printed CDPCWME sigma at x0.8",
        file=F, find="return math.sqrt(1152.0 * tau * tau * d * L * L / (rho * n * n))",
        replace="return 0.8 * math.sqrt(1152.0 * tau * tau * d * L * L / (rho * n * n))",
        checks=(f"{EST}::test_paper_noise_constants",),
    ),
    Mutant(
        id="heavy_tailed-M19", target="heavy_tailed:DPCWME", bug_class="sensitivity",
        description="DPCWME's printed Laplace scale with the factor d missing (the l-inf sensitivity for the l1)",
        file=F, find="return 48.0 * tau * d * math.log(2.0 * d / beta) / (eps * n)",
        replace="return 48.0 * tau * math.log(2.0 * d / beta) / (eps * n)",
        checks=(f"{EST}::test_paper_noise_constants",),
    ),
    Mutant(
        id="heavy_tailed-M20", target="heavy_tailed:Algorithm 3", bug_class="estimator",
        description="line 9's median taken over all m x d bucket means at once (no axis), broadcast to every coordinate",
        file=F, find="mu_hat = np.median(means, axis=0)", replace="mu_hat = np.full(d, np.median(means))",
        checks=(f"{EST}::test_algorithm3_equals_the_paper_lines",),
    ),
    Mutant(
        id="heavy_tailed-M21", target="heavy_tailed:Algorithm 3", bug_class="estimator",
        description="line 2's bucket count one too few (ceil(4 ln(2d/beta)) - 1)",
        file=F, find="return max(1, math.ceil(value - 1e-12 * value))",
        replace="return max(1, math.ceil(value - 1e-12 * value) - 1)",
        checks=(f"{EST}::test_bucket_count_is_4_ln_2d_over_beta_rounded_up",),
    ),
    Mutant(
        id="heavy_tailed-M22", target="heavy_tailed:Algorithm 3", bug_class="clip",
        description="line 3's interval [-tau, tau] instead of [-3 tau, 3 tau]",
        file=F, find="lo, hi = -3.0 * tau, 3.0 * tau", replace="lo, hi = -tau, tau",
        checks=(f"{EST}::test_algorithm3_equals_the_paper_lines",),
    ),
    Mutant(
        id="heavy_tailed-M23", target="heavy_tailed:Algorithm 2", bug_class="composition",
        description="every oracle call at rho / (T - 1) instead of rho / T",
        file=F, find="rho_step = rho / T", replace="rho_step = rho / max(1, T - 1)",
        checks=(f"{PRIV}::test_algorithm2_ledger_composes_to_rho",),
    ),
    Mutant(
        id="heavy_tailed-M24", target="heavy_tailed:Algorithm 1", bug_class="geometry",
        description="line 10's projection onto W dropped",
        file=F, find="w = domain.project(w - eta * g)", replace="w = w - eta * g",
        checks=(f"{SCO}::test_scof_batches_and_projection",),
    ),
    Mutant(
        id="heavy_tailed-M27", target="heavy_tailed:Algorithm 4", bug_class="sensitivity",
        description="S(c) with Phi(-1/c) instead of Phi(-1/sqrt c) (the variance c read as a standard deviation; "
                    "equivalent at c = 1)",
        file=F, find="special.ndtr(-1.0 / math.sqrt(c))", replace="special.ndtr(-1.0 / c)",
        checks=(f"{EST}::test_noise_scales_equal_independent_formulas",
                f"{PROOF}::test_psi_increasing_on_u_positive_and_sup_is_S"),
    ),
    Mutant(
        id="heavy_tailed-M29", target="heavy_tailed:CDPCWME", bug_class="accountant",
        description="the certified sigma starts at Delta / sqrt(rho) (the 2 of Delta^2 / (2 sigma^2) lost; the "
                    "upward search never lowers it, so every certified run is over-noised by sqrt 2)",
        file=F, find="sigma = sensitivity / math.sqrt(2.0 * rho)", replace="sigma = sensitivity / math.sqrt(rho)",
        checks=(f"{EST}::test_noise_scales_equal_independent_formulas",),
    ),
    Mutant(
        id="heavy_tailed-M25", target="heavy_tailed:Algorithm 4", bug_class="noise-not-added",
        description="Algorithm 4's noise drawn but not added on the last coordinate",
        file=F, find="noisy = gaussian_mechanism(mu_hat, sens, sigma, rng, ledger=own, label=label)",
        replace="noisy = np.array(gaussian_mechanism(mu_hat, sens, sigma, rng, ledger=own, label=label), dtype=float); "
                "noisy[-1] = mu_hat[-1]",
        checks=(f"{EST}::test_the_recorded_noise_is_the_noise_added",),
    ),
    Mutant(
        id="heavy_tailed-M26", target="heavy_tailed:DPCWME", bug_class="noise-not-added",
        description="DPCWME's Laplace noise drawn but not added on the first coordinate",
        file=F, find="out = laplace_mechanism(mu_hat, sens, scale, rng, ledger=own, label=label)",
        replace="out = np.array(laplace_mechanism(mu_hat, sens, scale, rng, ledger=own, label=label), dtype=float); "
                "out[0] = mu_hat[0]",
        checks=(f"{EST}::test_the_recorded_noise_is_the_noise_added",),
    ),
    Mutant(
        id="heavy_tailed-M28", target="heavy_tailed:Algorithm 4", bug_class="estimator",
        description="line 4's influence applied to x instead of x / tau (the survivor of the review: the suite "
                    "only probed records at +-1e12 tau, where psi_c is flat)",
        file=F, find="smoothed_influence(X[:, j] / tau, c)", replace="smoothed_influence(X[:, j], c)",
        checks=("tests/heavy_tailed/test_appendix_b.py::test_lemma_b4_bias_bound_and_its_order_is_attained",
                f"{EST}::test_algorithm4_mu_hat_equals_the_paper_lines",),
    ),
    Mutant(
        id="heavy_tailed-M30", target="heavy_tailed:Algorithm 2", bug_class="step-size",
        description="Theorem 5.7's strongly convex step 1/L instead of 1/(lam + L)",
        file=F, find="T_real, 1.0 / (lam + L), tau", replace="T_real, 1.0 / L, tau",
        checks=(f"{PROOF}::test_theorem_5_7_horizon_makes_the_contraction_reach_the_noise_floor",),
    ),
    Mutant(
        id="heavy_tailed-M31", target="heavy_tailed:Algorithm 3", bug_class="estimator",
        description="bucket i takes one sample of bucket i+1 (overlapping buckets, a boundary off by one)",
        file=F, find="block = X[i * b:(i + 1) * b]", replace="block = X[i * b:(i + 1) * b + 1]",
        checks=(f"{EST}::test_algorithm3_equals_the_paper_lines",),
    ),
    Mutant(
        id="heavy_tailed-M32", target="heavy_tailed:Algorithm 4", bug_class="noise-law",
        description="the smoothed influence's inner closed form E[Y - Y^3/6] with u^3 (1 + c) for u^3 (1 + 3 c)",
        file=F, find="u[inner] ** 3 * (1.0 + 3.0 * c) / 6.0", replace="u[inner] ** 3 * (1.0 + c) / 6.0",
        checks=(f"{PROOF}::test_closed_form_agrees_with_quadrature",),
    ),
    Mutant(
        id="heavy_tailed-M33", target="heavy_tailed:Algorithm 1", bug_class="averaging",
        description="strongly convex mode outputs the average of w^1..w^T instead of w^T",
        file=F, find="w_priv = its[-1].copy()", replace="w_priv = its[1:].mean(axis=0)",
        checks=(f"{SCO}::test_scof_iterates_follow_line_10",
                "tests/heavy_tailed/test_framework.py::test_theorem_3_2_bound_separates_w_T_from_w0_and_the_average"),
    ),
    Mutant(
        id="heavy_tailed-M34", target="heavy_tailed:Algorithm 4", bug_class="noise-scale",
        description="Algorithm 4's noise at half scale on the last coordinate only (the pooled KS test misses it)",
        file=F, find="noisy = gaussian_mechanism(mu_hat, sens, sigma, rng, ledger=own, label=label)",
        replace="noisy = np.array(gaussian_mechanism(mu_hat, sens, sigma, rng, ledger=own, label=label), dtype=float); "
                "noisy[-1] = mu_hat[-1] + 0.5 * (noisy[-1] - mu_hat[-1])",
        checks=(f"{EST}::test_the_recorded_noise_is_the_noise_added",),
    ),
    Mutant(
        id="heavy_tailed-M35", target="heavy_tailed:Algorithm 2", bug_class="noise-dependence",
        description="Algorithm 1 seeds one generator before the loop and re-creates it at every oracle call: every "
                    "step's noise is the same draw (each step's law intact, the ledger intact)",
        file=F, find="        g = np.asarray(oracle(G, rng, own), dtype=float)\n",
        replace="        if t == 1:\n            seed = int(rng.integers(2 ** 63))\n"
                "        g = np.asarray(oracle(G, np.random.default_rng(seed), own), dtype=float)\n",
        checks=("tests/heavy_tailed/test_whitebox.py::test_line_by_line_oracle_noise_is_independent_across_steps",),
    ),
    # Issue 21 (second pass): the parity of m, one source for m and the noise, the schedules, the utility checks.
    Mutant(
        id="heavy_tailed-M36", target="heavy_tailed:CDPCWME", bug_class="sensitivity",
        description="Algorithm 3's sensitivity without footnote 9's parity factor: 6 tau / b for even m too (twice "
                    "the truth; the certified noise 2x too large, the former code)",
        file=F, find="per = cwme_parity_factor(m) * 6.0 * tau / bucket_size(n, m)",
        replace="per = 6.0 * tau / bucket_size(n, m)",
        checks=(f"{EST}::test_parity_aware_sensitivity_is_attained",
                f"{EST}::test_cwme_sensitivity_at_d10_beta01_is_3_tau_sqrt_d_over_b"),
    ),
    Mutant(
        id="heavy_tailed-M37", target="heavy_tailed:Algorithm 3", bug_class="estimator",
        description="line 9's median for even m takes the upper middle bucket mean instead of footnote 9's mean of "
                    "the two middle ones",
        file=F, find="mu_hat = np.median(means, axis=0)", replace="mu_hat = np.sort(means, axis=0)[m // 2]",
        checks=(f"{EST}::test_algorithm3_equals_the_paper_lines",
                f"{EST}::test_parity_aware_sensitivity_is_attained"),
    ),
    Mutant(
        id="heavy_tailed-M38", target="heavy_tailed:CDPCWME", bug_class="sensitivity",
        description="Algorithm 3's sensitivity at 0.8 x the attained value at both parities",
        file=F, find="return 1.0 if m % 2 else 0.5", replace="return 0.8 if m % 2 else 0.4",
        checks=(f"{EST}::test_parity_aware_sensitivity_is_attained",),
    ),
    Mutant(
        id="heavy_tailed-M39", target="heavy_tailed:CDPCWME", bug_class="noise-scale",
        description="cdpcwme given m and a disagreeing beta takes the buckets from m and the printed sigma from beta "
                    "(the former silent privacy break of the Theorem 5.2 schedule path)",
        file=F, find="            if bucket_count(d, beta) != m:\n",
        replace="            if False:\n",
        checks=(f"{PRIV}::test_m_and_beta_have_one_source",
                f"{PRIV}::test_theorem_5_2_schedule_path_certifies_at_most_the_claim"),
    ),
    Mutant(
        id="heavy_tailed-M40", target="heavy_tailed:Algorithm 4", bug_class="sensitivity",
        description="the privacy threshold c* from Phi^{-1}(0.12) instead of Phi^{-1}(1/8): C_STAR = 0.724 < c*, so "
                    "some accepted c give 2 S(c)^2 > 1 (the verifier's witness)",
        file=F, find="C_STAR = 1.0 / float(special.ndtri(0.125)) ** 2",
        replace="C_STAR = 1.0 / float(special.ndtri(0.12)) ** 2",
        checks=(f"{PROOF}::test_package_c_star_is_safe_for_every_larger_c",
                f"{PROOF}::test_threshold_c_star_for_every_c"),
    ),
    Mutant(
        id="heavy_tailed-M41", target="heavy_tailed:Algorithm 2", bug_class="clip",
        description="Theorem 5.5's tau ignores q: (sqrt(rho) n / (M d))^(1/2) for (sqrt(rho) n / (M d^q))^(1/2)",
        file=F, find="tau_of = lambda nn: (math.sqrt(rho) * nn / (M * d ** q)) ** 0.5",
        replace="tau_of = lambda nn: (math.sqrt(rho) * nn / (M * d)) ** 0.5",
        checks=("tests/heavy_tailed/test_schedules.py::test_schedule_thm55_is_the_theorem",),
    ),
    Mutant(
        id="heavy_tailed-M42", target="heavy_tailed:Algorithm 2", bug_class="step-size",
        description="Theorem 5.2's step eta = M / (R T) instead of M / (R sqrt T)",
        file=F, find='return Schedule("Theorem 5.2", n, d, T, T_real, M / (R * math.sqrt(T)), tau, beta, m, n, notes)',
        replace='return Schedule("Theorem 5.2", n, d, T, T_real, M / (R * T), tau, beta, m, n, notes)',
        checks=("tests/heavy_tailed/test_schedules.py::test_schedule_thm52_is_the_theorem",
                "tests/heavy_tailed/test_schedules.py::test_schedule_thmB8_is_the_theorem"),
    ),
    Mutant(
        id="heavy_tailed-M43", target="heavy_tailed:Theorem 1.4", bug_class="composition",
        description="Fano's classical term without its + log 2: 1 - KL / log M",
        file=F, find="classical = 1.0 - (kl + math.log(2.0)) / logM", replace="classical = 1.0 - kl / logM",
        checks=("tests/heavy_tailed/test_appendix_b.py::test_gaussian_packing_with_distance_d_over_8_and_fano",
                "tests/heavy_tailed/test_schedules.py::test_fano_cdp_bound_is_the_theorem_with_each_term_active",),
    ),
    Mutant(
        id="heavy_tailed-M44", target="heavy_tailed:Theorem 1.4", bug_class="composition",
        description="Fano's private term without its + log 2: 1 - rho E[Bin(n, a)^2] / log M",
        file=F, find="private = 1.0 - (rho * (n * n * a * a + n * a * (1.0 - a)) + math.log(2.0)) / logM",
        replace="private = 1.0 - (rho * (n * n * a * a + n * a * (1.0 - a))) / logM",
        checks=("tests/heavy_tailed/test_appendix_b.py::test_theorem_b7_private_lower_bound_on_the_linear_instance",
                "tests/heavy_tailed/test_schedules.py::test_fano_cdp_bound_is_the_theorem_with_each_term_active",),
    ),
    Mutant(
        id="heavy_tailed-M45", target="heavy_tailed:Algorithm 1", bug_class="averaging",
        description="convex mode outputs the start point w^0 (a data-blind answer)",
        file=F, find="w_priv = its[1:].mean(axis=0)", replace="w_priv = its[0].copy()",
        checks=("tests/heavy_tailed/test_framework.py::test_theorem_3_1_bound_separates_the_algorithm_from_its_start_point",),
    ),
    Mutant(
        id="heavy_tailed-M46", target="heavy_tailed:Algorithm 1", bug_class="averaging",
        description="strongly convex mode outputs the start point w^0",
        file=F, find="w_priv = its[-1].copy()", replace="w_priv = its[0].copy()",
        checks=("tests/heavy_tailed/test_framework.py::test_theorem_3_2_bound_separates_w_T_from_w0_and_the_average",),
    ),
    Mutant(
        id="heavy_tailed-M47", target="heavy_tailed:Algorithm 3", bug_class="estimator",
        description="Algorithm 3 returns the plain sample mean (no clip, no buckets, no median)",
        file=F, find="    # Line 11-12: output mu_hat = (mu_hat_1, ..., mu_hat_d)\n    return mu_hat\n",
        replace="    # Line 11-12: output mu_hat = (mu_hat_1, ..., mu_hat_d)\n    return X.mean(axis=0)\n",
        checks=("tests/heavy_tailed/test_appendix_b.py::test_lemma_b5_private_term_is_the_oracle_noise",
                f"{EST}::test_theorem_4_1_error_grows_like_sqrt_log_1_over_beta_where_the_sample_mean_does_not",
                f"{EST}::test_algorithm3_equals_the_paper_lines"),
    ),
    # The survivor of the independent helper's mutants (/work/indep-mutants/heavy_tailed.json, indep-heavy_tailed-17,
    # written from the paper alone; it survived the suite of 55b9184).
    Mutant(
        id="heavy_tailed-M48", target="heavy_tailed:Algorithm 2", bug_class="clip",
        description="Theorem 5.7's truncation tau = (sqrt(rho) n/(sqrt(d) T^(1/2)))^(1/k) instead of T^(3/2) (the per-call "
                    "budget rho/T and the batch n/T both forgotten in one factor; indep-heavy_tailed-17)",
        file=F, find="tau = (math.sqrt(rho) * n / (math.sqrt(d) * T ** 1.5)) ** (1.0 / k)",
        replace="tau = (math.sqrt(rho) * n / (math.sqrt(d) * T ** 0.5)) ** (1.0 / k)",
        checks=("tests/heavy_tailed/test_schedules.py::test_schedule_thm57_is_the_theorem",),
    ),
    # Issue 21, items 1-4 (helper heavy).
    Mutant(
        id="heavy_tailed-M49", target="heavy_tailed:Algorithm 4", bug_class="accountant",
        description="CDPNSME's printed noise below c* returns certified > rho silently (no PrivacyWarning naming "
                    "heavy_tailed-E01; the former code)",
        file=F, find='    if calibration == "paper" and certified > rho * (1.0 + 1e-12):\n        warn_privacy(f"CDPNSME',
        replace='    if False:\n        warn_privacy(f"CDPNSME',
        checks=(f"{PRIV}::test_paper_noise_is_2S2_rho_and_refuted_below_c_star",),
        fast=True,
    ),
    Mutant(
        id="heavy_tailed-M50", target="heavy_tailed:CDPCWME", bug_class="noise-scale",
        description="CDPCWME's printed sigma with the bucket count m where n belongs (the noise does not shrink with "
                    "n; the negative control of the Theorem 5.2 and Corollary 4.2 rate rows)",
        file=F, find="sigma = cwme_paper_sigma(n, d, tau, rho, beta) if beta is not None else",
        replace="sigma = cwme_paper_sigma(m, d, tau, rho, beta) if beta is not None else",
        checks=(f"{EST}::test_paper_noise_constants",
                "tests/heavy_tailed/test_rates.py::test_cdpcwme_rate_in_n"),
    ),
    Mutant(
        id="heavy_tailed-M51", target="heavy_tailed:Algorithm 4", bug_class="noise-scale",
        description="Algorithm 4 line 7's variance tau^2 d / (rho n) with n where n^2 belongs (the negative control of "
                    "the Theorem 5.5 rate row)",
        file=F, find="    return tau * math.sqrt(d / rho) / n\n",
        replace="    return tau * math.sqrt(d / rho) / math.sqrt(n)\n",
        checks=(f"{EST}::test_paper_noise_constants",
                "tests/heavy_tailed/test_rates.py::test_theorem_5_5_rate_in_n_with_control"),
    ),
    Mutant(
        id="heavy_tailed-M52", target="heavy_tailed:CDPCWME", bug_class="noise-scale",
        description="the printed noise of the m path (Theorem 5.2's schedule) with m where the proof has m^2: "
                    "72 tau^2 m d / (rho n^2)",
        file=F, find="math.sqrt(PROOF_SIGMA2_CONSTANT * tau * tau * m_real * m_real * d / (rho * n * n))",
        replace="math.sqrt(PROOF_SIGMA2_CONSTANT * tau * tau * m_real * d / (rho * n * n))",
        checks=("tests/heavy_tailed/test_appendix_b.py::test_lemma_b2_noise_term_on_the_theorem_5_2_path",),
    ),
    # Issue 34: independent mutants written from the paper by a session that had read neither this catalogue
    # nor the tests (measured before reading them; its exact duplicates of M22, M29, M48 are not repeated here).
    Mutant(
        id="heavy_tailed-M53", target="heavy_tailed:Algorithm 1", bug_class="data-use",
        description="strongly convex mode: S_t = {x_((t-1)n/T+1), ..., x_(tn/T)} ported with an inclusive end, so "
                    "consecutive batches share one sample (the batches are no longer disjoint)",
        file=F, find="S = X[(t - 1) * batch:t * batch]", replace="S = X[(t - 1) * batch:t * batch + 1]",
        checks=(f"{SCO}::test_scof_iterates_follow_line_10",),
    ),
    Mutant(
        id="heavy_tailed-M54", target="heavy_tailed:CDPCWME", bug_class="noise-scale",
        description="Theorem 4.1's printed CDPCWME variance with log(2d/beta) where it has log^2(2d/beta)",
        file=F, find="return math.sqrt(1152.0 * tau * tau * d * L * L / (rho * n * n))",
        replace="return math.sqrt(1152.0 * tau * tau * d * L / (rho * n * n))",
        checks=("tests/heavy_tailed/test_appendix_b.py::test_lemma_b5_private_term_is_the_oracle_noise",),
    ),
    Mutant(
        id="heavy_tailed-M55", target="heavy_tailed:Algorithm 1", bug_class="step-index",
        description="strongly convex mode outputs iterates[T - 1] = w^(T-1) (0-based index of the paper's w^T) "
                    "instead of w^T (Theorem 3.2)",
        file=F, find="w_priv = its[-1].copy()", replace="w_priv = its[T - 1].copy()",
        checks=(f"{SCO}::test_scof_iterates_follow_line_10",),
    ),
    Mutant(
        id="heavy_tailed-M56", target="heavy_tailed:Algorithm 4", bug_class="noise-law",
        description="line 2's smoothing law N(0, c) read with standard deviation c (variance c^2) in psi_c's "
                    "truncated-normal and quadrature branches",
        file=F, find="s = np.where(nz, au * math.sqrt(c), 1.0)", replace="s = np.where(nz, au * c, 1.0)",
        checks=("tests/heavy_tailed/test_appendix_b.py::test_lemma_b4_bias_bound_and_its_order_is_attained",),
    ),
)
