"""``ir_axioms.precondition``: ``LEN`` (similar length), ``NOP`` (no precondition) and axioms as preconditions."""

from ir_rag_axioms.axioms.preconditions import LEN, AxiomPrecondition, Precondition
from ir_rag_axioms.axioms.utility import NOP, NopAxiom

LengthPrecondition = LEN
"""The class name of ``LEN``."""
NopPrecondition = NopAxiom
"""The class name of ``NOP`` as a precondition (no precondition: every pair may be decided)."""

__all__ = ["LEN", "NOP", "AxiomPrecondition", "LengthPrecondition", "NopPrecondition", "Precondition"]
