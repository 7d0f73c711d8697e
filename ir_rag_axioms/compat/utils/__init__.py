"""``ir_axioms.utils``: which optional libraries are installed (``libraries``) and lazy injection (``lazy``)."""
