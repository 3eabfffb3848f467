"""The probe29 checks share probe28's `use_tree` and `verify` (probe28/_check/_util.py), which
find the trees beside the folder of the check being run."""
import importlib.util
import os

_SHARED = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "probe28", "_check", "_util.py"
)
_spec = importlib.util.spec_from_file_location("probe28_check_util", _SHARED)
_shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_shared)

use_tree, verify = _shared.use_tree, _shared.verify
