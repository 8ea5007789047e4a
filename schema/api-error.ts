import { z } from 'zod';

/** Every error the API answers has this body (docs/api.md#errors). */
export const apiErrorBodySchema = z.object({
  statusCode: z.int(),
  error: z.string(),
  code: z.string(),
  message: z.string(),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

/** The `error` text of each status the API answers. */
export const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** A refusal meant for the client: its status, a stable code for programs and a message naming the input. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** For a 503 or 429: when to try again, sent as Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): ApiErrorBody {
    return { statusCode: this.statusCode, error: REASON_PHRASES[this.statusCode] ?? 'Error', code: this.code, message: this.message };
  }
}

export const badRequest = (code: string, message: string) => new ApiError(400, code, message);
