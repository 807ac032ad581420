// Paging through any list operation. Every list operation is the shared list engine: the request takes `page`
// (from 1) and `pageSize` (1 to 500, default 50) besides filter/sort/totals, and the answer is
// `{rows, page, pageSize, total, totals?}` where `total` counts every matching row.
import type { ListOperationId, ListRow, Operation, RequestBody, RequestOptions, ResponseData } from "./operation.js";

export interface PageOptions extends RequestOptions {
  /** Rows per request (default: the request's own `pageSize`, else the server's default of 50). */
  pageSize?: number;
  /** Stop after this many rows in all. */
  limit?: number;
}

type Page = { rows: unknown[]; page: number; pageSize: number; total: number };

/**
 * Every page of a list operation, from the first, requested one at a time as the loop consumes them; it ends after
 * the page that reaches `total` (or an empty page). Pages are offsets over the ordering the request names (ties
 * broken by id), so rows created or deleted while paging can shift later pages: filter on a stable field (e.g.
 * `createdAt` up to a moment) when that matters.
 */
export async function* pages<Id extends ListOperationId>(
  operation: Operation<Id>,
  request?: Omit<RequestBody<Id>, "page">,
  options: PageOptions = {},
): AsyncGenerator<ResponseData<Id>> {
  const { pageSize, limit, ...requestOptions } = options;
  const send = operation as unknown as (body: object, options: RequestOptions) => Promise<Page>;
  for (let page = 1, seen = 0; ; page++) {
    const result = await send({ ...request, page, ...(pageSize !== undefined ? { pageSize } : {}) }, requestOptions);
    yield result as ResponseData<Id>;
    seen += result.rows.length;
    if (result.rows.length === 0 || result.page * result.pageSize >= result.total || (limit !== undefined && seen >= limit)) return;
  }
}

/**
 * Every row of a list operation, page after page (see {@link pages}):
 *
 * ```ts
 * for await (const invoice of paginate(api.sales.invoices.list, { filter: [{ field: "status", op: "eq", value: "issued" }] })) { … }
 * ```
 */
export async function* paginate<Id extends ListOperationId>(
  operation: Operation<Id>,
  request?: Omit<RequestBody<Id>, "page">,
  options: PageOptions = {},
): AsyncGenerator<ListRow<Id>> {
  let left = options.limit ?? Infinity;
  if (left <= 0) return;
  for await (const page of pages(operation, request, options)) {
    for (const row of (page as Page).rows as ListRow<Id>[]) {
      yield row;
      if (--left <= 0) return;
    }
  }
}
