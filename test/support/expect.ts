import { expect } from "@jest/globals";
import type { ApiResponse } from "./harness.js";

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
