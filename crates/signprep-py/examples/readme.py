"""The README's example: scan a PDF, print its tags, and handle a file that cannot be read."""

import json

import signprep

record = signprep.scan("testdata/fixtures/base14_courier.pdf")  # or bytes, or open(..., "rb")
for tag in record["tags"]:
    print(tag["tag_id"], "page", tag["page"], "at", tag["x"], tag["y"], tag["width"], tag["height"])
print(json.dumps(record["diagnostics"]))

try:
    signprep.scan("testdata/hostile/encrypted_public_key_handler.pdf")
except signprep.PdfEncrypted as e:  # every signprep.Error carries its stable code
    print(e.code, "-", signprep.explain(e.code)["doc"].splitlines()[0])
