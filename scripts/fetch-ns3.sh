#!/usr/bin/env bash
# Fetches ns-3.44's C++ headers and shared libraries from PyPI's ns3 wheel into
# .deps/ns3-<version>/ (include/ns3, lib64), checked against a pinned hash.
# Only the C++ part is used, so the wheel is downloaded for its own platform tag
# whatever the local interpreter is. Idempotent: returns at once when present.
#   usage: scripts/fetch-ns3.sh PIP    (PIP: a pip executable, e.g. .venv/bin/pip)
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=3.44.post0
WHEEL=ns3-${VERSION}-cp311-cp311-manylinux_2_28_x86_64.whl
SHA256=2a98479a4a3a1bb819b95ce061871a9d068268b42351b8f0ef598160939ba7ce
DEST=.deps/ns3-${VERSION}
PIP=${1:-pip}
[ -f "$DEST/.complete" ] && exit 0

tmp=$(mktemp -d .deps.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
echo "mantra: fetching ns-3 ${VERSION} (PyPI wheel, 69 MB)" >&2
"$PIP" download -q --disable-pip-version-check --no-deps --only-binary=:all: --python-version 3.11 \
  --platform manylinux_2_28_x86_64 --implementation cp "ns3==${VERSION}" -d "$tmp" >&2
echo "${SHA256}  $tmp/${WHEEL}" | sha256sum --check --quiet - || {
  echo "mantra: ${WHEEL} does not match its pinned sha256 ${SHA256}" >&2
  exit 1
}
python3 - "$tmp/${WHEEL}" "$tmp/unpacked" <<'PY'
import sys, zipfile
# Headers and libraries only (the Python bindings and the visualizer are not used).
with zipfile.ZipFile(sys.argv[1]) as wheel:
    members = [m for m in wheel.namelist() if m.startswith(("ns3/include/", "ns3/lib64/"))]
    wheel.extractall(sys.argv[2], members)
PY
chmod -R u+w,go+r "$tmp/unpacked/ns3"
chmod +x "$tmp"/unpacked/ns3/lib64/*.so* 2>/dev/null || true
rm -rf "$DEST"
mkdir -p .deps
mv "$tmp/unpacked/ns3" "$DEST"
touch "$DEST/.complete"
