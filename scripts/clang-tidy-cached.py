"""clang-tidy on the core's and the UDP driver's sources, skipping a file whose last clean check still holds.

A file is checked again unless a stamp in BUILD/clang-tidy-stamps/ records a clean run on exactly
the same inputs: the file, every project header its compile depends on (ninja's dependency log),
its compile command, .clang-tidy and the clang-tidy version. If the build has not compiled the file yet,
it is always checked. Findings fail the run and leave no stamp.

    python scripts/clang-tidy-cached.py BUILD [JOBS]
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIDY = "clang-tidy-14"


def project_deps(build: Path, output: str) -> list[Path] | None:
    """The project's files the compile of `output` read (system headers left out), from ninja's
    dependency log, or None if ninja has not compiled it."""
    proc = subprocess.run(["ninja", "-C", str(build), "-t", "deps", output], capture_output=True, text=True)
    lines = proc.stdout.splitlines()
    if proc.returncode != 0 or not lines or "(VALID)" not in lines[0]:
        return None
    return sorted({p for n in lines[1:] if n.strip() and (p := Path(n.strip()).resolve()).is_relative_to(ROOT)})


def inputs_key(entry: dict[str, str], build: Path, version: str) -> str | None:
    words = entry["command"].split()
    if "-o" not in words:
        return None
    deps = project_deps(build, words[words.index("-o") + 1])
    if deps is None:
        return None
    h = hashlib.sha256()
    for part in (version, entry["command"], (ROOT / "core/.clang-tidy").read_text(), (ROOT / "udp/.clang-tidy").read_text()):
        h.update(part.encode())
    for dep in deps:
        h.update(str(dep).encode())
        h.update(dep.read_bytes())
    return h.hexdigest()


def main() -> int:
    build = Path(sys.argv[1]).resolve()
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    version = subprocess.run([TIDY, "--version"], capture_output=True, text=True, check=True).stdout
    stamps = build / "clang-tidy-stamps"
    stamps.mkdir(exist_ok=True)
    sources = sorted(str(p) for p in [*ROOT.glob("core/src/*/*.cc"), *ROOT.glob("udp/src/*.cc")])
    entries = {
        e["file"]: e
        for e in json.loads((build / "compile_commands.json").read_text())
        if e["file"] in sources and "/test/" not in e["file"]
    }

    def check(source: str) -> tuple[str, bool, str]:
        entry = entries.get(source)
        key = inputs_key(entry, build, version) if entry else None
        stamp = stamps / (hashlib.sha256(source.encode()).hexdigest()[:16] + ".ok")
        if key is not None and stamp.exists() and stamp.read_text() == key:
            return source, True, ""
        proc = subprocess.run([TIDY, "-p", str(build), "--quiet", source], capture_output=True, text=True)
        findings = proc.returncode != 0 or "warning:" in proc.stdout or "error:" in proc.stdout
        if not findings and key is not None:
            stamp.write_text(key)
        return source, not findings, proc.stdout

    ok = True
    with ThreadPoolExecutor(jobs) as pool:
        for source, clean, out in pool.map(check, sources):
            if not clean:
                ok = False
                print(out, end="")
                print(f"clang-tidy: {Path(source).relative_to(ROOT)}: findings", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
