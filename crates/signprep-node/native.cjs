"use strict";
// Loads the native addon built for this platform (`signprep.<platform>-<arch>[-<abi>].node`,
// the names `napi build --platform` gives). The npm tarball holds the Linux x64 (glibc) one;
// elsewhere, build it from source (README: "Building from source").
const { existsSync, readFileSync } = require("node:fs");
const { join } = require("node:path");

/** The C library's flavours, the likelier first (only asked when both addons are present). */
function abis() {
  if (process.platform === "linux") return muslLibc() ? ["-musl", "-gnu"] : ["-gnu", "-musl"];
  if (process.platform === "win32") return ["-msvc", "-gnu"];
  return [""];
}

/**
 * True on a musl system. The shell script /usr/bin/ldd names its C library; the diagnostic
 * report (which says whether glibc is the runtime) is the fallback, as it takes 10-40 ms to
 * write: a start-up cost paid only when a package holds both Linux addons.
 */
function muslLibc() {
  try {
    return readFileSync("/usr/bin/ldd", "latin1").includes("musl");
  } catch {
    if (typeof process.report?.getReport !== "function") return false;
    process.report.excludeNetwork = true;
    const report = process.report.getReport();
    return !(report && report.header && report.header.glibcVersionRuntime);
  }
}

function load() {
  const base = `signprep.${process.platform}-${process.arch}`;
  const name = (abi) => join(__dirname, `${base}${abi}.node`);
  // The addons present: one (the npm tarball's, or a build from source) is loaded as it is.
  const present = ["-gnu", "-musl", "-msvc", ""].filter((abi) => existsSync(name(abi)));
  if (present.length === 1) return require(name(present[0]));
  const tried = [];
  for (const abi of abis()) {
    tried.push(name(abi));
    if (present.includes(abi)) return require(name(abi));
  }
  const universal = join(__dirname, `signprep.${process.platform}-universal.node`);
  if (existsSync(universal)) return require(universal);
  const err = new Error(
    `signprep has no native addon for ${process.platform}-${process.arch} in this package ` +
      `(looked for ${tried.map((f) => f.slice(__dirname.length + 1)).join(", ")}): ` +
      "build it from source with a Rust toolchain (npm run build in the package's source folder, " +
      "crates/signprep-node of the repository)",
  );
  err.code = "ERR_SIGNPREP_NO_ADDON";
  throw err;
}

module.exports = load();
