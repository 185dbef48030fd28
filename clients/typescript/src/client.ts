/**
 * The generated client ({@link HalmaClient}, `openapi-fetch` over the OpenAPI document's
 * paths) and {@link send}, which turns its answers into data or a typed {@link HalmaError}.
 *
 * @module
 */

import createClient, { type Client, type ClientOptions } from "openapi-fetch";

import {
  ProblemError,
  TransportError,
  UnexpectedResponseError,
  isProblemDocument,
  type HalmaError,
} from "./errors.js";
import type { paths } from "./generated.js";

/**
 * A typed client of every operation of the service: `client.GET("/v1/games/{id}", ...)` and so
 * on, as `openapi-fetch` makes it.
 */
export type HalmaClient = Client<paths>;

/** Options of {@link createHalmaClient}: `openapi-fetch`'s, with the base URL required. */
export interface HalmaClientOptions extends ClientOptions {
  /** The service's address: `http://127.0.0.1:8080` (a trailing slash is ignored). */
  baseUrl: string;
}

/**
 * A client for the service at `options.baseUrl`. Other options (a `fetch` of your own, extra
 * headers, ...) go to `openapi-fetch` unchanged.
 *
 * ```ts
 * const client = createHalmaClient({ baseUrl: "http://127.0.0.1:8080" });
 * const { data } = await client.GET("/v1/boards");
 * ```
 */
export function createHalmaClient(options: HalmaClientOptions): HalmaClient {
  return createClient<paths>(options);
}

/** Options every session request takes. */
export interface CallOptions {
  /** Aborts the request; it then fails with a {@link TransportError}. */
  signal?: AbortSignal;
}

/** A successful answer: its decoded body and the response (for its headers). */
export interface Answer<T> {
  /** The decoded body. */
  readonly data: T;
  /** The response, whose body has been read. */
  readonly response: Response;
}

/** What an `openapi-fetch` call resolves to, either branch. */
export interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * Awaits an `openapi-fetch` call and returns its data when the service answered with a 2xx
 * status and a body.
 *
 * @throws {@link ProblemError} for a problem document, {@link TransportError} when `fetch`
 * failed, {@link UnexpectedResponseError} for any other answer (a status the API does not
 * describe, a missing body, a body that is not JSON).
 */
export async function send<T>(call: Promise<FetchResult<T>>): Promise<Answer<T>> {
  return unwrap(await settle(call));
}

/**
 * Awaits an `openapi-fetch` call; a rejection becomes a {@link TransportError}, or, for a 2xx
 * body that is not JSON (`SyntaxError`), an {@link UnexpectedResponseError}.
 */
export async function settle<T>(call: Promise<FetchResult<T>>): Promise<FetchResult<T>> {
  try {
    return await call;
  } catch (cause) {
    if (cause instanceof SyntaxError) {
      throw new UnexpectedResponseError(
        `the body does not decode (${cause.message})`,
        undefined,
        undefined,
        cause,
      );
    }
    throw new TransportError(cause);
  }
}

/**
 * The data of a 2xx answer with a body.
 *
 * @throws As {@link send}, for the answers it does not accept.
 */
export function unwrap<T>({ data, error, response }: FetchResult<T>): Answer<T> {
  if (!response.ok) {
    throw errorOf(response, error);
  }
  if (data === undefined) {
    throw new UnexpectedResponseError(`${response.status} without a body`, response.status);
  }
  return { data, response };
}

/** The error for a non-2xx answer whose body `openapi-fetch` has read into `error`. */
function errorOf(response: Response, error: unknown): HalmaError {
  if (isProblemDocument(error)) {
    return new ProblemError(response.status, error, response.headers);
  }
  const body = typeof error === "string" ? error : JSON.stringify(error);
  return new UnexpectedResponseError(
    `${response.status} ${response.statusText} without a problem document`.trimEnd(),
    response.status,
    body,
  );
}
