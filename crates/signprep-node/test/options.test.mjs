// Options that make no sense: an unknown key, a value of the wrong type, a number out of
// range. Each is thrown before anything is read, naming the function, the option and what
// it takes, with Node's argument error codes; none is ignored or passed on in napi's words.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { filesIn, fixtures, signprep } from "./helpers.mjs";

const pdf = filesIn(fixtures)[0];
const manifest = join(fixtures, "..", "example", "pack.toml");

/** Each call rejects (or throws) with `name`, `code` and a message matching `message`. */
async function refused(call, name, code, message) {
  let settled;
  try {
    settled = await call();
  } catch (e) {
    assert.equal(e.name, name, `${e.name}: ${e.message}`);
    assert.equal(e.code, code, e.message);
    assert.match(e.message, message);
    return;
  }
  assert.fail(`accepted: ${JSON.stringify(settled).slice(0, 100)}`);
}

const cases = [
  // Unknown keys: a typo, another language's spelling, another function's option.
  ["scan", { dpii: 96 }, "TypeError", "ERR_INVALID_ARG_VALUE", /^scan: unknown option `dpii` \(did you mean `dpi`\?\); scan takes signal, /],
  ["scan", { page_width: 800 }, "TypeError", "ERR_INVALID_ARG_VALUE", /unknown option `page_width` \(did you mean `pageWidth`\?\)/],
  ["scan", { jobs: 2 }, "TypeError", "ERR_INVALID_ARG_VALUE", /unknown option `jobs` \(an option of scanMany\)/],
  ["check", { dpi: 96 }, "TypeError", "ERR_INVALID_ARG_VALUE", /^check: unknown option `dpi`/],
  ["pack", { sead: 1 }, "TypeError", "ERR_INVALID_ARG_VALUE", /^pack: unknown option `sead` \(did you mean `seed`\?\)/],
  ["migrate", { signer: {} }, "TypeError", "ERR_INVALID_ARG_VALUE", /did you mean `signers`\?/],
  ["scanMany", { onprogress: () => {} }, "TypeError", "ERR_INVALID_ARG_VALUE", /did you mean `onProgress`\?/],
  // Wrong types: never coerced (dpi: "96" used to be internal_error in napi's words).
  ["scan", { dpi: "96" }, "TypeError", "ERR_INVALID_ARG_TYPE", /^scan: `dpi` is a number, not string "96"$/],
  ["scan", { fields: "no" }, "TypeError", "ERR_INVALID_ARG_TYPE", /^scan: `fields` is true or false, not string "no"$/],
  ["scan", { timeout: "5" }, "TypeError", "ERR_INVALID_ARG_TYPE", /`timeout` is a number/],
  ["check", { kind: 5 }, "TypeError", "ERR_INVALID_ARG_TYPE", /^check: `kind` is a string, not number 5$/],
  ["migrate", { strip: 1 }, "TypeError", "ERR_INVALID_ARG_TYPE", /`strip` is true or false, not number 1/],
  ["scan", { signal: {} }, "TypeError", "ERR_INVALID_ARG_TYPE", /`signal` is an AbortSignal/],
  ["scan", 72, "TypeError", "ERR_INVALID_ARG_TYPE", /^scan: `options` is an object, not number 72$/],
  ["scan", { dialects: 5 }, "TypeError", "ERR_INVALID_ARG_TYPE", /^scan: `dialects` is a string or an array of strings, not number 5$/],
  ["scan", { dialects: ["adobe", 5] }, "TypeError", "ERR_INVALID_ARG_TYPE", /`dialects\[\]` is a string, not number 5/],
  ["migrate", { signers: { s1: 5 } }, "TypeError", "ERR_INVALID_ARG_TYPE", /`signers.s1` is a string, not number 5/],
  ["migrate", { mapType: "initials" }, "TypeError", "ERR_INVALID_ARG_TYPE", /`mapType` is an object/],
  ["check", { templates: "{}" }, "TypeError", "ERR_INVALID_ARG_TYPE", /`templates` is an array of template documents/],
  // Numbers out of range: named with what is taken (timeout: -1 used to mean no limit).
  ["scan", { timeout: -1 }, "RangeError", "ERR_OUT_OF_RANGE", /`timeout` is a number of seconds 0 or more \(0: no limit\), under 2\*\*64, not -1$/],
  ["scan", { timeout: NaN }, "RangeError", "ERR_OUT_OF_RANGE", /not NaN$/],
  ["scan", { timeout: 1e300 }, "RangeError", "ERR_OUT_OF_RANGE", /not 1e\+300$/],
  ["scan", { convertTimeout: 0 }, "RangeError", "ERR_OUT_OF_RANGE", /`convertTimeout` is a number of seconds above 0/],
  ["scan", { maxFileSize: -5 }, "RangeError", "ERR_OUT_OF_RANGE", /`maxFileSize` is a whole number of bytes, 0 or more, not -5$/],
  ["scan", { maxFileSize: 1.5 }, "RangeError", "ERR_OUT_OF_RANGE", /not 1\.5$/],
  ["check", { maxPayload: 0 }, "RangeError", "ERR_OUT_OF_RANGE", /`maxPayload` is a whole number of bytes, 1 or more/],
  ["pack", { seed: -1 }, "RangeError", "ERR_OUT_OF_RANGE", /`seed` is a whole number, 0 or more, not -1$/],
  ["scanMany", { jobs: 1e12 }, "RangeError", "ERR_OUT_OF_RANGE", /`jobs` is a whole number of threads, from 1 to 1024, not 1000000000000$/],
  ["scanMany", { jobs: 20000 }, "RangeError", "ERR_OUT_OF_RANGE", /from 1 to 1024, not 20000$/],
  ["scanMany", { window: 0 }, "RangeError", "ERR_OUT_OF_RANGE", /`window` is a whole number of files, from 1/],
];

for (const [fn, options, name, code, message] of cases) {
  test(`${fn}(${JSON.stringify(options) ?? String(options)}) is refused: ${code}`, async () => {
    const call = {
      scan: () => signprep.scan(pdf, options),
      dataFields: () => signprep.dataFields(pdf, options),
      check: () => signprep.check(pdf, options),
      pack: () => signprep.pack(manifest, options),
      migrate: () => signprep.migrate(pdf, options),
      scanMany: async () => {
        const out = [];
        for await (const r of signprep.scanMany([pdf], options)) out.push(r);
        return out;
      },
    }[fn];
    await refused(call, name, code, message);
  });
}

test("the ranges the core checks are still its own, named the same way", async () => {
  await refused(() => signprep.scan(pdf, { dpi: 1e308 }), "TypeError", "ERR_INVALID_ARG_VALUE", /dpi is out of range: the resolution is from 1 to 10000 dpi/);
});

test("undefined and null mean the default; every documented option is taken", async () => {
  const plain = await signprep.scan(pdf);
  assert.deepEqual(await signprep.scan(pdf, { dpi: undefined, pageWidth: null, timeout: undefined }), plain);
  assert.deepEqual(await signprep.scan(pdf, null), plain);
  const all = {
    dpi: 72,
    fields: true,
    applyUserUnit: true,
    timeout: 60,
    maxFileSize: 1 << 30,
    dialects: [],
    dataFields: false,
    raw: false,
    signal: new AbortController().signal,
    convertTimeout: 120,
  };
  assert.deepEqual(await signprep.scan(pdf, all), plain);
});
