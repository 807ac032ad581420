// What the SAF-T tests share: waiting for the worker to settle a file.
import type { World } from "./world.js";

/** Waits until the worker settled the SAF-T file (ready or failed), then returns it as get answers it. */
export async function settledSaft(w: Pick<World, "api">, id: string, timeoutMs = 60_000) {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const file = await w.api.declarations.lt.saft.get({ id });
    if (file.status === "ready" || file.status === "failed") return file;
  }
  throw new Error(`SAF-T file ${id} was not settled within ${timeoutMs} ms`);
}
