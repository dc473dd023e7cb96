"""The README's example: scan PDFs, print their tags, and handle files that cannot be read."""

import signprep

record = signprep.scan("testdata/fixtures/base14_courier.pdf")  # a path, bytes or open(..., "rb")
for tag in record["tags"]:
    print(tag["tag_id"], "page", tag["page"], "at", tag["x"], tag["y"], tag["width"], tag["height"])

# Many files: parallel inside signprep, records in input order, an error record per bad file.
for r in signprep.scan_many(["testdata/fixtures/form_choices.pdf", "testdata/hostile/garbage.pdf"]):
    print(r["path"], r["status"], len(r["fields"]), "fields", r.get("error", {}).get("code", ""))

try:
    signprep.scan("testdata/hostile/encrypted_public_key_handler.pdf")
except signprep.PdfEncrypted as e:  # every signprep.Error carries its stable code
    print(e.code, "-", signprep.explain(e.code)["doc"].splitlines()[0])
