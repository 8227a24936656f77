"""``make`` installs requirements.lock with ``--no-deps``: it must hold every
package requirements.txt and requirements-dev.txt name, at the version they
pin, and everything those need (as installed here, where the suite runs)."""
from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path
from tests.support.paths import ROOT

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;#]+)")


def canonical(name: str) -> str:
    """PEP 503's normal form of a project name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text().splitlines():
        match = PIN.match(line.strip())
        if match:
            found[canonical(match.group(1))] = match.group(2)
    return found


def test_the_lock_pins_every_requirement_at_its_version():
    locked = pins(ROOT / "requirements.lock")
    for name in ("requirements.txt", "requirements-dev.txt"):
        for project, version in pins(ROOT / name).items():
            assert locked.get(project) == version, f"{name} pins {project}=={version}, requirements.lock {locked.get(project)}: run make lock"


def test_the_lock_holds_what_every_installed_requirement_needs():
    """Each locked package's own requirements (for this platform, without
    extras) are locked too: ``--no-deps`` would not fetch a missing one."""
    locked = pins(ROOT / "requirements.lock")
    missing = set()
    for project in locked:
        for requirement in metadata.requires(project) or []:
            name, _, marker = requirement.partition(";")
            if "extra ==" in marker:
                continue
            needed = canonical(re.split(r"[\s<>=!~\[(]", name.strip(), maxsplit=1)[0])
            if marker.strip() and not _applies(marker):
                continue
            if needed not in locked:
                missing.add(f"{needed} (for {project})")
    assert not missing, f"requirements.lock lacks {sorted(missing)}: run make lock"


def _applies(marker: str) -> bool:
    from packaging.markers import Marker

    return Marker(marker.strip()).evaluate()
