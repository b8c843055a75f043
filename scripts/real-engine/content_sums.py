"""What check-trained.sh compares: one `sha256  path` line per file of a trained-model folder.

Weights, tokenizer and data are hashed byte for byte. A JSON file that records the version of the
library that wrote it (`transformers_version` in hf/config.json and hf/generation_config.json) is
hashed by its content without that stamp: the key and every other value sorted and written the
same way. Why: the stamp changes whenever the transformers pin moves (python/locks/helm.txt), the
weights do not, and a weight that changed still changes its hash. SHA256SUMS, KEY and
training.json (the seconds the training took) are not compared.

    python content_sums.py FOLDER
"""

import hashlib
import json
import os
import sys

NOT_COMPARED = {"SHA256SUMS", "KEY", "training.json"}
WRITER_STAMPS = ("transformers_version",)


def comparable_bytes(path):
    data = open(path, "rb").read()
    if not path.endswith(".json"):
        return data
    content = json.loads(data)
    if not isinstance(content, dict) or not any(key in content for key in WRITER_STAMPS):
        return data
    for key in WRITER_STAMPS:
        content.pop(key, None)
    return json.dumps(content, sort_keys=True, separators=(",", ":")).encode()


def content_sums(folder):
    lines = []
    for parent, _, files in os.walk(folder):
        for name in files:
            rel = os.path.relpath(os.path.join(parent, name), folder)
            if rel in NOT_COMPARED:
                continue
            lines.append(f"{hashlib.sha256(comparable_bytes(os.path.join(folder, rel))).hexdigest()}  {rel}")
    return sorted(lines, key=lambda line: line.split("  ", 1)[1])


if __name__ == "__main__":
    print("\n".join(content_sums(sys.argv[1])))
