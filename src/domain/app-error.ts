/**
 * Every machine-readable error code of the service (docs/decisions.md §1), written once: its HTTP
 * status, whether the HTTP API answers with it (`cli`: only the command line does; the OpenAPI
 * enum, src/openapi/errors.ts, is derived from this) and the CLI's exit code where it has its own
 * (sysexits-style where one fits; 1 otherwise).
 */
const ERRORS = {
  bad_request: { status: 400 },
  headers_too_large: { status: 431 },
  request_timeout: { status: 408 },
  invalid_api_key: { status: 401 },
  insufficient_scope: { status: 403 },
  consent_required: { status: 403 },
  crew_not_found: { status: 404 },
  document_not_found: { status: 404 },
  photo_not_found: { status: 404 },
  vessel_not_found: { status: 404 },
  partner_not_found: { status: 404 },
  key_not_found: { status: 404 },
  not_found: { status: 404 },
  method_not_allowed: { status: 405 },
  payload_too_large: { status: 413 },
  unsupported_media_type: { status: 415 },
  rate_limited: { status: 429 },
  compliance_unavailable: { status: 503 },
  link_expired: { status: 410 },
  operator_key_revoke_only: { status: 409 },
  // POST /api/v2/admin/changes: an Idempotency-Key sent again with another body (docs/api.md).
  idempotency_key_reused: { status: 409 },
  store_unavailable: { status: 503, exit: 69 },
  // The RabbitMQ broker of `svc ingest --from` cannot be reached, lacks the queue, or dropped the connection.
  queue_unavailable: { status: 503, exit: 69, cli: true },
  store_not_migrated: { status: 503, exit: 78, cli: true },
  invalid_input: { status: 422, exit: 65, cli: true },
  // A setting (environment variable or flag) the service cannot run with: bad usage, like a bad flag.
  invalid_setting: { status: 500, exit: 64, cli: true },
  sync_locked: { status: 409, exit: 75, cli: true },
  internal_error: { status: 500, exit: 70 },
} as const satisfies Record<string, { status: number; exit?: number; cli?: true }>;

export type ErrorCode = keyof typeof ERRORS;

/** Every error code, in the order above. */
export const ALL_ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** Whether only the command line answers with the code (never the HTTP API). */
export function isCliOnly(code: ErrorCode): boolean {
  return 'cli' in ERRORS[code];
}

/**
 * The one error type of the service. Services throw it; the HTTP error middleware renders it as
 * `{"detail": {"code", "message", ...extra}}` with `headers`; the CLI prints the message and exits
 * with `exitCode`.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Shown to the caller. Only internal_error hides its message. */
  readonly expose: boolean;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { extra?: Record<string, unknown>; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERRORS[code].status;
    this.expose = code !== 'internal_error';
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }

  get exitCode(): number {
    const error = ERRORS[this.code];
    return 'exit' in error ? error.exit : 1;
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
