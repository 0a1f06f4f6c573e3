# The driver of a reproducer `convcheck repro CASE --emit ROOM` writes for a server room (cmd/emit_server.cpp): the
# script starts with the case's constants (STRATEGY, SERVER_SCRIPT, SERVER_ARGUMENTS, REQUEST, PAYLOAD, BOUNDS) and
# SOURCES, the room's server code and convcheck's server helper as they were when the script was written, then the
# import hook (inlined_import.py) and this text. It runs the server's own compute on the request convcheck would send
# it, in a child process (a crash or a hang of the stack is the bug showing, not the end of the script) and judges
# each result against the float64 reference in NumPy under convcheck's bound of the case, carried in BOUNDS
# (reproducer_judge.py).
#   exit 0: every result within its bound; 1: the bug shows (a value over its bound, a wrong shape, an error raised,
#   the process killed or past --timeout); 2: the stack declined the problem (unsupported, every direction skipped).
import argparse
import base64
import json
import os
import pickle
import signal
import sys

import numpy as np

import convcheck_server  # noqa: E402  (inlined: inlined_import.py, above)
from reproducer_judge import judge  # noqa: E402


def run_server():
    """What the room's server answers to the request: starts its script as `python SCRIPT ARGUMENTS...` does, with
    convcheck's serve() replaced by one that keeps the compute function, then answers the request as serve() would."""
    served = {}

    def capture(compute, name="", supports=None, algorithm=None, version=None):
        served.update(compute=compute, name=" ".join(part for part in (name, version) if part),
                      algorithm=algorithm or "direct")

    convcheck_server.serve = capture
    sys.argv = [SERVER_SCRIPT] + SERVER_ARGUMENTS
    module = os.path.splitext(os.path.basename(SERVER_SCRIPT))[0]
    exec(compile(SOURCES[module], SERVER_SCRIPT + " (inlined)", "exec"), {"__name__": "__main__", "__file__": SERVER_SCRIPT})
    if "compute" not in served:
        raise RuntimeError(f"{SERVER_SCRIPT} {' '.join(SERVER_ARGUMENTS)} never called serve()")
    reply, arrays = convcheck_server.answer(json.loads(REQUEST), base64.b64decode(PAYLOAD), served["compute"])
    return reply, [np.array(array) for array in arrays], served["name"], served["algorithm"]


def in_child(timeout):
    """run_server() in a forked child: ("reply", reply, arrays, name, algorithm), ("raised", message) or ("killed",
    why)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        signal.alarm(timeout)  # its default action ends the child: reported as past the timeout
        try:
            outcome = ("reply",) + run_server()
        except BaseException as error:  # noqa: B036 (SystemExit of a server's usage check included)
            outcome = ("raised", f"{type(error).__name__}: {error}")
        with os.fdopen(write, "wb") as pipe:
            pickle.dump(outcome, pipe)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        return ("killed", f"ran past --timeout {timeout} s" if number == signal.SIGALRM
                else f"killed by {signal.Signals(number).name}")
    return pickle.loads(data) if data else ("killed", f"exited with status {os.WEXITSTATUS(status)}, no answer")


def main():
    parser = argparse.ArgumentParser(description=f"reproduces a {STRATEGY} finding (exit 1 when the bug shows)")
    parser.add_argument("--timeout", type=int, default=600, help="seconds the stack may take (default 600)")
    timeout = parser.parse_args().timeout
    request = json.loads(REQUEST)
    outcome = in_child(timeout)
    if outcome[0] != "reply":
        print(f"{STRATEGY}: the stack {'raised ' if outcome[0] == 'raised' else ''}{outcome[1]}: the bug shows")
        return 1
    _, reply, arrays, name, declared = outcome
    print(f"{STRATEGY}: {name}")
    if reply["type"] == "unsupported":
        print(f"{STRATEGY} declined the problem: {reply['reason']}")
        return 2
    if reply["type"] == "error":
        print(f"{STRATEGY} failed: {reply['message']}: the bug shows")
        return 1
    got = {entry["direction"]: (array, entry["dtype"]) for entry, array in zip(reply["results"], arrays)}
    algorithms = {entry["direction"]: entry.get("algorithm") or declared for entry in reply["results"]}
    return judge(STRATEGY, request, base64.b64decode(PAYLOAD), got, reply["skipped"], algorithms, BOUNDS)


sys.exit(main())
