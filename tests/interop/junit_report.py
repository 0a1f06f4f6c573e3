#!/usr/bin/python3
"""The JUnit report parses as XML and says what a CI dashboard needs.   usage: junit_report.py CONVCHECK WORKDIR"""
import re
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

convcheck, workdir = sys.argv[1], sys.argv[2]
os.makedirs(workdir, exist_ok=True)
junit = os.path.join(workdir, "report.xml")
run = subprocess.run([convcheck, "fuzz", "--cases", "100", "--strategies", "naive,onednn", "--inject", "pad_order",
                      "--corpus", os.path.join(workdir, "findings"), "--junit", junit], capture_output=True, text=True)
assert run.returncode == 1, run.stdout + run.stderr
suite = ElementTree.parse(junit).getroot().find("testsuite")
cases = {(c.get("classname"), c.get("name")): c for c in suite.findall("testcase")}
assert int(suite.get("tests")) == 9 == len(cases), suite.attrib
assert int(suite.get("failures")) == 3, suite.attrib
failure = cases[("pad_order", "output")].find("failure")
assert failure is not None and "repro: convcheck repro " in failure.text, failure.text
assert re.search(r"shrunk to mb1ic1ih1iw[12]oc1kh1kw1p[bl]-?1", failure.text), failure.text
assert cases[("naive", "grad_weight")].find("failure") is None
print("junit report: 1 passed, 0 failed")
