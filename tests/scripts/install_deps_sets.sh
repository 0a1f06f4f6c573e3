#!/usr/bin/env bash
# scripts/install-deps.sh installs per command what that command needs: a first `scripts/run.sh fuzz` gets the
# compiler and libraries, not the test suite's browser, PyTorch or Slurm; `test` gets those too.
#   usage: install_deps_sets.sh SOURCE_DIR
set -euo pipefail
deps="$1/scripts/install-deps.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }
fuzz=$("$deps" --list fuzz) test=$("$deps" --list test)
for package in g++ cmake libtbb-dev libhdf5-dev "venvs/onednn: onednn==2026.1.0"; do
  grep -qx "$package" <<<"$fuzz" || fail "fuzz lacks $package"
done
! grep -q "^venvs/torch:" <<<"$fuzz" || fail "fuzz installs venvs/torch, which only tests use"
grep -q "^venvs/torch: torch==" <<<"$test" || fail "test lacks venvs/torch"
for package in chromium python3-torch python3-h5py slurmd slurmctld munge clang-14; do
  ! grep -qx "$package" <<<"$fuzz" || fail "fuzz installs $package, which only tests or hardening use"
done
for package in chromium python3-torch python3-h5py slurmd slurmctld slurm-client munge g++; do
  grep -qx "$package" <<<"$test" || fail "test lacks $package"
done
[[ $("$deps" --list sanitize) == "$test" ]] || fail "sanitize (the suite again) installs other than test"
"$deps" --list nonsense 2>/dev/null && fail "an unknown set was accepted"
echo "fuzz: $(wc -l <<<"$fuzz") packages, test: $(wc -l <<<"$test")"
