"""A local Hugging Face model through ``transformers.pipeline("text-generation")``.

Only local folders: the tokenizer and the model are loaded with ``local_files_only=True``
(then handed to the pipeline, which takes that option differently across transformers
versions), so an evaluation never downloads weights. Generation runs in a worker thread,
one request at a time (a pipeline is not thread-safe); temperature 0 means greedy decoding.

``--scoring logprob`` (a request with ``choices``): each allowed answer is scored exactly —
the sum of the log-probabilities of its tokens after the chat-templated prompt (the
tokenizer's chat template with the generation prompt, as generation sees it) — and the
result's text is the most probable answer (:mod:`buildds.evaluate.logprob`).
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

from buildds.errors import ExtractError, MissingDependency
from buildds.evaluate.backends.base import BackendBase
from buildds.schema.evaluation import ChatRequest, ChatResult

__all__ = ["HFBackend"]


class HFBackend(BackendBase):
    cacheable = True
    concurrency = 1

    def __init__(self, path: str | Path, *, device: str | int | None = None):
        self.path = Path(path)
        self.name = f"hf:{self.path.name}"
        self.device = device
        if not self.path.exists():
            raise ExtractError("model folder not found", source=str(self.path))
        try:
            import transformers
        except ImportError:
            raise MissingDependency("transformers", "hf", hint="needed by hf: backends")
        self._lock = threading.Lock()
        tokenizer = transformers.AutoTokenizer.from_pretrained(str(self.path),
                                                               local_files_only=True)
        model = transformers.AutoModelForCausalLM.from_pretrained(str(self.path),
                                                                  local_files_only=True)
        self.pipe = transformers.pipeline("text-generation", model=model, tokenizer=tokenizer,
                                          device=device)

    @property
    def cache_namespace(self) -> str:
        return f"hf:{self.path.resolve()}"

    def settings(self) -> dict[str, Any]:
        return {"backend": "hf", "path": str(self.path), "device": self.device}

    def _generate(self, request: ChatRequest) -> str:
        messages = [m.model_dump() for m in request.messages]
        kwargs: dict[str, Any] = {"max_new_tokens": request.max_tokens or 1000}
        if request.temperature:
            kwargs.update(do_sample=True, temperature=request.temperature)
        else:
            kwargs.update(do_sample=False)
        kwargs.update(request.extra)
        with self._lock:
            out = self.pipe(messages, **kwargs)
        generated = out[0]["generated_text"]
        if isinstance(generated, list):  # chat input: the conversation with the new turn
            return str(generated[-1]["content"])
        return str(generated)

    def _prompt_ids(self, request: ChatRequest) -> list[int]:
        tokenizer: Any = self.pipe.tokenizer
        messages = [m.model_dump() for m in request.messages]
        if getattr(tokenizer, "chat_template", None):
            text = tokenizer.apply_chat_template(messages, tokenize=False,
                                                 add_generation_prompt=True)
            return list(tokenizer(text, add_special_tokens=False)["input_ids"])
        text = "\n".join(m["content"] for m in messages) + "\n"
        return list(tokenizer(text)["input_ids"])

    def _score_choices(self, request: ChatRequest) -> dict[str, float | None]:
        """Each choice's summed token log-probability after the prompt."""
        import torch

        tokenizer: Any = self.pipe.tokenizer
        model: Any = self.pipe.model
        prompt = self._prompt_ids(request)
        out: dict[str, float | None] = {}
        with self._lock, torch.no_grad():
            for choice in request.choices:
                answer = list(tokenizer(choice, add_special_tokens=False)["input_ids"])
                if not answer:
                    out[choice] = None
                    continue
                ids = torch.tensor([prompt + answer], device=model.device)
                logits = model(ids).logits[0, len(prompt) - 1:-1].float()
                logp = torch.log_softmax(logits, dim=-1)
                out[choice] = float(logp[torch.arange(len(answer)), answer].sum())
        return out

    async def complete(self, request: ChatRequest) -> ChatResult:
        started = time.monotonic()
        try:
            if request.choices:
                scores = await asyncio.to_thread(self._score_choices, request)
                best = max((c for c in request.choices if scores[c] is not None),
                           key=lambda c: scores[c] or 0.0, default=None)
                return ChatResult(text=best, choice_logprobs=scores,
                                  latency_s=time.monotonic() - started)
            text = await asyncio.to_thread(self._generate, request)
        except Exception as exc:  # noqa: BLE001 - one sample failing must not stop the run
            return ChatResult(text=None, error=f"generation failed: {type(exc).__name__}: {exc}")
        return ChatResult(text=text, latency_s=time.monotonic() - started)
