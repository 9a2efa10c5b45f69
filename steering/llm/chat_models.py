"""From a model string to a LangChain chat model; the API key only ever lives in memory."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mam_bench.errors import ConfigError
from mam_bench.secrets import ENV_NAME, remember
from mam_bench.steering.llm.options import LLMOptions
from mam_bench.steering.llm.strict_schema import strict_schema

if TYPE_CHECKING:  # LangChain is imported only when a model is built
    from langchain_core.language_models.chat_models import BaseChatModel


def api_key_from_env(options: LLMOptions) -> str | None:
    if not options.api_key_env:
        return None
    key = os.environ.get(options.api_key_env)
    if not key:
        if ENV_NAME.fullmatch(options.api_key_env):
            raise ConfigError("api_key_env", f"environment variable {options.api_key_env} is not set")
        # never echo the name: a user who passed the key itself instead of its name would see it printed
        raise ConfigError(
            "api_key_env",
            "the environment variable it names is not set (give the NAME of the variable "
            "that holds the key, never the key itself)",
        )
    remember(key)  # scrubbed from a verifier's output and errors, whatever the variable's name
    return key


#: the prefixes this builder handles itself (`local:`, our llama.cpp model) and the test doubles' (`fake:`)
OWN_PROVIDERS = frozenset({"local", "fake"})


def providers() -> frozenset[str] | None:
    """The providers a "provider:model" text may name (entry point `mam_bench.model_providers`):
    ours and those `init_chat_model` knows, read from LangChain itself; None when LangChain or its
    provider table is not there (any provider then passes; building the model checks it)."""
    try:
        from langchain.chat_models import base
    except ImportError:
        return None
    known = getattr(base, "_BUILTIN_PROVIDERS", None) or getattr(base, "_SUPPORTED_PROVIDERS", None)
    return OWN_PROVIDERS | frozenset(known) if known else None


def chat_model_for(model: str, api_key_env: str | None = None, temperature: float = 0.0) -> BaseChatModel:
    """The registered chat-model builder (entry point `mam_bench.chat_models`): a world-side
    judge of the outcome gets its model here, built as the LLM controller builds its own."""
    options = LLMOptions(model=model, api_key_env=api_key_env, temperature=temperature)
    return build_chat_model(options, api_key_from_env(options))


def build_own_model(options: LLMOptions, api_key: str | None) -> tuple[BaseChatModel, Any]:
    """The controller's model and, for OpenAI-protocol endpoints, its own HTTP client (to close):
    the shared default client is bound to the first event loop."""
    if not (options.model.startswith("openai:") or options.base_url):
        return build_chat_model(options, api_key), None
    import httpx

    local = bool(options.base_url) and any(h in options.base_url for h in ("127.0.0.1", "localhost"))
    http = httpx.AsyncClient(
        timeout=options.call_timeout,
        trust_env=not local,
        limits=httpx.Limits(max_connections=max(16, 2 * options.max_concurrency)),
    )
    return build_chat_model(options, api_key, http_async_client=http), http


def build_chat_model(options: LLMOptions, api_key: str | None, http_async_client: Any = None) -> BaseChatModel:
    """`local:NAME` -> our llama.cpp model; anything else -> `init_chat_model(PROVIDER:MODEL)`.

    With `--base-url` the endpoint speaks the OpenAI protocol whatever the provider prefix says
    (OpenRouter, vLLM, Ollama, LM Studio), so the model goes through `openai:`.
    """
    provider, _, name = options.model.partition(":")
    if provider == "fake":
        raise ConfigError(
            "model",
            f"{options.model!r}: `fake:` names a test double, filled only by a chat model passed from Python "
            "(LLMController(..., chat_model=MODEL)); from the command line give your own model as "
            "--model MODULE:FACTORY or FILE.py:FACTORY (docs/reference/custom-models.md)",
        )
    factory = own_factory(options.model)
    if factory is not None:
        return factory_model(options.model, factory)
    if provider == "local":
        from mam_bench.steering.llm.local_model import LocalChatModel

        kw: dict[str, Any] = {"model_name": name or "gemma3-270m"}
        if options.temperature is not None:
            kw["temperature"] = options.temperature
        if options.top_p is not None:
            kw["top_p"] = options.top_p
        kw["max_tokens"] = options.answer_cap
        return LocalChatModel(**kw)
    from langchain.chat_models import init_chat_model

    kw: dict[str, Any] = {"timeout": options.call_timeout, "max_retries": 0}  # our transport layer retries
    if http_async_client is not None:
        kw["http_async_client"] = http_async_client
    if options.temperature is not None:
        kw["temperature"] = options.temperature
    if options.top_p is not None:
        kw["top_p"] = options.top_p
    kw["max_tokens"] = options.answer_cap  # never uncapped: one runaway answer once spent 7,724 tokens
    if options.base_url:
        kw["base_url"] = options.base_url
        # langchain-openai sends the cap as max_completion_tokens, which llama_cpp.server ignores
        # (a capped call once ran past 300 s): OpenAI-compatible servers get max_tokens beside it
        kw["extra_body"] = {"max_tokens": options.answer_cap}
        # a custom endpoint gets a key only when --api-key-env names one: never OPENAI_API_KEY by default
        kw["api_key"] = api_key if api_key is not None else "no-key"
    elif api_key is not None:
        kw["api_key"] = api_key
    model_id = options.model if ":" in options.model else f"openai:{options.model}"
    if options.base_url:
        model_id = "openai:" + model_id.split(":", 1)[1]
    try:
        model = init_chat_model(model_id, **kw)
    except Exception as exc:  # noqa: BLE001 - ValueError, ImportError, the SDK's own (a missing key)
        text = str(exc)
        if api_key:
            text = text.replace(api_key, "[key]")
        raise ConfigError("model", f"cannot build chat model {options.model!r}: {type(exc).__name__}: {text}") from None
    return freeze_invocation_params(model)


def own_factory(model: str) -> Any:
    """`FILE.py:FACTORY` or `MODULE:FACTORY` (a module that is no provider's name): the factory
    function, imported; None for a provider's "provider:model". A file or a module that cannot
    be read, or a missing factory, is a ConfigError (never a guess)."""
    import importlib
    import importlib.util

    where, _, name = model.partition(":")
    if where.endswith(".py"):
        path = Path(where).expanduser()
        if not path.is_file():
            raise ConfigError("model", f"{where} is not a file (FILE.py:FACTORY)")
        spec = importlib.util.spec_from_file_location(f"mam_bench_user_model_{path.stem}", path)
        if spec is None or spec.loader is None:
            raise ConfigError("model", f"cannot import {where}")
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception as exc:  # noqa: BLE001 - the user's file may raise anything at import
            raise ConfigError("model", f"importing {where} failed: {type(exc).__name__}: {str(exc)[:300]}") from None
    else:
        known = providers() or frozenset()
        if where in known or not all(part.isidentifier() for part in where.split(".")) or not name.isidentifier():
            return None
        try:
            found = importlib.util.find_spec(where)
        except (ImportError, ValueError):
            found = None
        if found is None:
            return None
        try:
            module = importlib.import_module(where)
        except Exception as exc:  # noqa: BLE001
            raise ConfigError("model", f"importing {where} failed: {type(exc).__name__}: {str(exc)[:300]}") from None
    factory = getattr(module, name, None)
    if not callable(factory):
        raise ConfigError("model", f"{where} has no function {name!r} (MODULE:FACTORY)")
    return factory


def factory_model(model: str, factory: Any) -> BaseChatModel:
    """What the user's factory returns, called with no arguments: a LangChain chat model."""
    from langchain_core.language_models.chat_models import BaseChatModel

    try:
        built = factory()
    except Exception as exc:  # noqa: BLE001
        raise ConfigError("model", f"{model} raised {type(exc).__name__}: {str(exc)[:300]}") from None
    if not isinstance(built, BaseChatModel):
        raise ConfigError("model", f"{model} returned a {type(built).__name__}, not a LangChain chat model")
    return built


def freeze_invocation_params(model: BaseChatModel) -> BaseChatModel:
    """Compute the model's parameter dict once instead of on every call.

    LangChain rebuilds it per call for callbacks (about 2.5 ms for ChatOpenAI, all on the event
    loop), which serialises 16 concurrent agents by ~40 ms per phase; it never changes for one
    model object, so a copy of the first result is returned from then on.
    """
    compat = getattr(model, "_dict_for_compat", None)
    if compat is None:
        return model
    frozen = dict(compat())
    object.__setattr__(model, "_dict_for_compat", lambda: dict(frozen))
    return model


#: the structured-output modes `auto` tries, in order, on endpoints that refuse the one before
FALLBACK = {"json_schema": "json_object_schema", "json_object_schema": "json_object", "json_object": "none"}


def takes_seed(model: BaseChatModel) -> bool:
    """Whether a per-call `seed` reaches the sampler: llama.cpp's, and OpenAI's API (and servers
    that speak it); other providers' clients refuse an unknown argument."""
    from mam_bench.steering.llm.local_model import LocalChatModel

    if isinstance(model, LocalChatModel):
        return True
    try:
        from langchain_openai import ChatOpenAI
    except ImportError:  # pragma: no cover
        return False
    return isinstance(model, ChatOpenAI)


def openai_itself(model: Any) -> bool:
    """OpenAI's own API (no other base URL): the one endpoint known to honour strict schemas. Any
    other OpenAI-compatible server gets the full schema (with its string lengths), not strict."""
    base = getattr(model, "openai_api_base", None)
    return not base or "api.openai.com" in str(base)


def structured(model: BaseChatModel, schema: dict[str, Any] | None, mode: str = "json_schema") -> Any:
    """Ask the provider for schema-shaped JSON (`json_schema`; `json_object_schema`, llama-cpp-python's
    form), any JSON (`json_object`) or plain text (`none`) where we know how; the text is parsed
    by us anyway."""
    if schema is None or mode == "none":
        return model
    from mam_bench.steering.llm.local_model import LocalChatModel

    if isinstance(model, LocalChatModel):
        return model.bind(json_schema=schema)
    try:
        from langchain_openai import ChatOpenAI
    except ImportError:  # pragma: no cover
        ChatOpenAI = None  # type: ignore[assignment]
    if ChatOpenAI is not None and isinstance(model, ChatOpenAI):
        # sent as extra_body: the same bytes on the wire, but neither the OpenAI SDK (which walks
        # a typed response_format recursively on every call) nor LangChain (which then tries to
        # parse the answer itself) spends time on it; our parser reads the answer anyway
        strict = strict_schema(schema) if openai_itself(model) else None
        formats = {
            "json_schema": {
                "type": "json_schema",
                "json_schema": {"name": "answer", "schema": strict or schema, "strict": strict is not None},
            },
            "json_object_schema": {"type": "json_object", "schema": schema},
            "json_object": {"type": "json_object"},
        }
        # a bound extra_body replaces the model's own (max_tokens, above), so both are sent
        return model.bind(extra_body={**(model.extra_body or {}), "response_format": formats[mode]})
    return model
