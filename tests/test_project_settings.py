"""The project's settings: one typed object, validated once by the standard-library check."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hookmsg.errors import ConfigError
from hookmsg.project.defaults import DEFAULTS
from hookmsg.project.settings import Settings, load_project


def _project(tmp_path: Path, table: str) -> Path:
    (tmp_path / "pyproject.toml").write_text(f"[tool.hookmsg]\n{table}\n", encoding="utf-8")
    return tmp_path


def test_loading_the_settings_imports_no_second_validator(tmp_path: Path) -> None:
    # The check in `project.rules` is the one validation: reading the settings must not
    # pull in a schema library that would judge the same values again.
    root = _project(tmp_path, 'generated = "out"')
    code = (
        "import sys; from pathlib import Path; from hookmsg.project.settings import load_project; "
        f"load_project(Path({str(root)!r})); "
        "sys.exit('pydantic' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr or "pydantic was imported to read the settings"


def test_the_typed_settings_hold_the_checked_and_normalised_values(tmp_path: Path) -> None:
    root = _project(tmp_path, 'messages = "./notes/"\ngenerated = "out//gen"\ndelivered-cap = 7')
    settings = load_project(root).settings
    assert settings == Settings(messages="notes", generated="out/gen", delivered_cap=7)
    assert settings.licence_line == DEFAULTS["licence-line"]


@pytest.mark.parametrize(
    ("table", "says"),
    [
        ("delivered-cap = true", "K001 [tool.hookmsg] key 'delivered-cap': must be a whole number"),
        ('messages = "../x"', "K001 [tool.hookmsg] key 'messages': must be a relative path"),
        ('licence-line = " x"', "K001 [tool.hookmsg] key 'licence-line': must be one line"),
    ],
)
def test_a_bad_value_is_one_k001_on_its_line(tmp_path: Path, table: str, says: str) -> None:
    root = _project(tmp_path, table)
    with pytest.raises(ConfigError) as raised:
        load_project(root)
    assert str(raised.value).startswith(f"{root / 'pyproject.toml'}:2:1: {says}")
