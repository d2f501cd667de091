"""PDF pages → lines with bounding boxes and font sizes, in reading order (pypdfium2).

Module: :mod:`.lines`.
"""
