// A full garbage collection on demand, for the few places that know a burst of garbage has just ended and that the
// heap should be given back now rather than whenever V8 next decides to collect (a process takes no --expose-gc by
// default, so the flag is set here and the function taken from a fresh context; the global scope gets no `gc`).
//
// Why it matters: V8 lets the old generation grow to a factor of the live data of its last full collection before it
// collects again — a factor of 4 on machines with several GB of memory — and keeps what it freed pooled. A thread that
// makes hundreds of MB of short-lived objects, some of them promoted, keeps that much resident memory long after.
// The call stops the thread while it marks the live heap (tens of ms for an API process's heap): only for bursts
// of that size, never per request.
//
// Users: the large-body worker threads once they hold no parsed body (src/http/body-worker.ts); the i.SAF writer every
// 20,000 rows it writes (src/declarations/lt/isaf.ts); the SAF-T job after each part it stores (src/declarations/saft.ts).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** A full, blocking collection of this thread's heap. */
export function collectGarbage(): void {
  gc();
}
