"""The dependency readers of the other ecosystems: entries, never the project's own version,
and one pass over the text whatever it holds."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from hookmsg_dispatch.guards import ecosystems
from tests.support.guards import claude_edit, git_project
from tests.support.guards import run as run_guard

GUARD = "pretooluse-dependency-guard"

POM = """<project>
  <groupId>com.acme</groupId><artifactId>app</artifactId><version>1.0.0</version>
  <properties><java.version>17</java.version><netty.version>4.1.100</netty.version></properties>
  <dependencies>
    <dependency>
      <groupId>com.google.guava</groupId><artifactId>guava</artifactId><version>32.1.2-jre</version>
      <exclusions><exclusion><groupId>x</groupId><artifactId>y</artifactId></exclusion></exclusions>
    </dependency>
  </dependencies>
</project>
"""


def test_maven_reads_dependencies_and_version_properties_not_the_project() -> None:
    found = ecosystems.maven(POM)
    assert found == {
        "mvn:com.google.guava:guava::": ("com.google.guava:guava", "32.1.2-jre"),
        "property:netty.version": ("netty.version", "4.1.100"),
    }
    assert ecosystems.maven(POM.replace("1.0.0", "2.0.0")) == found


def test_gradle_reads_each_notation() -> None:
    script = """plugins { id("org.jetbrains.kotlin.jvm") version "1.9.20" }
version = "1.0"
dependencies {
    implementation("com.squareup.okhttp3:okhttp:4.12.0")
    testImplementation 'junit:junit:4.13.2'
    api(platform("org.springframework.boot:spring-boot-dependencies:3.2.0"))
    implementation(libs.retrofit)
    compileOnly group: 'org.projectlombok', name: 'lombok', version: '1.18.30'
    implementation(project(":core"))
}
"""
    assert ecosystems.gradle(script) == {
        "plugin:org.jetbrains.kotlin.jvm": ("org.jetbrains.kotlin.jvm", "1.9.20"),
        "implementation:com.squareup.okhttp3:okhttp": ("com.squareup.okhttp3:okhttp", "4.12.0"),
        "testImplementation:junit:junit": ("junit:junit", "4.13.2"),
        "api:org.springframework.boot:spring-boot-dependencies": (
            "org.springframework.boot:spring-boot-dependencies",
            "3.2.0",
        ),
        "implementation:libs.retrofit": ("libs.retrofit", ""),
        "compileOnly:org.projectlombok:lombok": ("org.projectlombok:lombok", "1.18.30"),
    }


def test_nuget_reads_attributes_and_a_version_element() -> None:
    project = """<Project><PropertyGroup><Version>3.0.0</Version></PropertyGroup><ItemGroup>
<PackageReference Include="Serilog" Version="3.1.1" />
<PackageReference Include="Polly">
  <Version>8.2.0</Version>
</PackageReference>
</ItemGroup></Project>"""
    assert ecosystems.nuget(project) == {
        "PackageReference:serilog": ("Serilog", "3.1.1"),
        "PackageReference:polly": ("Polly", "8.2.0"),
    }


def test_python_and_yaml_manifests() -> None:
    setup = (
        'setup(name="a", version="1", install_requires=["requests>=2"],'
        ' extras_require={"dev": ["pytest"]})'
    )
    assert set(ecosystems.setup_py(setup)) == {"install_requires:requests", "extras_require:pytest"}
    env = "name: x\ndependencies:\n  - numpy=1.26\n  - pip:\n    - httpx==0.27\n"
    assert set(ecosystems.conda(env)) == {"dependencies:numpy", "dependencies:httpx"}
    pubspec = "name: a\nversion: 1.0.0+1\ndependencies:\n  http: ^1.1.0\n"
    assert ecosystems.pubspec(pubspec) == {"dependencies:http": ("http", "^1.1.0")}


def test_a_project_version_bump_in_a_pom_is_silent_and_a_dependency_bump_fires(
    tmp_path: Path,
) -> None:
    root = git_project(tmp_path / "p", {"pom.xml": POM})
    bump = claude_edit(root, "pom.xml", "<version>1.0.0</version>", "<version>1.1.0</version>")
    assert run_guard(GUARD, bump) is None
    dependency = claude_edit(root, "pom.xml", "32.1.2-jre", "33.0.0-jre")
    found = run_guard(GUARD, dependency)
    assert found is not None and "guava" in found["change"]


ADVERSARIAL: dict[str, Callable[[int], str]] = {
    "unclosed dependency": lambda n: "<dependency><groupId>a</groupId>" * n,
    "unclosed package reference": lambda n: '<PackageReference Include="a" ' * n,
    "repeated install_requires": lambda n: "install_requires=[" * n,
    "repeated swift package": lambda n: '.package(url: "a", ' * n,
    "repeated gradle word": lambda n: "implementation" * n,
    "repeated sbt quotes": lambda n: '"a" % ' * n,
    "repeated mix tuples": lambda n: "defp deps do [" + "{:a, " * n,
}


def _cpu(reader: Callable[[str], object], text: str) -> float:
    best = float("inf")
    for _ in range(3):
        gc.collect()
        start = time.process_time()
        reader(text)
        best = min(best, time.process_time() - start)
    return max(best, 1e-4)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_every_reader_is_linear_on_adversarial_text(name: str) -> None:
    make = ADVERSARIAL[name]
    small, large = make(3_000), make(12_000)
    for kind, reader in sorted(ecosystems.READERS.items()):
        try:
            reader(small)
        except ValueError:
            continue  # a JSON reader refuses the text at once
        ratio = _cpu(reader, large) / _cpu(reader, small)
        assert ratio < 8, f"{kind} on {name!r}: 4 times the text took {ratio:.1f} times the CPU"
