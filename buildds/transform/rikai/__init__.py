"""Clauses + annotations → LegalRikai-style items (seed 000): clause classification
(multi-label, ~500 labels) and clause revision (alert + guidelines → reference revision).

* :func:`view_blocks` gives a document's blocks in one view (``original`` = every tracked
  change rejected) so :func:`buildds.transform.clauses.split_clauses` cuts that view;
* :func:`clause_table` flattens (document, clauses) pairs into rows
  (:class:`~buildds.schema.contracts.ClauseRow`), one per clause, each with a stable ``id``
  and its provenance (file, page, block range);
* :func:`load_annotations` reads a CSV or JSONL annotation file;
* :func:`classification_items` / :func:`revision_items` join annotations to clauses on
  (``document_id``, clause ``number``) — or ``clause_id`` — and return the items
  (:class:`~buildds.schema.contracts.ClassificationItem`,
  :class:`~buildds.schema.contracts.RevisionItem`) together with every problem (unknown
  label, clause without labels, annotation without a clause, incomplete revision row):
  nothing is dropped silently;
* :func:`split_items` draws the ``evaluation`` and ``development`` splits, seeded;
  :func:`split_like` lays them out as a published dataset does (``legalrikai``: revision
  378/8, see :mod:`.splits`).

A ``document_id`` is ``<stem>-<8 hex>`` from the file's relative path and content
(``業務委託契約書-1a2b3c4d``), whatever else is in the batch (:mod:`.identity`). Annotations may
name a document by its id, relative path, file name or stem; a name two files share is
rejected (``ambiguous-document``) naming both.

The package: :mod:`.clause_table` (views, the clause rows), :mod:`.identity` (document ids,
what an annotation's document name means), :mod:`.spans` (items located in the document's
text), :mod:`.annotations` (reading annotation files), :mod:`.items` (annotations joined to
clauses), :mod:`.splits` (by share or a published layout).
The records it hands to :mod:`buildds.export.rikai` (clause rows, items) and the reject
record :class:`~buildds.schema.contracts.ItemProblem` live in the schema.
"""

from buildds.schema.contracts import ItemProblem
from buildds.transform.rikai.annotations import Annotation, load_annotations
from buildds.transform.rikai.clause_table import View, clause_input_text, clause_table, view_blocks
from buildds.transform.rikai.items import (
    LABELLED_KINDS,
    ItemsResult,
    classification_items,
    label_frequencies,
    revision_items,
)
from buildds.transform.rikai.splits import SPLIT_PRESETS, SPLITS, split_items, split_like

__all__ = [
    "LABELLED_KINDS",
    "SPLITS",
    "SPLIT_PRESETS",
    "Annotation",
    "ItemProblem",
    "ItemsResult",
    "View",
    "classification_items",
    "clause_input_text",
    "clause_table",
    "label_frequencies",
    "load_annotations",
    "revision_items",
    "split_items",
    "split_like",
    "view_blocks",
]
