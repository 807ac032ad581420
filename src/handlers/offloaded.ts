// What a worker thread does with the body of each `x-large-body` operation besides parsing and validating it
// (src/http/body-worker.ts): a digest made at once (small, plain data for the event loop), and tasks the handler
// runs on the body later (src/handlers/types.ts, OffloadedBody). Every x-large-body operation has an entry.
import { booksOffload } from "./migration/books/offload.js";
import type { OffloadModule } from "./types.js";

export const OFFLOADED: Record<string, OffloadModule> = {
  migration_books_validate: booksOffload,
  migration_books_import: booksOffload,
};
