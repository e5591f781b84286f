"""The hall tests drive real hub and station processes with the network tests' helpers."""

from __future__ import annotations

import sys
from pathlib import Path

NET = Path(__file__).resolve().parent.parent / "net"
if str(NET) not in sys.path:
    sys.path.insert(0, str(NET))
