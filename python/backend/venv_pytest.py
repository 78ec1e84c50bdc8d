"""Makes pytest importable in a virtual environment that lacks it, offline, from Debian's python3-pytest.

`make python` runs it with the environment's interpreter after installing ropelens there. An environment made from
Debian's python3 with --system-site-packages already sees Debian's pytest; one made from another python3 (pyenv,
conda) sees that interpreter's packages, which often hold no pytest, and no package index may be reachable. Debian's
pytest is pure Python: this links it, and only what it needs that the environment cannot import, into
<venv>/ropelens-test-packages/, which a .pth file appends to the environment's path (after its own packages, so a
pytest installed there later wins). Nothing outside the environment changes; removing that folder and
ropelens-test-packages.pth undoes it.
"""

import importlib.util
import os
import site
import sys

DEBIAN = "/usr/lib/python3/dist-packages"
# pytest and what Debian's pytest imports (pytest 7: attrs, iniconfig, packaging, pluggy; py on old releases;
# exceptiongroup and tomli before Python 3.11).
MODULES = ("pytest", "_pytest", "py", "pluggy", "iniconfig", "attr", "attrs", "packaging", "exceptiongroup", "tomli")


def importable(name):
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def main():
    if importable("pytest"):
        return 0
    if sys.prefix == sys.base_prefix:
        print("venv_pytest: not a virtual environment; install pytest (python3-pytest on Debian)", file=sys.stderr)
        return 1
    folder = os.path.join(sys.prefix, "ropelens-test-packages")
    os.makedirs(folder, exist_ok=True)
    linked = []
    for name in MODULES:
        if importable(name):
            continue
        for candidate in (os.path.join(DEBIAN, name), os.path.join(DEBIAN, name + ".py")):
            target = os.path.join(folder, os.path.basename(candidate))
            if os.path.exists(candidate) and not os.path.lexists(target):
                os.symlink(candidate, target)
                linked.append(os.path.basename(candidate))
    with open(os.path.join(site.getsitepackages()[0], "ropelens-test-packages.pth"), "w", encoding="utf-8") as pth:
        pth.write(folder + "\n")
    sys.path.append(folder)
    importlib.invalidate_caches()
    if not importable("pytest"):
        print(f"venv_pytest: no pytest for {sys.executable}: install python3-pytest, or pytest into the environment",
              file=sys.stderr)
        return 1
    print(f"venv_pytest: Debian's pytest linked into {folder} ({', '.join(linked)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
