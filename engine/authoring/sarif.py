"""Validation errors as SARIF 2.1.0, the format code-scanning tools read (GitHub code
scanning, IDE result viewers).

One run, tool ``ferrovia``; each :class:`~ferrovia.errors.DataError` is a result at its file,
line and column (columns count Unicode code points, as Ferrovia's messages do).  Each result
names one of a few rules, so a scanning tool can group them: YAML syntax, schema (keys and
value types), tile codes, and cross-references (everything checked between files).

>>> from ferrovia.errors import DataError
>>> log = sarif_log([DataError("g/map.yaml", 3, 7, "tile code: bad edge")])
>>> log["version"], log["runs"][0]["results"][0]["ruleId"]
('2.1.0', 'tile-code')
>>> log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
{'startLine': 3, 'startColumn': 7}
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import Any

from ferrovia import __version__
from ferrovia.errors import DataError

__all__ = ["RULES", "rule_of", "sarif_log"]

SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)

RULES: dict[str, str] = {
    "yaml": "The file is not valid YAML (or not UTF-8 text)",
    "schema": "A key or value does not fit the file kind's schema",
    "tile-code": "A tile code is not valid tile notation",
    "reference": "A value refers to something the game does not have, or contradicts it",
}
"""Rule id -> what it checks."""

_SCHEMA_WORDS = ("unknown key", "missing required key", "expected ", "duplicate key")


def rule_of(error: DataError) -> str:
    """The rule an error breaks (one of :data:`RULES`)."""
    message = error.message
    if message.startswith(("YAML:", "not UTF-8", "cannot read", "file not found", "the file is")):
        return "yaml"
    if message.startswith("tile code:"):
        return "tile-code"
    if message.startswith(_SCHEMA_WORDS) or ": expected " in message or "duplicate key" in message:
        return "schema"
    return "reference"


def _uri(file: str) -> str:
    """A relative path stays relative (to the checkout, for code scanning); an absolute one
    becomes a file URI."""
    path = Path(file)
    if path.is_absolute():
        return path.as_uri()
    return str(PurePosixPath(*path.parts))


def sarif_log(errors: Iterable[DataError]) -> dict[str, Any]:
    """A SARIF 2.1.0 log (as JSON-ready data) with one result per error."""
    ids = list(RULES)
    results = []
    for e in errors:
        rule = rule_of(e)
        results.append(
            {
                "ruleId": rule,
                "ruleIndex": ids.index(rule),
                "level": "error",
                "message": {"text": e.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": _uri(e.file)},
                            "region": {"startLine": e.line, "startColumn": e.col},
                        }
                    }
                ],
            }
        )
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "ferrovia",
                        "version": __version__,
                        "rules": [
                            {
                                "id": rule,
                                "shortDescription": {"text": text},
                                "defaultConfiguration": {"level": "error"},
                            }
                            for rule, text in RULES.items()
                        ],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
