"""
A stand-in for FlexLLMGen's HELM benchmark script (`python -m flexllmgen.apps.helm_run`), for
tests and fixtures: the same command-line shape, the same crfm-helm 0.2.1 calls in the same order
(run entry -> run spec, scenario, adapter, generation, the first metric, the five run files written
with `asdict_without_nones` into `<run-path>/<run spec name>/`, `eval_cache/` inside it, the
scenario's data under `data/` in the working directory), but no GPU and no weights: the answers
come from a deterministic local model.

The model knows each instance's reference and answers it correctly when a hash of the instance id
falls below `--accuracy`, so a lower accuracy gets a subset of the instances right that a higher
one gets right (a degraded candidate only loses answers). FlexLLMGen's own options (--percent,
--compress-weight, ...) are accepted and checked like FlexLLMGen checks them, and otherwise change
nothing; `--accuracy` and `--seed` are the stand-in's own.

Run with the interpreter of a crfm-helm 0.2.1 environment (scripts/helm-0.2-env.sh).
"""
import argparse
import hashlib
import json
import os
import re
import sys
from dataclasses import replace
from typing import Dict, List

from helm.benchmark.presentation.run_entry import RunEntry
from helm.benchmark.run import run_entries_to_run_specs
from helm.benchmark.runner import (
    AdapterFactory,
    DataPreprocessor,
    ScenarioState,
    asdict_without_nones,
    create_metric,
    create_scenario,
    ensure_directory_exists,
    with_instance_ids,
    write,
)
from helm.common.request import RequestResult, Sequence, Token
from helm.common.tokenization_request import (
    DecodeRequest,
    DecodeRequestResult,
    TokenizationRequest,
    TokenizationRequestResult,
    TokenizationToken,
)
from helm.proxy.clients.client import truncate_sequence

# Words with their leading spaces, so that joining the pieces gives the text back.
PIECE = re.compile(r"\s*\S+|\s+")


class PieceTokenizer:
    """A reversible word-piece tokenizer: the window service only counts and cuts tokens."""

    def __init__(self) -> None:
        self.ids: Dict[str, int] = {}
        self.pieces: List[str] = []

    def _id(self, piece: str) -> int:
        if piece not in self.ids:
            self.ids[piece] = len(self.pieces)
            self.pieces.append(piece)
        return self.ids[piece]

    def tokenize(self, request: TokenizationRequest) -> TokenizationRequestResult:
        pieces = PIECE.findall(request.text)
        if request.truncation:
            pieces = pieces[: request.max_length]
        values = [self._id(p) for p in pieces] if request.encode else pieces
        return TokenizationRequestResult(
            success=True,
            cached=False,
            text=request.text,
            tokens=[TokenizationToken(v) for v in values],
            request_time=0,
        )

    def decode(self, request: DecodeRequest) -> DecodeRequestResult:
        text = "".join(self.pieces[i] for i in request.tokens)
        return DecodeRequestResult(success=True, cached=False, text=text, request_time=0)


def correct(instance_id: str, seed: int, accuracy: float) -> bool:
    digest = hashlib.sha256(f"{seed}:{instance_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < accuracy


def answer(request_state, seed: int, accuracy: float) -> str:
    instance = request_state.instance
    # Reference.output is `{text}` in 0.2.x (a plain string before 0.2.0).
    right = [r.output.text for r in instance.references if "correct" in r.tags]
    reference = right[0] if right else instance.references[0].output.text
    # Joint multiple choice asks for the letter of the right reference.
    mapping = request_state.output_mapping
    if mapping:
        letter = next(k for k, v in mapping.items() if v == reference)
        wrong = next((k for k in mapping if k != letter), "?")
        return " " + (letter if correct(instance.id, seed, accuracy) else wrong)
    return " " + (reference if correct(instance.id, seed, accuracy) else "no idea")


def execute(scenario_state: ScenarioState, seed: int, accuracy: float) -> ScenarioState:
    request_states = []
    for request_state in scenario_state.request_states:
        text = answer(request_state, seed, accuracy) + "\n"
        tokens = [Token(text=p, logprob=0.0, top_logprobs={}) for p in PIECE.findall(text)]
        completion = truncate_sequence(Sequence(text=text, logprob=0.0, tokens=tokens), request_state.request)
        # Shaped as FlexLLMGen builds it: never cached, no request times.
        result = RequestResult(
            success=True, cached=False, request_time=0, request_datetime=0, completions=[completion], embedding=[]
        )
        request_states.append(replace(request_state, result=result))
    return ScenarioState(scenario_state.adapter_spec, request_states)


def run_entry(args) -> None:
    parallelism = 1
    run_specs = run_entries_to_run_specs(
        run_entries=[RunEntry(args.description, priority=1, groups=None)],
        max_eval_instances=args.max_eval_instances,
        num_train_trials=3,
    )
    run_spec = run_specs[0]
    run_path = os.path.join(args.run_path, run_spec.name)
    ensure_directory_exists(run_path)
    eval_cache_path = os.path.join(run_path, "eval_cache")
    ensure_directory_exists(eval_cache_path)

    tokenizer_service = PieceTokenizer()
    adapter = AdapterFactory.get_adapter(run_spec.adapter_spec, tokenizer_service)
    scenario = create_scenario(run_spec.scenario_spec)
    scenario.output_path = f"data/{run_spec.name}"
    os.makedirs(scenario.output_path, exist_ok=True)
    instances = with_instance_ids(scenario.get_instances())
    instances = adapter.get_run_instances(instances)
    instances = DataPreprocessor(run_spec.data_augmenter_spec).preprocess(instances, parallelism=parallelism)
    scenario_state = adapter.adapt(instances, parallelism=parallelism)

    scenario_state = execute(scenario_state, args.seed, args.accuracy)

    # FlexLLMGen evaluates the first metric of the run spec only.
    metric = create_metric(run_spec.metric_specs[0])
    result = metric.evaluate(scenario_state, tokenizer_service, eval_cache_path, parallelism=parallelism)

    write(os.path.join(run_path, "run_spec.json"), json.dumps(asdict_without_nones(run_spec), indent=2))
    write(os.path.join(run_path, "scenario.json"), json.dumps(asdict_without_nones(scenario), indent=2))
    write(os.path.join(run_path, "scenario_state.json"), json.dumps(asdict_without_nones(scenario_state), indent=2))
    write(
        os.path.join(run_path, "stats.json"),
        json.dumps([asdict_without_nones(stat) for stat in result.aggregated_stats], indent=2),
    )
    write(
        os.path.join(run_path, "per_instance_stats.json"),
        json.dumps(list(map(asdict_without_nones, result.per_instance_stats)), indent=2),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--description", type=str, required=True)
    parser.add_argument("--pad-to-seq-len", type=int)
    parser.add_argument("--model", type=str, default="facebook/opt-1.3b")
    parser.add_argument("--path", type=str, default="~/opt_weights")
    parser.add_argument("--run-path", type=str, default="runs")
    parser.add_argument("--offload-dir", type=str, default="~/flexllmgen_offload_dir")
    parser.add_argument("--gpu-batch-size", type=int, default=16)
    parser.add_argument("--num-gpu-batches", type=int, default=1)
    parser.add_argument("--max-eval-instances", type=int)
    parser.add_argument("--percent", nargs="+", type=int, default=[100, 0, 100, 0, 100, 0])
    parser.add_argument("--pin-weight", type=str, nargs="?", const="true", default="true")
    parser.add_argument("--cpu-cache-compute", action="store_true")
    parser.add_argument("--compress-weight", action="store_true")
    parser.add_argument("--compress-cache", action="store_true")
    parser.add_argument("--accuracy", type=float, default=0.8, help="share of instances answered right (stand-in only)")
    parser.add_argument("--seed", type=int, default=0, help="which instances are answered right (stand-in only)")
    args = parser.parse_args()
    if len(args.percent) != 6:
        parser.error("--percent takes six numbers")
    if not 0 <= args.accuracy <= 1:
        parser.error("--accuracy must be between 0 and 1")
    run_entry(args)


if __name__ == "__main__":
    sys.exit(main())
