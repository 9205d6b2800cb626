"""Checks TRF files with caissify-pairings' free pairings checker (FIDE Dutch,
C.04.3 2025 rules): one JSON line per file with the rounds compared and, for
each round that differs, caissify's pairing and the file's. Used by
tests/oracle.rs only; caissify-pairings is a test-time oracle, never linked."""
import json
import sys

from caissify_pairings.fpc import check_trf

for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        report = check_trf(text)
    except Exception as exc:  # a file the oracle cannot read
        print(json.dumps({"file": path, "error": str(exc)}))
        continue
    differing = [
        {
            "round": r["round"],
            "oracle": r.get("engine_pairings"),
            "ours": r.get("trf_pairings"),
            "discrepancies": r.get("discrepancies"),
        }
        for r in report["rounds"]
        if not r["match"]
    ]
    s = report["summary"]
    print(json.dumps({"file": path, "checked": s["rounds_checked"], "matched": s["rounds_matched"], "differing": differing}))
    sys.stdout.flush()
