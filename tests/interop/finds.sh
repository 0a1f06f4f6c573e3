# Sourced by the interop tests of the server rooms (tests/interop/*_server.sh): the checks each makes of a planted
# error, of a held-back bug and of their reproducers, written once.
#   finds LOG PATTERN WHY COMMAND...: runs COMMAND, its output in LOG; it must exit 1 (a finding) and print PATTERN,
#   or the test fails, saying WHY and the exit status and showing LOG.
finds() {
  local log=$1 pattern=$2 why=$3 status=0
  shift 3
  "$@" >"$log" 2>&1 || status=$?
  if [[ $status != 1 ]] || ! grep -q -- "$pattern" "$log"; then
    echo "$(basename "$0"): $why (exit $status):" >&2
    cat "$log" >&2
    exit 1
  fi
}

#   reproduces ROOM PYTHON CASE STATUS [NAME=VALUE...] [--OPTION=VALUE...]: `convcheck repro --emit ROOM` of CASE (a
#   case file, or the first one in a directory; cmd/emit_server.cpp) must write a script that PYTHON, run from the
#   case's directory with the environment and options given and nothing of convcheck, ends with exit STATUS: 1 where
#   the case's bug is in the stack (or planted), 0 where the stack is right. Uses the test's $convcheck.
reproduces() {
  local room=$1 python=$2 case_file=$3 want=$4 status=0 script argument
  local -a environment=() options=()
  shift 4
  for argument in "$@"; do
    if [[ $argument == --* ]]; then options+=("$argument"); else environment+=("$argument"); fi
  done
  [[ -d $case_file ]] && case_file=$(find "$case_file" -name '*.h5' | sort | head -1)
  script=${case_file%.h5}-$room.py
  if [[ -z $case_file ]] || ! "$convcheck" repro "$case_file" --emit "$room" --out "$script" 2>"$script.log"; then
    echo "$(basename "$0"): repro --emit $room of '$case_file' failed:" >&2
    cat "$script.log" >&2
    exit 1
  fi
  (cd "$(dirname "$case_file")" && env "${environment[@]}" "$python" "$script" "${options[@]}") >"$script.log" 2>&1 ||
    status=$?
  if [[ $status != "$want" ]]; then
    echo "$(basename "$0"): the --emit $room reproducer of $case_file exited $status, not $want:" >&2
    cat "$script.log" >&2
    exit 1
  fi
  echo "repro --emit $room of $(basename "$case_file") ${environment[*]}: exit $status: $(tail -1 "$script.log")"
}
