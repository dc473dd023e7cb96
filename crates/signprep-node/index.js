"use strict";
// signprep for Node.js: find `<# TAG_ID #>` text tags, vendor tags and AcroForm fields in
// PDFs; check and build e-signature request JSON. A thin layer over the native addon
// (native.cjs): arguments in, records out. Every record is the JSON text of one
// `signprep scan --format ndjson` line, parsed here (`raw: true` gives the text itself),
// but for `scanMany`'s records as objects, built from tapes (tape.cjs) into the objects
// `JSON.parse` of that line gives (`scanMany`'s iterator: batch.cjs); the work runs on
// signprep's own threads, never on the event loop. Errors: errors.cjs.
const fsp = require("node:fs/promises");
const path = require("node:path");
const { fileURLToPath } = require("node:url");
const native = require("./native.cjs");
const { checkOptions } = require("./options.cjs");
const { SignprepError, abortError, fromNative } = require("./errors.cjs");
const { Records } = require("./batch.cjs");
const { tapesFirst } = require("./tape.cjs");

/**
 * Runs `start(token)` (a native promise), settling early with the signal's reason when
 * it aborts; the token raised stops the native work at its next check.
 */
function run(signal, start, file = null) {
  if (signal && signal.aborted) return Promise.reject(abortError(signal));
  let token = null;
  let work;
  try {
    token = signal ? new native.CancelToken() : null;
    work = start(token);
  } catch (e) {
    return Promise.reject(fromNative(e, file));
  }
  if (!signal) return work.catch((e) => Promise.reject(fromNative(e, file)));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      token.cancel();
      reject(abortError(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(fromNative(e, file));
      },
    );
  });
}

function isBytes(x) {
  return x instanceof Uint8Array || x instanceof ArrayBuffer || ArrayBuffer.isView(x);
}

function asUint8(x) {
  if (x instanceof Uint8Array) return x;
  if (x instanceof ArrayBuffer) return new Uint8Array(x);
  return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
}

function isStream(x) {
  return (
    x !== null &&
    typeof x === "object" &&
    (typeof x[Symbol.asyncIterator] === "function" || typeof x.getReader === "function") &&
    !isBytes(x)
  );
}

/** A readable stream's (Node or web) or an async iterable's bytes. */
async function readAll(stream, signal) {
  const parts = [];
  let size = 0;
  const iterable =
    typeof stream[Symbol.asyncIterator] === "function" ? stream : streamIterable(stream.getReader());
  for await (const chunk of iterable) {
    if (signal && signal.aborted) throw abortError(signal);
    const b = typeof chunk === "string" ? Buffer.from(chunk) : asUint8(chunk);
    parts.push(b);
    size += b.byteLength;
  }
  return Buffer.concat(parts, size);
}

async function* streamIterable(reader) {
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

function pathOf(x) {
  if (typeof x === "string") return x;
  if (x instanceof URL) return fileURLToPath(x);
  return null;
}

/** The bytes of a file, or `io_error` naming it. */
async function readFile(file, signal) {
  try {
    return await fsp.readFile(file, signal ? { signal } : undefined);
  } catch (e) {
    if (e && e.name === "AbortError") throw abortError(signal);
    throw new SignprepError("io_error", `cannot read: ${systemMessage(e)}`, { path: file, cause: e });
  }
}

/** `no such file or directory (ENOENT)` from Node's `ENOENT: no such file or directory, open 'x'`. */
function systemMessage(e) {
  const m = /^[A-Z0-9_]+: ([^,]+)/.exec((e && e.message) || "");
  return m ? `${m[1]} (${e.code})` : String((e && e.message) || e);
}

function list(x) {
  if (x === undefined || x === null) return [];
  return typeof x === "string" || x instanceof URL ? [x] : Array.from(x);
}

function dialectText(d, fallback) {
  if (d === undefined || d === null) return fallback;
  return typeof d === "string" ? d : Array.from(d).join(",");
}

function typeRules(typeMap) {
  if (typeMap === undefined || typeMap === null) return [];
  if (typeof typeMap === "string") {
    throw new TypeError("typeMap is an object or an array of NAME_OR_GLOB=TYPE strings, not a string");
  }
  if (Array.isArray(typeMap)) return typeMap.map(String);
  return Object.entries(typeMap).map(([name, kind]) => `${name}=${kind === null ? "none" : kind}`);
}

async function files(paths, signal) {
  const out = [];
  for (const p of list(paths)) {
    const file = pathOf(p);
    if (file === null) throw new TypeError("anchors are paths (strings or file: URLs)");
    out.push({ path: file, data: await readFile(file, signal) });
  }
  return out.length ? out : undefined;
}

function convertOptions(o) {
  if (o.cacheDir === true) {
    throw new TypeError("cacheDir is a folder, undefined (the default folder) or false (no cache), not true");
  }
  return {
    soffice: o.soffice === undefined || o.soffice === null ? undefined : String(pathOf(o.soffice) ?? o.soffice),
    convertTimeout: o.convertTimeout,
    cacheDir: typeof o.cacheDir === "string" || o.cacheDir instanceof URL ? pathOf(o.cacheDir) : undefined,
    noCache: o.cacheDir === false,
  };
}

/** The native scan options of the JavaScript ones. */
async function scanOptions(o) {
  const anchor = list(o.anchor).map(String);
  return {
    dpi: o.dpi,
    pageWidth: o.pageWidth,
    fields: o.fields,
    applyUserUnit: o.applyUserUnit,
    dialects: dialectText(o.dialects, undefined),
    timeout: o.timeout,
    maxFileSize: o.maxFileSize,
    typeRules: o.dataFields || (o.typeMap !== undefined && o.typeMap !== null) ? typeRules(o.typeMap) : undefined,
    anchorFiles: await files(o.anchors, o.signal),
    anchor: anchor.length ? anchor : undefined,
    ...convertOptions(o),
  };
}

/** A record, or its error thrown as a `SignprepError`. */
function recordOf(line, raw) {
  const record = JSON.parse(line);
  if (record.status === "error") {
    const err = record.error || {};
    throw new SignprepError(String(err.code || "internal_error"), String(err.message || ""), {
      path: record.path,
      record,
    });
  }
  return raw ? line : record;
}

/**
 * Scans one PDF (or `.docx`/`.odt` template): its record, as one
 * `signprep scan --format ndjson` line.
 */
async function scan(input, options = {}) {
  const o = checkOptions("scan", options);
  const nativeOptions = await scanOptions(o);
  const file = pathOf(input);
  let line;
  if (file !== null) {
    line = await run(o.signal, (t) => native.scanPath(file, o.name, nativeOptions, t));
  } else {
    const data = isBytes(input)
      ? asUint8(input)
      : isStream(input)
        ? await readAll(input, o.signal)
        : badInput(input);
    line = await run(o.signal, (t) => native.scanBuffer(data, o.name, nativeOptions, t));
  }
  return recordOf(line, o.raw);
}

function badInput(input) {
  throw new TypeError(
    `expected a path (string or file: URL), a Buffer/Uint8Array, or a readable stream, not ${describe(input)}`,
  );
}

function describe(x) {
  if (x === null) return "null";
  if (typeof x !== "object") return typeof x;
  return (x.constructor && x.constructor.name) || "object";
}

/** The tags and fields of one PDF as the service's Data field objects (`scan --data-fields`). */
async function dataFields(input, options = {}) {
  const o = { ...checkOptions("dataFields", options), dataFields: true, raw: false };
  const record = await scan(input, o);
  return record.data_fields || [];
}

function batchSource(s) {
  const file = pathOf(s);
  if (file !== null) return { path: file };
  if (isBytes(s)) return { data: asUint8(s) };
  if (s && typeof s === "object" && (s.data !== undefined || s.path !== undefined)) {
    if (s.data !== undefined) {
      if (!isBytes(s.data)) throw new TypeError("a source's data is a Buffer/Uint8Array");
      return { data: asUint8(s.data), name: s.name === undefined ? undefined : String(s.name) };
    }
    const p = pathOf(s.path);
    if (p !== null) return { path: p };
  }
  throw new TypeError(
    `a scanMany source is a path, a Buffer/Uint8Array or { name, data }, not ${describe(s)}`,
  );
}

/**
 * Scans many PDFs in parallel: an async iterator of records in input order. A file
 * that cannot be scanned gives its error record in its place (no exception).
 */
function scanMany(inputs, options = {}) {
  const o = checkOptions("scanMany", options);
  const isAsync = inputs && typeof inputs[Symbol.asyncIterator] === "function";
  const source = isAsync
    ? inputs[Symbol.asyncIterator]()
    : inputs && typeof inputs[Symbol.iterator] === "function" && typeof inputs !== "string"
      ? inputs[Symbol.iterator]()
      : null;
  if (source === null) throw new TypeError("scanMany takes an iterable or async iterable of sources");
  const sources = Array.isArray(inputs) ? inputs : null;
  return new Records(source, o, {
    sync: !isAsync,
    total: sources?.length,
    open: () => openBatch(sources, o),
    sourceOf: batchSource,
  });
}

/** The native run of a `scanMany` (a list's templates converted ahead first). */
async function openBatch(sources, o) {
  const nativeOptions = await scanOptions(o);
  if (sources !== null) {
    // A list known up front: its templates are converted ahead, several per LibreOffice
    // process, into the conversion cache (as `signprep scan` does for a folder or a list).
    const paths = sources
      .map((s) => pathOf(s) ?? (s && typeof s === "object" && s.data === undefined ? pathOf(s.path) : null))
      .filter((p) => p !== null);
    if (paths.some((p) => /\.(docx|odt)$/i.test(p))) {
      try {
        await native.prepareTemplates(paths, nativeOptions);
      } catch (e) {
        throw fromNative(e);
      }
      if (o.signal && o.signal.aborted) throw abortError(o.signal);
    }
  }
  // Records as objects come as tapes; as JSON lines for the first MB of a short or
  // unknown-length run in a process whose tape reader is still cold (tape.cjs).
  const linesFirstBytes = tapesFirst(sources?.length) ? 0 : undefined;
  try {
    return new native.Batch(nativeOptions, o.jobs ?? 0, o.window, o.raw === true, linesFirstBytes);
  } catch (e) {
    throw fromNative(e);
  }
}

/** Pre-flight: every rule over a PDF, a template, a request body or a manifest. */
async function check(input, options = {}) {
  const o = checkOptions("check", options);
  let data;
  let name;
  let template = null;
  const file = pathOf(input);
  if (file !== null) {
    data = file;
    name = o.name ?? file;
    const ext = path.extname(file).toLowerCase();
    template = ext === ".docx" || ext === ".odt" ? ext.slice(1) : null;
  } else if (isBytes(input)) {
    data = asUint8(input);
    name = o.name ?? "-";
    template = "sniff";
  } else if (isStream(input)) {
    data = await readAll(input, o.signal);
    name = o.name ?? "-";
    template = "sniff";
  } else if (input !== null && typeof input === "object") {
    data = Buffer.from(JSON.stringify(input));
    name = o.name ?? "-";
  } else {
    badInput(input);
  }
  const templates = list(o.templates).map((t) => (typeof t === "string" ? t : JSON.stringify(t)));
  const nativeOptions = {
    kind: o.kind,
    maxPayload: o.maxPayload,
    templates,
    template: template ?? undefined,
    ...convertOptions(o),
  };
  const line = await run(o.signal, (t) => native.checkInput(data, name, nativeOptions, t), name);
  const record = JSON.parse(line);
  if (record.error) {
    throw new SignprepError(String(record.error.code || "convert_failed"), String(record.error.message || ""), {
      path: name,
    });
  }
  const findings = record.findings;
  if (record.kind === null && findings.every((f) => f.code === "kind_unknown")) {
    // Nothing was checked; the finding says why, naming `kind:`.
    const why = findings.length ? findings[0].message : "cannot tell what this is";
    throw new SignprepError("kind_unknown", why, { path: name, findings });
  }
  return o.raw ? line : record;
}

function stopped(findings, file) {
  const errors = findings.filter((f) => f.severity === "error");
  const first = errors[0] || { code: "internal_error", message: "nothing built" };
  return new SignprepError(
    String(first.code),
    `${errors.length} error-level finding(s); the first: ${first.message}`,
    { path: file, findings },
  );
}

/** The v1 pack request body of a manifest (TOML or JSON file, or an object). */
async function pack(manifest, options = {}) {
  const o = checkOptions("pack", options);
  let data;
  let file;
  const given = pathOf(manifest);
  if (given !== null) {
    file = given;
    data = file;
  } else if (manifest !== null && typeof manifest === "object" && !isBytes(manifest)) {
    data = Buffer.from(JSON.stringify(manifest));
    const base = o.baseDir === undefined ? process.cwd() : pathOf(o.baseDir) ?? String(o.baseDir);
    file = path.join(base, "manifest.json");
  } else {
    throw new TypeError(`pack takes a manifest's path or a manifest object, not ${describe(manifest)}`);
  }
  const out = JSON.parse(await run(o.signal, (t) => native.packManifest(data, file, o.seed, t), file));
  if (out.body === null) throw stopped(out.findings, file);
  return out.body;
}

/** Migrates a PDF tagged for another vendor, as `signprep migrate`. */
async function migrate(input, options = {}) {
  const o = checkOptions("migrate", options);
  const signersFile = o.signersFile === undefined || o.signersFile === null ? undefined : pathOf(o.signersFile);
  if (o.signersFile !== undefined && o.signersFile !== null && signersFile === null) {
    throw new TypeError("signersFile is a path");
  }
  const anchor = list(o.anchor).map(String);
  const nativeOptions = {
    signers: Object.entries(o.signers || {}).map(([k, v]) => `${k}=${v}`),
    signersFile: signersFile ? { path: signersFile, data: await readFile(signersFile, o.signal) } : undefined,
    dialects: dialectText(o.dialects, "all"),
    mapType: Object.entries(o.mapType || {}).map(([k, v]) => `${k}=${v === null ? "none" : v}`),
    template: o.template,
    strip: o.strip,
    dpi: o.dpi,
    pageWidth: o.pageWidth,
    applyUserUnit: o.applyUserUnit,
    anchorFiles: await files(o.anchors, o.signal),
    anchor: anchor.length ? anchor : undefined,
    ...convertOptions(o),
  };
  let data;
  let upload = null;
  let shown = o.name ?? "-";
  const file = pathOf(input);
  if (file !== null) {
    data = file;
    upload = file;
    shown = o.name ?? file;
    // A file is a template by its extension, as `signprep migrate` tells it.
    const ext = path.extname(file).toLowerCase();
    if (ext === ".docx" || ext === ".odt") nativeOptions.format = ext.slice(1);
  } else if (isBytes(input)) {
    data = asUint8(input);
    nativeOptions.format = "sniff";
  } else if (isStream(input)) {
    data = await readAll(input, o.signal);
    nativeOptions.format = "sniff";
  } else {
    badInput(input);
  }
  const stem = shown !== "-" ? path.basename(shown, path.extname(shown)) : "";
  const out = await run(o.signal, (t) => native.migrateInput(data, upload, stem || "document", nativeOptions, t), shown);
  const result = JSON.parse(out.json);
  if (result.request === null) throw stopped(result.findings, shown);
  if (out.pdf) result.pdf = out.pdf;
  else if (out.stripped) result.stripped = out.stripped;
  return result;
}

/** What a code means: `{ code, severity, doc }`, or `undefined` for an unknown code. */
function explain(code) {
  return native.explain(String(code)) ?? undefined;
}

/** Every documented code: pack and check rules, scan findings, error records. */
function codes() {
  return native.codes();
}

// LibreOffice's scratch folders and profiles, kept for the process, go at exit.
process.once("exit", () => native.releaseConverters());

module.exports = {
  SignprepError,
  version: native.version(),
  scan,
  scanMany,
  dataFields,
  check,
  pack,
  migrate,
  explain,
  codes,
};
