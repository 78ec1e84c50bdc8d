#!/usr/bin/env python3
"""Validates SARIF logs against the official SARIF 2.1.0 schema with format checks on.

usage: validate_sarif.py SCHEMA LOG...   (exit 0: every log is valid; 1: a log is not; 2: cannot check)

The format checks (uri, uri-reference) only run when jsonschema can import a URI parser (Debian's
python3-rfc3987); the script proves they run by rejecting a URI with a space before it checks any log,
so a missing parser fails loudly instead of passing everything.
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("validate_sarif.py: python3-jsonschema is not installed (cmake/install-deps.sh installs it)")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    checker = jsonschema.FormatChecker()
    if checker.conforms("my model #1 100%/config.json", "uri-reference"):
        print("validate_sarif.py: jsonschema does not check URI formats (install python3-rfc3987)", file=sys.stderr)
        return 2
    validator = jsonschema.Draft4Validator(schema, format_checker=checker)
    failed = False
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as f:
            log = json.load(f)
        for error in sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path)):
            where = "/".join(str(p) for p in error.absolute_path)
            print(f"{path}: /{where}: {error.message}", file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
