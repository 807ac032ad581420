// @accounting-api/sdk: a typed client of the Accounting API, generated from its OpenAPI contract.
export { AccountingApi, type ClientOptions } from "./client.js";
export { AccountingApiConnectionError, AccountingApiError, type ErrorEnvelope } from "./errors.js";
export { ERROR_CODES, ERROR_KEYS, type ErrorCode, type ErrorKey } from "./generated/errors.js";
export type { RequestEvent, RetryEvent } from "./retry.js";
export { CLIENT_NAME } from "./user-agent.js";
export { paginate, pages, type PageOptions } from "./pagination.js";
export type { ListOperationId, ListRow, Operation, OperationId, RequestBody, RequestOptions, ResponseData, WithResponse } from "./operation.js";
export { API_VERSION, type Resources } from "./generated/resources.js";
export type { components, operations, paths } from "./generated/schema.js";
export {
  constructWebhookEvent,
  verifyWebhookSignature,
  WebhookSignatureError,
  DEFAULT_TOLERANCE_SECONDS,
  LEGACY_SIGNATURE_HEADER,
  SIGNATURE_HEADER,
  type HeadersLike,
  type VerifyOptions,
  type WebhookEvent,
  type WebhookFailure,
} from "./webhooks.js";
