"""Offline baselines that really run: majority, seeded random, char n-gram TF-IDF.

A baseline learns from training items (``fit(train_items, label_field)``) and predicts a
label for one item (``predict(item)``). To the runner it is an ordinary backend: it answers
``request.sample_id`` by looking the item up in ``items_by_id`` (given at construction), so
scoring, parsing and reports are the same as for a model. Labels are written the way a
model is asked to answer: a bool as ``"1"``/``"0"``, a set of labels as ``"a,b"`` (sorted),
unless the task gives an ``answer_format`` (label value → answer text, e.g. clause
classification's ``**Legal Clauses:**`` list), so the task's own parser reads the answer.

Items are mappings or objects (pydantic records): ``label_field`` / ``text_field`` name the
key or attribute. A request with no known item is answered from its last user message
(tfidf) or its prompt hash (random); baselines are never cached (answers depend on the id).
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from buildds.errors import BuildError, MissingDependency
from buildds.evaluate.backends.base import BackendBase
from buildds.evaluate.backends.mock import last_user_message
from buildds.schema.evaluation import ChatRequest, ChatResult

__all__ = [
    "Baseline",
    "MajorityBackend",
    "OracleBackend",
    "RandomBackend",
    "TfidfBackend",
    "format_label",
    "item_field",
]


def item_field(item: Any, name: str) -> Any:
    if isinstance(item, Mapping):
        return item[name]
    return getattr(item, name)


def _is_multi(value: Any) -> bool:
    return isinstance(value, (list, tuple, set, frozenset))


def format_label(value: Any) -> str:
    """A label as a model would be asked to write it."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if _is_multi(value):
        return ",".join(sorted(format_label(v) for v in value))
    return str(value)


class Baseline(BackendBase):
    """Base class: ``fit`` then ``predict``; ``complete`` looks the item up by sample id."""

    cacheable = False

    def __init__(
        self,
        *,
        items_by_id: Mapping[str, Any] | None = None,
        train_items: Iterable[Any] | None = None,
        label_field: str = "answer",
        text_field: str | Callable[[Any], str] = "question",
        concurrency: int = 64,
        answer_format: Callable[[Any], str] | None = None,
    ):
        self.items_by_id: Mapping[str, Any] = items_by_id or {}
        self.label_field = label_field
        #: label value → answer text (default :func:`format_label`)
        self.answer_format = answer_format
        #: what a text model reads (tfidf); the others ignore it
        self.text_field = text_field
        self.concurrency = concurrency
        self.n_train = 0
        self.fitted = False
        if train_items is not None:
            self.fit(train_items, label_field)

    def settings(self) -> dict[str, Any]:
        return {"backend": self.name, "label_field": self.label_field, "n_train": self.n_train}

    def fit(self, train_items: Iterable[Any], label_field: str | None = None) -> Baseline:
        if label_field is not None:
            self.label_field = label_field
        items = list(train_items)
        if not items:
            raise BuildError(f"{self.name}: no training items to fit on")
        self.n_train = len(items)
        self._fit(items, [item_field(it, self.label_field) for it in items])
        self.fitted = True
        return self

    def _fit(self, items: list[Any], labels: list[Any]) -> None:  # pragma: no cover
        raise NotImplementedError

    def render(self, value: Any) -> str:
        """A predicted label as answer text: the task's ``answer_format``, else
        :func:`format_label`."""
        return self.answer_format(value) if self.answer_format else format_label(value)

    def predict(self, item: Any) -> str:  # pragma: no cover
        raise NotImplementedError

    def _item_for(self, request: ChatRequest) -> Any:
        if request.sample_id is not None:
            return self.items_by_id.get(request.sample_id)
        return None

    def _predict_request(self, request: ChatRequest) -> str:
        item = self._item_for(request)
        if item is None:
            raise LookupError
        return self.predict(item)

    async def complete(self, request: ChatRequest) -> ChatResult:
        if not self.fitted:
            raise BuildError(f"{self.name}: call fit(train_items, label_field) before evaluating")
        try:
            text = self._predict_request(request)
        except LookupError:
            return ChatResult(text=None, error=f"no item for sample id {request.sample_id!r}")
        return ChatResult(text=text, latency_s=0.0)


class MajorityBackend(Baseline):
    """The most common training label (for free-text tasks: the most common reference
    answer). Ties go to the smallest label, so the input order does not matter."""

    name = "majority"

    def _fit(self, items: list[Any], labels: list[Any]) -> None:
        counts = Counter(format_label(label) for label in labels)
        values = {format_label(label): label for label in labels}
        winner = min(counts, key=lambda label: (-counts[label], label))
        self.answer = self.render(values[winner])
        self.counts = dict(counts)

    def settings(self) -> dict[str, Any]:
        return {**super().settings(), "answer": getattr(self, "answer", None)}

    def predict(self, item: Any) -> str:
        return self.answer

    def _predict_request(self, request: ChatRequest) -> str:
        return self.answer


class RandomBackend(Baseline):
    """A label drawn uniformly from the training labels (default "0"/"1"), seeded per
    sample id, so the same seed gives the same answers in any order or concurrency."""

    def __init__(self, seed: int = 0, **options: Any):
        self.seed = seed
        self.name = f"random:{seed}"
        self.labels: list[str] = ["0", "1"]
        super().__init__(**options)
        self.fitted = True  # works without training labels: binary "0"/"1"

    def settings(self) -> dict[str, Any]:
        return {**super().settings(), "seed": self.seed, "labels": self.labels}

    def _fit(self, items: list[Any], labels: list[Any]) -> None:
        self.values = {format_label(label): label for label in labels}
        self.labels = sorted(self.values)

    def _draw(self, key: str) -> str:
        rng = random.Random(f"{self.seed}:{key}")
        choice = rng.choice(self.labels)
        return self.render(getattr(self, "values", {}).get(choice, choice))

    def predict(self, item: Any) -> str:
        key = item_field(item, "id") if _has(item, "id") else repr(item)
        return self._draw(str(key))

    def _predict_request(self, request: ChatRequest) -> str:
        if request.sample_id is not None:
            return self._draw(request.sample_id)
        prompt = "\n".join(m.content for m in request.messages)
        return self._draw(hashlib.sha256(prompt.encode()).hexdigest())


def _has(item: Any, name: str) -> bool:
    return name in item if isinstance(item, Mapping) else hasattr(item, name)


class TfidfBackend(Baseline):
    """Char n-gram TF-IDF (``char_wb``, 1–3) + logistic regression; one-vs-rest when the
    labels are sets (multi-label). With a single training class it predicts that class."""

    name = "tfidf"

    def __init__(self, **options: Any):
        try:
            import sklearn  # noqa: F401
        except ImportError:
            raise MissingDependency("scikit-learn", core=True, hint="needed by the tfidf baseline")
        super().__init__(**options)

    def settings(self) -> dict[str, Any]:
        field = self.text_field if isinstance(self.text_field, str) else "<function>"
        return {
            **super().settings(),
            "text_field": field,
            "features": "tfidf char_wb (1,3)",
            "classifier": "LogisticRegression",
        }

    def text_of(self, item: Any) -> str:
        if callable(self.text_field):
            return self.text_field(item)
        return str(item_field(item, self.text_field))

    def _fit(self, items: list[Any], labels: list[Any]) -> None:
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression
        from sklearn.multiclass import OneVsRestClassifier
        from sklearn.preprocessing import MultiLabelBinarizer

        texts = [self.text_of(it) for it in items]
        self.vectorizer = TfidfVectorizer(analyzer="char_wb", ngram_range=(1, 3))
        features = self.vectorizer.fit_transform(texts)
        self.multilabel = any(_is_multi(label) for label in labels)
        self.binarizer: MultiLabelBinarizer | None = None
        self.constant: str | None = None
        if self.multilabel:
            self.binarizer = MultiLabelBinarizer()
            targets = self.binarizer.fit_transform(
                [[format_label(v) for v in label] for label in labels]
            )
            self.model = OneVsRestClassifier(LogisticRegression(max_iter=1000))
            self.model.fit(features, targets)
            return
        targets_str = [format_label(label) for label in labels]
        if len(set(targets_str)) == 1:
            self.constant = self.render(labels[0])
            return
        self.model = LogisticRegression(max_iter=1000)
        self.model.fit(features, targets_str)

    def _predict_text(self, text: str) -> str:
        if self.constant is not None:
            return self.constant
        features = self.vectorizer.transform([text])
        if self.binarizer is not None:
            row = self.model.predict(features)
            return self.render(sorted(self.binarizer.inverse_transform(row)[0]))
        return self.render(str(self.model.predict(features)[0]))

    def predict(self, item: Any) -> str:
        return self._predict_text(self.text_of(item))

    def _predict_request(self, request: ChatRequest) -> str:
        item = self._item_for(request)
        if item is not None:
            return self.predict(item)
        return self._predict_text(last_user_message(request))


class OracleBackend(BackendBase):
    """Answers every item with its reference (``answer_of(item)``), looked up by sample id.

    Scored like a model, it gives the ceiling of a metric — for an LLM judge, how far the
    judge rates the reference itself (seed 000's "Oracle" row). Not cached: the answer
    depends on the sample id, not on the prompt."""

    name = "oracle"
    cacheable = False

    def __init__(self, *, answer_of: Callable[[Any], str] | None = None,
                 items_by_id: Mapping[str, Any] | None = None, concurrency: int = 64):
        if answer_of is None:
            raise BuildError("the oracle backend needs the task's reference answers "
                             "(use it through `buildds eval`)")
        self.answer_of = answer_of
        self.items_by_id: Mapping[str, Any] = items_by_id or {}
        self.concurrency = concurrency

    def settings(self) -> dict[str, Any]:
        return {"backend": "oracle", "answers": "the reference of each item"}

    async def complete(self, request: ChatRequest) -> ChatResult:
        item = self.items_by_id.get(request.sample_id or "")
        if item is None:
            return ChatResult(text=None, error=f"no item for sample id {request.sample_id!r}")
        return ChatResult(text=self.answer_of(item), latency_s=0.0)
