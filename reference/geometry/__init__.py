"""Geometry building blocks: constraint sets, Gaussian widths, mirror maps.

These modules know no paper. They provide what the mirror-descent and Frank-Wolfe
algorithms of the papers need of a constraint set C:

- :mod:`.sets`   membership, linear minimisation oracle (LMO), support function,
                 Euclidean projection, diameter / radius in a stated norm, vertices;
- :mod:`.width`  the Gaussian width E sup_{x in C} <g, x>, exact where a formula
                 exists, Monte Carlo with a confidence interval otherwise;
- :mod:`.mirror` mirror maps (Euclidean, negative entropy, p-norm, grouped, Schatten) with their
                 Bregman divergences, strong-convexity constants and mirror steps.
"""

from .mirror import EuclideanMap, GroupNormMap, MirrorMap, NegativeEntropyMap, PNormMap, SchattenMap
from .sets import (ConstraintSet, GroupL1L2Ball, L1Ball, L2Ball, LinfBall, NuclearBall, Polytope, Simplex,
                   project_l1_ball, project_simplex)
from .width import GaussianWidth, gaussian_width

__all__ = [
    "ConstraintSet", "L2Ball", "L1Ball", "LinfBall", "Simplex", "Polytope", "NuclearBall", "GroupL1L2Ball",
    "project_simplex", "project_l1_ball", "GaussianWidth", "gaussian_width",
    "MirrorMap", "EuclideanMap", "NegativeEntropyMap", "PNormMap", "GroupNormMap", "SchattenMap",
]
