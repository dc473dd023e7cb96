"use strict";
// The options of the package's functions, checked before anything is read. An unknown key
// (`dpii`, or Python's `page_width`) and a value of the wrong type or out of range are
// thrown, named, as Node's own argument errors are (`TypeError` with `code`
// ERR_INVALID_ARG_TYPE or ERR_INVALID_ARG_VALUE, `RangeError` with ERR_OUT_OF_RANGE): before
// this, an unknown key was ignored, `timeout: -1` taken as "no limit", and `dpi: "96"`
// reached the caller as a SignprepError `internal_error` in napi's words. The ranges of dpi
// and pageWidth are the core's, checked on the native side (one table for every front end).

const CALL = ["signal"];
const CONVERT = ["soffice", "convertTimeout", "cacheDir"];
const SCAN = [
  ...CALL,
  ...CONVERT,
  "dpi",
  "pageWidth",
  "fields",
  "applyUserUnit",
  "timeout",
  "maxFileSize",
  "dialects",
  "dataFields",
  "typeMap",
  "anchors",
  "anchor",
  "name",
  "raw",
];

/** The keys each function takes (index.d.ts: its options interface). */
const KNOWN = {
  scan: SCAN,
  dataFields: SCAN,
  scanMany: [...SCAN.filter((k) => k !== "name"), "jobs", "window", "onProgress"],
  check: [...CALL, ...CONVERT, "kind", "maxPayload", "templates", "name", "raw"],
  pack: [...CALL, "baseDir", "seed"],
  migrate: [
    ...CALL,
    ...CONVERT,
    "signers",
    "signersFile",
    "dialects",
    "mapType",
    "template",
    "strip",
    "dpi",
    "pageWidth",
    "applyUserUnit",
    "anchors",
    "anchor",
    "name",
  ],
};

/** Longest wait a timeout may name (std's Duration: 2**64 seconds). */
const MAX_SECONDS = 2 ** 64;

function argError(Ctor, code, message) {
  const e = new Ctor(message);
  e.code = code;
  return e;
}

function shown(v) {
  if (v === null) return "null";
  if (typeof v === "string") return `string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 37)}...` : v)}`;
  if (typeof v === "object" || typeof v === "function") {
    return (v.constructor && v.constructor.name) || typeof v;
  }
  return `${typeof v} ${String(v)}`;
}

function wrongType(fn, key, want, v) {
  return argError(TypeError, "ERR_INVALID_ARG_TYPE", `${fn}: \`${key}\` is ${want}, not ${shown(v)}`);
}

function outOfRange(fn, key, want, v) {
  return argError(RangeError, "ERR_OUT_OF_RANGE", `${fn}: \`${key}\` is ${want}, not ${String(v)}`);
}

function number(fn, key, v) {
  if (typeof v !== "number") throw wrongType(fn, key, "a number", v);
}

function flag(fn, key, v) {
  if (typeof v !== "boolean") throw wrongType(fn, key, "true or false", v);
}

function text(fn, key, v) {
  if (typeof v !== "string") throw wrongType(fn, key, "a string", v);
}

/** Seconds: 0 or more (0: no limit) when `zero` says so, else above 0; finite. */
function seconds(zero) {
  return (fn, key, v) => {
    number(fn, key, v);
    const least = zero ? "0 or more (0: no limit)" : "above 0";
    if (!(v > 0 || (zero && v === 0)) || !(v < MAX_SECONDS)) {
      throw outOfRange(fn, key, `a number of seconds ${least}, under 2**64`, v);
    }
  };
}

/** A whole number from `least` to `most` (exact in a double); `what` it counts. */
function count(least, what, most = Number.MAX_SAFE_INTEGER) {
  return (fn, key, v) => {
    number(fn, key, v);
    if (!Number.isSafeInteger(v) || v < least || v > most) {
      const range = most === Number.MAX_SAFE_INTEGER ? `${least} or more` : `from ${least} to ${most}`;
      throw outOfRange(fn, key, `a whole number${what}, ${range}`, v);
    }
  };
}

/** The most worker threads a run may have (the core's bound, from the addon). */
const MAX_JOBS = require("./native.cjs").maxJobs();

/** The largest window the native side takes (a u32). */
const U32 = 2 ** 32 - 1;

/** A string, or an array of strings (`dialects: "adobe,dropbox"` or `["signnow"]`). */
function names(fn, key, v) {
  if (typeof v === "string") return;
  if (!Array.isArray(v)) throw wrongType(fn, key, "a string or an array of strings", v);
  for (const item of v) {
    if (typeof item !== "string") throw wrongType(fn, `${key}[]`, "a string", item);
  }
}

/** A plain object of strings (or nulls, when `nulls`): `signers`, `mapType`. */
function table(nulls) {
  return (fn, key, v) => {
    if (typeof v !== "object" || Array.isArray(v)) throw wrongType(fn, key, "an object", v);
    for (const [k, item] of Object.entries(v)) {
      if (typeof item !== "string" && !(nulls && item === null)) {
        throw wrongType(fn, `${key}.${k}`, nulls ? "a string or null" : "a string", item);
      }
    }
  };
}

const CHECKS = {
  dialects: names,
  anchor: names,
  signers: table(false),
  mapType: table(true),
  templates: (fn, key, v) => {
    if (!Array.isArray(v)) throw wrongType(fn, key, "an array of template documents", v);
  },
  dpi: number,
  pageWidth: number,
  timeout: seconds(true),
  convertTimeout: seconds(false),
  maxFileSize: count(0, " of bytes"),
  maxPayload: count(1, " of bytes"),
  jobs: count(1, " of threads", MAX_JOBS),
  window: count(1, " of files", U32),
  seed: count(0, ""),
  fields: flag,
  applyUserUnit: flag,
  dataFields: flag,
  raw: flag,
  template: flag,
  strip: flag,
  name: text,
  kind: text,
  onProgress: (fn, key, v) => {
    if (typeof v !== "function") throw wrongType(fn, key, "a function", v);
  },
  signal: (fn, key, v) => {
    if (typeof v !== "object" || typeof v.aborted !== "boolean" || typeof v.addEventListener !== "function") {
      throw wrongType(fn, key, "an AbortSignal", v);
    }
  },
};

/** The key a mistyped one was probably meant as: the same letters in another case or
 * spelling (`page_width`, `PageWidth`), or one or two edits away (`dpii`). */
function meant(key, known) {
  const plain = (k) => k.toLowerCase().replace(/[_-]/g, "");
  const same = known.find((k) => plain(k) === plain(key));
  if (same) return same;
  let best = null;
  let bestDistance = 3;
  for (const k of known) {
    const d = distance(plain(key), plain(k));
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance (keys are short). */
function distance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

/**
 * `options` of function `fn`, checked: `{}` for undefined or null; throws on anything
 * else that is not an object, on an unknown key and on a value `CHECKS` refuses.
 * Undefined and null values mean "the default": they are not checked, and the copy
 * returned leaves the null ones out (the native side takes a missing value, not null).
 */
function checkOptions(fn, options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) {
    throw wrongType(fn, "options", "an object", options);
  }
  const known = KNOWN[fn];
  const out = {};
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      const guess = meant(key, known);
      const elsewhere = Object.keys(KNOWN).filter((f) => KNOWN[f].includes(key));
      const why = guess
        ? ` (did you mean \`${guess}\`?)`
        : elsewhere.length
          ? ` (an option of ${elsewhere.join(" and ")})`
          : "";
      throw argError(
        TypeError,
        "ERR_INVALID_ARG_VALUE",
        `${fn}: unknown option \`${key}\`${why}; ${fn} takes ${known.join(", ")}`,
      );
    }
    const v = options[key];
    if (v === undefined || v === null) continue;
    const check = CHECKS[key];
    if (check) check(fn, key, v);
    out[key] = v;
  }
  return out;
}

module.exports = { checkOptions, KNOWN };
