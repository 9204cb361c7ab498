/** Machine-readable error codes of the service (docs/decisions.md §1), plus CLI-only ones. */
export type ErrorCode =
  | 'bad_request'
  | 'headers_too_large'
  | 'request_timeout'
  | 'invalid_api_key'
  | 'insufficient_scope'
  | 'consent_required'
  | 'crew_not_found'
  | 'document_not_found'
  | 'photo_not_found'
  | 'vessel_not_found'
  | 'partner_not_found'
  | 'key_not_found'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'compliance_unavailable'
  | 'link_expired'
  | 'operator_key_revoke_only'
  | 'store_unavailable'
  | 'store_not_migrated'
  | 'invalid_input'
  | 'invalid_setting'
  | 'sync_locked'
  | 'internal_error';

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  headers_too_large: 431,
  request_timeout: 408,
  invalid_api_key: 401,
  insufficient_scope: 403,
  consent_required: 403,
  crew_not_found: 404,
  document_not_found: 404,
  photo_not_found: 404,
  vessel_not_found: 404,
  partner_not_found: 404,
  key_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  compliance_unavailable: 503,
  link_expired: 410,
  operator_key_revoke_only: 409,
  store_unavailable: 503,
  store_not_migrated: 503,
  invalid_input: 422,
  invalid_setting: 500,
  sync_locked: 409,
  internal_error: 500,
};

/** Exit codes the CLI maps errors to (sysexits-style where one fits). */
const EXIT: Partial<Record<ErrorCode, number>> = {
  invalid_input: 65,
  // A setting (environment variable or flag) the service cannot run with: bad usage, like a bad flag.
  invalid_setting: 64,
  store_unavailable: 69,
  store_not_migrated: 78,
  sync_locked: 75,
  internal_error: 70,
};

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
    this.status = STATUS[code];
    this.expose = code !== 'internal_error';
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }

  get exitCode(): number {
    return EXIT[this.code] ?? 1;
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
