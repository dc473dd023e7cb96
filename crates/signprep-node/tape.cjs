"use strict";
// `scanMany`'s records as objects, built from the tapes its native side hands over
// (src/tape.rs): the values `JSON.parse` of the records' JSON lines gives, keys in the
// same order, without parsing text. A tape's ops are read in order: a number from
// `nums`, a string cut from the record's text, an array of n values, an object of a
// shape (its keys, sent once per run), built as an object literal of those keys (V8
// makes it with its hidden class known in advance), or the record's JSON line (LINE).
// An object's values are read first, onto a stack, and the literal built from there:
// builders that read the tape themselves each inlined the reader for every key, and
// V8's optimising compiler spent more time on them (~100 ms a run, on the thread beside
// the JavaScript one) than building the objects took.

const NULL = 0;
const FALSE = 1;
const TRUE = 2;
const NUMBER = 3;
const STRING = 4;
const ARRAY = 5;
const OBJECT = 6;
const LINE = 7;

/** Object builders by shape (its keys as JSON), shared by every run, at most MAKERS. */
const makers = new Map();
const MAKERS = 1024;
/** A shape of more keys than this is built key by key. */
const LITERAL_KEYS = 64;
/** False once this Node refuses code from strings (`--disallow-code-generation-from-strings`). */
let literals = true;
/** Records this process has built from tapes (its reader is optimised after a few dozen). */
let taped = 0;
const WARM = 64;

/**
 * True when a run's records are worth taking as tapes from the first one (not as JSON lines
 * for its first MB, native `LINES_FIRST`): the reader is warm in this process, or the run has
 * at least `WARM` records to pay for warming it (JSON.parse ~0.4 M instructions a corpus
 * record, the warm reader ~0.15 M, its warm-up ~19 M). A `raw` run has no tapes and ignores it.
 */
function tapesFirst(records) {
  return taped >= WARM || (records !== undefined && records >= WARM);
}

/** Builds an object of `keys` from the values `s[b]`, `s[b + 1]`..., key by key. */
function keyByKey(keys) {
  return (s, b) => {
    const o = {};
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      // As JSON.parse makes it: an own property, not the prototype.
      if (k === "__proto__") {
        Object.defineProperty(o, k, { value: s[b + i], writable: true, enumerable: true, configurable: true });
      } else {
        o[k] = s[b + i];
      }
    }
    return o;
  };
}

/** The builder of a shape (`(s, b) => object`): an object literal of its keys when it can be one. */
function makerOf(keys) {
  const id = JSON.stringify(keys);
  let make = makers.get(id);
  if (make !== undefined) return make;
  make = null;
  if (literals && keys.length <= LITERAL_KEYS && !keys.includes("__proto__")) {
    try {
      // The keys as JSON string literals (valid JavaScript ones).
      const body = keys.map((k, i) => `${JSON.stringify(k)}: s[b + ${i}]`).join(", ");
      // eslint-disable-next-line no-new-func
      make = new Function("s", "b", `return {${body}};`);
    } catch {
      literals = false;
    }
  }
  make ??= keyByKey(keys);
  if (makers.size < MAKERS) makers.set(id, make);
  return make;
}

/** One run's shapes, and the reader of its chunks. */
class Tapes {
  constructor() {
    /** Builders by the run's shape id, and their numbers of keys. */
    this.build = [];
    this.keys = [];
  }

  /** A reader of `chunk` (its shapes first registered). */
  reader(chunk) {
    for (const keys of chunk.shapes) {
      this.build.push(makerOf(keys));
      this.keys.push(keys.length);
    }
    return new Reader(chunk, this.build, this.keys);
  }
}

class Reader {
  constructor(chunk, build, keys) {
    this.ops = chunk.ops;
    this.nums = chunk.nums;
    this.texts = chunk.texts;
    this.build = build;
    this.keys = keys;
    /** The values of the objects being read, and the top of that stack. */
    this.stack = [];
    this.sp = 0;
    this.o = 0;
    this.n = 0;
    this.text = "";
    this.s = 0;
  }

  /** How many records the chunk holds. */
  get length() {
    return this.texts.length;
  }

  /** The chunk's record `i` (records are read in order). */
  record(i) {
    this.text = this.texts[i];
    this.s = 0;
    if (this.ops[this.o] === LINE) {
      this.o += 1;
      return JSON.parse(this.text);
    }
    taped += 1;
    return this.value();
  }

  value() {
    const op = this.ops[this.o++];
    switch (op & 7) {
      case NUMBER:
        return this.nums[this.n++];
      case STRING: {
        const end = this.s + (op >>> 3);
        const v = this.text.slice(this.s, end);
        this.s = end;
        return v;
      }
      case OBJECT: {
        const id = op >>> 3;
        const base = this.sp;
        for (let k = this.keys[id]; k > 0; k--) {
          const v = this.value();
          this.stack[this.sp++] = v;
        }
        this.sp = base;
        return this.build[id](this.stack, base);
      }
      case ARRAY: {
        const a = [];
        for (let k = op >>> 3; k > 0; k--) a.push(this.value());
        return a;
      }
      case TRUE:
        return true;
      case FALSE:
        return false;
      case NULL:
        return null;
      default:
        throw new Error(`signprep: a record's tape is damaged (op ${op})`);
    }
  }
}

module.exports = { Tapes, tapesFirst };
