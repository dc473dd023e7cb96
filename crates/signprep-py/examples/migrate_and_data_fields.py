"""Migrate a template tagged for Adobe Acrobat Sign, and read a form's fields as data fields."""

import json

import signprep

signers = {"signer1": "client@example.com", "signer2": "Wendy Ward <wendy@example.com>"}
result = signprep.migrate("testdata/migrate/adobe_contract.pdf", signers=signers)
print(result["summary"])
for f in result["findings"]:
    if f["severity"] != "info":
        print(f["severity"], f["code"], f["message"])
body = result["request"]["requests"][0]["body"]
print(len(body["data_fields"]), "fields placed;", json.dumps(body["data_fields"][0]))

# The tags and form fields as the service's data field objects, types overridden by name or glob.
record = signprep.scan("testdata/fixtures/form_geometry.pdf", type_map={"rot*": "text", "*_box": None})
for d in record["data_fields"]:
    print(d["custom_id"], d["type"], d["x"], d["y"], d["width"], d["height"])
