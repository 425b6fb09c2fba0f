#!/usr/bin/env bash
# Installs the Debian packages mantra builds against, only those missing.
# Idempotent: a second call checks with dpkg and returns at once.
set -euo pipefail
# chromium: the report test renders report.html headless. util-linux: setpriv, which ties
# each mantra-sim to its runner's life. clang-14, libclang-rt-14-dev: libFuzzer for the
# fuzzers (scripts/fuzz.sh). clang-format-14, clang-tidy-14: `make lint`. iproute2, procps,
# iputils-ping: mantra-emu's namespaces (ip, sysctl) and its ping check.
PACKAGES=(libgtest-dev nlohmann-json3-dev cmake ninja-build g++ python3-venv
          chromium util-linux clang-14 libclang-rt-14-dev clang-format-14
          clang-tidy-14 iproute2 procps iputils-ping)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "mantra: installing Debian packages: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
