"""Parity with the reference implementation's preference matrices on the 65 judged crowd topics."""

from __future__ import annotations

import numpy as np
import pytest

from ir_rag_axioms import CLAR2, COH1, COH2, CONS1, CONS2, CONS3, CORR1, COV1, COV2, COV3
from ir_rag_axioms.presets import ICTIR2025

pytestmark = [pytest.mark.shared, pytest.mark.slow]

OFF_DIAGONAL = ~np.eye(6, dtype=bool)

# Our defaults, with CLAR2 and CORR1 set to the reference's (inverted) direction for comparison.
DEFAULTS = {
    "COH1": COH1, "COH2": COH2, "COV1": COV1, "COV2": COV2, "COV3": COV3, "CONS1": CONS1,
    "CONS2": CONS2, "CONS3": CONS3,
    "CORR1": CORR1(higher_is_better=False), "CLAR2": CLAR2(higher_is_better=False),
}


def agreement(ours: list[np.ndarray], golden: np.ndarray) -> float:
    """Share of identical off-diagonal entries."""
    stacked = np.stack(ours)
    return float((stacked[:, OFF_DIAGONAL] == golden[:, OFF_DIAGONAL]).mean())


@pytest.mark.parametrize("name", sorted(DEFAULTS))
def test_default_axioms_match_reference(name, judged_items, reference_dir, record_property):
    golden = np.load(reference_dir / "prefs_default.npz")[name]
    share = agreement(DEFAULTS[name].preferences_batch(judged_items), golden)
    record_property("agreement", share)
    print(f"parity default {name}: {share:.4f}")
    assert share >= 0.99


@pytest.mark.parametrize("name", sorted(n for n in ICTIR2025 if n != "CLAR1" and not n.startswith("GEN")))
def test_ictir_preset_matches_reference(name, judged_items, reference_dir, record_property):
    golden = np.load(reference_dir / "prefs_ictir.npz")[name]
    share = agreement(ICTIR2025[name].preferences_batch(judged_items), golden)
    record_property("agreement", share)
    print(f"parity ictir {name}: {share:.4f}")
    assert share >= 0.99


def test_default_directions_are_the_stated_intuitions(judged_items, reference_dir):
    """Our default CLAR2 and CORR1 are the exact negation of the reference's on these topics."""
    golden = np.load(reference_dir / "prefs_default.npz")
    for name, axiom in (("CLAR2", CLAR2), ("CORR1", CORR1)):
        ours = np.stack(axiom.preferences_batch(judged_items))
        assert float((ours[:, OFF_DIAGONAL] == -golden[name][:, OFF_DIAGONAL]).mean()) >= 0.99
