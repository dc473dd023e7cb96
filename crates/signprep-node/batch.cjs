"use strict";
// `scanMany`'s iterator: records in input order from the native run (src/batch.rs), as
// objects built from tapes (tape.cjs) or, with `raw`, as their JSON lines.
//
// It behaves as an async generator does (calls answered in the order they are made,
// `return()` and `throw()`, done for good after an error or the end) but is a class, so
// that a record already in hand costs one resolved promise. The `async function*` it
// replaced kept a suspended frame per record and V8's optimising compiler spent 40-110 ms
// of a run on its body (on the thread beside the JavaScript one: on one core, time the
// scan did not get). Chunks of records (one native `next()` each, up to 64 records) come
// on the slow path (`step`), which also gives the event loop a turn every TURN_MS of
// records built; the records in hand go out on the fast path (`next`).

const { Tapes } = require("./tape.cjs");
const { abortError, fromNative } = require("./errors.cjs");

/** The longest `scanMany` runs on the event loop between two of its turns (ms). */
const TURN_MS = 4;

const DONE = Object.freeze({ value: undefined, done: true });

/** Sources pushed ahead of the records taken, at least: enough to keep the engine's window full. */
const AHEAD = 256;

class Records {
  /**
   * @param {Iterator | AsyncIterator} source the caller's sources
   * @param {object} o the checked options (`signal`, `onProgress`, `raw`, `window`)
   * @param {{ sync: boolean, total: number | undefined, open: () => Promise<object>, sourceOf: (s: unknown) => object }} run
   *   whether `source` is a synchronous iterator, the count of sources when known, the native
   *   run's opener, a source's native form
   */
  constructor(source, o, run) {
    this.source = source;
    this.sync = run.sync;
    this.signal = o.signal ?? null;
    this.onProgress = o.onProgress ?? null;
    this.raw = o.raw === true;
    this.ahead = Math.max(2 * (o.window ?? 128), AHEAD);
    this.total = run.total;
    this.open = run.open;
    this.sourceOf = run.sourceOf;
    /** The native run, once started. */
    this.batch = null;
    /** The chunk in hand: its reader (or lines), its records, the next one's index. */
    this.reader = null;
    this.lines = null;
    this.count = 0;
    this.i = 0;
    /** When the event loop last had a turn (performance.now()). */
    this.turn = 0;
    this.pushed = 0;
    this.done = 0;
    /** The source is drained (or failed: `sourceError`). */
    this.ended = false;
    this.sourceError = null;
    /** No more records: ended, failed, returned or thrown into. */
    this.finished = false;
    /** Calls not yet answered, and the promise the next one waits for. */
    this.busy = 0;
    this.tail = Promise.resolve();
    this.onAbort = null;
    this.tapes = this.raw ? null : new Tapes();
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  next() {
    if (this.busy === 0 && this.i < this.count) {
      const s = this.signal;
      if ((s === null || !s.aborted) && performance.now() - this.turn <= TURN_MS) {
        try {
          return Promise.resolve({ value: this.take(), done: false });
        } catch (e) {
          return this.queue(() => this.fail(e));
        }
      }
    }
    return this.queue(() => this.step());
  }

  return(value) {
    return this.queue(async () => {
      await this.close();
      return { value, done: true };
    });
  }

  throw(error) {
    return this.queue(() => this.fail(error));
  }

  /** Runs `f` once every call made before it is answered. */
  queue(f) {
    this.busy += 1;
    const p = this.tail.then(f);
    const answered = () => {
      this.busy -= 1;
    };
    this.tail = p.then(answered, answered);
    return p;
  }

  /** The next record of the chunk in hand, its progress reported. */
  take() {
    const i = this.i++;
    this.done += 1;
    if (this.raw) {
      const line = this.lines[i];
      if (this.onProgress !== null) this.progress(JSON.parse(line));
      return line;
    }
    const record = this.reader.record(i);
    if (this.onProgress !== null) this.progress(record);
    return record;
  }

  progress(record) {
    this.onProgress({ done: this.done, total: this.total, path: record.path, status: record.status });
  }

  abortIfAsked() {
    if (this.signal !== null && this.signal.aborted) throw abortError(this.signal);
  }

  /** The slow path: the run started, a turn of the event loop, the next chunk, or the end. */
  async step() {
    if (this.finished) return DONE;
    try {
      this.abortIfAsked();
      if (this.batch === null) await this.start();
      for (;;) {
        this.abortIfAsked();
        if (this.i < this.count) {
          if (performance.now() - this.turn > TURN_MS) {
            await new Promise(setImmediate);
            this.abortIfAsked();
            this.turn = performance.now();
          }
          return { value: this.take(), done: false };
        }
        if (!(await this.fetch())) {
          if (this.sourceError !== null) throw this.sourceError;
          await this.close();
          return DONE;
        }
      }
    } catch (e) {
      return this.fail(e);
    }
  }

  /** Ends the iteration with `e`. */
  async fail(e) {
    await this.close();
    throw e;
  }

  async start() {
    this.batch = await this.open();
    if (this.signal !== null) {
      const batch = this.batch;
      this.onAbort = () => batch.stop();
      this.signal.addEventListener("abort", this.onAbort, { once: true });
    }
  }

  /** The next chunk of records into hand (sources pushed ahead first); false at the end. */
  async fetch() {
    if (!this.ended && this.pushed - this.done < this.ahead) {
      const chunk = [];
      const room = this.ahead - (this.pushed - this.done);
      if (this.sync) this.pull(chunk, room);
      else await this.pullAsync(chunk, room);
      this.abortIfAsked();
      if (chunk.length) this.batch.push(chunk);
      this.pushed += chunk.length;
      if (this.ended) this.batch.end();
    }
    let taken;
    try {
      taken = await this.batch.next();
    } catch (e) {
      throw fromNative(e);
    }
    this.abortIfAsked();
    if (taken === null) return false;
    if (this.raw) {
      this.lines = taken.lines;
      this.count = this.lines.length;
    } else {
      this.reader = this.tapes.reader(taken);
      this.count = this.reader.length;
    }
    this.i = 0;
    this.turn = performance.now();
    return true;
  }

  /** Up to `room` sources of a synchronous iterator (an array, say) into `chunk`. */
  pull(chunk, room) {
    try {
      while (chunk.length < room && this.took(chunk, this.source.next()));
    } catch (e) {
      this.sourceFailed(e);
    }
  }

  /** The same from an async iterator: each source awaited. */
  async pullAsync(chunk, room) {
    try {
      while (chunk.length < room && this.took(chunk, await this.source.next()));
    } catch (e) {
      this.sourceFailed(e);
    }
  }

  /** One iterator result's source into `chunk`; false at the end of the sources. */
  took(chunk, r) {
    if (r.done) {
      this.ended = true;
      return false;
    }
    chunk.push(this.sourceOf(r.value));
    return true;
  }

  /** The sources failed: the records before come first, then this error. */
  sourceFailed(e) {
    this.sourceError = e;
    this.ended = true;
  }

  /** Done for good: the native run stopped, the source closed if it was not drained. */
  async close() {
    if (this.finished) return;
    this.finished = true;
    this.count = 0;
    this.reader = null;
    this.lines = null;
    if (this.onAbort !== null) this.signal.removeEventListener("abort", this.onAbort);
    if (this.batch !== null) this.batch.stop();
    if (!this.ended && typeof this.source.return === "function") {
      try {
        await this.source.return();
      } catch {
        // The caller's iterator failed to close: nothing of ours to report.
      }
    }
  }
}

if (typeof Symbol.asyncDispose === "symbol") {
  // `await using records = scanMany(...)` stops the run as `return()` does.
  Records.prototype[Symbol.asyncDispose] = async function asyncDispose() {
    await this.return();
  };
}

module.exports = { Records };
