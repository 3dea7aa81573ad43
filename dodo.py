"""The doit task graph of this content repository: hookmsg's own (`hookmsg.taskgraph`)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "scripts"))  # a checkout before install
from hookmsg.taskgraph import *  # noqa: F403
