"use strict";
// Loads the native addon built for this platform (`signprep.<platform>-<arch>[-<abi>].node`,
// the names `napi build --platform` gives). The npm tarball holds the Linux x64 (glibc) one;
// elsewhere, build it from source (README: "Building from source").
const { existsSync } = require("node:fs");
const { join } = require("node:path");

function abis() {
  if (process.platform === "linux") {
    const report = typeof process.report?.getReport === "function" ? process.report.getReport() : null;
    const glibc = Boolean(report && report.header && report.header.glibcVersionRuntime);
    return glibc ? ["-gnu", "-musl"] : ["-musl", "-gnu"];
  }
  if (process.platform === "win32") return ["-msvc", "-gnu"];
  return [""];
}

function load() {
  const tried = [];
  for (const abi of abis()) {
    const file = join(__dirname, `signprep.${process.platform}-${process.arch}${abi}.node`);
    tried.push(file);
    if (existsSync(file)) return require(file);
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
