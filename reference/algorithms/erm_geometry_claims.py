"""The registry of erm_geometry (seed 000): its algorithms and every checkable claim.

Kept beside :mod:`reference.algorithms.erm_geometry` so that a reader opening the algorithms
module beside the paper meets Algorithm 1 first. Each claim is checked by a test naming it
(``python -m reference claims --paper erm_geometry``).
"""

from __future__ import annotations

from ..claims import Algorithm, Claim

PAPER = "erm_geometry"

# ---------------------------------------------------------------------------
# Registry: algorithms and claims (each claim is checked by a test naming it).

ALGORITHMS = (
    Algorithm(PAPER, "Algorithm 1", "A_Noise-MD: differentially private mirror descent",
              "reference.algorithms.erm_geometry:noisy_mirror_descent", "Section 3.1"),
    Algorithm(PAPER, "Algorithm 1 (Section 3.3)", "noisy (non-private) mirror descent, Corollary 3.6",
              "reference.algorithms.erm_geometry:noisy_mirror_descent_nonprivate", "Section 3.3"),
    Algorithm(PAPER, "Algorithm 2", "objective perturbation",
              "reference.algorithms.erm_geometry:objective_perturbation", "Section 4"),
    # Algorithms 3-5: this paper's numbering, on the Frank-Wolfe loop shared with `lasso`.
    Algorithm(PAPER, "Algorithm 3", "Frank-Wolfe algorithm",
              "reference.algorithms.erm_geometry:frank_wolfe", "Section 5.1"),
    Algorithm(PAPER, "Algorithm 4", "A_Noise-FW(polytope): differentially private Frank-Wolfe (polytope case)",
              "reference.algorithms.erm_geometry:private_frank_wolfe_polytope", "Section 5.2"),
    Algorithm(PAPER, "Algorithm 5", "A_Noise-FW(Gen-convex): differentially private Frank-Wolfe (general convex case)",
              "reference.algorithms.erm_geometry:private_frank_wolfe_general", "Appendix B"),
)


def _c(locator: str, kind: str, statement: str, source: str = "") -> Claim:
    return Claim(f"{PAPER}:{locator}", kind, statement, source or locator)


CLAIMS = (
    # --- Algorithm 1: privacy, sensitivity, accounting
    _c("Theorem 3.1", "privacy",
       "Algorithm 1 (noisy mirror descent) with sigma^2 = 32 L^2 T log^2(T/delta)/(eps n)^2 is "
       "(eps, delta)-DP under replace-one neighbours.", "Theorem 3.1"),
    _c("Theorem 3.1 sensitivity", "sensitivity",
       "Replacing one record moves the full-batch gradient of an L-Lipschitz (l2) loss by at most 2L/n "
       "in l2 norm, the sensitivity the Gaussian steps of Algorithm 1 (and 5) are calibrated to.",
       "Theorem 3.1 proof (Gaussian mechanism on the gradient)"),
    _c("Theorem 3.1 accounting", "accounting",
       "The ledger of one run of Algorithm 1 holds exactly T Gaussian events with sensitivity 2L/n and "
       "the line-1 sigma; for the paper calibration the accountant certifies it within the claimed "
       "(eps, delta) when eps <= 2 and delta <= 1e-3 (outside that range the printed sigma can fall short, "
       "erm_geometry-E26), and the certified calibration uses the smallest sigma that certifies (eps, delta).",
       "Theorem 3.1 with the strong composition theorem [25]"),
    # --- Algorithm 1: utility
    _c("Theorem 3.2", "utility",
       "With T and eta as in the proof of Theorem 3.2 the expected excess empirical risk of Algorithm 1 "
       "is at most R_Psi/(eta T) + eta (L^2 r_Q^2 + sigma^2 E||b/sigma||_{Q*}^2) (explicit form of "
       "the O(.) bound) and decays in n (rate -1 up to log factors).", "Theorem 3.2 and its proof, equations (2)-(12)"),
    _c("Remark 1", "constant",
       "The Theorem 3.2 bound is scale invariant: with the proof's T and eta it scales exactly with L, and "
       "(G_Q^2 + ||Q||^2) max Psi is unchanged under Q -> cQ, Psi -> Psi/c^2 (the statement's T is not "
       "invariant under rescaling the loss).", "Remark 1, Theorem 3.2"),
    _c("eq (2)", "invariant",
       "Jensen: the loss at the averaged output is at most the average loss of the iterates theta_1..theta_T.",
       "equation (2)"),
    _c("Claim 3.3", "invariant",
       "Convexity: L(theta_t) - L(theta*) <= <gamma_t, theta_t - theta*> for every iterate.", "Claim 3.3"),
    _c("eq (10)", "invariant",
       "Three-point identity: B(th*,th_t) - B(th*,th_t+1) - B(th_t+1,th_t) = <grad Psi(th_t) - grad Psi(th_t+1), "
       "th_t+1 - th*> exactly for the potentials used.", "equation (10)"),
    _c("Line 4 mirror step", "invariant",
       "The mirror step of line 4 (resolved form) returns the exact minimiser over C: it matches the closed "
       "form (Euclidean projection, exponentiated gradient) or satisfies the KKT conditions, and the iterates "
       "stay in C.", "Algorithm 1 line 4; equation (9) needs an exact step"),
    _c("eq (13)", "utility",
       "l2-ball instantiation (Euclidean potential, Q = unit l2 ball): excess risk grows like sqrt(p) "
       "at fixed n (the worst-case geometry).", "equation (13)"),
    _c("eq (14)", "utility",
       "l1-ball / polytope instantiation (l_q potential of Fact 3.4 with q = log k/(log k - 1)): the excess "
       "risk grows only logarithmically with p, so at the same p it is below the l2 ball's.", "equation (14)"),
    _c("eq (15)", "invariant",
       "Grouped l1/l2 ball: the potential of Section 3.2 (resolved constants) is 1-strongly convex w.r.t. "
       "the grouped norm on the unit ball and its maximum over C is 1/(kappa xi) = O(log(p/k)).",
       "Section 3.2, grouped l1 norm, equation (15)"),
    _c("eq (16)", "invariant",
       "Nuclear-norm ball: the spectral potential with q = 1/(2 log 2m) (resolved constant) is 1-strongly "
       "convex w.r.t. the nuclear norm on the unit ball; the matrix mirror step stays in the ball.",
       "Section 3.2, low-rank matrices, equation (16)"),
    _c("Fact 3.4", "constant",
       "Psi = ||.||_q^2/(4(q-1)) is only 1/2-strongly convex w.r.t. ||.||_q (the paper says 1); "
       "Psi = ||.||_q^2/(2(q-1)) is 1-strongly convex.", "Fact 3.4"),
    _c("Claim 3.5", "constant",
       "With q = ln k/(ln k - 1): k^(1-1/q) = e, hence ||a||_1 <= e ||a||_q for a in R^k.", "Claim 3.5"),
    _c("Corollary 3.6", "utility",
       "Noisy (non-private) mirror descent with Gaussian noise of covariance Sigma: excess risk at most "
       "R_Psi/(eta T) + eta (L^2 r^2 + lambda_max(Sigma)(G^2 + r^2)), decaying like 1/sqrt(T) "
       "(the printed bound does not decay in T: a typo).", "Corollary 3.6"),
    _c("Theorem A.1", "utility",
       "Strongly convex parameterisation (eta_t = 2/(Delta t)): excess risk decays like 1/n^2 up to logs, "
       "faster than the 1/n of Theorem 3.2.", "Theorem A.1"),
    _c("Section 2.2 Gaussian widths", "constant",
       "Gaussian widths used by the theorems: unit l2 ball sqrt(2) Gamma((p+1)/2)/Gamma(p/2) < sqrt(p); "
       "unit l1 ball E||g||_inf <= sqrt(2 ln 2p) (Section 1: Theta(sqrt(log p))).", "Sections 1 and 2.2"),
    _c("Claim A.2", "invariant",
       "Under Section 2.2's definition of Delta-strong convexity w.r.t. Psi, the first-order consequence has "
       "coefficient Delta/2: L(theta_t) - L* <= <gamma_t, theta_t - theta*> - (Delta/2) B(theta*, theta_t); "
       "Claim A.2's coefficient Delta fails (a quadratic is a counterexample).", "Claim A.2, Section 2.2"),
    _c("Fact 2.3", "constant",
       "E[W] <= G^2 + r^2 for W = (sup_Q <b, theta>)^2 (the conclusion of equation (7)); the paper's "
       "intermediate integrand of (7) is not an upper bound on P[W >= x].", "Fact 2.3 and equation (7)"),
    # --- Algorithm 2
    _c("Algorithm 2 privacy", "privacy",
       "Objective perturbation is (eps, delta)-DP ('follows from [37]'): false at the printed noise variance "
       "2 L^2 log(1/delta)/(n eps)^2 (an exact computation violates (1, 1e-3)); true at the KST12 "
       "calibration L^2 (8 log(2/delta) + 4 eps)/(n eps)^2 on the same instance.", "Section 4, Algorithm 2"),
    _c("Algorithm 2 line 1", "invariant",
       "zeta = max{2 lambda_max/(n eps) - lambda_min, 0}; under the hypothesis of Theorem 4.1(2) it is 0.",
       "Algorithm 2 line 1; Theorem 4.1 proof"),
    _c("Theorem 4.1(1)", "utility",
       "Per noise draw, L(theta_priv) - L(theta*) <= <b, theta_hat - theta_priv> + zeta/2 ||theta* - theta_0||^2 "
       "(equations (17)-(18)); in expectation the excess is O((L G sqrt(log 1/delta) + lambda_max ||C||^2)/(eps n)).",
       "Theorem 4.1 case 1"),
    _c("Theorem 4.1(2)", "utility",
       "Strongly convex case: per noise draw the excess is at most ||b||_{Q*}^2/Delta (the paper's (19) "
       "has 2||b||^2/Delta; its first line swaps theta* and theta_priv).", "Theorem 4.1 case 2"),
    # --- Frank-Wolfe (Algorithms 3, 4, 5 via reference.algorithms.frank_wolfe)
    _c("Theorem 5.2", "utility",
       "Frank-Wolfe with the printed constant step mu = 1/T converges at O(Gamma/T): false (a 1-D quadratic "
       "stays at excess 0.2707); with mu_t = 2/(t+2) the excess is <= (2 h_1 + 2 Gamma (T-1))/(T (T+1)).",
       "Theorem 5.2, Algorithm 3"),
    _c("Theorem 5.6", "utility",
       "Frank-Wolfe with an LMO error <= beta mu_t Gamma / 2 at every step: with mu_t = 2/(t+2), "
       "h_T <= 2 h_1/(T(T+1)) + 2 Gamma (1 + beta)(T-1)/(T(T+1)); the printed h_1-free form "
       "2 Gamma (1 + beta)/(T+2) fails (a linear loss with Gamma = 0 has h_T = 4/(T(T+1)) > 0).", "Theorem 5.6 ([34])"),
    _c("Section 5.3 constants", "constant",
       "LASSO (22) on the unit l1 ball with ||x||_inf <= 1, |y| <= 1: the l1-Lipschitz constant is 2 "
       "(attained) and the curvature constant of Definition 5.1 is 4 max_j (1/n) sum_i x_ij^2 <= 4.",
       "Section 5.3, Definition 5.1, Remark 5"),
    _c("Theorem 5.4 sensitivity", "sensitivity",
       "Replacing one record changes every score <s, grad L(theta; D)> of Algorithm 4 by at most "
       "2 L_1 ||C||_1 / n (L_1: l1-Lipschitz constant, so ||grad l||_inf <= L_1).", "Theorem 5.4 proof"),
    _c("Theorem 5.4", "privacy",
       "Algorithm 4 is (eps, delta)-DP at the printed Laplace scale L_1 ||C||_1 sqrt(8 T log(1/delta))/(n eps): "
       "the accountant certifies only about 2 eps for it (standard report-noisy-max + composition), while the "
       "exact profile on a worst-case 1-D instance stays within (eps, delta): unproven, not refuted.",
       "Theorem 5.4"),
    _c("Theorem 5.5", "utility",
       "Algorithm 4 (mu_t = 2/(t+2)) on LASSO: E excess <= 2h_1/(T(T+1)) + 2 Gamma (T-1)/(T(T+1)) + "
       "2 lambda H_|S| (T-1)(T+2)/(T(T+1)) (explicit form; the paper's log(n|S|) comes from a union bound); "
       "with the T of Theorem 5.5 the excess decays in n (rate -2/3 up to logs).",
       "Theorem 5.5 and its proof"),
    _c("Theorem B.1", "privacy",
       "Algorithm 5 is (eps, delta)-DP: its ledger (T-1 Gaussian steps of sensitivity 2 L_2/n) is certified with "
       "the resolved sigma^2 = 32 L_2^2 T log^2(T/delta)/(n eps)^2; the printed sigma (L_2 unsquared) is not "
       "scale-correct and fails for large L_2.", "Theorem B.1, Algorithm 5 line 3"),
    _c("Theorem B.2", "utility",
       "Algorithm 5 (mu_t = 2/(t+2)): E excess <= 2h_1/(T(T+1)) + 2 Gamma (T-1)/(T(T+1)) + 2 sigma G_C "
       "(T-1)(T+2)/(T(T+1)) (explicit form of (27)).", "Theorem B.2, equation (27)"),
    # --- Section 5.3 lower bound (deterministic parts)
    _c("eq (23)", "lower-bound",
       "In the construction of Section 5.3, theta* = sign/p on consensus columns has un-normalised loss "
       "at most (tau + 4 tau^2) w on D_i.", "equation (23)"),
    _c("Lemma 5.10", "lower-bound",
       "If ||theta||_1 <= 1 and L(theta; D_i) < 1.1 tau w then theta agrees in sign with at least 3p/4 "
       "consensus columns.", "Lemma 5.10"),
    _c("Theorem 5.8 construction", "lower-bound",
       "The Section 5.3 datasets lie in the LASSO domain (||x||_inf <= 1, |y| <= 1), the Hadamard part "
       "contributes exactly k ||theta||_2^2, and D_i, D_j differ in one record; n = w + k (not w + wp).",
       "Theorem 5.8 proof"),
    _c("Theorem 5.8 constants", "constant",
       "The numeric steps of the proof of Lemma 5.10 / Theorem 5.8 hold: sqrt(1.1 tau) <= 0.04, "
       "sqrt(1.1*3/4) <= 0.91, 0.05^2 >= 1.1 tau, and c <= (0.1 tau - 4 tau^2)/3.", "Lemma 5.10, Theorem 5.8"),
)


