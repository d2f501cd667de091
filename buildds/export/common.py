"""Helpers shared by the dataset exporters (JBE-QA, LegalRikai, AR-Bench): optional imports,
deterministic parquet, atomic swap of output folders, the sandboxed card environment.
"""

from __future__ import annotations

import json
import os  # noqa: F401 - tests/export/test_hf.py patches common.os.replace (the staging swap)
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from jinja2 import PackageLoader, StrictUndefined
from jinja2.sandbox import SandboxedEnvironment

from buildds import __version__
from buildds.errors import ExportError, MissingDependency
from buildds.export.data_fingerprint import data_fingerprint, fingerprint_of_files
from buildds.export.split_parts import split_pattern
from buildds.safeio.hashing import sha256_bytes, sha256_file
from buildds.staging import OutputStaging


@dataclass(frozen=True, kw_only=True)
class ExportedDataset:
    """What an exporter wrote under ``out``: dataset/, data/<split>.parquet, README.md."""

    out: Path
    fingerprint: str
    seed: int
    #: rows per split
    splits: dict[str, int]
    #: the ``_fingerprint`` written into each split's state.json
    split_fingerprints: dict[str, str]
    #: every written file (path relative to ``out``) → sha256, sorted by path
    files: dict[str, str] = field(default_factory=dict)

    @property
    def dataset_dir(self) -> Path:
        return self.out / "dataset"

    @property
    def data_fingerprint(self) -> str:
        """The export's data fingerprint (:mod:`buildds.export.data_fingerprint`): the one
        its card, the build's report, ``buildds validate`` and the eval's dataset key show."""
        return fingerprint_of_files(self.files)

    @property
    def card(self) -> Path:
        return self.out / "README.md"

    def parquet(self, split: str) -> Path:
        return self.out / "data" / f"{split}.parquet"

__all__ = [
    "PARQUET_OPTIONS",
    "ExportedDataset",
    "card_environment",
    "check_unique_ids",
    "dataset_dict",
    "export_inputs",
    "feature_kind",
    "feature_rows",
    "features_yaml",
    "hub_front_matter",
    "json_block",
    "parquet_batches",
    "quiet_datasets",
    "render_card",
    "require_data",
    "size_category",
    "split_fingerprint",
    "write_export",
    "write_parquet",
]

def require_data() -> tuple[Any, Any, Any]:
    try:
        import datasets
        import pyarrow
        import pyarrow.parquet
    except ImportError as exc:  # pragma: no cover - core dependencies
        raise MissingDependency("datasets/pyarrow", core=True, hint=str(exc)) from exc
    return datasets, pyarrow, pyarrow.parquet

@contextmanager
def quiet_datasets(datasets: Any) -> Iterator[None]:
    was_disabled = datasets.are_progress_bars_disabled()
    datasets.disable_progress_bars()
    try:
        yield
    finally:
        if not was_disabled:
            datasets.enable_progress_bars()

def _md(value: object) -> str:
    """A value safe inside a Markdown table cell."""
    return " ".join(str(value).split()).replace("|", "\\|")


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "–"


def card_environment() -> SandboxedEnvironment:
    """The jinja2 environment for dataset cards: sandboxed, no autoescape (Markdown),
    undefined names are errors."""
    env = SandboxedEnvironment(
        loader=PackageLoader("buildds.export", "cards"),
        autoescape=False,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["md"] = _md
    env.filters["pct"] = _pct
    return env


def render_card(context: dict[str, Any], template: str) -> str:
    return card_environment().get_template(template).render(**context)


def size_category(n: int) -> str:
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K")):
        if n < limit:
            return name
    return "100K<n<1M"


def export_inputs(provenance: dict[str, Any]) -> list[dict[str, str]]:
    raw = provenance.get("inputs") or []
    if isinstance(raw, dict):
        rows = [{"path": str(k), "sha256": str(v)} for k, v in raw.items()]
    else:
        rows = [{"path": str(r.get("path", "")), "sha256": str(r.get("sha256", ""))}
                if isinstance(r, dict) else {"path": str(r), "sha256": ""} for r in raw]
    return sorted(rows, key=lambda r: r["path"])


def json_block(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, indent=2, default=str)

def check_unique_ids(ids: Iterable[str], *, what: str = "item") -> None:
    """:class:`ExportError` naming the first five ids that occur more than once."""
    dupes = sorted(i for i, n in Counter(ids).items() if n > 1)
    if dupes:
        raise ExportError(f"duplicate {what} ids: {', '.join(dupes[:5])}")


def split_fingerprint(tag: str, fingerprint: str, split: str, seed: int,
                      cols: dict[str, list[Any]]) -> str:
    """A split's ``_fingerprint``: from the exporter's ``tag``, the caller's build
    ``fingerprint``, the split name, the seed and the split's content (never random)."""
    content = sha256_bytes(json.dumps(cols, ensure_ascii=False, sort_keys=True).encode("utf-8"))
    return sha256_bytes(f"{tag}\n{fingerprint}\n{split}\n{seed}\n{content}".encode())[:16]


def dataset_dict(split_cols: dict[str, dict[str, list[Any]]], features: Any, *, tag: str,
                 title: str, fingerprint: str, seed: int, where: str = "",
                 **info: Any) -> tuple[Any, dict[str, str]]:
    """A ``DatasetDict`` of one ``Dataset`` per split (columns → arrow table with the declared
    ``features``), each with its :func:`split_fingerprint`; and those fingerprints.

    ``info`` goes to each split's ``DatasetInfo`` (``citation``, ``license``) beside a
    description naming ``title`` and ``fingerprint``. Rows that do not fit the features are
    an :class:`ExportError` (``where`` prefixes its message)."""
    datasets, pa, _ = require_data()
    dsets, split_fps = {}, {}
    for split, cols in split_cols.items():
        split_fps[split] = split_fingerprint(tag, fingerprint, split, seed, cols)
        try:
            table = pa.Table.from_pydict(cols, schema=features.arrow_schema)
        except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
            raise ExportError(f"{where}split {split}: rows do not fit the features ({exc})") from exc
        ds_info = datasets.DatasetInfo(
            description=f"{title} built by buildds {__version__} (build fingerprint "
                        f"{fingerprint})", features=features, **info)
        dsets[split] = datasets.Dataset(table, info=ds_info, split=datasets.NamedSplit(split),
                                        fingerprint=split_fps[split])
    return datasets.DatasetDict(dsets), split_fps


#: every writer option that changes a parquet file's bytes, pinned (parquet carries no
#: timestamps; ``created_by`` names the pyarrow version, so the bytes are identical for the
#: same pyarrow)
PARQUET_OPTIONS: dict[str, Any] = {"compression": "snappy", "use_dictionary": True,
                                   "write_statistics": True, "version": "2.6",
                                   "data_page_version": "1.0", "store_schema": True}


def write_parquet(pq: Any, table: Any, path: Path) -> None:
    pq.write_table(table, str(path), **PARQUET_OPTIONS, row_group_size=max(1, table.num_rows))


def parquet_batches(path: str | Path, *, batch_size: int, columns: list[str] | None = None
                    ) -> Iterator[Any]:
    """The record batches of a parquet file, read through a 64 KiB buffer without read-ahead
    (``pre_buffer``) or threads: one batch and one row group's pages held, whatever the
    file's size (a merge holds a reader per file: ~0.6 MB each, ~1.7 MB with the defaults)."""
    _, _, pq = require_data()
    with pq.ParquetFile(str(path), buffer_size=1 << 16, pre_buffer=False) as file:
        yield from file.iter_batches(batch_size=batch_size, columns=columns, use_threads=False)


def write_export(dd: Any, *, out: Path, splits: Sequence[str],
                 card: Callable[[dict[str, dict[str, int]], str], str], what: str,
                 staging: OutputStaging | None = None,
                 extra_files: Mapping[str, str] | None = None,
                 write_data: Callable[[Path, Path], dict[str, dict[str, int]]] | None = None,
                 ) -> dict[str, str]:
    """Write a ``DatasetDict`` as ``out/dataset`` (save_to_disk, one shard per split),
    ``out/data/<split>.parquet`` and ``out/README.md`` — ``card(sizes, data_fp)`` renders
    the card from each split's ``num_examples``/``num_bytes``/``download_size`` and the
    data files' fingerprint (:func:`buildds.export.data_fingerprint.data_fingerprint`).

    Everything is written into a staging folder inside ``out`` (:mod:`buildds.staging`) and
    swapped in only when complete, so a failed or killed export leaves the previous one
    intact. With ``staging`` (the run's own), the three are staged there and swapped in with
    the run's other outputs when the run commits; without, they are swapped in here.
    ``extra_files`` (path relative to ``out`` → text, e.g. the peers' task files
    ``inspect/jbe.py``, ``lm_eval/jbe.yaml``) are staged the same way, each top folder as
    a whole. ``write_data(dataset_dir, data_dir)`` (``dd`` None): writes both folders itself
    and returns the sizes (a streamed export, :mod:`buildds.export.arbench_stream`).
    Failures become :class:`ExportError` naming ``what`` and the path (the staging folder is
    discarded). Returns every written file (relative path → sha256), sorted by path."""

    datasets, _, pq = require_data()
    own = staging is None
    stage = OutputStaging(out) if staging is None else staging
    try:
        dataset_dir, data_dir, readme = (stage.tree(n) for n in ("dataset", "data", "README.md"))
        if write_data is not None:
            sizes = write_data(dataset_dir, data_dir)
        else:
            with quiet_datasets(datasets):
                dd.save_to_disk(str(dataset_dir), num_shards={s: 1 for s in splits})
            data_dir.mkdir()
            for split in splits:
                write_parquet(pq, dd[split].data.table, data_dir / f"{split}.parquet")
            sizes = {s: {"num_examples": dd[s].num_rows, "num_bytes": dd[s].data.nbytes,
                         "download_size": (data_dir / f"{s}.parquet").stat().st_size}
                     for s in splits}
        readme.write_text(card(sizes, data_fingerprint(data_dir.parent) or ""),
                          encoding="utf-8")
        tops = [dataset_dir, data_dir, readme, *_write_extra(stage, extra_files or {})]
        files = {p.relative_to(stage.folder).as_posix(): sha256_file(p)
                 for top in tops
                 for p in sorted([top, *top.rglob("*")]) if p.is_file()}
        if own:
            stage.commit()
    except ExportError:
        stage.discard()
        raise
    except OSError as exc:
        where = stage.target_of(exc.filename) if exc.filename else out
        stage.discard()
        raise ExportError(f"cannot write the {what} export: {exc.strerror or exc}",
                          source=str(where)) from exc
    except Exception as exc:
        stage.discard()
        raise ExportError(f"could not write the {what} export: {exc}", source=str(out)) from exc
    except BaseException:
        stage.discard()
        raise
    finally:
        if own:
            stage.discard()
    return dict(sorted(files.items()))


def _write_extra(stage: OutputStaging, files: Mapping[str, str]) -> list[Path]:
    """Write ``files`` into the staging folder; their top folders (or files)."""
    tops: dict[str, Path] = {}
    for rel, text in sorted(files.items()):
        top = rel.split("/", 1)[0]
        if top not in tops:
            tops[top] = stage.tree(top)
        path = stage.folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(tops.values())


# --------------------------------------------------------------------------- card metadata
def _hub_type(feat: Any) -> Any:
    if isinstance(feat, dict):  # a struct: its fields, as the top level's
        return features_yaml(feat)
    inner = getattr(feat, "feature", None)
    if inner is not None:
        return {"list": _hub_type(inner)}
    names = getattr(feat, "names", None)
    if names is not None:
        return {"class_label": {"names": {str(i): n for i, n in enumerate(names)}}}
    return feat.dtype


def features_yaml(features: Any) -> list[dict[str, Any]]:
    """Features as the Hub's ``dataset_info.features`` YAML list (what
    ``Features._to_yaml_list`` writes): ``dtype: string``, ``list: string``,
    ``list: {class_label: …}``, ``dtype: {class_label: …}``, a list of structs as ``list:``
    its fields' rows."""
    rows: list[dict[str, Any]] = []
    for name, feat in features.items():
        inner = getattr(feat, "feature", None)
        if inner is not None:
            rows.append({"name": name, "list": _hub_type(inner)})
        else:
            rows.append({"name": name, "dtype": _hub_type(feat)})
    return rows


def feature_rows(features: Any, docs: dict[str, str]) -> list[dict[str, str]]:
    """The card's field table: name, :func:`feature_kind` and the ``docs`` line of each
    feature."""
    return [{"name": name, "type": feature_kind(feat), "about": docs.get(name, "")}
            for name, feat in features.items()]


def feature_kind(feat: Any) -> str:
    """A short human type for the card's field table: ``string``, ``list of string``,
    ``class label (12)``, ``list of struct (law_id, article)``."""
    if isinstance(feat, dict):
        return f"struct ({', '.join(feat)})"
    inner = getattr(feat, "feature", None)
    if inner is not None:
        return f"list of {feature_kind(inner)}"
    names = getattr(feat, "names", None)
    if names is not None:
        return f"class label ({len(names)})"
    return str(feat.dtype)


def hub_front_matter(meta: dict[str, Any], *, n: int, splits: Sequence[str],
                     sizes: dict[str, dict[str, int]], features: Any) -> str:
    """The card's YAML front matter: ``meta`` (pretty_name, language, license, tags …) then
    size category, the parquet configs (a split written as parts — its sizes'
    ``parquet_files`` — by their pattern, :mod:`buildds.export.split_parts`) and
    ``dataset_info`` with split sizes."""
    front = {
        **meta,
        "size_categories": [size_category(n)],
        "configs": [{"config_name": "default", "data_files": [
            {"split": s, "path": split_pattern(s, sizes[s].get("parquet_files", 1))}
            for s in splits]}],
        "dataset_info": {
            "features": features_yaml(features),
            "splits": [{"name": s, "num_bytes": sizes[s]["num_bytes"],
                        "num_examples": sizes[s]["num_examples"]} for s in splits],
            "download_size": sum(sizes[s]["download_size"] for s in splits),
            "dataset_size": sum(sizes[s]["num_bytes"] for s in splits),
        },
    }
    return yaml.safe_dump(front, allow_unicode=True, sort_keys=False,
                          default_flow_style=False, width=1000)
