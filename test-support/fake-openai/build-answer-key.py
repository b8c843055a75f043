"""Writes the answer key the fake OpenAI server answers from, using HELM's own scenario code.

Usage: python build-answer-key.py OUT.json ENTRY [ENTRY ...]
ENTRY is a HELM run entry without `model=` (e.g. `synthetic_reasoning:mode=pattern_match`).

Run it with the Python of the pinned HELM venv: the instances are then exactly the ones helm-run
builds (same code, same seeds), so the server can recognise every prompt.
"""
import json
import sys
import tempfile

from helm.benchmark.config_registry import register_builtin_configs_from_helm_package
from helm.benchmark.presentation.run_entry import RunEntry
from helm.benchmark.run import run_entries_to_run_specs
from helm.benchmark.scenarios.scenario import CORRECT_TAG, create_scenario, get_scenario_cache_path, with_instance_ids


def scenarios_for(entry: str, scratch: str):
    """One key section per run spec: the prompt format (to tell scenarios apart) and the instances."""
    register_builtin_configs_from_helm_package()
    description = f"{entry},model=simple/model1" if ":" in entry else f"{entry}:model=simple/model1"
    run_specs = run_entries_to_run_specs([RunEntry(description=description, priority=1, groups=None)])
    for run_spec in run_specs:
        scenario = create_scenario(run_spec.scenario_spec)
        instances = with_instance_ids(scenario.get_instances(get_scenario_cache_path(scratch, scenario.name)))
        adapter = run_spec.adapter_spec
        key_instances = []
        for instance in instances:
            correct = [i for i, reference in enumerate(instance.references) if CORRECT_TAG in reference.tags]
            if not correct:
                continue
            key_instances.append(
                {
                    "input": instance.input.text,
                    "references": [reference.output.text for reference in instance.references],
                    "correct": correct[0],
                    "split": instance.split,
                }
            )
        yield {
            "entry": entry,
            "method": adapter.method,
            "instructions": adapter.instructions,
            "input_prefix": adapter.input_prefix,
            "input_suffix": adapter.input_suffix,
            "instances": key_instances,
        }


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit("usage: build-answer-key.py OUT.json ENTRY [ENTRY ...]")
    out, entries = sys.argv[1], sys.argv[2:]
    with tempfile.TemporaryDirectory() as scratch:
        scenarios = [section for entry in entries for section in scenarios_for(entry, scratch)]
    with open(out, "w", encoding="utf-8") as handle:
        json.dump({"entries": entries, "scenarios": scenarios}, handle)
    count = sum(len(section["instances"]) for section in scenarios)
    print(f"answer key: {count} instances from {len(entries)} entries -> {out}")


if __name__ == "__main__":
    main()
