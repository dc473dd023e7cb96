#!/usr/bin/env node
// Writes records.d.ts: TypeScript types of the records, bodies and manifests, generated
// from the JSON Schemas `signprep schema --write DIR` writes, and of a finding (check,
// pack and migrate results) from the schema the built addon gives of the Rust type
// (`findingSchema()`): never written by hand.
//
//   node scripts/gen-types.mjs [--cli PATH] [--check]
//
// PATH is the signprep binary (default: $SIGNPREP_CLI, else target/debug/signprep,
// else target/release/signprep of the workspace). --check writes nothing and exits 1
// when records.d.ts differs from what the schemas give (the drift test runs it).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const workspace = join(here, "..", "..");

/** The root type of each schema file, by its name. */
const ROOTS = {
  finding: "Finding",
  scan: "ScanRecord",
  pack: "PackBody",
  manifest: "Manifest",
  v0: "V0Requests",
  populate: "PopulateRequests",
};

export function findCli(given) {
  const candidates = [
    given,
    process.env.SIGNPREP_CLI,
    join(workspace, "target", "debug", "signprep"),
    join(workspace, "target", "release", "signprep"),
  ];
  const found = candidates.find((c) => c && existsSync(c));
  if (!found) {
    throw new Error(
      "no signprep binary to read the schemas from: build it (cargo build -p signprep-cli) or pass --cli PATH",
    );
  }
  return found;
}

/** Every schema `signprep schema --write` writes, by name (`scan`, `pack`...), and the
 * addon's `finding`. */
export function readSchemas(cli) {
  const native = createRequire(import.meta.url)(join(here, "native.cjs"));
  const finding = JSON.parse(native.findingSchema());
  finding.title ??= "signprep: finding";
  finding.description ??=
    "One finding of `check`, `pack` or `migrate` (`signprep check --format ndjson`'s, without `value`).";
  return { ...readCliSchemas(cli), finding };
}

function readCliSchemas(cli) {
  const dir = mkdtempSync(join(tmpdir(), "signprep-schema-"));
  try {
    execFileSync(cli, ["schema", "--write", dir], { stdio: ["ignore", "ignore", "inherit"] });
    const out = {};
    for (const f of readdirSync(dir).sort()) {
      const m = /^(.*)\.schema\.json$/.exec(f);
      if (m) out[m[1]] = JSON.parse(readFileSync(join(dir, f), "utf8"));
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function doc(text, indent) {
  if (!text) return "";
  const lines = String(text).replace(/\*\//g, "*\\/").split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join("\n")}\n${indent} */\n`;
}

function paren(t) {
  return /[|&]/.test(t) && !/^\{[\s\S]*\}$/.test(t) ? `(${t})` : t;
}

function union(types) {
  const uniq = [...new Set(types)];
  return uniq.length ? uniq.join(" | ") : "never";
}

/** The TypeScript type of `s`; `ref` maps a `$defs` name to its type name. */
function tsType(s, ref, indent) {
  if (s === true || s === undefined) return "unknown";
  if (s === false) return "never";
  if (s.$ref) {
    const m = /^#\/\$defs\/(.+)$/.exec(s.$ref);
    if (!m) throw new Error(`unsupported $ref ${s.$ref}`);
    return ref(m[1]);
  }
  if ("const" in s) return JSON.stringify(s.const);
  if (s.enum) return union(s.enum.map((v) => JSON.stringify(v)));
  for (const key of ["oneOf", "anyOf"]) {
    if (s[key]) {
      const base = { ...s };
      delete base[key];
      delete base.description;
      const rest = Object.keys(base).length ? tsType(base, ref, indent) : null;
      const alts = union(s[key].map((a) => paren(tsType(a, ref, indent))));
      return rest && rest !== "unknown" ? `${paren(rest)} & (${alts})` : alts;
    }
  }
  if (s.allOf) return s.allOf.map((a) => paren(tsType(a, ref, indent))).join(" & ");
  if (Array.isArray(s.type)) {
    return union(s.type.map((t) => paren(tsType({ ...s, type: t }, ref, indent))));
  }
  switch (s.type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return `Array<${tsType(s.items, ref, indent)}>`;
    case "object":
      return objectType(s, ref, indent);
    case undefined:
      return s.properties ? objectType(s, ref, indent) : "unknown";
    default:
      throw new Error(`unsupported type ${s.type}`);
  }
}

function objectType(s, ref, indent) {
  const inner = indent + "  ";
  const required = new Set(s.required ?? []);
  const lines = [];
  for (const [name, p] of Object.entries(s.properties ?? {})) {
    const key = IDENT.test(name) ? name : JSON.stringify(name);
    const opt = required.has(name) ? "" : "?";
    lines.push(`${doc(p.description, inner)}${inner}${key}${opt}: ${tsType(p, ref, inner)};\n`);
  }
  const extra = [];
  if (s.patternProperties) {
    extra.push(...Object.values(s.patternProperties).map((p) => tsType(p, ref, inner)));
  }
  if (s.additionalProperties !== undefined && s.additionalProperties !== false) {
    extra.push(tsType(s.additionalProperties, ref, inner));
  } else if (s.additionalProperties === undefined && !s.properties && !s.patternProperties) {
    extra.push("unknown");
  }
  if (extra.length) {
    const all = [...extra, ...(lines.length ? ["unknown"] : [])];
    lines.push(`${inner}[key: string]: ${union(all)};\n`);
  }
  return lines.length ? `{\n${lines.join("")}${indent}}` : "Record<string, never>";
}

/** records.d.ts from the schemas. */
export function generate(schemas) {
  // A `$defs` name met in several schemas is shared when its definition is the same,
  // else prefixed with its schema's root type (`V0Request`, `PopulateRequest`).
  const seen = new Map();
  for (const [file, schema] of Object.entries(schemas)) {
    for (const [name, def] of Object.entries(schema.$defs ?? {})) {
      const list = seen.get(name) ?? [];
      list.push({ file, def });
      seen.set(name, list);
    }
  }
  const root = (file) => ROOTS[file] ?? file.replace(/(^|[-_])(\w)/g, (_, __, c) => c.toUpperCase());
  const nameOf = (file, name) => {
    const list = seen.get(name) ?? [];
    const shared = list.every((x) => isDeepStrictEqual(x.def, list[0].def));
    return shared ? name : `${root(file).replace(/Requests$|Body$|Record$/, "")}${name}`;
  };
  let out =
    "// Generated by scripts/gen-types.mjs from the JSON Schemas `signprep schema --write`\n" +
    "// writes: do not edit (the drift test fails when this file and the schemas differ).\n\n";
  const written = new Set();
  for (const [file, schema] of Object.entries(schemas)) {
    const ref = (name) => nameOf(file, name);
    const from = file === "finding" ? "the addon's `findingSchema()`" : `\`signprep schema ${file}\``;
    out += doc(`${schema.title ?? file} (${from}).${schema.description ? "\n\n" + schema.description : ""}`, "");
    out += `export type ${root(file)} = ${tsType({ ...schema, $defs: undefined }, ref, "")};\n\n`;
    for (const [name, def] of Object.entries(schema.$defs ?? {})) {
      const ts = ref(name);
      if (written.has(ts)) continue;
      written.add(ts);
      out += doc(def.description, "");
      out += `export type ${ts} = ${tsType(def, ref, "")};\n\n`;
    }
  }
  return out.trimEnd() + "\n";
}

function main(argv) {
  const cliAt = argv.indexOf("--cli");
  const cli = findCli(cliAt >= 0 ? argv[cliAt + 1] : undefined);
  const text = generate(readSchemas(cli));
  const target = join(here, "records.d.ts");
  if (argv.includes("--check")) {
    const have = existsSync(target) ? readFileSync(target, "utf8") : "";
    if (have !== text) {
      process.stderr.write(`records.d.ts differs from the schemas of ${cli}: run npm run types\n`);
      process.exit(1);
    }
    return;
  }
  writeFileSync(target, text);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2));
}
