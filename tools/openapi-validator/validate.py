"""Validates OpenAPI documents with openapi-spec-validator, one Python process for many files.

Usage: python3 validate.py [--timeout SECONDS] FILE...

Prints one line per file, in the order given, as soon as it is known:
`OK<TAB>FILE`, or `INVALID<TAB>FILE<TAB>first line of the error`. The `openapi-spec-validator`
command stops at the first invalid file and pays Python's start-up for each call; tests/
fix_validator.rs needs every file's verdict. A file that takes longer than the timeout (a `$ref`
to a URL that does not answer) is INVALID with the reason `timeout`.
"""

import signal
import sys

from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename


class Timeout(Exception):
    pass


def on_alarm(_signum, _frame):
    raise Timeout()


def main(argv):
    timeout = 0
    if len(argv) >= 2 and argv[0] == "--timeout":
        timeout = int(argv[1])
        argv = argv[2:]
    signal.signal(signal.SIGALRM, on_alarm)
    for name in argv:
        signal.alarm(timeout)
        try:
            spec, base_uri = read_from_filename(name)
            validate(spec, base_uri=base_uri)
            verdict = "OK\t" + name
        except Timeout:
            verdict = "INVALID\t" + name + "\ttimeout"
        except Exception as exc:  # the validator's errors, and the reader's
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            verdict = "INVALID\t" + name + "\t" + first[:300]
        finally:
            signal.alarm(0)
        print(verdict, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
