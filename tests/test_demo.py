"""The shipped demo runs offline and ranks the sample's best-written, cited responses first."""

from __future__ import annotations

from ir_rag_axioms.demo import load_demo, main


def test_demo_sample_is_shipped_and_well_formed():
    items = load_demo()
    assert [request.id for request, _ in items] == ["demo-1", "demo-2", "demo-3"]
    for request, responses in items:
        assert request.context and 4 <= len(responses) <= 6
        assert len({r.id for r in responses}) == len(responses)


def test_demo_prints_every_axiom_and_a_ranking(capsys, monkeypatch):
    monkeypatch.delenv("IR_RAG_AXIOMS_LANGUAGETOOL", raising=False)
    assert main([]) == 0
    out = capsys.readouterr().out
    for name in ("COH1", "COH2", "COV1", "COV2", "COV3", "CONS1", "CONS2", "CONS3", "CORR1", "CLAR2"):
        assert f"  {name} " in out
    assert out.count("ranking by summed net wins (Borda):") == 3
    # The cited, clear responses win on the summed preferences of all axioms; the terse one is last.
    assert "1. cited-clear" in out and "1. cited-broad" in out and "1. cited-steps" in out
    assert "5. terse" in out
