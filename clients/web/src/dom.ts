/**
 * A small helper to build DOM elements: `h("button", { type: "button" }, "Play")`.
 *
 * @module
 */

/** Attributes of {@link h}: strings become attributes, functions `on...` event listeners. */
export type Attributes = Record<string, string | number | boolean | undefined | EventListener>;

/** A child of {@link h}: a node, text, or nothing. */
export type Child = Node | string | null | undefined | false;

/**
 * An HTML element of `tag` with `attributes` and `children`. `false` and `undefined`
 * attributes are left out, `true` ones set empty; `onclick` and its kin add listeners.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: readonly (Child | readonly Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

/** An SVG element of `tag` with `attributes` and `children`. */
export function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: readonly (Child | readonly Child[])[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

function setAttributes(element: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (value === true) {
      element.setAttribute(name, "");
    } else if (value !== undefined && value !== false) {
      element.setAttribute(name, String(value));
    }
  }
}

function append(element: Element, children: readonly (Child | readonly Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    element.append(child);
  }
}
