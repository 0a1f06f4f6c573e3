#!/usr/bin/env bash
# Installs what convcheck needs from Debian 12 packages, and nothing else. Idempotent: when everything is
# already installed it only asks dpkg and returns in well under a second.
set -euo pipefail

packages=(
  cmake make g++ pkg-config
  libboost-program-options-dev librapidcheck-dev libhdf5-dev libspdlog-dev libfmt-dev nlohmann-json3-dev
  libgtest-dev libopenblas-dev libdnnl-dev
  ocl-icd-opencl-dev # dnnl-config.cmake requires OpenCL, which libdnnl-dev only recommends
  libgoogle-perftools-dev # tcmalloc_minimal, convcheck's malloc (CMakeLists.txt)
  python3-h5py python3-numpy python3-torch python3-hypothesis
  # the HTML report in a real browser (tests/interop/html_report_chromium.sh)
  chromium python3-pil fonts-dejavu-core
  # scripts/run.sh fuzz-reader: libFuzzer and the sanitizer runtimes ship with clang; FindOpenMP needs clang's omp.h
  clang-14 libclang-rt-14-dev libomp-14-dev
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "installing: ${missing[*]}" >&2
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
