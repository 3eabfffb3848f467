"""`python -m auditor` behaves exactly like the `layout-audit` console script."""

import sys

from auditor.cli import main

sys.exit(main())
