// Scanning an upload in an Express handler, off the event loop (Express is not a
// dependency of signprep: install it beside it). The request body is read as bytes;
// the scan runs on signprep's threads; a client that goes away aborts it.
//
//   app.post("/scan", express.raw({ type: "application/pdf", limit: "20mb" }), scanUpload);
import { scan, SignprepError } from "signprep";

interface Req {
  body: Buffer;
  on(event: "close", listener: () => void): void;
}
interface Res {
  status(code: number): Res;
  json(body: unknown): void;
}

export async function scanUpload(req: Req, res: Res): Promise<void> {
  const gone = new AbortController();
  req.on("close", () => gone.abort());
  try {
    const record = await scan(req.body, { name: "upload.pdf", signal: gone.signal, timeout: 10 });
    res.json({ tags: record.tags, fields: record.fields.length, findings: record.diagnostics });
  } catch (e) {
    if (e instanceof SignprepError) res.status(422).json({ code: e.code, message: e.detail });
    else if ((e as Error).name !== "AbortError") throw e;
  }
}
