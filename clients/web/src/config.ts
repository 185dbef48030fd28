/**
 * The address of the service the page talks to: `?api=` in the page's address, else the one
 * saved in the settings, else the page's own origin (the service serves this page at /play/).
 *
 * @module
 */

/** The key the chosen address is saved under in `localStorage`. */
export const API_BASE_KEY = "halma.apiBase";

/**
 * The service's base URL from the page's query string (`?api=http://host:8080`), the saved
 * setting and the page's origin, in that order; a trailing slash is dropped.
 *
 * @throws {TypeError} when the chosen address is not an http or https URL.
 */
export function resolveApiBase(search: string, saved: string | null, origin: string): string {
  const fromQuery = new URLSearchParams(search).get("api");
  const chosen = [fromQuery, saved].find((v) => v !== null && v.trim() !== "") ?? origin;
  return normaliseApiBase(chosen);
}

/**
 * `text` as a base URL: an http or https URL without query or fragment, no trailing slash.
 *
 * @throws {TypeError} for anything else.
 */
export function normaliseApiBase(text: string): string {
  const url = new URL(text.trim());
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`${text} is not an http or https address`);
  }
  if (url.search !== "" || url.hash !== "") {
    throw new TypeError(`${text} has a query or fragment; give the service's address only`);
  }
  return url.href.replace(/\/+$/, "");
}
