# The driver of a reproducer `convcheck repro CASE --emit external` writes for a finding of the user's own
# implementation (cmd/emit_external.cpp): the script starts with the case's constants (STRATEGY, KIND, COMMAND,
# REQUEST, PAYLOAD, CASE_FILE, BOUNDS) and SOURCES, convcheck's server helper and NumPy reference as they were when
# it was written, then the import hook (inlined_import.py) and this text. It runs COMMAND as convcheck ran it
# (docs/external.md): a per-case command once, `/bin/sh -c 'COMMAND "$@"' convcheck IN OUT`, on the case file
# convcheck wrote it; a server started with `/bin/sh -c COMMAND`, sent convcheck's hello and the case's request. It
# judges the results against the float64 reference under convcheck's bound of the case (reproducer_judge.py).
#   exit 0: every result within its bound; 1: the bug shows (a value over its bound, a wrong shape, an error, a
#   crash, a run past --timeout); 2: the implementation declined the problem, or computed none of it.
import argparse
import base64
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading

import numpy as np

import convcheck_server  # noqa: E402  (inlined: inlined_import.py, above)
from reproducer_judge import judge  # noqa: E402


class Shown(Exception):
    """The implementation failed in a way that is the bug showing: exit 1 with this message."""


def ended(process, killed):
    """Why a process ended, in words."""
    if killed.is_set():
        return "ran past --timeout"
    if process.returncode is not None and process.returncode < 0:
        return f"was killed by signal {-process.returncode}"
    return f"exited with status {process.returncode}"


def run_command(command, timeout):
    """A per-case command on the case: (results by direction as (array, format), skipped, algorithms)."""
    import h5py  # only a per-case command's output needs it: an HDF5 file

    with tempfile.TemporaryDirectory(prefix="convcheck-reproducer-") as directory:
        case_in, case_out = os.path.join(directory, "in.h5"), os.path.join(directory, "out.h5")
        with open(case_in, "wb") as file:
            file.write(base64.b64decode(CASE_FILE))
        try:
            done = subprocess.run(["/bin/sh", "-c", command + ' "$@"', "convcheck", case_in, case_out],
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Shown(f"the command ran past --timeout {timeout} s")
        if done.returncode == 77:
            return None
        if done.returncode != 0:
            how = f"was killed by signal {-done.returncode}" if done.returncode < 0 else f"exited {done.returncode}"
            raise Shown(f"the command {how}")
        if not os.path.exists(case_out):
            raise Shown("the command exited 0 but wrote no output file")
        with h5py.File(case_out, "r") as out:
            algorithm = out.attrs.get("algorithm")
            algorithm = algorithm.decode() if isinstance(algorithm, bytes) else algorithm
            got = {name: (np.array(out[name]), "float64") for name in ("output", "grad_data", "grad_weight")
                   if name in out}
    skipped = {name: f"the command wrote no {name} dataset" for name in json.loads(REQUEST)["directions"]
               if name not in got}
    return got, skipped, {name: algorithm for name in got}


def run_server(command, timeout):
    """A server on the case's request: (results, skipped, algorithms), or None when it declined the problem."""
    # Its own process group, so that past the timeout the shell and whatever it started are killed together.
    process = subprocess.Popen(["/bin/sh", "-c", command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               start_new_session=True)
    killed = threading.Event()

    def kill():
        killed.set()
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    watchdog = threading.Timer(timeout, kill)
    watchdog.start()
    try:
        try:
            convcheck_server.write_frame(process.stdin, {"type": "hello", "protocol": 1, "convcheck": "reproducer"})
            hello = convcheck_server.read_frame(process.stdout)
            if hello is None:
                process.wait()
                raise Shown(f"the server {ended(process, killed)} before its hello")
            print(f"{STRATEGY}: {' '.join(str(hello[0].get(key, '')) for key in ('name', 'version')).strip()}")
            convcheck_server.write_frame(process.stdin, json.loads(REQUEST),
                                         [np.frombuffer(base64.b64decode(PAYLOAD), np.uint8)])
            frame = convcheck_server.read_frame(process.stdout)
        except BrokenPipeError:
            process.wait()
            raise Shown(f"the server {ended(process, killed)} before reading the case")
        except ValueError as error:
            raise Shown(f"the server broke the protocol: {error}")
        if frame is None:
            process.wait()
            raise Shown(f"the server {ended(process, killed)} without answering the case")
        process.stdin.close()
        process.wait()
    finally:
        watchdog.cancel()
        if process.poll() is None:
            kill()
    reply, payload = frame
    if reply.get("type") == "unsupported":
        print(f"{STRATEGY} declined the problem: {reply.get('reason')}")
        return None
    if reply.get("type") == "error":
        raise Shown(f"the server answered an error: {reply.get('message')}")
    got, offset = {}, 0
    for entry in reply.get("results", []):
        dtype = convcheck_server.BITS.get(entry["dtype"]) or np.dtype(entry["dtype"])
        count = int(np.prod(entry["shape"], dtype=np.int64))
        got[entry["direction"]] = (np.frombuffer(payload, dtype, count, offset).reshape(entry["shape"]), entry["dtype"])
        offset += count * dtype.itemsize
    declared = hello[0].get("algorithm")
    algorithms = {entry["direction"]: entry.get("algorithm") or declared for entry in reply.get("results", [])}
    return got, reply.get("skipped", {}), algorithms


def main():
    parser = argparse.ArgumentParser(description=f"reproduces a {STRATEGY} finding (exit 1 when the bug shows)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds the implementation may take (default 600)")
    parser.add_argument("--command", default=COMMAND,
                        help=f"the {KIND} to run instead of the one the finding was made with")
    arguments = parser.parse_args()
    try:
        ran = (run_command if KIND == "command" else run_server)(arguments.command, arguments.timeout)
    except Shown as shown:
        print(f"{STRATEGY}: {shown}: the bug shows")
        return 1
    if ran is None:
        print(f"{STRATEGY} declined the problem" + (" (exit 77)" if KIND == "command" else ""))
        return 2
    got, skipped, algorithms = ran
    return judge(STRATEGY, json.loads(REQUEST), base64.b64decode(PAYLOAD), got, skipped, algorithms, BOUNDS)


sys.exit(main())
