#!/usr/bin/env bash
# Each implementation lives in a room of its own under oracles/ (oracles/README.md): a file of one room includes its
# own room, core/ and the shared pieces named below, never another room's files, and no source sits at the top of
# oracles/. Fails naming each include that crosses rooms, so a library cannot grow back into another's.
#   usage: oracle_rooms.sh SOURCE_DIR      checks SOURCE_DIR/oracles
#          oracle_rooms.sh --self-test     checks that a planted crossing and a stray file are caught
set -euo pipefail
rooms=(loops onednn torch xnnpack onnxruntime openvino litert jax tvm torch_mlir iree outside dispatch inject) # oracles/README.md says what each holds

# Crossings allowed, each "FROM -> FILE" with why:
allowed=(
  "* -> dispatch/cap_server.hpp"   # the server that runs a case under another per-process setting: shared by design
  "* -> outside/adapter.hpp"       # a room registers the servers it ships as named outside implementations
  "inject -> loops/*"              # an injected bug is a loop strategy with one thing wrong
  "xnnpack -> loops/tensor_ops.hpp" # XNNPACK takes no crop: the adapter crops with the loops' tensor ops
  "torch -> onednn/bug_6035.hpp"   # ATen's Mkldnn backend is oneDNN: its known bugs reach torch too
  "torch -> onednn/bf16_bugs.hpp"  # (the same)
  "torch -> onednn/brgconv_one_column.hpp"  # (the same)
  "torch -> onednn/isa_server.hpp" # the oneDNN under ATen runs at this process's ISA cap
  "torch -> onednn/isa_caps.hpp"   # (the same: the case's cap, which torch's server pairs with ATen's capability)
  "iree -> torch_mlir/transposed_padding.hpp" # IREE runs its own copy of torch-mlir's transposed-conv lowering
)

crossing_allowed() { # FROM FILE
  local entry from file
  for entry in "${allowed[@]}"; do
    from=${entry%% -> *} file=${entry#* -> }
    # shellcheck disable=SC2053 # glob patterns on purpose
    [[ $1 == $from && $2 == $file ]] && return 0
  done
  return 1
}

check() { # SOURCE_DIR: prints each crossing and stray file, returns 1 if any
  local source=$1 status=0 path room hit target
  for path in "$source"/oracles/*; do
    room=$(basename "$path")
    if [[ -d $path ]]; then
      [[ " ${rooms[*]} " == *" $room "* ]] ||
        { echo "oracles/$room is not a room: add it to oracle_rooms.sh and oracles/README.md"; status=1; }
    elif [[ $room != README.md ]]; then
      echo "stray file: oracles/$room belongs in a room"
      status=1
    fi
  done
  for room in "${rooms[@]}"; do
    [[ -d $source/oracles/$room ]] || continue
    while IFS= read -r hit; do
      target=$(sed -E 's/.*#include "oracles\/([^"]*)".*/\1/' <<<"$hit")
      [[ ${target%%/*} == "$room" ]] && continue
      crossing_allowed "$room" "$target" && continue
      echo "crossing: ${hit#"$source"/}"
      status=1
    done < <(grep -rEn '#include "oracles/' "$source/oracles/$room" || true)
  done
  return $status
}

if [[ ${1:-} == --self-test ]]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  mkdir -p "${rooms[@]/#/$scratch/oracles/}"
  printf '#include "oracles/loops/naive.hpp"\n' >"$scratch/oracles/inject/ok.cpp"
  printf '#include "oracles/dispatch/cap_server.hpp"\n' >"$scratch/oracles/onednn/ok.cpp"
  printf '#include "oracles/onednn/memory.hpp"\n' >"$scratch/oracles/xnnpack/bad.cpp"
  out=$(check "$scratch") && { echo "FAIL: a planted crossing passed"; exit 1; }
  expected='crossing: oracles/xnnpack/bad.cpp:1:#include "oracles/onednn/memory.hpp"'
  [[ $out == "$expected" ]] || { echo "FAIL: expected '$expected', got '$out'"; exit 1; }
  rm "$scratch/oracles/xnnpack/bad.cpp"
  touch "$scratch/oracles/stray.cpp"
  out=$(check "$scratch") || true
  [[ $out == "stray file: oracles/stray.cpp belongs in a room" ]] || { echo "FAIL: a stray file passed: '$out'"; exit 1; }
  echo "self-test: a crossing and a stray file are caught"
  exit 0
fi

check "$1" || exit 1
echo "oracles/ rooms: ${rooms[*]}: no crossing but the named shared pieces"
