"""Pre-flight a manifest, then build the request body it describes."""

import json
from typing import Any, Dict, List

import signprep

checked = signprep.check("testdata/example/pack.toml")
errors: List[Dict[str, Any]] = [f for f in checked["findings"] if f["severity"] == "error"]
for f in checked["findings"]:
    print(f["severity"], f["code"], f.get("pointer", ""), f["message"])

if not errors:
    try:
        body = signprep.pack("testdata/example/pack.toml", seed=1)
    except signprep.PackError as e:
        for f in e.findings:
            print(f["code"], f["message"])
        raise SystemExit(1)
    print(json.dumps(body)[:200])
