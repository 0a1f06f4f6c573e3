#!/usr/bin/env bash
# The folders of core/ are layers (docs/architecture.md, "The layers of core/"): a file of one may include its own
# folder, the folders before it, and core/input_error.hpp, never a later folder. Fails naming each include that
# points the wrong way, so a back-arrow (a cycle between folders) cannot come back unnoticed.
#   usage: core_layering.sh SOURCE_DIR         checks SOURCE_DIR/core
#          core_layering.sh --self-test        checks that a planted back-arrow is caught
set -euo pipefail
layers=(problem tensor numerics process storage run) # lowest first; docs/architecture.md states the same order

check() { # SOURCE_DIR: prints each wrong include, returns 1 if any
  local source=$1 status=0 folder
  for folder in "$source"/core/*/; do
    folder=$(basename "$folder")
    [[ " ${layers[*]} " == *" $folder "* ]] ||
      { echo "core/$folder is not a layer: add it to core_layering.sh and docs/architecture.md"; status=1; }
  done
  local rank=0 layer
  for layer in "${layers[@]}"; do
    local later=("${layers[@]:rank+1}")
    rank=$((rank + 1))
    [[ ${#later[@]} -gt 0 ]] || continue
    local pattern
    pattern="#include \"core/($(IFS='|'; echo "${later[*]}"))/"
    while IFS= read -r hit; do
      echo "back-arrow: ${hit#"$source"/}"
      status=1
    done < <(grep -rEn "$pattern" "$source/core/$layer" 2>/dev/null || true)
  done
  # A relative include would hide its folder from the check above.
  while IFS= read -r hit; do
    echo "relative include: ${hit#"$source"/}"
    status=1
  done < <(grep -rEn '#include "\.\.?/' "$source/core" || true)
  return $status
}

if [[ ${1:-} == --self-test ]]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  mkdir -p "${layers[@]/#/$scratch/core/}"
  printf '#include "core/numerics/case.hpp"\n' >"$scratch/core/storage/ok.hpp"
  printf '#include "core/run/strategy.hpp"\n' >"$scratch/core/process/bad.cpp"
  out=$(check "$scratch") && { echo "FAIL: a planted back-arrow passed"; exit 1; }
  expected='back-arrow: core/process/bad.cpp:1:#include "core/run/strategy.hpp"'
  [[ $out == "$expected" ]] || { echo "FAIL: expected '$expected', got '$out'"; exit 1; }
  mkdir "$scratch/core/extra"
  out=$(check "$scratch") || true
  [[ $out == *"core/extra is not a layer"* ]] || { echo "FAIL: an unlisted folder passed: '$out'"; exit 1; }
  echo "self-test: a back-arrow and an unlisted folder are caught"
  exit 0
fi

check "$1" || exit 1
echo "core/ layers, lowest first: ${layers[*]}: no back-arrow"
