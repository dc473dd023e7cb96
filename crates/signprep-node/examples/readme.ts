// The README's example: scan a PDF, a batch over a folder, and a CI gate.
// CI compiles it with `tsc --strict` against the installed package and runs it:
//   node readme.js FOLDER
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { check, scan, scanMany, SignprepError, type ScanRecord } from "signprep";

async function main(folder: string): Promise<number> {
  // One PDF in memory (an upload, say): its tags with their page-stacked positions.
  const files = (await readdir(folder)).filter((f) => f.endsWith(".pdf")).sort();
  const first = join(folder, files[0] ?? "missing.pdf");
  const record: ScanRecord = await scan(await readFile(first), { name: files[0] });
  for (const tag of record.tags) {
    console.log(`${record.path}: ${tag.tag_id} on page ${tag.page} at (${tag.x}, ${tag.y})`);
  }

  // A batch over a folder: records in input order, progress as they come.
  let tags = 0;
  let failed = 0;
  for await (const r of scanMany(files.map((f) => join(folder, f)), {
    onProgress: (p) => {
      if (p.done % 10 === 0) console.log(`  ${p.done}/${p.total} scanned`);
    },
  })) {
    if (r.status === "error") failed += 1;
    else tags += r.tags.length;
  }
  console.log(`${files.length} files, ${tags} tags, ${failed} could not be scanned`);

  // A CI gate: fail on any error-level finding of a PDF's pre-flight check.
  let errors = 0;
  for (const f of files.slice(0, 5)) {
    try {
      const checked = await check(join(folder, f));
      errors += checked.findings.filter((x) => x.severity === "error").length;
    } catch (e) {
      if (!(e instanceof SignprepError)) throw e;
      console.log(`${e.path}: ${e.code}`);
      errors += 1;
    }
  }
  console.log(`gate: ${errors} error-level finding(s)`);
  return 0;
}

main(process.argv[2] ?? ".").then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(2);
  },
);
