#!/bin/bash
# `convcheck repro --emit` on real findings (corpus/upstream/, the oneDNN bugs, each under its recorded ISA cap): the
# C reproducer compiles against oneDNN alone and shows the bug (exit 1), and the benchdnn line names the cap, the
# direction and the format (tests/core/problem/benchdnn_writer_test.cpp reads its problem back). A bf16 finding has
# no generated C program (`--emit c` refuses it, saying so; docs/findings/ has it written by hand). Deconvs: the C
# program (oneDNN's deconvolution) and the script (F.conv_transpose*d) agree where the library is right.
# The programs are v3 C API programs, built against the oneDNN of the onednn strategy (the wheels in the source
# tree's venvs/onednn, or ONEDNN_VENV), whose SYCL CPU runtime needs OCL_ICD_FILENAMES. Each pins itself to one CPU,
# as convcheck runs oneDNN on one thread: oneDNN plans for as many threads as the process may use, and #6035's first
# corpus case overflows past its scratchpad only when planned for one (with two, into the second thread's part, where
# no guard sees it), as the brg_conv_fwd one-column case is wrong only on one.
# Usage: emit_reproducers.sh CONVCHECK SOURCE_DIR WORK_DIR
set -u
convcheck=$1 source=$2 work=$3
onednn=${ONEDNN_VENV:-$source/venvs/onednn}
export OCL_ICD_FILENAMES=$onednn/lib/libintelocl.so
compile() { cc -O1 -Wall -Werror "$1" -I"$onednn/include" -L"$onednn/lib" -Wl,--disable-new-dtags,-rpath,"$onednn/lib" -ldnnl -lm -o "$2"; }
rm -rf "$work" && mkdir -p "$work"
status=0
for case_file in "$source"/corpus/upstream/onednn-*.h5; do
  name=$(basename "$case_file" .h5)
  "$convcheck" repro "$case_file" --emit benchdnn --out "$work/$name.benchdnn" || { echo "FAIL: --emit benchdnn $name"; status=1; continue; }
  line=$(grep -v '^#' "$work/$name.benchdnn")
  if "$convcheck" repro "$case_file" --emit c --out "$work/$name.c" 2> "$work/$name.emit.err"; then
    case "$line" in "ONEDNN_MAX_CPU_ISA="*" taskset -c 0 ./benchdnn --conv --dir="*" --dt=f32 "*) ;;
      *) echo "FAIL: $name's benchdnn line is '$line'"; status=1 ;; esac
  else
    # bf16: refused with one line saying it is not float32; its benchdnn line names the bf16 cap and formats
    grep -q "is not float32" "$work/$name.emit.err" || { echo "FAIL: --emit c $name: $(cat "$work/$name.emit.err")"; status=1; continue; }
    case "$line" in "ONEDNN_MAX_CPU_ISA=AVX512_CORE_BF16 taskset -c 0 ./benchdnn --conv --dir="*" --dt=bf16"*) ;;
      *) echo "FAIL: $name's benchdnn line is '$line'"; status=1 ;; esac
    echo "$name: bf16, no generated C program ($(cat "$work/$name.emit.err"))"
    continue
  fi
  compile "$work/$name.c" "$work/$name" || { echo "FAIL: $name.c does not compile"; status=1; continue; }
  "$work/$name" > "$work/$name.out" 2>&1
  code=$?
  cat "$work/$name.out"
  if grep -q "^this host cannot run" "$work/$name.out"; then echo "$name: skipped, the host lacks the cap"; continue; fi
  [ $code -eq 1 ] || { echo "FAIL: $name's C reproducer exited $code, not 1 (the bug did not show)"; status=1; }
  grep -q "^the bug shows$" "$work/$name.out" || { echo "FAIL: $name's C reproducer did not say the bug shows"; status=1; }
done
# An injected bug's finding: a reproducer that runs oneDNN cannot show it, so benchdnn's is refused (exit 2, one line)
# unless --emit-anyway asks, and then its first line says so and the line gets the case's own layouts and no cap
# line beyond the case's; the C reproducer, oneDNN's C API, is refused with one line and exit status 2.
mutant=$(ls "$source"/corpus/mutants/pad_order-output-*.h5 | head -1)
"$convcheck" repro "$mutant" --emit benchdnn > /dev/null 2> "$work/mutant-benchdnn.err"
[ $? -eq 2 ] && grep -q "is a finding of pad_order, which oneDNN's benchdnn does not run" "$work/mutant-benchdnn.err" ||
  { echo "FAIL: --emit benchdnn on a mutant: $(cat "$work/mutant-benchdnn.err")"; status=1; }
"$convcheck" repro "$mutant" --emit benchdnn --emit-anyway > "$work/mutant.benchdnn" || { echo "FAIL: --emit benchdnn --emit-anyway on $mutant"; status=1; }
head -1 "$work/mutant.benchdnn" | grep -q "^# NOT a reproducer of this finding: it was found by pad_order" ||
  { echo "FAIL: mutant.benchdnn's first line: $(head -1 "$work/mutant.benchdnn")"; status=1; }
grep -q -- "--dir=FWD_D --dt=f32 --stag=a" "$work/mutant.benchdnn" || { echo "FAIL: mutant line: $(cat "$work/mutant.benchdnn")"; status=1; }
"$convcheck" repro "$mutant" --emit c > /dev/null 2> "$work/mutant.err"
code=$?
[ $code -eq 2 ] && grep -q "is a finding of pad_order, which oneDNN's C API does not run" "$work/mutant.err" ||
  { echo "FAIL: --emit c on a mutant exited $code: $(cat "$work/mutant.err")"; status=1; }
"$convcheck" repro "$mutant" --emit fortran > /dev/null 2> "$work/kind.err"
[ $? -eq 2 ] && grep -q "unknown --emit kind 'fortran' (known: benchdnn, c, pytorch, iree, jax, litert, onnxruntime," "$work/kind.err" ||
  { echo "FAIL: --emit fortran: $(cat "$work/kind.err")"; status=1; }
# A room's reproducer runs the room's server: refused for a finding of anything else (tests/interop/*_server.sh run
# the rooms' own findings' reproducers).
"$convcheck" repro "$mutant" --emit jax > /dev/null 2> "$work/room.err"
[ $? -eq 2 ] && grep -q "is a finding of pad_order, not of a jax row (jax, jax_eigen, jax_ynn)" "$work/room.err" ||
  { echo "FAIL: --emit jax on a mutant: $(cat "$work/room.err")"; status=1; }
# Deconvs saved as found (no shrinking) with an injected deconv bug, naive's results recorded beside: channels-last
# 2-D with groups and asymmetric, negative and output padding; 1-D with dilation; 3-D with groups; and one with
# padding oneDNN takes, for the C program.
"$convcheck" check --inject deconv_outpad_zero --strategies naive --threads 1 --no-shrink --max-saved 9 \
  --corpus "$work/deconv-picked" mb2ic4ih3iw4oc6g2kh3kw2sh2sw3pt2pb1pl-1pr1oph1opw2_deconv_nhwc \
  mb2ic3iw5oc2kw3sw3dlw2pl1pr2opw2_deconv mb1ic2id2ih3iw2oc4g2kd2kh2kw3sd2sw2pfr1pr1opd1opw1_deconv_ndhwc \
  > "$work/deconv-picked.txt"
"$convcheck" check --inject deconv_outpad_zero --strategies naive --threads 1 --no-shrink \
  --corpus "$work/deconv-onednn" mb2ic4ih3iw4oc6g2kh3kw2sh2sw3pt2pb1pr1oph1opw2_deconv_nhwc >> "$work/deconv-picked.txt"
[ "$(ls "$work"/deconv-picked/*.h5 "$work"/deconv-onednn/*.h5 | wc -l)" -eq 4 ] ||
  { echo "FAIL: the picked deconvs were not all saved:"; cat "$work/deconv-picked.txt"; status=1; }
# A oneDNN deconv finding, made with h5py from the last (which the onednn strategy passes: checked here), for each
# direction on each oneDNN path (the path is a hash of the case index): each program creates oneDNN's deconvolution
# primitives with the strategy's arguments and agrees with its own deconv reference, so a wrong mapping or
# reference fails here.
onednn_deconv=$(ls "$work"/deconv-onednn/*.h5 | head -1)
"$convcheck" repro "$onednn_deconv" --strategies onednn --live > "$work/deconv-onednn.txt" 2>&1 # the injected bug fails
[ "$(grep -cE '^  onednn.* (output|grad_data|grad_weight) .* passed' "$work/deconv-onednn.txt")" -eq 3 ] ||
  { echo "FAIL: onednn does not pass $onednn_deconv:"; cat "$work/deconv-onednn.txt"; status=1; }
if /usr/bin/python3 -c "import h5py" 2> /dev/null; then
  declare -A seen=()
  for index in $(seq 0 99); do
    [ ${#seen[@]} -eq 9 ] && break
    for direction in output grad_data grad_weight; do
      name=onednn-deconv-$index-$direction
      cp "$onednn_deconv" "$work/$name.h5"
      /usr/bin/python3 -c "
import h5py, numpy, sys
with h5py.File(sys.argv[1], 'a') as case:
    case.attrs['case_index'] = int(sys.argv[2])
    for key, value in (('strategy', 'onednn'), ('direction', sys.argv[3]), ('problem', 'made by the test')):
        case['finding'].attrs[key] = numpy.bytes_(value)" "$work/$name.h5" "$index" "$direction"
      "$convcheck" repro "$work/$name.h5" --emit c --out "$work/$name.c" || { echo "FAIL: --emit c $name"; status=1; continue; }
      path=$(grep -o "convcheck's oneDNN path \`[a-z_]*\`" "$work/$name.c" | cut -d'`' -f2)
      [ -n "${seen[$path-$direction]:-}" ] && break # this index's path is done
      seen[$path-$direction]=1
      grep -q "dnnl_deconvolution_forward_primitive_desc_create" "$work/$name.c" || { echo "FAIL: $name.c creates no deconvolution"; status=1; }
      compile "$work/$name.c" "$work/$name" || { echo "FAIL: $name.c does not compile"; status=1; continue; }
      "$work/$name" > "$work/$name.out" 2>&1
      code=$?
      echo "$name ($path path): $(tr '\n' ' ' < "$work/$name.out")"
      grep -q "^this host cannot run" "$work/$name.out" && continue
      [ $code -eq 0 ] && grep -q "^agreed$" "$work/$name.out" || { echo "FAIL: $name exited $code"; status=1; }
    done
  done
  [ ${#seen[@]} -eq 9 ] || { echo "FAIL: the deconv programs covered ${!seen[*]}, not 3 paths by 3 directions"; status=1; }
  # The same finding under the accumulation mode relaxed (oracles/onednn/accumulation_modes.hpp): the C program sets
  # it on its attributes and still agrees (float32: relaxed sums are float32 sums), the benchdnn line names it.
  name=onednn-deconv-relaxed
  cp "$work/onednn-deconv-0-output.h5" "$work/$name.h5"
  /usr/bin/python3 -c "import h5py, numpy, sys; h5py.File(sys.argv[1], 'a').attrs['acc_mode'] = numpy.bytes_('relaxed')" "$work/$name.h5"
  "$convcheck" repro "$work/$name.h5" --emit c --out "$work/$name.c" || { echo "FAIL: --emit c $name"; status=1; }
  grep -q "CHECK(dnnl_primitive_attr_set_accumulation_mode(attr, dnnl_accumulation_mode_relaxed));" "$work/$name.c" ||
    { echo "FAIL: $name.c sets no accumulation mode"; status=1; }
  if compile "$work/$name.c" "$work/$name"; then
    taskset -c 0 "$work/$name" > "$work/$name.out" 2>&1
    code=$?
    echo "$name: $(tr '\n' ' ' < "$work/$name.out")"
    if ! grep -q "^this host cannot run" "$work/$name.out"; then
      [ $code -eq 0 ] && grep -q "^agreed$" "$work/$name.out" || { echo "FAIL: $name exited $code"; status=1; }
    fi
  else
    echo "FAIL: $name.c does not compile"; status=1
  fi
  "$convcheck" repro "$work/$name.h5" --emit benchdnn --out "$work/$name.benchdnn" || { echo "FAIL: --emit benchdnn $name"; status=1; }
  grep -q -- "--attr-scratchpad=user --attr-acc-mode=relaxed mb" "$work/$name.benchdnn" ||
    { echo "FAIL: $name.benchdnn: $(cat "$work/$name.benchdnn")"; status=1; }
fi
# The PyTorch script, on the same cases, under the PyTorch the torch strategies run (venvs/torch/bin/python: PyTorch
# 2.15, which scripts/install-deps.sh installs for the test command), else Debian's /usr/bin/python3 where it has torch:
# it runs each op as a user would and says what it found. None of these is a torch finding, so
# each is written with --emit-anyway: what is tested here is the writer's mapping of the problem. On the injected bug's case torch is
# right (exit 0, "agreed"). #6035's shrunk case is run and its output shown, not judged: torch's values came out
# right with 1 and 2 threads under the AVX2 cap (the over-write is past the scratchpad, which only guard bytes see;
# the C reproducer has them), so the script does not show that bug.
python=/usr/bin/python3
[ -x "$source/venvs/torch/bin/python" ] && python="$source/venvs/torch/bin/python"
if "$python" -c "import torch, h5py" 2> /dev/null; then
  echo "pytorch scripts run by $python: torch $("$python" -c "import torch; print(torch.__version__)" 2> /dev/null)"
  "$convcheck" repro "$mutant" --emit pytorch --emit-anyway --out "$work/mutant.py" || { echo "FAIL: --emit pytorch on $mutant"; status=1; }
  # run from elsewhere: the script finds the case file relative to itself
  (cd / && "$python" "$work/mutant.py") > "$work/mutant.py.out" 2>&1
  code=$?
  cat "$work/mutant.py.out"
  [ $code -eq 0 ] && grep -q "^agreed$" "$work/mutant.py.out" || { echo "FAIL: mutant.py exited $code"; status=1; }
  # A case under an ATen CPU capability (here ATen's `default` kernels, which every host runs): the script sets it
  # before torch dispatches, and agrees.
  cp "$mutant" "$work/default.h5"
  "$python" -c "import h5py, numpy, sys; h5py.File(sys.argv[1], 'a').attrs['aten_capability'] = numpy.bytes_('default')" "$work/default.h5"
  "$convcheck" repro "$work/default.h5" --emit pytorch --emit-anyway --out "$work/default.py" || { echo "FAIL: --emit pytorch on default.h5"; status=1; }
  grep -q '^os.environ\["ATEN_CPU_CAPABILITY"\] = "default"' "$work/default.py" || { echo "FAIL: default.py sets no capability"; status=1; }
  "$python" "$work/default.py" > "$work/default.py.out" 2>&1 && grep -q "^agreed$" "$work/default.py.out" ||
    { echo "FAIL: default.py:"; cat "$work/default.py.out"; status=1; }
  upstream="$source/corpus/upstream/onednn-grad_weight-22d0a043a832b052.h5"
  "$convcheck" repro "$upstream" --emit pytorch --emit-anyway --out "$work/6035.py" || { echo "FAIL: --emit pytorch on $upstream"; status=1; }
  grep -q '^os.environ\["ONEDNN_MAX_CPU_ISA"\] = "AVX2"' "$work/6035.py" || { echo "FAIL: 6035.py sets no cap"; status=1; }
  "$python" "$work/6035.py" 2 > "$work/6035.py.out" 2>&1
  echo "6035.py (2 threads) exited $?:"; cat "$work/6035.py.out"
  # Deconvs, as F.conv_transpose*d: a fuzz's shrunk finding of an injected deconv bug (deconv_outpad_zero, the output
  # padding left zero: convcheck's own bug, so torch agrees), and deconvs saved as found that give the padding
  # mapping work (asymmetric, negative and output padding, groups, channels-last, 1-D and 3-D). The script's float64
  # results must be convcheck's naive ones recorded with the finding, so a wrong mapping fails here, not only a
  # wrong torch.
  "$convcheck" fuzz --cases 300 --seed 1 --inject deconv_outpad_zero --strategies naive --threads 1 \
    --corpus "$work/deconv" > "$work/deconv-fuzz.txt"
  fuzz_deconv=$(ls "$work"/deconv/deconv_outpad_zero-*.h5 2> /dev/null | head -1)
  [ -n "$fuzz_deconv" ] || { echo "FAIL: the fuzz found no deconv_outpad_zero case:"; cat "$work/deconv-fuzz.txt"; status=1; }
  for deconv_case in $fuzz_deconv "$work"/deconv-picked/*.h5 "$onednn_deconv"; do
    name=$(basename "$deconv_case" .h5)
    "$convcheck" repro "$deconv_case" --emit pytorch --emit-anyway --out "$work/$name.py" || { echo "FAIL: --emit pytorch on $name"; status=1; continue; }
    grep -q "^conv_transpose = {1: F.conv_transpose1d" "$work/$name.py" || { echo "FAIL: $name.py calls no conv_transpose"; status=1; }
    "$python" "$work/$name.py" > "$work/$name.py.out" 2>&1
    code=$?
    cat "$work/$name.py.out"
    [ $code -eq 0 ] && grep -q "^agreed$" "$work/$name.py.out" || { echo "FAIL: $name.py exited $code"; status=1; }
    "$python" - "$work/$name.py" "$deconv_case" > /dev/null <<'PY' || { echo "FAIL: $name.py's float64 results are not naive's"; status=1; }
import h5py, numpy, sys
script, case_path = sys.argv[1:]
sys.argv, namespace = [script], {"__file__": script}
try:
    exec(compile(open(script).read(), script, "exec"), namespace)
except SystemExit:
    pass
with h5py.File(case_path, "r") as case:
    recorded = {direction: numpy.array(values) for direction, values in case["results"]["naive"].items()}
assert recorded, "no naive results recorded"
for direction, values in recorded.items():
    computed = namespace["expected"][direction].numpy()
    if computed.shape != values.shape or not numpy.allclose(computed, values, rtol=1e-5, atol=1e-4):
        sys.exit(f"{direction}: the script's float64 result differs from naive's")
PY
  done
  # bfloat16: the script runs torch in bfloat16 (float32 sums) under the bound with its storage term. A float32
  # computation rounded once to bfloat16 must pass it (the script edited to compute that way says "agreed"); what torch
  # itself does depends on the host (ATen 1.13 sends bf16 to Mkldnn on AVX-512 and to its Slow kernels, which round
  # their sums to bf16, on AVX2: docs/findings.md), so its own run is only held to a verdict that matches its exit.
  # The case: an injected bf16 accumulation's finding on 288-term sums in the witness fill.
  "$convcheck" check --inject bf16_accumulate --strategies naive --threads 1 --no-shrink --fill witness \
    --corpus "$work/bf16" mb1ic32ih4iw4oc2kh3kw3pt1pb1pl1pr1_bf16:bf16:bf16:f32 > "$work/bf16-check.txt"
  bf16_case=$(ls "$work"/bf16/bf16_accumulate-output-*.h5 2> /dev/null | head -1)
  if [ -z "$bf16_case" ]; then
    echo "FAIL: no bf16_accumulate case was saved:"; cat "$work/bf16-check.txt"; status=1
  else
    "$convcheck" repro "$bf16_case" --emit benchdnn --emit-anyway > "$work/bf16.benchdnn" && grep -q -- "--dt=bf16 " "$work/bf16.benchdnn" ||
      { echo "FAIL: bf16 benchdnn line: $(cat "$work/bf16.benchdnn")"; status=1; }
    "$convcheck" repro "$bf16_case" --emit pytorch --emit-anyway --out "$work/bf16.py" || { echo "FAIL: --emit pytorch on $bf16_case"; status=1; }
    grep -q "^got, expected, magnitude = run(torch.bfloat16)" "$work/bf16.py" || { echo "FAIL: bf16.py does not run bfloat16"; status=1; }
    sed 's/^got, expected, magnitude = run(torch.bfloat16), /got = {k: v.to(torch.bfloat16) for k, v in run(torch.float32).items()}; expected, magnitude = /' \
      "$work/bf16.py" > "$work/bf16_f32sums.py"
    "$python" "$work/bf16_f32sums.py" > "$work/bf16_f32sums.out" 2>&1 && grep -q "^agreed$" "$work/bf16_f32sums.out" ||
      { echo "FAIL: float32 sums rounded once to bfloat16 fail bf16.py's bound:"; cat "$work/bf16_f32sums.out"; status=1; }
    "$python" "$work/bf16.py" > "$work/bf16.py.out" 2>&1
    code=$?
    echo "bf16.py (torch's own bfloat16 conv on this host) exited $code:"; cat "$work/bf16.py.out"
    { [ $code -eq 0 ] && grep -q "^agreed$" "$work/bf16.py.out"; } || { [ $code -eq 1 ] && grep -q "^the bug shows$" "$work/bf16.py.out"; } ||
      { echo "FAIL: bf16.py exited $code"; status=1; }
  fi
else
  echo "torch or h5py missing from $python: the pytorch scripts are not run"
fi
exit $status
