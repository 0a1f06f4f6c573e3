#!/usr/bin/python3
"""The newcomer's walk of docs/external.md, "From a finding to a fix to a corpus case", run as written: every
command of that block, in order, in a fresh directory, on my_server.py, the NumPy server the same document shows
(oracles/outside/python/numpy_server.py) with a bug planted (grouped weight gradients 1% off). The fix is the file
as shown. Each command must end as the walk says: the campaign and the replay exit 1 while the bug is in, `repro
--live` exits 1 before the fix and 0 after, the corpus takes the case, and `corpus run` passes the fix and fails the
bug put back.

usage: newcomer_walk.py SOURCE_DIR CONVCHECK
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

root, binary = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2]).resolve()
document = (root / "docs/external.md").read_text()
block = re.search(r"### From a finding to a fix to a corpus case\n\n```sh\n(.*?)```", document, re.S)
if not block:
    sys.exit("docs/external.md has no block under 'From a finding to a fix to a corpus case'")
lines = [line for line in block[1].splitlines() if line.strip()]

correct = (root / "oracles/outside/python/numpy_server.py").read_text()
returned = '"grad_weight": dw.reshape(weight.shape)'
if returned not in correct:
    sys.exit(f"numpy_server.py no longer returns {returned}: plant the bug elsewhere")
buggy = correct.replace(returned, '"grad_weight": (dw * (1.01 if g > 1 else 1)).reshape(weight.shape)')

work = pathlib.Path(tempfile.mkdtemp(prefix="convcheck-walk-"))
(work / "bin").mkdir()
(work / "bin" / "convcheck").symlink_to(binary)
environment = dict(os.environ, PATH=f"{work / 'bin'}:{os.environ['PATH']}",
                   PYTHONPATH=str(root / "oracles/outside/python"))


def run(line):
    """The line through bash in the walk's directory: its exit status."""
    done = subprocess.run(["bash", "-c", line], cwd=work, env=environment, capture_output=True, text=True)
    print(f"$ {line}\n  exit {done.returncode}")
    if done.returncode not in (0, 1):
        print(done.stdout[-2000:], done.stderr[-2000:])
    return done.returncode


failures = []


def expect(line, status, when):
    got = run(line)
    if got != status:
        failures.append(f"{when}: `{line}` exited {got}, not {status}")


(work / "my_server.py").write_text(buggy)
fixed = False
for line in lines:
    command = line.split("#")[0].strip()
    if not command:
        if "fix my_server.py" in line:
            (work / "my_server.py").write_text(correct)
            fixed = True
        continue
    if " fuzz " in command:
        expect(command, 1, "the campaign, with the bug in")
    elif " repro --live " in command:
        if not fixed:
            failures.append("the walk replays --live before its fix line")
        (work / "my_server.py").write_text(buggy)
        expect(command, 1, "repro --live, with the bug in")
        (work / "my_server.py").write_text(correct)
        expect(command, 0, "repro --live, after the fix")
    elif " repro " in command:
        expect(command, 1, "repro, with the bug in")
    elif " corpus add " in command:
        expect(command, 0, "corpus add")
    elif " corpus run " in command:
        expect(command, 0, "corpus run, after the fix")
        (work / "my_server.py").write_text(buggy)
        expect(command, 1, "corpus run, with the bug put back")
        (work / "my_server.py").write_text(correct)
    else:
        failures.append(f"the walk has a command this test does not know: `{command}`")
if not fixed:
    failures.append("the walk has no '... fix my_server.py ...' line")
shutil.rmtree(work)
if failures:
    sys.exit("\n".join(failures))
print(f"the walk's {len(lines)} lines ran as docs/external.md says")
