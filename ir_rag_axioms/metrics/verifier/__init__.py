"""The claim verifier: features of a (claim, best evidence) pair and the fitted model that reads them.

``signals.features`` turns the checks' row of a claim (``HeuristicJudge.signals``) into one feature vector;
``model.Verifier`` (the packaged ``data/verifier.json``) gives P(supported) and P(contradicted) from it.
"""

from ir_rag_axioms.metrics.verifier.model import Verifier, load_verifier
from ir_rag_axioms.metrics.verifier.signals import FAMILIES, FEATURES, features

__all__ = ["FAMILIES", "FEATURES", "Verifier", "features", "load_verifier"]
