"""`python -m auditor` behaves exactly like the `layout-audit` console script."""

from auditor.cli import entry

entry()
