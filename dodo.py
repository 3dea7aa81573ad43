"""The doit task graph of this content repository: hookmsg's own (`hookmsg.cli.taskgraph`)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "scripts"))  # a checkout before install
from hookmsg.cli.taskgraph import *  # noqa: F403
