#!/usr/bin/python3
"""How a persistent server should receive a case (docs/external.md, "Choosing the transport"): round trips per
second between two processes for the three ways issue 16 names, with the server computing nothing, so that what
is measured is what the transport costs per case.

  path    the client writes the case as an HDF5 file (h5py, three input datasets and a config group), sends its
          path in a frame; the server opens it, reads the inputs, writes a result file of three datasets and
          answers with its path; the client reads the results back
  inline  the client sends one frame: a JSON header (problem and tensor shapes) and the three inputs' bytes; the
          server answers with one frame holding the three results' bytes
  shm     the inputs go into a shared memory file (/dev/shm) the server maps once; the frame carries only the
          header; the server writes its results into the same mapping and answers with a header

usage: bench/server_transport.py [ELEMENTS...]   (elements per tensor; default 300 3000 300000)

bench/configs.txt's default distribution has tensors of about 50 to 3,000 elements (median about 300).
"""
import json
import mmap
import os
import struct
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

MAGIC = b"CCKF"
HEAD = struct.Struct("<4sIQ")


def write_frame(stream, header, payload=b""):
    body = json.dumps(header).encode()
    stream.write(HEAD.pack(MAGIC, len(body), len(payload)) + body + payload)
    stream.flush()


def read_frame(stream):
    magic, header_bytes, payload_bytes = HEAD.unpack(stream.read(HEAD.size))
    assert magic == MAGIC
    header = json.loads(stream.read(header_bytes))
    return header, stream.read(payload_bytes)


def serve(way):
    """The server side: answer each frame as `way` asks, until stdin closes."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    shared = None
    while True:
        try:
            header, payload = read_frame(stdin)
        except struct.error:
            return
        n = header["elements"]
        if way == "path":
            with h5py.File(header["path"], "r") as f:
                tensors = [f["inputs"][role][...] for role in ("data", "weight", "grad_output")]
            out = header["path"] + ".out"
            with h5py.File(out, "w") as f:
                for name, tensor in zip(("output", "grad_data", "grad_weight"), tensors):
                    f[name] = tensor
            write_frame(stdout, {"path": out})
        elif way == "inline":
            tensors = [np.frombuffer(payload, np.float32, n, 4 * n * i) for i in range(3)]
            write_frame(stdout, {"id": header["id"]}, b"".join(t.tobytes() for t in tensors))
        else:
            if shared is None:
                fd = os.open(header["shm"], os.O_RDWR)
                shared = mmap.mmap(fd, 0)
                os.close(fd)
            tensors = [np.frombuffer(shared, np.float32, n, 4 * n * i) for i in range(3)]
            results = np.frombuffer(shared, np.float32, 3 * n, 12 * n)
            results[:] = np.concatenate(tensors)
            write_frame(stdout, {"id": header["id"]})


def client(way, elements, seconds=2.0):
    """Round trips per second over `seconds`."""
    server = subprocess.Popen([sys.executable, __file__, "--serve", way], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE)
    tensors = [np.random.randn(elements).astype(np.float32) for _ in range(3)]
    directory = tempfile.mkdtemp(prefix="convcheck-transport-")
    shm_path = os.path.join("/dev/shm", os.path.basename(directory))
    shared = None
    if way == "shm":
        with open(shm_path, "wb") as f:
            f.truncate(24 * elements)
        fd = os.open(shm_path, os.O_RDWR)
        shared = mmap.mmap(fd, 0)
        os.close(fd)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        header = {"id": count, "elements": elements, "problem": {"ndims": 2, "batch": 1, "groups": 1}}
        if way == "path":
            path = os.path.join(directory, f"case{count}.h5")
            with h5py.File(path, "w") as f:
                f.create_group("config").attrs["ndims"] = 2
                for role, tensor in zip(("data", "weight", "grad_output"), tensors):
                    f[f"inputs/{role}"] = tensor
            write_frame(server.stdin, dict(header, path=path))
            reply, _ = read_frame(server.stdout)
            with h5py.File(reply["path"], "r") as f:
                results = [f[name][...] for name in ("output", "grad_data", "grad_weight")]
            os.remove(path)
            os.remove(reply["path"])
        elif way == "inline":
            write_frame(server.stdin, header, b"".join(t.tobytes() for t in tensors))
            _, payload = read_frame(server.stdout)
            results = [np.frombuffer(payload, np.float32, elements, 4 * elements * i) for i in range(3)]
        else:
            for i, tensor in enumerate(tensors):
                shared[4 * elements * i: 4 * elements * (i + 1)] = tensor.tobytes()
            write_frame(server.stdin, dict(header, shm=shm_path))
            read_frame(server.stdout)
            results = [np.frombuffer(shared, np.float32, elements, 12 * elements + 4 * elements * i)
                       for i in range(3)]
        assert np.array_equal(results[2], tensors[2])
        count += 1
    elapsed = time.perf_counter() - start
    server.stdin.close()
    server.wait()
    if shared is not None:
        del results
        shared.close()
        os.remove(shm_path)
    os.rmdir(directory)
    return count / elapsed


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        return serve(sys.argv[2])
    sizes = [int(a) for a in sys.argv[1:]] or [300, 3000, 300000]
    print(f"{'elements':>9} {'path':>10} {'inline':>10} {'shm':>10}   (round trips per second, no compute)")
    for elements in sizes:
        rates = [client(way, elements) for way in ("path", "inline", "shm")]
        print(f"{elements:>9} " + " ".join(f"{rate:>10.0f}" for rate in rates))


if __name__ == "__main__":
    main()
