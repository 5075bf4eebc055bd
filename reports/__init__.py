"""Compliance reports (docs/rules.md §8-§10): one module per report, shared CSV/PDF writers.

A report module turns normalised parameters into a ``Document`` (a header and sections
whose rows are generators streamed from the database); ``writers`` turn a document into
bytes; ``services`` run a ``ReportRequest`` and store the file with its checksum.
"""
