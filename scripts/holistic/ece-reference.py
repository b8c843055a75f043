"""Reference ECE and Brier for one or more HELM run directories, computed apart from helm-gate.

ECE is HELM 0.5.16's own `ece_10_bin` (calibration.get_ece_em with 10 bins, the call in
helm.benchmark.metrics.basic_metrics.compute_calibration_metrics); Brier is numpy's mean of
(max_prob - exact_match)^2. Each record is one entry's stats for one split and perturbation that
has both max_prob and exact_match. Prints one JSON object per run directory, keyed by its path.

Usage: .venv/bin/python scripts/holistic/ece-reference.py RUN_DIR...
       .venv/bin/python scripts/holistic/ece-reference.py --stdin < '[{"probs": [...], "labels": [...]}]'
(the second form scores given lists, one result per list, in order).
"""

import json
import sys

import calibration as cal
import numpy as np


def records(run_dir):
    with open(f"{run_dir}/per_instance_stats.json") as f:
        entries = json.load(f)
    probs, labels = [], []
    for entry in entries:
        by_name = {}
        for stat in entry["stats"]:
            name = stat["name"]
            key = (name.get("split"), json.dumps(name.get("perturbation"), sort_keys=True))
            if stat["count"] > 0:
                by_name[(name["name"],) + key] = stat["sum"] / stat["count"]
        for (metric, split, perturbation), value in by_name.items():
            if metric == "max_prob":
                probs.append(value)
                labels.append(int(by_name[("exact_match", split, perturbation)]))
    return np.array(probs), np.array(labels)


def score(probs, labels):
    return {
        "records": int(len(probs)),
        "ece_10_bin": float(cal.get_ece_em(list(probs), list(labels), num_bins=10)),
        "brier": float(np.mean((probs - labels) ** 2)),
    }


def main():
    if sys.argv[1:] == ["--stdin"]:
        sets = json.load(sys.stdin)
        print(json.dumps([score(np.array(s["probs"], dtype=float), np.array(s["labels"], dtype=int)) for s in sets]))
        return
    out = {}
    for run_dir in sys.argv[1:]:
        probs, labels = records(run_dir)
        out[run_dir] = score(probs, labels)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
