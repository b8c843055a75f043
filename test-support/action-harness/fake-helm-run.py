# A stand-in for helm-run in the action's integration tests (the e2e tests elsewhere run the
# real one). It parses helm-run's arguments, copies, for each run entry, the real HELM run
# directory of that scenario (made once by the real helm-run, see fixtures.ts; FAKE_HELM_FIXTURES
# is the suite directory holding them) into <output-path>/runs/<suite>/ and rewrites the per-instance
# exact_match values so that each side has a controlled accuracy:
#   baseline:  instance correct when a stable hash of its id puts it in the first 80%;
#   candidate: the same, except FAKE_HELM_CANDIDATE_LOSSES correct instances become wrong.
# FAKE_HELM_FAIL=<side> makes that side fail like helm-run does: a log line, an empty run
# directory, exit status 1. FAKE_HELM_TRUNCATE=<side> makes that side exit 0 but leave each
# per_instance_stats.json cut in half (a broken run directory). The side is the last segment of
# --output-path (the runner's layout).
# The runner launches it with the interpreter named on the first line (written by the harness),
# which has crfm-helm installed, so the runner's version check sees the real installed version.
import argparse
import hashlib
import json
import os
import shutil
import sys

parser = argparse.ArgumentParser()
parser.add_argument("-r", "--run-entries", nargs="+", default=[])
parser.add_argument("--suite", default="default")
parser.add_argument("-o", "--output-path", default="benchmark_output")
parser.add_argument("--local-path", default="prod_env")
parser.add_argument("-m", "--max-eval-instances", type=int)
parser.add_argument("-t", "--num-train-trials", type=int)
parser.add_argument("-n", "--num-threads", type=int)
parser.add_argument("--disable-cache", action="store_true")
parser.add_argument("--plugins", nargs="*", default=[])
args, _unknown = parser.parse_known_args()

side = os.path.basename(os.path.normpath(args.output_path))
fixtures = os.environ["FAKE_HELM_FIXTURES"]
suite_dir = os.path.join(args.output_path, "runs", args.suite)
os.makedirs(suite_dir, exist_ok=True)
print(f"fake helm-run: side {side}, suite {args.suite}, entries {args.run_entries}", flush=True)

names = []
for entry in args.run_entries:
    scenario = entry.split(":")[0]
    names += [n for n in sorted(os.listdir(fixtures)) if n.startswith(scenario + ":")]

if os.environ.get("FAKE_HELM_FAIL") == side:
    for name in names:
        os.makedirs(os.path.join(suite_dir, name), exist_ok=True)
    print("Traceback (most recent call last):\nhelm.benchmark.runner.RunnerError: Failed runs: %s" % json.dumps(names), file=sys.stderr, flush=True)
    sys.exit(1)

losses = int(os.environ.get("FAKE_HELM_CANDIDATE_LOSSES", "0")) if side == "candidate" else 0


def correct_in_baseline(instance_id):
    return int(hashlib.sha256(instance_id.encode()).hexdigest(), 16) % 10 < 8


for name in names:
    target = os.path.join(suite_dir, name)
    shutil.copytree(os.path.join(fixtures, name), target, dirs_exist_ok=True)
    path = os.path.join(target, "per_instance_stats.json")
    with open(path) as f:
        records = json.load(f)
    ids = sorted({r["instance_id"] for r in records if correct_in_baseline(r["instance_id"])})
    flipped = set(ids[:losses])
    for record in records:
        value = 1.0 if correct_in_baseline(record["instance_id"]) and record["instance_id"] not in flipped else 0.0
        for stat in record["stats"]:
            if stat["name"]["name"] == "exact_match" and stat["count"] > 0:
                stat.update(sum=value * stat["count"], sum_squared=value * stat["count"], min=value, max=value, mean=value)
    text = json.dumps(records, indent=2)
    if os.environ.get("FAKE_HELM_TRUNCATE") == side:
        text = text[: len(text) // 2]
    with open(path, "w") as f:
        f.write(text)
print("fake helm-run: done", flush=True)
