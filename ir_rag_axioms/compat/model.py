"""``ir_axioms.model``: the data model (our frozen dataclasses under the specification's names)."""

from ir_rag_axioms.model import Document, GenerationRequest, GenerationResponse, Query

GenerationInput = GenerationRequest
"""The reference's deprecated name of ``GenerationRequest``."""
GenerationOutput = GenerationResponse
"""The reference's deprecated name of ``GenerationResponse``."""

__all__ = ["Document", "GenerationInput", "GenerationOutput", "GenerationRequest", "GenerationResponse", "Query"]
