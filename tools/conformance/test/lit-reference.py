"""Reference output from LLVM's own lit for the conformance runner's differential test.

usage: python3 lit-reference.py <lit source dir> <tmp dir> <test file>...

Prints JSON: for each test file, the RUN commands after lit's default substitutions (with %T =
<tmp dir>, %t = <tmp dir>/<file name>.tmp) and the XFAIL/REQUIRES/UNSUPPORTED lists, or the
error that makes lit report the test UNRESOLVED.
"""
import json
import os
import re
import sys

sys.path.insert(0, sys.argv[1])
from lit import TestRunner  # noqa: E402


class _Config:
    substitutions = []


class _Test:
    def __init__(self, path):
        self.path = path
        self.config = _Config()

    def getSourcePath(self):
        return self.path


tmp_dir = sys.argv[2]
out = {}
for path in sys.argv[3:]:
    try:
        parsed = TestRunner._parseKeywords(path)
        tmp_base = os.path.join(tmp_dir, os.path.basename(path))
        subs = TestRunner.getDefaultSubstitutions(_Test(path), tmp_dir, tmp_base)
        lines = TestRunner.applySubstitutions(parsed["RUN:"], subs, {}, None)
        commands = []
        for line in lines:
            m = re.fullmatch(TestRunner.kPdbgRegex, line)
            commands.append(m.group(2).strip() if m else line)
        out[path] = {
            "commands": commands,
            "xfails": parsed["XFAIL:"] or [],
            "requires": parsed["REQUIRES:"] or [],
            "unsupported": parsed["UNSUPPORTED:"] or [],
        }
    except ValueError as e:
        out[path] = {"error": str(e)}
print(json.dumps(out))
