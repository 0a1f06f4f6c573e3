#!/usr/bin/env bash
# Installs what one use of convcheck needs, and nothing else: Debian 12 packages, and pinned PyPI packages into
# virtual environments inside the checkout (venvs/NAME, git-ignored; never the system Python):
#   scripts/install-deps.sh [--list] [SET...]     SET: build fuzz test sanitize fuzz-reader slurm all, or a PyPI set
#                                                 (below; default: all)
#     build         compile convcheck and its tests
#     fuzz          build (scripts/run.sh fuzz: nothing more than the compiler and the libraries)
#     test          build, plus what the interop tests drive: h5py, PyTorch, Chromium, and a local Slurm cluster
#     sanitize      the same as test (the whole suite again, under ASan and UBSan)
#     fuzz-reader   build, plus clang's libFuzzer and sanitizer runtimes
#     slurm         the Slurm daemons, client and munge (scripts/slurm-local.sh)
#   PyPI sets, each a venv from scripts/requirements/NAME.txt (every package pinned, its dependencies too, installed
#   with --no-deps so that nothing floats; the file's header says what it downloads and how large it is):
#     onednn        oneDNN 3.13 (CPU engine on its SYCL runtime) for the onednn strategies; every build needs it
#     onnxruntime   ONNX Runtime 1.32 (CPU) with onnx, for the onnxruntime and onnxruntime_nchwc strategies
#     torch         PyTorch 2.15: its libtorch for the torch and torch_native strategies (CMakeLists.txt builds them
#                   whenever venvs/torch is installed) and its Python for the `--emit pytorch` scripts
#     openvino      OpenVINO 2026.4 (CPU plugin), for the openvino and openvino_bf16 strategies
#     litert        LiteRT 2.3 (ai-edge-litert, no TensorFlow), for the litert_xnnpack, litert_builtin and litert_reference
#                   strategies
#     jax           JAX and jaxlib 0.10.2 (XLA:CPU) for the jax, jax_eigen and jax_ynn strategies
#     tvm           Apache TVM 0.27 (Relax, LLVM in the wheel) for the tvm strategy
#     torch_mlir    torch-mlir 20261001 (FX importer, linalg lowering, MLIR's ExecutionEngine) with torch 2.15, for the
#                   torch_mlir strategy
#     iree          IREE 3.13 (compiler and runtime, llvm-cpu) with iree-turbine and torch 2.15, for the iree,
#                   iree_im2col and iree_winograd strategies
# --list prints the packages of the sets, one a line, and installs nothing. Idempotent: when everything asked for is already installed it only asks dpkg and returns in well under a second.
set -euo pipefail

build=(
  cmake make g++ pkg-config
  libboost-program-options-dev librapidcheck-dev libhdf5-dev libspdlog-dev libfmt-dev nlohmann-json3-dev
  libgtest-dev libopenblas-dev
  libtbb-dev # oneTBB's headers: the onednn strategy holds oneDNN 3.x's TBB threading to one thread per worker
  libgoogle-perftools-dev # tcmalloc_minimal, convcheck's malloc (CMakeLists.txt)
  # the xnnpack strategy (optional at build time, in the default set); xnnpack.h includes pthreadpool.h, which
  # libxnnpack-dev does not depend on
  libxnnpack-dev libpthreadpool-dev
)
# A one-node cluster for the sharded nightly test (tests/deploy/slurm_nightly.sh, scripts/slurm-local.sh).
slurm=(slurmctld slurmd slurm-client munge)
interop=(
  python3-h5py python3-numpy python3-torch python3-hypothesis
  # the HTML report in a real browser (tests/interop/html_report_chromium.sh)
  chromium python3-pil fonts-dejavu-core
)
# libFuzzer and the sanitizer runtimes ship with clang; FindOpenMP needs clang's omp.h
fuzz_reader=(clang-14 libclang-rt-14-dev libomp-14-dev)

# The PyPI sets, and which Debian sets include them (their tests run in ctest).
pypi_sets=(onednn onnxruntime torch openvino litert jax tvm torch_mlir iree)
test_pypi=(onnxruntime torch openvino litert jax tvm torch_mlir iree)

list=false
if [[ "${1:-}" == --list ]]; then
  list=true
  shift
fi
packages=()
venvs=()
for set in "${@:-all}"; do
  case "$set" in
    build | fuzz) packages+=("${build[@]}") venvs+=(onednn) ;;
    test | sanitize) packages+=("${build[@]}" "${interop[@]}" "${slurm[@]}") venvs+=(onednn "${test_pypi[@]}") ;;
    fuzz-reader) packages+=("${build[@]}" "${fuzz_reader[@]}") venvs+=(onednn) ;;
    slurm) packages+=("${slurm[@]}") ;;
    all) packages+=("${build[@]}" "${interop[@]}" "${slurm[@]}" "${fuzz_reader[@]}") venvs+=("${pypi_sets[@]}") ;;
    *)
      if [[ " ${pypi_sets[*]} " == *" $set "* ]]; then
        venvs+=("$set")
      else
        echo "install-deps.sh: unknown set '$set' (build, fuzz, test, sanitize, fuzz-reader, slurm, all," \
          "${pypi_sets[*]})" >&2
        exit 2
      fi
      ;;
  esac
done
# A venv needs Debian's python3 with its venv module (the python3 first on PATH may be another build).
[[ ${#venvs[@]} -eq 0 ]] || packages+=(python3 python3-venv)

packages=($(printf '%s\n' "${packages[@]}" | sort -u))
root=$(cd "$(dirname "$0")/.." && pwd)
if $list; then
  printf '%s\n' "${packages[@]}"
  for venv in $(printf '%s\n' "${venvs[@]}" | sort -u); do
    grep -Ev '^\s*(#|$)' "$root/scripts/requirements/$venv.txt" | sed "s|^|venvs/$venv: |"
  done
  exit 0
fi
missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "installing: ${missing[*]}" >&2
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Each PyPI set: made again only when its requirements changed (the venv keeps a copy of the file it was made from).
for venv in $(printf '%s\n' "${venvs[@]}" | sort -u); do
  requirements="$root/scripts/requirements/$venv.txt" dir="$root/venvs/$venv"
  cmp -s "$requirements" "$dir/requirements.txt" && continue
  echo "installing venvs/$venv from scripts/requirements/$venv.txt" >&2
  rm -rf "$dir"
  /usr/bin/python3 -m venv "$dir"
  if ! "$dir/bin/pip" install -q --no-deps --disable-pip-version-check --no-input -r "$requirements" >&2; then
    rm -rf "$dir" # never a half-made environment that looks installed
    echo "install-deps.sh: pip could not install scripts/requirements/$venv.txt" >&2
    exit 1
  fi
  cp "$requirements" "$dir/requirements.txt"
done
