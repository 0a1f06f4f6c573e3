# Sourced by the interop tests of the server rooms (tests/interop/*_server.sh): the check each makes of a planted
# error and of a held-back bug, written once.
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
