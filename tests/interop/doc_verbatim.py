#!/usr/bin/python3
"""Every code block of a document marked `<!-- verbatim: PATH -->` is exactly the file PATH (relative to the
repository), so an example shown in the docs is the one the tests run.

usage: doc_verbatim.py SOURCE_DIR DOCUMENT...
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
failures, checked = [], 0
for document in sys.argv[2:]:
    text = (root / document).read_text()
    for match in re.finditer(r"<!-- verbatim: (\S+) -->\n```\w*\n(.*?)```", text, re.S):
        checked += 1
        if (root / match[1]).read_text() != match[2]:
            failures.append(f"{document}: the block marked verbatim: {match[1]} differs from the file")
if failures or not checked:
    sys.exit("\n".join(failures) or "no block marked verbatim")
print(f"{checked} verbatim blocks match their files")
