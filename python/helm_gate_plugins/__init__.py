"""HELM clients that helm-gate names in the model_deployments.yaml it generates.

Loaded by HELM's `create_object` through `class_name: helm_gate_plugins.clients.<Class>`; the
runner puts this package's parent directory on PYTHONPATH of the helm-run process.
"""
