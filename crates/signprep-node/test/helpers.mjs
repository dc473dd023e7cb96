// Shared by the tests: the package under test (the source folder, or the installed
// tarball named by $SIGNPREP_NODE_PACKAGE), the repository's test data, and the CLI
// whose records the package's must equal ($SIGNPREP_CLI, else target/debug/signprep).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, "..", "..", "..");
export const pkgDir = resolve(process.env.SIGNPREP_NODE_PACKAGE ?? join(here, ".."));
export const signprep = createRequire(import.meta.url)(pkgDir);
export const esm = () => import(pathToFileURL(join(pkgDir, "index.mjs")).href);
export const fixtures = join(root, "testdata", "fixtures");
export const corpus = resolve(root, "..", "shared", "corpus");

export function cliPath() {
  const cli = process.env.SIGNPREP_CLI ?? join(root, "target", "debug", "signprep");
  if (!existsSync(cli)) throw new Error(`no CLI at ${cli}: cargo build -p signprep-cli, or set SIGNPREP_CLI`);
  return cli;
}

/** Every file under `dir` ending with `ext`, sorted, as absolute paths. */
export function filesIn(dir, ext = ".pdf") {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.toLowerCase().endsWith(ext)) out.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out.sort();
}

/** `signprep scan --format ndjson` lines of `files` (in order), with `args` added. */
export function cliScan(files, args = []) {
  const dir = mkdtempSync(join(tmpdir(), "signprep-node-test-"));
  try {
    const list = join(dir, "files.txt");
    writeFileSync(list, files.join("\n") + "\n");
    const out = spawnSync(
      cliPath(),
      ["scan", "--format", "ndjson", "--no-summary", "--quiet", ...args, "--files-from", list],
      { encoding: "utf8", maxBuffer: 1 << 30 },
    );
    if (out.status === null || out.status > 2) throw new Error(`signprep scan failed: ${out.stderr}`);
    return out.stdout.split("\n").filter((l) => l.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the CLI with `args`: its standard output (exit 0, 1 or 2 alike). */
export function cli(args) {
  const out = spawnSync(cliPath(), args, { encoding: "utf8", maxBuffer: 1 << 30 });
  return out.stdout;
}

/** Every record of `scanMany` as its JSON line. */
export async function lines(iterable) {
  const out = [];
  for await (const l of iterable) out.push(l);
  return out;
}

/**
 * A PDF of `pages` pages, each with `lines` lines of text and a tag: valid, with a
 * correct cross-reference table (large ones make a scan take a while).
 */
export function bigPdf(pages, lines = 60) {
  const objs = [];
  const kids = [];
  objs.push("<< /Type /Catalog /Pages 2 0 R >>");
  objs.push(null); // the page tree, written once the pages are known
  objs.push("<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>");
  for (let p = 0; p < pages; p++) {
    let text = "BT /F1 10 Tf 72 760 Td 12 TL\n";
    for (let l = 0; l < lines; l++) text += `(line ${l} of page ${p} with some words in it) '\n`;
    text += `(<# SIG_${p} #>) '\nET`;
    objs.push(`<< /Length ${text.length} >>\nstream\n${text}\nendstream`);
    const content = objs.length;
    objs.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${content} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
    );
    kids.push(`${objs.length} 0 R`);
  }
  objs[1] = `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${pages} >>`;
  // ASCII only: a string's length is its byte length.
  const parts = ["%PDF-1.7\n"];
  let at = parts[0].length;
  const offsets = [];
  objs.forEach((o, i) => {
    offsets.push(at);
    const obj = `${i + 1} 0 obj\n${o}\nendobj\n`;
    parts.push(obj);
    at += obj.length;
  });
  let out = parts.join("");
  const xref = at;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out);
}
