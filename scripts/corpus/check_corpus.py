#!/usr/bin/env python3
"""Cross-check every corpus file under tests/schemas with the Python `jsonschema` package.

For each file: the schema must be a valid schema for its dialect (`$schema`, else draft 2020-12), every
`valid` instance must pass and every `invalid` instance must fail. Formats are checked with the dialect's
FORMAT_CHECKER, which only knows the formats whose optional checkers are installed (see `--formats`).

The generating library (pydantic / zod / serde) is the authority for its family; this script only reports
where a plain JSON Schema validator disagrees with it, which usually means an instance fails for a reason
the schema cannot express. It exits 1 on any disagreement.

Run:  .venv/bin/python scripts/corpus/check_corpus.py [--formats] [FILE_OR_DIR...]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema import FormatChecker
from jsonschema.validators import validator_for

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "schemas"


# jsonschema checks date-time, time and uri only when optional packages (rfc3339-validator, rfc3987) are
# installed; the project venv has neither, so these stand-ins (RFC 3339 grammar, "has a scheme") fill in.
_RFC3339_TIME = r"([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])"
_RFC3339_DATE = r"[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
_FALLBACK_FORMATS = {
    "date-time": re.compile(rf"^{_RFC3339_DATE}[Tt ]{_RFC3339_TIME}$"),
    "time": re.compile(rf"^{_RFC3339_TIME}$"),
    "uri": re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$"),
}


def format_checker(cls: Any) -> FormatChecker:
    checker = FormatChecker(list(cls.FORMAT_CHECKER.checkers))
    checker.checkers = dict(cls.FORMAT_CHECKER.checkers)
    for name, rx in _FALLBACK_FORMATS.items():
        if name not in checker.checkers:
            checker.checks(name)(lambda value, rx=rx: not isinstance(value, str) or bool(rx.match(value)))
    return checker


def validator(schema: Any):
    cls = validator_for(schema, default=jsonschema.Draft202012Validator)
    cls.check_schema(schema)
    return cls(schema, format_checker=format_checker(cls))


def write_checked(out: Path, file: str, source: str, schema: Any, valid: list[Any], invalid: list[Any]) -> int:
    """Writes one corpus entry, keeping only the candidates jsonschema classifies the same way
    (what it accepts as `valid`, what it refuses as `invalid`); returns how many were dropped."""
    assert 1 <= len(valid) <= 3 and len(invalid) <= 3, f"{file}: keep 1-3 valid and 0-3 invalid candidates"
    v = validator(schema)
    keep_valid = [i for i in valid if v.is_valid(i)]
    keep_invalid = [i for i in invalid if not v.is_valid(i)]
    for i in valid:
        if i not in keep_valid:
            print(f"{file}: dropped 'valid' candidate jsonschema rejects: {json.dumps(i)}")
    for i in invalid:
        if i not in keep_invalid:
            print(f"{file}: dropped 'invalid' candidate jsonschema accepts: {json.dumps(i)}")
    entry = {"source": source, "schema": schema, "valid": keep_valid, "invalid": keep_invalid}
    (out / f"{file}.json").write_text(json.dumps(entry, indent=2, ensure_ascii=False) + "\n")
    return len(valid) - len(keep_valid) + len(invalid) - len(keep_invalid)


def disagreements(entry: dict[str, Any]) -> list[str]:
    v = validator(entry["schema"])
    out = []
    for inst in entry.get("valid", []):
        errs = list(v.iter_errors(inst))
        if errs:
            out.append(f"valid instance rejected: {json.dumps(inst)} -- {errs[0].message}")
    for inst in entry.get("invalid", []):
        if v.is_valid(inst):
            out.append(f"invalid instance accepted: {json.dumps(inst)}")
    return out


def main(argv: list[str]) -> int:
    if "--formats" in argv:
        print("formats checked:", ", ".join(sorted(format_checker(jsonschema.Draft202012Validator).checkers)))
        return 0
    targets = [Path(a).resolve() for a in argv] or [CORPUS]
    files: list[Path] = []
    for t in targets:
        files.extend(sorted(t.rglob("*.json")) if t.is_dir() else [t])
    bad = 0
    for f in files:
        entry = json.loads(f.read_text())
        try:
            problems = disagreements(entry)
        except jsonschema.SchemaError as e:
            problems = [f"schema is not valid for its dialect: {e.message}"]
        for p in problems:
            bad += 1
            print(f"{f.relative_to(ROOT)}: {p}")
    print(f"checked {len(files)} files, {bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
