"""Dependency declarations of the manifests beyond npm, Python, Cargo, Go and Bundler.

Maven `pom.xml`, Gradle build scripts and version catalogues, sbt, NuGet project files and
`packages.config`, Composer, Pipenv, setuptools `setup.cfg` and `setup.py`, conda
`environment.yml`, Dart `pubspec.yaml`, gemspecs and Podfiles, Mix, SwiftPM `Package.swift`,
Deno, vcpkg and Conan. Each reader maps a manifest's text to `{key: (name, spec)}` like those
of `manifests`: one entry per declared dependency, never the project's own name or version,
so a release bump is not a dependency change. Read as plain text, never executed; every
reader is one pass over the text (block searches move forward with `str.find`).
"""

from __future__ import annotations

import json
import re

from hookmsg_dispatch.guards.manifests import Entries, _quoted, _requirement, _toml_tables

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from typing import Callable

# The longest piece of a manifest one declaration is looked for in (a `.package(...)` call).
_SPAN = 2000

# Version properties that name the platform or the project, not a dependency.
_PLATFORM_PROPERTIES = frozenset({"project.version", "revision", "java.version", "maven.version"})
_XML_TAG = re.compile(r"<(groupId|artifactId|version|scope|classifier|type)>([^<]*)</")


def _blocks(text: str, opener: str, closer: str) -> list[str]:
    """The text of each `opener ... closer` block, in order (a block left open is dropped)."""
    found: list[str] = []
    at = text.find(opener)
    while at >= 0:
        end = text.find(closer, at + len(opener))
        if end < 0:
            break
        found.append(text[at + len(opener) : end])
        at = text.find(opener, end + len(closer))
    return found


def maven(text: str) -> Entries:
    """`<dependency>` and `<parent>` coordinates, and version properties (`<x.version>`)."""
    found: Entries = {}
    for kind, opener, closer in (
        ("mvn", "<dependency>", "</dependency>"),
        ("parent", "<parent>", "</parent>"),
        ("plugin", "<plugin>", "</plugin>"),
    ):
        for whole in _blocks(text, opener, closer):
            # Its own coordinates only: not an exclusion's, not a plugin's dependencies'.
            block = whole.split("<exclusions>", 1)[0].split("<dependencies>", 1)[0]
            tags = {m.group(1): m.group(2).strip() for m in _XML_TAG.finditer(block)}
            name = f"{tags.get('groupId', '')}:{tags.get('artifactId', '')}"
            key = f"{kind}:{name}:{tags.get('classifier', '')}:{tags.get('type', '')}"
            found[key] = (name, " ".join(v for v in (tags.get("version"), tags.get("scope")) if v))
    for block in _blocks(text, "<properties>", "</properties>"):
        for match in re.finditer(r"<([\w.-]*[vV]ersion)>([^<]*)</", block):
            if match.group(1) not in _PLATFORM_PROPERTIES:
                found[f"property:{match.group(1)}"] = (match.group(1), match.group(2).strip())
    return found


# `implementation("g:a:v")`, `api 'g:a:v'`, `testImplementation(platform("g:a:v"))`,
# `implementation(libs.some.lib)`, `id("plugin") version "v"`, `classpath "g:a:v"`.
_GRADLE_CONFIG = re.compile(
    r"^\s*(\w*(?:[iI]mplementation|[aA]pi|[cC]ompileOnly|[rR]untimeOnly|[aA]nnotationProcessor"
    r"|kapt|ksp|classpath|compile|testCompile|detektPlugins|coreLibraryDesugaring))\b\s*\(?\s*"
    r"(?:(?:platform|enforcedPlatform|kotlin)\s*\(\s*)?(.*)$"
)
_GRADLE_NOTATION = re.compile(r"^[\"']([^\"'\s]+)[\"']|^(libs(?:\.\w+)+)|^group\s*[:=]")
_GRADLE_PLUGIN = re.compile(
    r"(?<![\w.])(?:id\s*\(?\s*[\"']([^\"']+)[\"']\s*\)?|kotlin\s*\(\s*[\"']([^\"']+)[\"']\s*\))\s*version\s*[\"']([^\"']+)"
)


def gradle(text: str) -> Entries:
    found: Entries = {}
    for raw in text.split("\n"):
        line = raw.split("//", 1)[0] if "://" not in raw else raw
        plugin = _GRADLE_PLUGIN.search(line)
        if plugin is not None:
            name = plugin.group(1) or plugin.group(2)
            found[f"plugin:{name}"] = (name, plugin.group(3))
            continue
        declared = _GRADLE_CONFIG.match(line)
        if declared is None:
            continue
        config, rest = declared.group(1), declared.group(2).strip()
        notation = _GRADLE_NOTATION.match(rest)
        if notation is None:
            continue
        if notation.group(1):
            parts = notation.group(1).split(":")
            name, spec = ":".join(parts[:2]), ":".join(parts[2:])
        elif notation.group(2):
            name, spec = notation.group(2), ""
        else:  # `group: 'g', name: 'a', version: 'v'`
            values = dict(re.findall(r"(group|name|version)\s*[:=]\s*[\"']([^\"']*)", rest))
            name, spec = (
                f"{values.get('group', '')}:{values.get('name', '')}",
                values.get("version", ""),
            )
        found[f"{config}:{name}"] = (name, spec)
    return found


def version_catalog(text: str) -> Entries:
    """A Gradle version catalogue (`libs.versions.toml`): versions, libraries, bundles, plugins."""
    found: Entries = {}
    for table, key, value in _toml_tables(text):
        if table in ("versions", "libraries", "bundles", "plugins"):
            found[f"{table}:{key}"] = (key, " ".join(value.split()))
    return found


_SBT = re.compile(r"[\"']([^\"']+)[\"']\s*%%?%?\s*[\"']([^\"']+)[\"']\s*%\s*(\"[^\"]*\"|[\w.]+)")


def sbt(text: str) -> Entries:
    return {
        f"sbt:{m.group(1)}:{m.group(2)}": (f"{m.group(1)}:{m.group(2)}", m.group(3).strip('"'))
        for m in _SBT.finditer(text)
    }


_NUGET = re.compile(r"<(PackageReference|PackageVersion|GlobalPackageReference|package)\s([^<>]*)>")
_ATTRIBUTE = re.compile(r"\b(Include|Update|id|Version|VersionOverride|version)\s*=\s*\"([^\"]*)\"")


def nuget(text: str) -> Entries:
    """`<PackageReference Include= Version=>` (a `<Version>` child too), `<PackageVersion>`
    in `Directory.Packages.props`, and `<package id= version=>` of `packages.config`."""
    found: Entries = {}
    for match in _NUGET.finditer(text):
        attributes = dict(_ATTRIBUTE.findall(match.group(2)))
        name = attributes.get("Include") or attributes.get("Update") or attributes.get("id")
        if not name:
            continue
        version = attributes.get("Version") or attributes.get("VersionOverride")
        version = version or attributes.get("version", "")
        if not version and not match.group(2).endswith("/"):
            child = text[match.end() : match.end() + _SPAN].split(f"</{match.group(1)}>", 1)[0]
            inner = re.search(r"<Version>([^<]*)</Version>", child)
            version = inner.group(1).strip() if inner else ""
        found[f"{match.group(1)}:{name.lower()}"] = (name, version)
    return found


def _json_object(text: str) -> dict[str, object]:
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    return data


def composer(text: str) -> Entries:
    data = _json_object(text)
    found: Entries = {}
    for section in ("require", "require-dev"):
        entries = data.get(section)
        if isinstance(entries, dict):
            for name, spec in entries.items():
                if name != "php":  # the platform, not a package
                    found[f"{section}:{name}"] = (name, str(spec))
    return found


def deno(text: str) -> Entries:
    data = _json_object(text)
    imports = data.get("imports")
    found: Entries = {}
    if isinstance(imports, dict):
        for name, target in imports.items():
            found[f"imports:{name}"] = (name, str(target))
    return found


def vcpkg(text: str) -> Entries:
    data = _json_object(text)
    found: Entries = {}
    for section in ("dependencies", "overrides"):
        items = data.get(section)
        for item in items if isinstance(items, list) else []:
            if isinstance(item, str):
                found[f"{section}:{item}"] = (item, "")
            elif isinstance(item, dict) and isinstance(item.get("name"), str):
                spec = {k: v for k, v in item.items() if k != "name"}
                found[f"{section}:{item['name']}"] = (
                    item["name"],
                    json.dumps(spec, sort_keys=True),
                )
    return found


def pipfile(text: str) -> Entries:
    """Pipfile: every table but `[source]`, `[requires]` and `[scripts]` lists packages."""
    found: Entries = {}
    for table, key, value in _toml_tables(text):
        if table and table not in ("source", "requires", "scripts", "pipenv"):
            found[f"{table}:{key.lower()}"] = (key, " ".join(value.split()))
    return found


_STRING = re.compile(r"\"([^\"\n]*)\"|'([^'\n]*)'")
_SETUP_KEYS = ("install_requires", "extras_require", "setup_requires", "tests_require")


def setup_cfg(text: str) -> Entries:
    """`install_requires` (and the other requirement keys) of `[options]`, and the extras."""
    found: Entries = {}
    section, key = "", ""
    for raw in text.split("\n"):
        line = raw.split(" #", 1)[0].rstrip()
        if line.startswith("["):
            section, key = line.strip("[] "), ""
            continue
        if not line.strip() or line.lstrip().startswith(("#", ";")):
            continue
        continued = raw[:1] in (" ", "\t")
        if not continued:
            name, _, value = line.partition("=")
            key = name.strip()
            line = value
        wanted = section == "options.extras_require" or (
            section == "options" and key in _SETUP_KEYS
        )
        if wanted and line.strip():
            _requirement(line.strip(), f"{section}.{key}", found)
    return found


def setup_py(text: str) -> Entries:
    """The quoted requirements of `install_requires=[...]` and the other keys of `setup()`."""
    found: Entries = {}
    for key in _SETUP_KEYS:
        at = text.find(key)
        while at >= 0:
            start = at + len(key)
            opening = re.match(r"\s*=\s*[\[{(]", text[start : start + 40])
            if opening is not None:
                body = _bracketed(text, start + opening.end() - 1)
                start += opening.end() - 1 + len(body)  # the next key after this list
                for item in _STRING.finditer(body):  # strings in order: a key is followed by `:`
                    if not body[item.end() : item.end() + 40].lstrip().startswith(":"):
                        _requirement(item.group(1) or item.group(2) or "", key, found)
            at = text.find(key, start)
    return found


def _bracketed(text: str, at: int) -> str:
    """The text from the bracket at `at` to its match (at most `_SPAN * 4` characters)."""
    depth = 0
    for index in range(at, min(len(text), at + _SPAN * 4)):
        char = text[index]
        if char in "[{(":
            depth += 1
        elif char in "]})":
            depth -= 1
            if depth == 0:
                return text[at : index + 1]
    return text[at : at + _SPAN * 4]


def _yaml_sections(text: str, wanted: tuple[str, ...]) -> list[tuple[str, str]]:
    """(section, line) for each line nested under a wanted top-level YAML key."""
    lines: list[tuple[str, str]] = []
    section = ""
    for raw in text.split("\n"):
        line = raw.split(" #", 1)[0].rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[:1] not in (" ", "\t", "-"):
            name = line.split(":", 1)[0].strip()
            section = name if name in wanted else ""
            continue
        if section:
            lines.append((section, line))
    return lines


def conda(text: str) -> Entries:
    """`dependencies:` of an `environment.yml`, with the nested `- pip:` list."""
    found: Entries = {}
    for section, line in _yaml_sections(text, ("dependencies",)):
        item = line.strip()
        if not item.startswith("- ") or item.replace(" ", "") == "-pip:":
            continue  # not a list item, or the head of the nested pip list
        spec = item[2:].strip().strip("\"'")
        name = re.split(r"[=<>!~ \[]", spec, maxsplit=1)[0]
        if name:
            found[f"{section}:{name.lower()}"] = (name, spec[len(name) :].strip())
    return found


def pubspec(text: str) -> Entries:
    """Dart/Flutter: the packages under `dependencies`, `dev_dependencies` and overrides."""
    found: Entries = {}
    sections = ("dependencies", "dev_dependencies", "dependency_overrides")
    current = ""
    for section, line in _yaml_sections(text, sections):
        indent = len(line) - len(line.lstrip())
        name, _, value = line.strip().partition(":")
        if indent <= 2:
            current = f"{section}:{name}"
            found[current] = (name, value.strip())
        elif current in found:  # a nested spec (`sdk: flutter`, `git: ...`, `version: ...`)
            shown, spec = found[current]
            found[current] = (shown, f"{spec} {name.strip()}: {value.strip()}".strip())
    return found


_GEMSPEC = re.compile(
    r"\.add_(?:runtime_|development_)?dependency\s*\(?\s*[\"']([^\"']+)[\"']\s*(.*)$"
)
_POD = re.compile(r"^\s*pod\s+[\"']([^\"']+)[\"']\s*(.*)$")


def gemspec(text: str) -> Entries:
    found: Entries = {}
    for raw in text.split("\n"):
        match = _GEMSPEC.search(raw.split(" #", 1)[0]) or _POD.match(raw.split(" #", 1)[0])
        if match is not None:
            found[f"gem:{match.group(1)}"] = (match.group(1), ", ".join(_quoted(match.group(2))))
    return found


_MIX_DEP = re.compile(r"\{\s*:(\w+)\s*,\s*([^}\n]*)\}?")


def mix(text: str) -> Entries:
    """The `{:name, "~> 1.0"}` tuples of a `mix.exs` `deps` function."""
    found: Entries = {}
    at = text.find("defp deps")
    at = text.find("def deps") if at < 0 else at
    if at < 0:
        return found
    for match in _MIX_DEP.finditer(text, at):
        found[f"mix:{match.group(1)}"] = (match.group(1), " ".join(match.group(2).split()))
    return found


def swift_package(text: str) -> Entries:
    """The `.package(url: ..., from: ...)` calls of a `Package.swift`."""
    found: Entries = {}
    at = text.find(".package(")
    while at >= 0:
        body = _bracketed(text, at + len(".package"))
        source = re.search(r"\b(?:url|path|id)\s*:\s*\"([^\"]+)\"", body)
        if source is not None:
            rest = " ".join(body[source.end() :].strip(" ,)").split())
            found[f"spm:{source.group(1).lower()}"] = (source.group(1), rest)
        at = text.find(".package(", at + len(body) + len(".package"))
    return found


def conan(text: str) -> Entries:
    """`conanfile.txt` requirement sections, or the `requires` of a `conanfile.py`."""
    found: Entries = {}
    section = ""
    for raw in text.split("\n"):
        line = raw.split("#", 1)[0].strip()
        if line.startswith("["):
            section = line.strip("[]")
            continue
        if section.endswith("requires") and "/" in line:
            found[f"{section}:{line.split('/', 1)[0]}"] = (line.split("/", 1)[0], line)
            continue
        if "requires" in line:  # conanfile.py: `self.requires("zlib/1.3")`, `requires = (...)`
            for reference in re.findall(r"[\"']([\w.+-]+/[^\"'\s]+)[\"']", line):
                found[f"py:{reference.split('/', 1)[0]}"] = (reference.split("/", 1)[0], reference)
    return found


READERS: dict[str, Callable[[str], Entries]] = {
    "maven": maven,
    "gradle": gradle,
    "gradle-catalog": version_catalog,
    "sbt": sbt,
    "nuget": nuget,
    "composer": composer,
    "deno": deno,
    "vcpkg": vcpkg,
    "pipfile": pipfile,
    "setup-cfg": setup_cfg,
    "setup-py": setup_py,
    "conda": conda,
    "pubspec": pubspec,
    "gemspec": gemspec,
    "mix": mix,
    "swift-package": swift_package,
    "conan": conan,
}
# Readers that read a piece of the file by its lines alike (an edit that cannot be placed).
LINE_READERS = frozenset(
    {"maven", "gradle", "sbt", "nuget", "setup-py", "gemspec", "swift-package", "conan"}
)
# A piece of a manifest is read under the heading it needs (an edit that cannot be placed).
FRAGMENT_HEADINGS = {
    "conda": "dependencies:\n",
    "pubspec": "dependencies:\n",
    "setup-cfg": "[options]\ninstall_requires =\n",
}
