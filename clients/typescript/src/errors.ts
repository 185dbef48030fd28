/**
 * Why a request to the service failed: {@link ProblemError} for the service's problem documents
 * (`application/problem+json`, RFC 9457) with their `code` typed, {@link TransportError} when
 * no answer came, {@link UnexpectedResponseError} for an answer the API does not describe.
 *
 * @module
 */

import type { Problem } from "./generated.js";
import { retryAfterSeconds } from "./headers.js";

/**
 * The stable machine-readable `code` of a problem document (`version_mismatch`,
 * `illegal_move`, ...), as the OpenAPI document types it.
 */
export type ProblemCode = Problem["code"];

/**
 * The rule's reason code of an `illegal_move` or `invalid_setup` problem (`not_your_turn`,
 * `goal_locked`, ...), as the OpenAPI document types it.
 */
export type ProblemReason = NonNullable<Problem["reason"]>;

/** The base class of every error the SDK's session layer throws. */
export abstract class HalmaError extends Error {
  /**
   * Whether the same request may succeed when sent again unchanged: transport failures and
   * 5xx answers (503 `store_unavailable` says when, in {@link ProblemError.retryAfter}). A 412
   * `version_mismatch` is not: the request must be based on the current version first.
   */
  abstract readonly retryable: boolean;
}

/** The service answered with a problem document (any 4xx or 5xx status). */
export class ProblemError extends HalmaError {
  override readonly name = "ProblemError";
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The problem document as sent. */
  readonly problem: Problem;
  /**
   * The `Retry-After` header in seconds, sent with 503 `store_unavailable`; `undefined`
   * without one.
   */
  readonly retryAfter: number | undefined;

  /** A problem answer of `status` with its document and headers. */
  constructor(status: number, problem: Problem, headers: Headers) {
    const reason = problem.reason == null ? "" : ` (${problem.reason})`;
    super(`${status} ${problem.code}${reason}: ${problem.detail}`);
    this.status = status;
    this.problem = problem;
    this.retryAfter = retryAfterSeconds(headers);
  }

  /** The problem's code. */
  get code(): ProblemCode {
    return this.problem.code;
  }

  /** The rule's reason code of an `illegal_move` or `invalid_setup` problem. */
  get reason(): ProblemReason | undefined {
    return this.problem.reason ?? undefined;
  }

  /** The game's current version, named by a `version_mismatch` problem. */
  get currentVersion(): number | undefined {
    return this.problem.current_version ?? undefined;
  }

  /** Whether the problem's code is `code`. */
  is(code: ProblemCode): boolean {
    return this.problem.code === code;
  }

  get retryable(): boolean {
    return this.status >= 500;
  }
}

/**
 * The request could not be sent or its answer not received (connection refused, the network
 * down, the request aborted through its signal); {@link TransportError.cause} is what `fetch`
 * threw.
 */
export class TransportError extends HalmaError {
  override readonly name = "TransportError";

  /** A failure of `fetch` itself. */
  constructor(cause: unknown) {
    super(`cannot reach the halma service: ${describe(cause)}`, { cause });
  }

  get retryable(): boolean {
    return true;
  }
}

/**
 * The service answered in a way the API does not describe: a status without a problem
 * document, or a body that does not decode.
 */
export class UnexpectedResponseError extends HalmaError {
  override readonly name = "UnexpectedResponseError";
  /** The HTTP status, when the answer's head was read. */
  readonly status: number | undefined;
  /** The body as text, when it was read. */
  readonly body: string | undefined;

  /**
   * An answer of `status` (when known) that does not fit the API; `cause` is the decoding
   * error.
   */
  constructor(message: string, status?: number, body?: string, cause?: unknown) {
    super(`unexpected answer from the halma service: ${message}`, { cause });
    this.status = status;
    this.body = body;
  }

  get retryable(): boolean {
    return false;
  }
}

/**
 * Whether `error` is a problem answer, and of `code` when given: for `catch` blocks, where
 * the error is `unknown`.
 *
 * ```ts
 * try {
 *   await session.play("e13", "e12");
 * } catch (error) {
 *   if (!isProblem(error, "version_mismatch")) throw error;
 *   await session.refresh();
 * }
 * ```
 */
export function isProblem(error: unknown, code?: ProblemCode): error is ProblemError {
  return error instanceof ProblemError && (code === undefined || error.is(code));
}

/**
 * Whether `body` has the members every problem document has; its `code` is taken as sent, so
 * that a newer service's codes still arrive as problems.
 */
export function isProblemDocument(body: unknown): body is Problem {
  if (typeof body !== "object" || body === null) {
    return false;
  }
  const fields: Record<string, unknown> = { ...body };
  return (
    typeof fields["type"] === "string" &&
    typeof fields["title"] === "string" &&
    typeof fields["status"] === "number" &&
    typeof fields["detail"] === "string" &&
    typeof fields["code"] === "string"
  );
}

function describe(cause: unknown): string {
  if (cause instanceof Error) {
    // Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, ...) is its cause.
    const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : "";
    return `${cause.message}${inner}`;
  }
  return String(cause);
}
