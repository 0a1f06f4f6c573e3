#!/usr/bin/python3
"""oracles/outside/python/numpy_server.py with one fault, to test how convcheck takes every way a server can fail
(tests/cmd/server_test.cpp).

usage: faulty_server.py FAULT N [MARKER]

FAULT happens on the Nth case this process is sent (counting from 1), or at start:
  none            a correct server
  crash           kills itself with SIGSEGV
  exit            exits 3 after writing to stderr
  hang            sleeps forever (and has started a child that sleeps too, to be killed with it)
  wrong           from case N on, returns grad_weight times 1.01 for problems with more than one group
  garbage         writes text to stdout instead of a frame
  bad_json        sends a frame whose header is not JSON
  short_payload   sends results whose payload is shorter than their shapes
  wrong_id        answers with another request's id
  short_dtype     names its results' format "f32" (the descriptor's word) instead of "float32"
  error           answers with an error frame (a finding; the server goes on)
  unsupported     answers "unsupported" for every case
  leak            dies of "out of memory" (exit 137) once it has served N cases; --external-server-max-cases < N
                  keeps it alive
  exit_at_start   exits 1 before its hello, saying why on stderr
  hang_at_start   never says hello
  wrong_version   says hello with protocol 99
  rank2           declares ranks [2] and float64 only in its hello, and answers an error for any other problem
  typo            declares "dtypes": ["f32"] (a typo of float32) in its hello: convcheck can send it nothing
  f32_2d          declares ranks [2] and float32 only in its hello, and answers an error for any other problem
MARKER is ignored: it names the test's processes (and the child `hang` starts) so the test can check none is left
over. With FAULTY_SERVER_LOG set, each process appends "start PID" when it starts and "case PID" for each case.
"""
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "oracles", "outside", "python"))
import convcheck_server  # noqa: E402
from numpy_server import compute  # noqa: E402

fault, n = sys.argv[1], int(sys.argv[2])
marker = sys.argv[3] if len(sys.argv) > 3 else ""
cases = 0


def log(event):
    if os.environ.get("FAULTY_SERVER_LOG"):
        with open(os.environ["FAULTY_SERVER_LOG"], "a") as f:
            f.write(f"{event} {os.getpid()}\n")


log("start")

if fault == "exit_at_start":
    print("faulty_server: cannot open the device", file=sys.stderr)
    sys.exit(1)
if fault == "hang_at_start":
    time.sleep(3600)
if fault == "hang":
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)", marker])


def faulty_answer(header, payload, answer):
    global cases
    cases += 1
    log("case")
    wanted = {"rank2": "float64", "f32_2d": "float32"}.get(fault)
    if wanted and (header["problem"]["ndims"] != 2 or header["problem"]["src_dtype"] != wanted):
        return {"type": "error", "id": header["id"], "message": "sent a problem outside the hello"}, ()
    if fault == "wrong" and cases >= n and header["problem"]["groups"] > 1:
        reply, arrays = answer(header, payload, compute)
        return reply, [array * 1.01 if entry["direction"] == "grad_weight" else array
                       for entry, array in zip(reply["results"], arrays)]
    if fault == "leak" and cases > n:
        print("faulty_server: out of memory", file=sys.stderr)
        os._exit(137)
    if cases != n:
        return answer(header, payload, compute)
    if fault == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if fault == "exit":
        print(f"faulty_server: giving up on case {header['id']}", file=sys.stderr)
        sys.exit(3)
    if fault == "hang":
        time.sleep(3600)
    if fault == "garbage":
        return "garbage"
    if fault == "bad_json":
        return "bad_json"
    reply, arrays = answer(header, payload, compute)
    if fault == "short_payload":
        return "short_payload", reply, arrays
    if fault == "wrong_id":
        reply["id"] = header["id"] + 1
    if fault == "short_dtype":
        for entry in reply["results"]:
            entry["dtype"] = {"float32": "f32", "float64": "f64"}[entry["dtype"]]
    if fault == "error":
        reply, arrays = {"type": "error", "id": header["id"], "message": "cuda out of memory"}, ()
    if fault == "unsupported":
        reply, arrays = {"type": "unsupported", "id": header["id"], "reason": "only on Tuesdays"}, ()
    return reply, arrays


def serve():
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr
    if convcheck_server.read_frame(stdin) is None:
        return
    version = 99 if fault == "wrong_version" else convcheck_server.PROTOCOL
    hello = {"type": "hello", "protocol": version, "name": f"faulty {fault}"}
    if fault == "rank2":
        hello["supports"] = {"ranks": [2], "dtypes": ["float64"]}
    if fault == "f32_2d":
        hello["supports"] = {"ranks": [2], "dtypes": ["float32"]}
    if fault == "typo":
        hello["supports"] = {"dtypes": ["f32"]}
    convcheck_server.write_frame(stdout, hello)
    while (frame := convcheck_server.read_frame(stdin)) is not None:
        answered = faulty_answer(*frame, convcheck_server.answer)
        if answered == "garbage":
            stdout.write(b"Traceback (most recent call last): oops\n")
            stdout.flush()
        elif answered == "bad_json":
            body = b"{not json"
            stdout.write(convcheck_server.PREFIX.pack(convcheck_server.MAGIC, len(body), 0) + body)
            stdout.flush()
        elif answered[0] == "short_payload":
            _, reply, arrays = answered
            convcheck_server.write_frame(stdout, reply, [array[..., :0] for array in arrays])
        else:
            convcheck_server.write_frame(stdout, *answered)


serve()
