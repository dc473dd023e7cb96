// The ES module entry point: the CommonJS implementation (index.js) re-exported, so
// both entry points share one addon instance and one SignprepError class.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const signprep = require("./index.js");

export const {
  SignprepError,
  version,
  scan,
  scanMany,
  dataFields,
  check,
  pack,
  migrate,
  explain,
  codes,
} = signprep;
export default signprep;
