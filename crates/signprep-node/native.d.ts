/** The native side of `scanMany`'s iterator. */
export declare class Batch {
  /**
   * `new Batch(options, jobs, window, raw, linesFirstBytes)`: `jobs` worker threads (0: one
   * per core), `window` the engine's bound (default: its own); `raw`: the
   * records as their JSON lines, else as tapes, the first `linesFirstBytes`
   * bytes of them as JSON lines (default `tape::LINES_FIRST`; 0 when the
   * tapes pay from the first record: a long list, or a process whose tape
   * reader is warm). The run starts at once and waits for sources.
   */
  constructor(options: ScanOptions, jobs?: number | undefined | null, window?: number | undefined | null, raw?: boolean | undefined | null, linesFirstBytes?: number | undefined | null)
  /** Adds sources at the end of the input. */
  push(sources: Array<BatchSource>): void
  /** No more sources: the run ends after the last one pushed. */
  end(): void
  /**
   * The records ready, as soon as there is one (one Promise for all of
   * them); `null` when the run is over and every record was taken.
   */
  next(): Promise<Chunk | null>
  /**
   * Stops the run: no more file is started, the files in flight finish,
   * a waiting `next()` gets `null`.
   */
  stop(): void
}

/**
 * A flag that cancels the work of the calls it is given to (the JavaScript
 * layer raises it when the call's `AbortSignal` aborts).
 */
export declare class CancelToken {
  /** A flag not raised. */
  constructor()
  /** Raises the flag: work that carries it stops at its next check. */
  cancel(): void
  /** True once raised. */
  get cancelled(): boolean
}

/** One source pushed: a path, or bytes with the name their record shows. */
export interface BatchSource {
  /** A file to scan (read by the worker that scans it). */
  path?: string
  /** Bytes to scan (copied). */
  data?: Uint8Array
  /** The record's `path` for bytes (default `-`). */
  name?: string
}

/**
 * `checkInput(input, path, options, token)`: the JSON of the findings of one
 * input (a PDF, a template, a request body or a manifest: a file's path, or
 * its bytes); `path` places a manifest's relative paths and names the input.
 * The record's `kind` is `null` when it could not be told.
 */
export declare function checkInput(input: string | Uint8Array, path: string, options: CheckOptions, token?: CancelToken | undefined | null): Promise<string>

/** How to check: `signprep check`'s options. */
export interface CheckOptions {
  /**
   * `pdf`, `pack`, `v0`, `populate`, `requests`, `webhook`, `subscription`
   * or `manifest` (default: detected).
   */
  kind?: string
  /** Largest request body, in bytes (default 10 MiB). */
  maxPayload?: number
  /** Template documents (JSON text) that populate keys are checked against. */
  templates?: Array<string>
  /** `docx` or `odt` for a template file, `sniff` for bytes that may be one. */
  template?: string
  /** LibreOffice's program for templates (as `scan`). */
  soffice?: string
  /** Seconds one template conversion may take (default 120). */
  convertTimeout?: number
  /** Where converted templates are kept. */
  cacheDir?: string
  /** Keep no converted template. */
  noCache?: boolean
}

/**
 * The records one `next()` gives: with `raw`, their JSON lines; otherwise
 * their tapes, one after the other (`tape.rs`: a record that is its JSON
 * line has the op `LINE`, its line in `texts`).
 */
export interface Chunk {
  /** `raw`: each record's JSON line. */
  lines?: Array<string>
  /** The records' ops. */
  ops?: Uint32Array
  /** Their numbers. */
  nums?: Float64Array
  /** Each record's strings, one after the other (or its JSON line). */
  texts?: Array<string>
  /** The shapes first met since the last chunk (ids following on): each its keys. */
  shapes?: Array<Array<string>>
}

/**
 * `codes()`: every documented code, pack and check rules, scan findings,
 * then the codes of error records.
 */
export declare function codes(): Array<string>

/**
 * `explain(code)`: what a code means, or `null` for an unknown code (case
 * and `-`/`_` do not matter).
 */
export declare function explain(code: string): Explained | null

/** What a code means. */
export interface Explained {
  /** The code, as records write it. */
  code: string
  /** `error`, `warning` or `info`. */
  severity: string
  /** What it means and why it matters (Markdown). */
  doc: string
}

/**
 * A file the JavaScript layer read for the call (an anchor file, a signers
 * manifest): its path, for messages and relative names, and its bytes.
 */
export interface FileInput {
  /** The path as given. */
  path: string
  /** Its bytes. */
  data: Uint8Array
}

/**
 * The JSON Schema of a finding (`check`, `pack` and `migrate` give them),
 * as JSON text: what `scripts/gen-types.mjs` makes the `Finding` type from.
 */
export declare function findingSchema(): string

/** The most worker threads a run may have (`scanMany`'s `jobs`): the core's bound. */
export declare function maxJobs(): number

/**
 * `migrateInput(input, upload, name, options, token)`: one PDF (its path,
 * or its bytes) migrated. `upload` is the path written as the PDF to upload
 * (`null` for bytes; written absolute), `name` the document's name.
 */
export declare function migrateInput(input: string | Uint8Array, upload: string | undefined | null, name: string, options: MigrateOptions, token?: CancelToken | undefined | null): Promise<MigrateOutput>

/** How to migrate: `signprep migrate`'s options. */
export interface MigrateOptions {
  /** `KEY=EMAIL` entries (`--signer`). */
  signers?: Array<string>
  /** A pack manifest whose `[[signers]]` have a `handle` (`--signers`), read by the caller. */
  signersFile?: FileInput
  /** The dialects read (default `all`). */
  dialects?: string
  /** `KIND=TYPE` rules (`--map-type`; `none` leaves the kind out). */
  mapType?: Array<string>
  /** Write `document_type: template`. */
  template?: boolean
  /** Also return the PDF without the text of every vendor tag read, fields and left out alike (`--strip`). */
  strip?: boolean
  /** Pixels per inch (default 72). */
  dpi?: number
  /** Scale every page to this width in pixels instead. */
  pageWidth?: number
  /** Apply a page's `/UserUnit` (default true). */
  applyUserUnit?: boolean
  /** DocuSign anchor files (`--anchors`), read by the caller. */
  anchorFiles?: Array<FileInput>
  /** DocuSign quick tabs `STRING=TYPE[:SIGNER]` (`--anchor`). */
  anchor?: Array<string>
  /**
   * The input is a template: `docx` or `odt` (a file of that extension),
   * `sniff` (bytes: a template when they are one); absent: a PDF.
   */
  format?: string
  /** LibreOffice's `soffice` program (templates). */
  soffice?: string
  /** Seconds one conversion may take (default 120). */
  convertTimeout?: number
  /** Where converted PDFs are kept (default: the CLI's cache folder). */
  cacheDir?: string
  /** Keep no converted PDF. */
  noCache?: boolean
}

/**
 * What one PDF gave: `json` is `{"request", "findings", "summary"}`,
 * `stripped` the PDF without the vendor tags' text (with `strip`, when one
 * could be written).
 */
export interface MigrateOutput {
  /** `{"request", "findings", "summary"}` as JSON text. */
  json: string
  /** The stripped copy of the PDF. */
  stripped?: Buffer
  /**
   * A template's PDF, as converted (or, with `strip`, stripped): what its
   * request uploads.
   */
  pdf?: Buffer
}

/**
 * `packManifest(input, path, seed, token)`: `{"body", "findings"}` as JSON
 * of a manifest (its file's path, or its bytes placed at `path`),
 * the v1 pack body (`null` when an error-level finding stops it) and every
 * finding of the manifest's check. `seed` (a whole number >= 0) makes the
 * signers' UUIDs reproducible.
 */
export declare function packManifest(input: string | Uint8Array, path: string, seed?: number | undefined | null, token?: CancelToken | undefined | null): Promise<string>

/**
 * `prepareTemplates(paths, options)`: converts the templates among `paths`
 * (`.docx`, `.odt`, by extension) into the conversion cache before a
 * `scanMany` of a list scans them, several per LibreOffice process and as
 * many processes at once as the converter has, as `signprep scan` does
 * before a batch whose list it knows (starting LibreOffice is most of a
 * conversion's time). Nothing is done without a cache (`cacheDir: false`)
 * or without LibreOffice (each template is then converted, or reported, in
 * its turn). Resolves to how many were converted; runs off the event loop.
 */
export declare function prepareTemplates(paths: Array<string>, options: ScanOptions): Promise<number>

/**
 * Drops the LibreOffice converters kept for templates (their scratch folders
 * and profiles go with them): called by the JavaScript layer at exit.
 */
export declare function releaseConverters(): void

/**
 * `scanBuffer(data, name, options, token)`: the JSON record of a PDF (or
 * template) in memory, called `name` (default `-`). The bytes are copied.
 */
export declare function scanBuffer(data: Uint8Array, name: string | undefined | null, options: ScanOptions, token?: CancelToken | undefined | null): Promise<string>

/** How to scan: `signprep scan`'s options. */
export interface ScanOptions {
  /** Pixels per inch of the coordinates (default 72; 1 to 10000). */
  dpi?: number
  /** Scale every page to this width in pixels instead (1 to 100000). */
  pageWidth?: number
  /** Read AcroForm fields (default true; `--no-fields` is false). */
  fields?: boolean
  /** Apply a page's `/UserUnit` (default true; `--ignore-user-unit` is false). */
  applyUserUnit?: boolean
  /** Other vendors' text tags to read: `"adobe,dropbox"`, `"all"`, or none (default). */
  dialects?: string
  /** Seconds one file may take (default 60; 0 for no limit). */
  timeout?: number
  /** Largest file read, in bytes. */
  maxFileSize?: number
  /**
   * `NAME_OR_GLOB=TYPE` rules: when given (an empty list for the default
   * types), the record carries `data_fields` (`scan --data-fields --type-map`).
   */
  typeRules?: Array<string>
  /** DocuSign anchor files (`--anchors`), read by the caller. */
  anchorFiles?: Array<FileInput>
  /** DocuSign quick tabs `STRING=TYPE[:SIGNER]` (`--anchor`). */
  anchor?: Array<string>
  /** LibreOffice's program for templates (default: `$SIGNPREP_SOFFICE`, then `PATH`). */
  soffice?: string
  /** Seconds one template conversion may take (default 120). */
  convertTimeout?: number
  /** Where converted templates are kept (default: the CLI's cache folder). */
  cacheDir?: string
  /** Keep no converted template (`--no-cache`). */
  noCache?: boolean
}

/**
 * `scanPath(path, name, options, token)`: the JSON record of one file (an
 * error record when it cannot be scanned; the JavaScript layer throws);
 * `name` is the record's `path` (default: the path as given).
 */
export declare function scanPath(path: string, name: string | undefined | null, options: ScanOptions, token?: CancelToken | undefined | null): Promise<string>

/** The package's version (the workspace's). */
export declare function version(): string
