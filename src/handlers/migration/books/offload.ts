// The historical-books package in a worker thread (issue 22, item 4): what the worker computes of a validated
// package as soon as it has parsed it (its digest: sections, lookups, fingerprint), and the one task it runs on it
// later (the checks against the service's data, which the event loop loads and sends). Used by validate and import.
import type { CompanyContext } from "../../../auth/principal.js";
import { checkOutcome, type BooksInput, type CheckOutcome } from "../../../migration/books.js";
import type { BooksContext } from "../../../migration/context.js";
import { booksDigest } from "../../../migration/digest.js";
import type { BooksDigest, BooksPackage } from "../../../migration/types.js";
import type { OffloadedBody, OffloadModule } from "../../types.js";

interface CheckArgs {
  company: CompanyContext;
  ctx: BooksContext;
  writes: boolean;
}

/** In the worker thread. */
export const booksOffload: OffloadModule = {
  digest: (body) => booksDigest(body as BooksPackage),
  tasks: {
    check: (body, args) => {
      const { company, ctx, writes } = args as CheckArgs;
      return checkOutcome(company, body as BooksPackage, ctx, writes);
    },
  },
};

/** On the event loop: the package in its worker thread, as the migration operations take it. */
export function offloadedBooks(body: OffloadedBody): BooksInput {
  return {
    digest: body.digest as BooksDigest,
    check: (company, ctx, writes) => body.run<CheckOutcome>("check", { company, ctx, writes } satisfies CheckArgs),
  };
}
