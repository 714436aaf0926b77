"""Fitted parameters of the computer players (written by ``scripts/fit_models.py``)."""

from __future__ import annotations

from typing import Final

PLAY_WEIGHTS: Final[dict[str, tuple[float, ...]]] = {
    "sum15": (
        0.511,
        1.2578,
        0.8479,
        -0.0831,
        0.3952,
        0.0896,
        1.9604,
        1.0322,
        0.0769,
        -0.1166,
        0.1105,
        -1.6836,
        -2.1305,
        -1.066,
        -0.5402,
        -0.1278,
    ),
    "match": (
        0.545,
        0.6237,
        0.5021,
        0.0653,
        0.3228,
        0.4698,
        1.4148,
        1.1162,
        -0.465,
        -0.1551,
        -1.3892,
        -1.8811,
        -1.8736,
        -1.0771,
        -0.0761,
        -0.1362,
    ),
    "scopone": (
        1.0637,
        1.7935,
        0.6002,
        0.9757,
        0.5436,
        0.124,
        1.5349,
        -0.8877,
        -0.9101,
        -0.5913,
        0.7822,
        -5.2954,
        -2.2381,
        -1.0503,
        -0.9489,
        -0.2659,
    ),
}
"""Weights of :class:`escoba.ai.policy.PlayModel` by capture rule, in the order of
:data:`escoba.ai.policy.FEATURES`."""

EVALUATION_WEIGHTS: Final[dict[str, tuple[float, ...]]] = {
    "sum15": (
        0.5625,
        1.0421,
        1.1072,
        0.9768,
        0.5346,
        0.2239,
        0.0643,
        0.0383,
        0.0304,
        -0.0117,
        0.0437,
    ),
    "match": (
        0.769,
        1.0899,
        1.0595,
        0.9195,
        0.5839,
        0.0759,
        0.0241,
        0.0332,
        0.0348,
        0.9566,
        0.0273,
    ),
}
"""Weights of :class:`escoba.ai.evaluation.Evaluation` by capture rule, in the order of
:data:`escoba.ai.evaluation.FEATURES`."""
