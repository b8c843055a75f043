"""Request marks for helm-gate's stall watch (docs/helm.md "A server that stops answering").

helm-gate passes `--plugins helm_gate_plugins.progress` to helm-run and an inherited pipe's file
descriptor in HELM_GATE_PROGRESS_FD. This module wraps HELM's `Executor.process`, the one place
every request of a run goes through whatever the client (helm-gate's plugin clients or a
prod_env's own), and writes one byte to that pipe when a request starts (`s`) and one when it
ends (`e`), successful or not. helm-gate counts them: requests waiting and none completed for the
stall limit means the server stopped answering, and helm-run is stopped.

One byte per write to a pipe is atomic, so the threads of HELM's executor need no lock. Without
the variable (helm-run started by hand) nothing is changed.
"""
import os

from helm.benchmark.executor import Executor

_FD_VARIABLE = "HELM_GATE_PROGRESS_FD"


def _marker(fd: int):
    def mark(byte: bytes) -> None:
        try:
            os.write(fd, byte)
        except OSError:
            # helm-gate went away: the marks are only ever advice.
            pass

    return mark


def install() -> bool:
    value = os.environ.get(_FD_VARIABLE, "")
    if not value.isdigit() or getattr(Executor.process, "_helm_gate_marks", False):
        return False
    mark = _marker(int(value))
    original = Executor.process

    def process(self, state):
        mark(b"s")
        try:
            return original(self, state)
        finally:
            mark(b"e")

    process._helm_gate_marks = True
    Executor.process = process
    return True


install()
