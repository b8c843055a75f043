"""OpenAI-compatible clients for crfm-helm 0.5.16 that a CI gate can rely on.

Why not HELM's own classes (see docs/helm.md "Clients and the plugin"):
* `VLLMClient` (completions) cannot be instantiated in 0.5.14-0.5.16: it passes `tokenizer=` on to
  `openai.OpenAI(...)`, which raises TypeError.
* `VLLMChatClient` hard-codes `api_key="EMPTY"`, so a server that needs a key cannot be reached.
* HELM retries every failed request 5 times with 10-80 s waits (~2.5 minutes per request) and
  ignores HELM_RETRIES in 0.5.16. A gate wants a dead server to fail in seconds, so transient
  errors are retried only by the OpenAI SDK (`max_retries`, `timeout` in the deployment args) and
  a request that still fails is reported as fatal and non-retriable: HELM then stops the run at
  once and helm-run exits 1.

The API key is read from the environment variable named by `api_key_env`, so it never has to be
written into a file.

* llama.cpp's `llama-server` answers `/v1/completions` with logprobs in the Chat Completions shape
  (`logprobs.content[{token, logprob, top_logprobs}]`), not the legacy one (`tokens`,
  `token_logprobs`); HELM zips the legacy lists and every request failed with "'NoneType' object
  is not iterable". The completions client rewrites that shape before HELM reads it.
"""
import os
from dataclasses import replace
from typing import Any, Callable, Dict, Optional

from helm.clients.openai_client import OpenAIClient
from helm.common.cache import CacheConfig
from helm.common.request import ErrorFlags, Request, RequestResult

NO_KEY = "EMPTY"


def api_key_from_environment(api_key_env: Optional[str]) -> str:
    if not api_key_env:
        return NO_KEY
    value = os.environ.get(api_key_env, "")
    if not value:
        raise ValueError(f"helm-gate: the environment variable {api_key_env} (api_key_env) is not set")
    return value


def fail_fast(make_request: Callable[[], RequestResult]) -> RequestResult:
    """Turns any failure into a fatal, non-retriable result so HELM's own retry loop is skipped."""
    try:
        result = make_request()
    except Exception as error:  # noqa: BLE001 - anything the client raises ends the run
        return RequestResult(
            success=False,
            cached=False,
            error=f"helm-gate client error: {type(error).__name__}: {error}",
            completions=[],
            embedding=[],
            error_flags=ErrorFlags(is_retriable=False, is_fatal=True),
        )
    if not result.success and result.error_flags is None:
        return replace(result, error_flags=ErrorFlags(is_retriable=False, is_fatal=True))
    return result


class _GateClient(OpenAIClient):
    """HELM's OpenAI client pointed at one server, with the key read from the environment."""

    def __init__(
        self,
        cache_config: CacheConfig,
        base_url: str,
        served_model_name: str,
        api_key_env: Optional[str] = None,
        **kwargs,
    ):
        super().__init__(
            cache_config=cache_config,
            api_key=api_key_from_environment(api_key_env),
            org_id=None,
            base_url=base_url,
            openai_model_name=served_model_name,
            **kwargs,
        )


class GateChatClient(_GateClient):
    """Chat Completions API (`POST {base_url}/chat/completions`)."""

    def make_request(self, request: Request) -> RequestResult:
        return fail_fast(lambda: OpenAIClient.make_request(self, request))


def legacy_completion_logprobs(response: Dict[str, Any]) -> Dict[str, Any]:
    """A completions response with every choice's logprobs in the legacy shape HELM reads.

    The legacy shape (`tokens`, `token_logprobs`, `top_logprobs`, `text_offset`) is kept as is.
    The Chat Completions shape (`content: [{token, logprob, top_logprobs: [{token, logprob}]}]`,
    llama.cpp's) is converted. A choice without logprobs gets empty lists: HELM then counts no
    per-token logprob, which the exact-match metrics do not use.
    """
    for choice in response.get("choices") or []:
        logprobs = choice.get("logprobs")
        if isinstance(logprobs, dict) and isinstance(logprobs.get("tokens"), list):
            continue
        content = logprobs.get("content") if isinstance(logprobs, dict) else None
        entries = [entry for entry in content or [] if isinstance(entry, dict)]
        choice["logprobs"] = {
            "tokens": [str(entry.get("token", "")) for entry in entries],
            "token_logprobs": [entry.get("logprob") for entry in entries],
            "top_logprobs": [
                {str(top.get("token", "")): top.get("logprob") for top in entry.get("top_logprobs") or [] if isinstance(top, dict)}
                for entry in entries
            ],
            "text_offset": None,
        }
    return response


class _Dumped:
    """What HELM calls on the SDK's answer (`.model_dump(mode="json")`), over a plain dict."""

    def __init__(self, data: Dict[str, Any]):
        self._data = data

    def model_dump(self, mode: str = "python") -> Dict[str, Any]:
        return self._data


class _LegacyLogprobsCompletions:
    def __init__(self, completions):
        self._completions = completions

    def create(self, **kwargs):
        return _Dumped(legacy_completion_logprobs(self._completions.create(**kwargs).model_dump(mode="json")))


class _LegacyLogprobsClient:
    """The OpenAI SDK client, with `completions.create` answering in the legacy logprobs shape."""

    def __init__(self, client):
        self._client = client
        self.completions = _LegacyLogprobsCompletions(client.completions)

    def __getattr__(self, name):
        return getattr(self._client, name)


class GateCompletionsClient(_GateClient):
    """Legacy Completions API (`POST {base_url}/completions`), with VLLMClient's best_of fix."""

    # The same named parameters as _GateClient: HELM fills in `cache_config` by reading the
    # signature, so it cannot be hidden behind *args.
    def __init__(
        self,
        cache_config: CacheConfig,
        base_url: str,
        served_model_name: str,
        api_key_env: Optional[str] = None,
        **kwargs,
    ):
        super().__init__(cache_config, base_url, served_model_name, api_key_env, **kwargs)
        self.client = _LegacyLogprobsClient(self.client)

    def _to_raw_completion_request(self, request: Request):
        raw_request = super()._to_raw_completion_request(request)
        # vLLM rejects best_of > 1 with greedy sampling; joint multiple choice sends best_of 5.
        if raw_request.get("temperature") == 0.0 and raw_request.get("best_of", 1) > 1:
            raw_request["best_of"] = 1
        return raw_request

    def make_request(self, request: Request) -> RequestResult:
        return fail_fast(lambda: self._make_completion_request(request))
