import { expect } from "@jest/globals";
import type { ApiResponse, RequestOptions } from "./harness.js";
import { AccountingApiError, type WithResponse } from "../../sdk/typescript/src/index.js";

/** Asserts an error answer: its status and error.code, and error.key when one is given. */
export function expectError(res: ApiResponse, status: number, code: string, key?: string): void {
  const got: Record<string, unknown> = { status: res.status, code: res.body?.error?.code };
  const want: Record<string, unknown> = { status, code };
  if (key !== undefined) {
    got.key = res.body?.error?.key;
    want.key = key;
  }
  expect(got).toEqual(want);
}

/**
 * Awaits an SDK call that must fail and asserts its status and error.code (and error.key when given); returns the
 * error for further assertions (fieldErrors, params).
 */
export async function expectApiError(call: Promise<unknown>, status: number, code: string, key?: string): Promise<AccountingApiError> {
  const error = await call.then(
    (data) => {
      throw new Error(`expected ${status} ${code}, the call succeeded with ${JSON.stringify(data)}`);
    },
    (e: unknown) => e,
  );
  if (!(error instanceof AccountingApiError)) throw error;
  const got: Record<string, unknown> = { status: error.status, code: error.code };
  const want: Record<string, unknown> = { status, code };
  if (key !== undefined) {
    got.key = error.key;
    want.key = key;
  }
  expect(got).toEqual(want);
  return error;
}

/**
 * A request body the contract rejects, sent through the typed SDK on purpose (a validation test): the cast is the
 * one place such a body gets past the type-check.
 */
export const invalid = (body: unknown): never => body as never;

/** How an SDK call ended: 200 with its body, or the status of the AccountingApiError it threw. */
export type Settled<T> = { status: 200; data: T; error?: undefined } | { status: number; data?: undefined; error: AccountingApiError };

/**
 * Awaits an SDK call that may succeed or fail (races, tables of outcomes) without throwing on an error answer; any
 * other failure (a broken contract, a network error) still fails the test.
 */
export async function settle<T>(call: Promise<T>): Promise<Settled<T>> {
  try {
    return { status: 200, data: await call };
  } catch (e) {
    if (!(e instanceof AccountingApiError) || e.status === 0) throw e;
    return { status: e.status, error: e };
  }
}

/** The body of an answer that must be a 200; any other answer fails the test with the answer. */
export async function okBody(res: Promise<ApiResponse>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`expected 200, got ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Sends `body` to `path` as `w` does (its key and company) and returns the body of the 200 it must answer. */
export async function ok(
  w: { call(path: string, body: unknown, extra?: Partial<RequestOptions>): Promise<ApiResponse> },
  path: string,
  body: unknown,
  extra?: Partial<RequestOptions>,
): Promise<any> {
  const res = await (extra === undefined ? w.call(path, body) : w.call(path, body, extra));
  if (res.status !== 200) throw new Error(`${path} ${JSON.stringify(body)} -> ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * An SDK call made `withResponse`, as status, headers and body (a refusal's: its error envelope), for tests that read
 * every answer alike: tables of probes that compare a refusal with another, or a success's headers.
 */
export async function answer(call: Promise<WithResponse<unknown>>): Promise<ApiResponse> {
  try {
    const { data, response } = await call;
    return { status: response.status, headers: response.headers, body: data };
  } catch (e) {
    if (e instanceof AccountingApiError && e.status !== 0) return { status: e.status, headers: e.headers, body: e.body };
    throw e;
  }
}
