"""The metric names each run entry's metrics declare, without running its scenario.

helm-gate asks this before spending anything (docs/helm.md "Metric names before the run"), so a
gate file gating `exact_mach` is refused by `plan` and at the start of `run` with "did you mean",
instead of after every helm-run finished.

    python -m helm_gate_plugins.metric_names --local-path PROD_ENV ENTRY...

Each entry (as helm-run gets it, `model=` included) becomes HELM's own run specs
(`run_entries_to_run_specs`, the function helm-run calls), with the prod_env folder's model
registered as helm-run registers it. Each run spec's metric specs are instantiated and asked for
`get_metadata()`: the names they declare. A metric class that declares nothing (HELM's base
raises NotImplementedError) is listed in `undeclared`: its names cannot be checked. Prints one
JSON document: {"entries": [{"entry", "run_specs": [{"name", "num_outputs", "declared",
"undeclared"}]} or {"entry", "error"}]}.
"""
import argparse
import contextlib
import json
import sys

# HELM's reference metrics (evaluate_reference_metrics.compute_reference_metrics) always add
# `max_prob` beside the names asked for, but BasicGenerationMetric.get_metadata does not list it
# (HELM 0.5.16). Observed on every real generation run of the offline scenarios.
_EMITTED_UNDECLARED = {"helm.benchmark.metrics.basic_metrics.BasicGenerationMetric": ["max_prob"]}


def _run_spec_names(run_spec):
    from helm.benchmark.metrics.metric import create_metric

    declared = set()
    undeclared = []
    for metric_spec in run_spec.metric_specs:
        metric = create_metric(metric_spec)
        try:
            metadata = metric.get_metadata()
        except NotImplementedError:
            undeclared.append(metric_spec.class_name)
            continue
        declared.update(item.name for item in metadata)
        declared.update(_EMITTED_UNDECLARED.get(metric_spec.class_name, []))
    return {
        "name": run_spec.name,
        "num_outputs": run_spec.adapter_spec.num_outputs,
        "declared": sorted(declared),
        "undeclared": undeclared,
    }


def _entry_names(entry):
    from helm.benchmark.presentation.run_entry import RunEntry
    from helm.benchmark.run import run_entries_to_run_specs

    try:
        run_specs = run_entries_to_run_specs([RunEntry(description=entry, priority=1, groups=None)])
        return {"entry": entry, "run_specs": [_run_spec_names(run_spec) for run_spec in run_specs]}
    except Exception as error:  # noqa: BLE001 - any failure is this entry's answer, reported by name
        return {"entry": entry, "error": f"{type(error).__name__}: {error}"}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="helm_gate_plugins.metric_names")
    parser.add_argument("--local-path", required=True, help="the prod_env folder helm-run would get")
    parser.add_argument("entries", nargs="+")
    args = parser.parse_args(argv)
    # HELM logs to standard output while it registers and builds: the JSON is the only thing
    # helm-gate reads, so everything else goes to standard error.
    with contextlib.redirect_stdout(sys.stderr):
        from helm.benchmark.config_registry import register_builtin_configs_from_helm_package, register_configs_from_directory

        register_builtin_configs_from_helm_package()
        register_configs_from_directory(args.local_path)
        result = {"entries": [_entry_names(entry) for entry in args.entries]}
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
