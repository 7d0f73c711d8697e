"""``python -m ir_rag_axioms.cli``: the ``ir-rag-axioms`` command."""

import sys

from ir_rag_axioms.cli._main import main

sys.exit(main())
