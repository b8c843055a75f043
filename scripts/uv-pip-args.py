"""pip's configuration as uv arguments, one per line (scripts/python-env.sh).

uv reads no pip.conf and no PIP_* variable, so the package indexes, find-links folders and
constraint files a machine sets up for pip would be lost when the venv is made with uv. This
reads `pip config list` (every pip.conf and PIP_* variable, one `scope.key='value'` line each) on
stdin and prints the uv arguments that say the same. A key uv has no flag for is ignored, as is a
line that is not a setting: pip keeps applying it where pip runs.
"""

import re
import shlex
import sys

FLAGS = {
    "index-url": "--index-url",
    "extra-index-url": "--extra-index-url",
    "find-links": "--find-links",
    "constraint": "--constraint",
}

# `global.find-links='/opt/wheels'`, `:env:.extra-index-url='a b'`, `install.constraint='c.txt'`
SETTING = re.compile(r"^(?:[A-Za-z_-]+|:env:)\.([a-z-]+)=(.*)$")


def uv_args(lines):
    args = []
    for line in lines:
        match = SETTING.match(line.strip())
        if not match or match.group(1) not in FLAGS:
            continue
        # pip prints the value quoted; a list (several URLs) is separated by whitespace in it.
        quoted = shlex.split(match.group(2))
        for value in (quoted[0].split() if quoted else []):
            args += [FLAGS[match.group(1)], value]
    return args


if __name__ == "__main__":
    for arg in uv_args(sys.stdin):
        print(arg)
