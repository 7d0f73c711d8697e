"""The specification's import paths and call forms (ir_axioms 1.2.5), as thin aliases onto this library.

Change ``ir_axioms`` to ``ir_rag_axioms.compat`` in an import and the example runs: ``compat.axiom`` (and
``compat.axiom.base``, ``compat.axiom.utils``), ``compat.model``, ``compat.precondition``, ``compat.tools``,
``compat.dependency_injection``, ``compat.utils.libraries``, ``compat.utils.lazy``, ``compat.integrations`` (and
``compat.integrations.pyterrier``). The reference's data model, its way of writing an axiom and its combinators
(full matrices) live here. Names build our axioms with the reference's behaviours (CLAR2 and CORR1 directions,
preconditions skipped where it skipped them, STMC2's asymmetry and relative term frequencies, the crowd oracle
keeping the later of two judgments) and accept its keywords (``language_name``, ``utility_type``,
``assignments_path``, tool objects). Our own namespace keeps its defaults.
"""

from ir_rag_axioms.compat import axiom, integrations, model, precondition, tools

__all__ = ["axiom", "integrations", "model", "precondition", "tools"]
