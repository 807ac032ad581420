// Finds the handler of every operation in the contract by its path: POST /v1/partners/create is
// src/handlers/partners/create.ts. Startup fails when an operation has no handler, so none can be forgotten.
import type { Handler } from "./types.js";

export function handlerModulePath(operationPath: string): string {
  return `./${operationPath.replace(/^\/v1\//, "")}.js`;
}

export async function loadHandlers(operations: Iterable<{ operationId: string; path: string }>): Promise<Map<string, Handler>> {
  const handlers = new Map<string, Handler>();
  for (const op of operations) {
    const modulePath = handlerModulePath(op.path);
    let module: { default?: Handler };
    try {
      module = await import(modulePath);
    } catch (error) {
      throw new Error(`operation ${op.operationId} (${op.path}) has no handler at src/handlers/${modulePath.slice(2, -3)}.ts: ${(error as Error).message}`);
    }
    const handler = module.default;
    if (typeof handler !== "function" || handler.operationId !== op.operationId) {
      throw new Error(`src/handlers/${modulePath.slice(2, -3)}.ts must default-export defineHandler("${op.operationId}", ...)`);
    }
    handlers.set(op.operationId, handler);
  }
  return handlers;
}
