"""Evaluation: axioms against an oracle, measures for ``pt.Experiment``, learned axioms, systems, post-hoc studies.

``evaluate`` computes decisiveness, consistency and effectiveness of axioms against an oracle (ICTIR 2025), with
bootstrap intervals; ``run_measures`` holds the ir_measures measures and run checks; ``experiment`` the post-hoc
study of a run against qrels; ``learning`` the cross-validation of learned axioms; ``systems`` system comparisons
by axioms; ``report`` the tables, figures and HTML of an evaluation.
"""

from ir_rag_axioms.evaluation.evaluate import (
    MAX_BOOTSTRAP_SAMPLES,
    MEASURES,
    Matrices,
    UndecidedAxiomWarning,
    agreement,
    bootstrap,
    cache_file,
    check_samples,
    check_seed,
    compute_preferences,
    consistency,
    decisiveness,
    effectiveness,
    evaluate_axioms,
    evaluate_frame,
    evaluate_preferences,
    evaluation_table,
    frame_matrices,
    harmonic_mean,
    majority_vote_preferences,
    scores_from_counts,
    topic_counts,
    vote_sweep,
)
from ir_rag_axioms.evaluation.pt_experiment import Experiment
from ir_rag_axioms.evaluation.run_measures import (
    DefinedMean,
    RunWarning,
    UndefinedMeasureWarning,
    check_run,
    checked_byquery,
    kendall_tau,
    measures,
    run_problems,
    with_defined_mean,
    with_gold_answers,
)

__all__ = [
    "MAX_BOOTSTRAP_SAMPLES", "MEASURES", "DefinedMean", "Experiment", "Matrices", "RunWarning", "UndecidedAxiomWarning",
    "UndefinedMeasureWarning", "agreement", "bootstrap", "cache_file", "check_run", "check_samples", "check_seed",
    "checked_byquery", "compute_preferences", "consistency", "decisiveness", "effectiveness", "evaluate_axioms",
    "evaluate_frame", "evaluate_preferences", "evaluation_table", "frame_matrices", "harmonic_mean", "kendall_tau",
    "majority_vote_preferences", "measures", "run_problems", "scores_from_counts", "topic_counts", "vote_sweep",
    "with_defined_mean", "with_gold_answers",
]
