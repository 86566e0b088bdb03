"""Type-check the ``ferrovia`` package: ``python tools/typecheck.py [MYPY ARGS...]``.

The import package ``ferrovia`` is assembled from the repository's folders (``engine/`` is
``ferrovia``, ``schemas/`` is ``ferrovia.schemas``; see ``pyproject.toml``).  mypy names modules
after folders and cannot follow the editable install's import hook, so this builds a throw-away
tree of symbolic links named ``ferrovia`` in a temporary directory, runs ``mypy -p ferrovia``
on it with the project's configuration, and prints mypy's report with every path turned back
into the repository's own (``engine/board/tiles.py:12: error: ...``).  Exit status is mypy's.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARTS = {"": ROOT / "engine", "schemas": ROOT / "schemas"}


def build_tree(into: Path) -> Path:
    """``into/ferrovia``: links to every entry of ``engine/``, plus ``schemas`` -> ``schemas/``."""
    pkg = into / "ferrovia"
    pkg.mkdir()
    for entry in sorted(PARTS[""].iterdir()):
        if entry.name not in PARTS and entry.name != "__pycache__":
            os.symlink(entry, pkg / entry.name)
    os.symlink(PARTS["schemas"], pkg / "schemas")
    return pkg


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="ferrovia-typecheck-") as tmp:
        pkg = build_tree(Path(tmp))
        env = dict(os.environ, MYPYPATH=tmp)
        cmd = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")]
        proc = subprocess.run(
            [*cmd, "-p", "ferrovia", *argv], env=env, cwd=ROOT, capture_output=True, text=True
        )
        # a linked path back to the file it stands for, relative to the repository
        prefix = re.compile(re.escape(str(pkg)) + r"/([^:\s]*)")

        def real(m: re.Match[str]) -> str:
            target = (pkg / m.group(1)).resolve()
            try:
                return str(target.relative_to(ROOT))
            except ValueError:
                return str(target)

        for stream, text in ((sys.stdout, proc.stdout), (sys.stderr, proc.stderr)):
            stream.write(prefix.sub(real, text.replace(os.path.relpath(pkg, ROOT), str(pkg))))
        return proc.returncode


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
