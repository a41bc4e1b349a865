"""Checks that two audit.json files hold exactly the same document (every
count and every share, compared as parsed JSON); prints each difference.

    python3 compare.py SINGLE/audit.json SPARK/audit.json
"""

import json
import sys


def differences(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                yield f"{path}/{k}: only in {'second' if k in b else 'first'}"
            else:
                yield from differences(a[k], b[k], f"{path}/{k}")
    elif a != b or type(a) is not type(b):
        yield f"{path}: {a!r} != {b!r}"


def main(first, second):
    with open(first) as f:
        a = json.load(f)
    with open(second) as f:
        b = json.load(f)
    diffs = list(differences(a, b))
    for d in diffs:
        print(d)
    ok = not diffs
    print(f"audit.json of {first} and {second}: {'equal' if ok else 'DIFFERENT'}")
    print(f"spark-audit: {int(ok)} passed, {int(not ok)} failed")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
