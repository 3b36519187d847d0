"""saddle_point Algorithms 5 and 4 as a port brings them, with the wrong variants issue 31 found passing conform.

Gonzalez, Guzman, Paquette, "Mirror descent for DP stochastic saddle points" (/work/shared/seeds/003_*), as
reconstructed in /work/shared/spec/saddle_point.md (docs/errata.md saddle_point-E01, E06, E07, E09, A10):

- :func:`sco` -- Algorithm 5 (DP-SCO by entropic mirror descent with anytime online-to-batch), conform id
  ``saddle_point:Algorithm 5``, written from the box and the contract (``python -m reference list``), not from the
  reference's code: f(x; z_i) = (1/2)(<a_i, x> - b_i)^2 on the simplex, T = n steps, one record a step, weights
  alpha_t = t, A_t = t (t + 1) / 2; the private estimate x_hat (the mean of K vertices drawn from x_t) refreshed
  at every t <= t0 = ceil(n / tau) and every tau steps after; the learner w_(t+1) ~ w_t exp(-eta alpha_t g_t);
  line 7, x_(t+1) = (A_t x_t + alpha_(t+1) w_(t+1)) / A_(t+1); K vertices of x_T the output. The vertices are
  drawn with ``rng.choice`` (not the reference's inverse CDF of ``random()``): replay refuses it, the law decides.
  The step is min(eta_priv, 1 / (8 L0 tau T)) (the stability cap, saddle_point-E07), eta_priv Proposition 4.3's
  printed eps / (8 L0 T sqrt(2 N log(1/delta))) with N the catalogue's vertex count (saddle_point-E06), or for
  ``calibration="certified"`` the contract's public function
  ``reference.algorithms.saddle_point.certified_eta_algorithm5`` (the one thing asked of the reference).
- :func:`sco_weight_shifted` -- the wrong variant issue 31 found passing every output-only property: line 7's
  online-to-batch weight index shifted by one, x_(t+1) = (A_t x_t + alpha_t w_(t+1)) / (A_t + alpha_t).
- :func:`boosted` -- Algorithm 4 computing line 1's k = ceil(log2(4/beta)) and k' = ceil(log2(8 k / beta))
  itself from the case's beta (the cases that pass them in are answered with them); its parts run the
  reference's Algorithm 3 and private Frank-Wolfe (those ids have ports and cases of their own), so what this
  port adds is line 1. :func:`boosted_k_prime_4k` -- k' = ceil(log2(4 k / beta)) (the 8 read as 4).
"""

from __future__ import annotations

import math

import numpy as np


def _finite(name, value, *, positive=True):
    if not (isinstance(value, (int, float)) and math.isfinite(value) and (value > 0 or not positive)):
        raise ValueError(f"{name} must be a finite real{' > 0' if positive else ''}, got {value!r}")
    return float(value)


def _count(name, value, low=1):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)


def _vertices_mean(rng, x, K):
    """The mean of K vertices e_J, J ~ x, drawn by ``rng.choice``."""
    p = np.clip(np.asarray(x, dtype=float), 0.0, None)
    idx = rng.choice(p.size, size=K, p=p / p.sum())
    return np.bincount(idx, minlength=p.size) / K


def sco(a, b, epsilon, delta, K, tau, calibration, rng, *, variant=""):
    """saddle_point Algorithm 5 (see the module docstring); returns the K-vertex output x (length d)."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.ndim != 2 or b.shape != (a.shape[0],) or not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        raise ValueError("a must be a finite (n, d) array and b a finite array of length n")
    epsilon = _finite("epsilon", epsilon)
    if not (isinstance(delta, (int, float)) and 0 < delta < 1):
        raise ValueError(f"delta must be in (0, 1), got {delta!r}")
    K, tau = _count("K", K), _count("tau", tau)
    if epsilon > 8.0 * math.log(1.0 / delta):
        raise ValueError("epsilon must be <= 8 log(1/delta) (Corollary 3.6)")
    T, d = a.shape
    # L0: the largest ||grad f||_inf on the simplex, max_i ||a_i||_inf max_x |<a_i, x> - b_i| (x a vertex)
    L0 = float(np.max(np.abs(a).max(axis=1) * np.maximum(np.abs(a.max(axis=1) - b), np.abs(a.min(axis=1) - b))))
    t0 = math.ceil(T / tau)
    if calibration == "paper":
        N = K * (t0 + math.ceil((T - t0) / tau) + 1)           # the catalogue's count (saddle_point-E06)
        eta = epsilon / (8.0 * L0 * T * math.sqrt(2.0 * N * math.log(1.0 / delta)))
    elif calibration == "certified":
        from reference.algorithms.saddle_point import certified_eta_algorithm5

        eta = certified_eta_algorithm5(epsilon, delta, L0, T, K, tau)
    else:
        raise ValueError(f"calibration must be 'paper' or 'certified', got {calibration!r}")
    eta = min(eta, 1.0 / (8.0 * L0 * tau * T))                 # the stability cap (saddle_point-E07)
    w = np.full(d, 1.0 / d)
    x, A = w.copy(), 1.0
    x_hat = None
    for t in range(1, T + 1):
        x_T = x
        if t <= t0 or (t - t0) % tau == 0:
            x_hat = _vertices_mean(rng, x, K)
        g = (a[t - 1] @ x_hat - b[t - 1]) * a[t - 1]
        logits = np.log(w) - eta * t * g
        w = np.exp(logits - logits.max())
        w /= w.sum()
        weight = float(t) if variant == "weight-shifted" else float(t + 1)   # WRONG for "weight-shifted": alpha_t
        x = (A * x + weight * w) / (A + weight)
        A += weight
    return _vertices_mean(rng, x_T, K)


def sco_weight_shifted(a, b, epsilon, delta, K, tau, calibration, rng):
    """Line 7 with alpha_t where the box has alpha_(t+1): x_(t+1) = (A_t x_t + t w_(t+1)) / (A_t + t)."""
    return sco(a, b, epsilon, delta, K, tau, calibration, rng, variant="weight-shifted")


def boosting_counts(beta, *, eight=8.0):
    """Line 1: k = ceil(log2(4 / beta)) candidates, k' = ceil(log2(8 k / beta)) Frank-Wolfe runs a maximisation."""
    beta = _finite("beta", beta)
    if not beta < 1:
        raise ValueError(f"beta must be in (0, 1), got {beta!r}")
    k = math.ceil(math.log2(4.0 / beta))
    return k, math.ceil(math.log2(eight * k / beta))


def boosted(atoms, data, epsilon, delta, beta, B, fw_T, calibration, rng, k=None, k_prime=None, *, eight=8.0):
    """saddle_point Algorithm 4 with line 1's k and k' computed here from beta (unless a case passes them)."""
    from reference.algorithms import saddle_point as sp

    k_line1, kp_line1 = boosting_counts(beta, eight=eight)
    k = k_line1 if k is None else k
    k_prime = kp_line1 if k_prime is None else k_prime
    data = np.asarray(data)
    if not np.all(data == np.round(data)):
        raise ValueError("data must hold integer record indices")
    return sp.private_boosted_saddle_point(sp.QuadraticSaddle(atoms, data.astype(np.intp)), epsilon, delta, rng,
                                           beta=beta, B=B, fw_T=fw_T, k=k, k_prime=k_prime, calibration=calibration)


def boosted_k_prime_4k(atoms, data, epsilon, delta, beta, B, fw_T, calibration, rng, k=None, k_prime=None):
    """WRONG: line 1's k' = ceil(log2(4 k / beta)) (the 8 read as 4)."""
    return boosted(atoms, data, epsilon, delta, beta, B, fw_T, calibration, rng, k=k, k_prime=k_prime, eight=4.0)
