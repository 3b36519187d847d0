"""examples/randomized_ports.py through ``python -m reference conform`` (default mode), as a user runs it.

Each correct port draws its noise its own way (replay refuses all of them, and replay does not decide by
default): conform must exit 0 on every one. Each wrong variant listed in EXIT_1 is a slip read from the paper
(its docstring names it): conform must exit 1, by a property of the released outputs. The variants conform
accepts (equivalent in law on the cases run, or a dependence the law's scalar does not see) are not asserted
here; examples/README.md ("Randomized ports, second round") lists them with the reason.

The correct ports run in the default suite (about 5-16 s each); the variants are ``deep`` (about 5-16 s each,
35 of them), except the three that survived the first measurement (shared noise, one-sided noise, the Gumbel's
sign), which the cases added for them must keep rejecting in the default run.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

from examples.randomized_ports import CORRECT, PORTS

ROOT = pathlib.Path(__file__).resolve().parents[1]

# the wrong variants conform rejects, each with the deciding properties measured when they were written
EXIT_1 = {
    "laplace_mechanism_noise_08": "law, privacy",
    "laplace_mechanism_scale_times_sensitivity": "law, privacy",
    "laplace_mechanism_gaussian_same_variance": "law",
    "laplace_mechanism_one_sided": "law, privacy",
    "laplace_mechanism_shared_noise": "law, privacy",
    "gaussian_mechanism_shared_noise": "law, privacy",
    "report_noisy_min_gumbel_plus": "law",
    "gaussian_mechanism_noise_09": "law",
    "gaussian_mechanism_sigma_as_variance": "law, privacy",
    "gaussian_mechanism_sigma_times_sensitivity": "law, privacy",
    "report_noisy_min_noise_08": "law",
    "report_noisy_min_argmax": "law",
    "report_noisy_min_exponential_noise": "law",
    "exponential_mechanism_no_factor_2": "law",
    "exponential_mechanism_monotone_ignored": "law",
    "exponential_mechanism_epsilon_08": "law",
    "exponential_mechanism_sign_flipped": "law, zero-noise",
    "pgiga_noise_08": "law",
    "pgiga_step_1_over_alpha_t": "law",
    "pgiga_step_index_t_plus_1": "law",
    "pgiga_noise_t_plus_1": "law",
    "pgiga_lemma5_sensitivity": "law",
    "pgiga_rounds_T_1": "law",
    "pgiga_no_warmup": "law",
    "pgiga_unprojected": "law, feasibility",
    "cdpnsme_noise_08": "law",
    "cdpnsme_paper_sensitivity": "law",
    "cdpnsme_c_as_std": "law",
    "cdpnsme_sampled_N": "law",
    "cdpnsme_no_smoothing": "law",
    "private_frank_wolfe_general_noise_08": "law",
    "private_frank_wolfe_general_sensitivity_L_over_n": "law",
    "private_frank_wolfe_general_unhalved_loss": "law",
    "private_frank_wolfe_general_step_2_tplus2": "law",
    "private_frank_wolfe_general_average_iterates": "law",
    "private_frank_wolfe_general_theta1_origin": "law",
}


def _conform(name: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "reference", "conform", f"examples.randomized_ports:{name}",
         "--algorithm", PORTS[name]],
        cwd=ROOT, capture_output=True, text=True, timeout=900)


def _failing(stdout: str) -> set[str]:
    """The properties the report's first table marks FAIL (replay and accounting excluded: not deciding)."""
    names = set()
    for line in stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1] == "FAIL" and not line.startswith(" "):
            names.add(parts[0])
    return names - {"replay", "accounting"}


def test_every_variant_is_catalogued():
    assert set(CORRECT) <= set(PORTS)
    assert set(EXIT_1) <= set(PORTS) - set(CORRECT)


@pytest.mark.parametrize("name", CORRECT)
def test_correct_port_exits_0(name):
    result = _conform(name)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "bit-exact (replay): no" in result.stdout        # it draws its own way: replay cannot be what passes it


@pytest.mark.deep
@pytest.mark.parametrize("name", sorted(EXIT_1))
def test_wrong_variant_exits_1(name):
    result = _conform(name)
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-2000:]
    expected = {p.strip() for p in EXIT_1[name].split(",")}
    assert expected <= _failing(result.stdout), (expected, _failing(result.stdout))


# The three survivors of the first measurement (examples/README.md), rejected since the cases added for them:
# the additive mechanisms' joint-vector-3d law cases (the noise summed over the coordinates) and their privacy
# statistic's leak bonus, report-noisy-min's three-candidate Gumbel case.
NEWLY_REJECTED = ("laplace_mechanism_shared_noise", "gaussian_mechanism_shared_noise", "report_noisy_min_gumbel_plus")


@pytest.mark.parametrize("name", NEWLY_REJECTED)
def test_the_first_rounds_survivors_exit_1(name):
    result = _conform(name)
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-2000:]
    expected = {p.strip() for p in EXIT_1[name].split(",")}
    assert expected <= _failing(result.stdout), (expected, _failing(result.stdout))
