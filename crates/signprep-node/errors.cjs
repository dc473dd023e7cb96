"use strict";
// The package's errors: `SignprepError` (a record's or a finding's code), the `AbortError`
// of a signal, and a native rejection put in those terms.

/** Error records' and findings' codes, as `SignprepError#code`. */
class SignprepError extends Error {
  /**
   * @param {string} code stable code (`pdf_unreadable`, `io_error`, a finding's code...)
   * @param {string} detail what went wrong, without the path
   * @param {{path?: string | null, findings?: object[], record?: object, cause?: unknown}} [more]
   */
  constructor(code, detail, more = {}) {
    const where = more.path ? `${more.path}: ` : "";
    super(`${where}${detail} [${code}]`, more.cause === undefined ? undefined : { cause: more.cause });
    this.name = "SignprepError";
    this.code = code;
    this.detail = detail;
    this.path = more.path ?? null;
    this.findings = more.findings ?? [];
    if (more.record !== undefined) this.record = more.record;
  }
}

/** What an aborted call rejects with: the signal's reason, else an `AbortError`. */
function abortError(signal) {
  if (signal && signal.reason !== undefined) return signal.reason;
  return new DOMException("This operation was aborted", "AbortError");
}

/** A native rejection in our terms: TypeError for an argument, SignprepError otherwise. */
function fromNative(e, file = null) {
  if (!(e instanceof Error)) return e;
  if (e.code === "Cancelled") return new DOMException("This operation was aborted", "AbortError");
  if (e.code === "InvalidArg") {
    const t = new TypeError(e.message);
    t.code = "ERR_INVALID_ARG_VALUE";
    return t;
  }
  const m = /^([\s\S]*) \[([a-z0-9_]+)\]$/.exec(e.message);
  if (m) return new SignprepError(m[2], m[1], { path: file });
  return new SignprepError("internal_error", e.message, { path: file });
}

module.exports = { SignprepError, abortError, fromNative };
