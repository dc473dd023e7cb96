// A CI gate over a folder: exit 1 when any PDF has an error-level finding (a PDF that
// cannot be parsed is one: pdf_unreadable), 2 when a file cannot be read or converted
// at all. node examples/gate.mjs FOLDER
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { check, SignprepError } from "signprep";

const folder = process.argv[2] ?? ".";
let worst = 0;
for (const f of (await readdir(folder)).filter((x) => x.endsWith(".pdf")).sort()) {
  try {
    const { findings } = await check(join(folder, f));
    for (const x of findings.filter((x) => x.severity === "error")) {
      console.log(`${f}: ${x.code}: ${x.message}`);
      worst = Math.max(worst, 1);
    }
  } catch (e) {
    if (!(e instanceof SignprepError)) throw e;
    console.log(`${f}: ${e.code}`);
    worst = 2;
  }
}
process.exit(worst);
