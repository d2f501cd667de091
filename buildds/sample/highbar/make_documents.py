"""Write ``nda-review/documents/nda.docx``, the sample NDA, with python-docx.

The zip entries get a fixed date and the core properties fixed values, so running this
again gives the same bytes (a test checks the committed file against it).
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
NDA = HERE / "nda-review" / "documents" / "nda.docx"
FIXED = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)

TITLE = "MUTUAL NON-DISCLOSURE AGREEMENT"
PARTIES = ("This Agreement is made on 6 January 2025 between Acme Robotics Limited, a company "
           "registered in England and Wales (\"Acme\"), and Northgate Components Ltd, a company "
           "registered in England and Wales (\"Northgate\"). Each party may disclose "
           "Confidential Information (the \"Discloser\") to the other (the \"Recipient\").")
CLAUSES = (
    ("1. Purpose", ("The parties wish to evaluate a possible supply of actuator assemblies by "
     "Northgate to Acme (the \"Purpose\").")),
    ("2. Confidential Information", ("\"Confidential Information\" means all technical and "
     "commercial information disclosed by the Discloser to the Recipient in connection with "
     "the Purpose, in any form, including designs, source code, pricing and customer lists.")),
    ("3. Duration", ("The Recipient's obligations under this Agreement last for one (1) year "
     "from the date of each disclosure, after which they cease for all information, including "
     "trade secrets.")),
    ("4. Exceptions", ("The obligations do not apply to information that is or becomes public "
     "other than through the Recipient's breach, or that the Recipient already lawfully held.")),
    ("5. Residual knowledge", ("Nothing in this Agreement restricts the Recipient from using, "
     "for any purpose, any information retained in the unaided memory of its personnel who "
     "had access to Confidential Information.")),
    ("6. Permitted disclosure", ("The Recipient may disclose Confidential Information to its "
     "affiliates, professional advisers and any third party the Recipient reasonably "
     "considers necessary.")),
    ("7. Return of information", ("On request, the Recipient will consider in good faith "
     "whether to return Confidential Information.")),
    ("8. Liability", ("Each party's total liability for any breach of this Agreement is "
     "limited to one thousand pounds sterling (£1,000).")),
    ("9. Governing law and jurisdiction", ("This Agreement is governed by the laws of England "
     "and Wales. The courts of Singapore have exclusive jurisdiction over any dispute arising "
     "out of it.")),
)


def build() -> bytes:
    """The .docx bytes, deterministic."""
    from docx import Document

    doc = Document()
    props = doc.core_properties
    props.author = "buildds sample"
    props.last_modified_by = "buildds sample"
    props.created = props.modified = FIXED.replace(tzinfo=None)
    props.revision = 1
    doc.add_heading(TITLE, level=1)
    doc.add_paragraph(PARTIES)
    for heading, text in CLAUSES:
        doc.add_heading(heading, level=2)
        doc.add_paragraph(text)
    doc.add_paragraph("Signed for Acme Robotics Limited: ____________")
    doc.add_paragraph("Signed for Northgate Components Ltd: ____________")
    raw = io.BytesIO()
    doc.save(raw)
    return _fixed_zip(raw.getvalue())


def _fixed_zip(data: bytes) -> bytes:
    """The same zip with every entry dated 1980-01-01 (no build time in the bytes)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(1980, 1, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(fixed, src.read(info.filename))
    return out.getvalue()


def main() -> None:
    NDA.parent.mkdir(parents=True, exist_ok=True)
    NDA.write_bytes(build())
    print(f"wrote {NDA}")


if __name__ == "__main__":
    main()
