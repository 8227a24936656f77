// Building the page (elements made in one call, a node's children replaced,
// the header's "where"), and small helpers of words and time: what the
// other modules share.

export const main = document.getElementById("main");

// an element with its attributes (``on...``: a listener; ``text``: its text;
// true: present, empty; null, undefined, false: left out) and its children
// (lists flattened, nothing for null, undefined, false; text as text)
function made(element, attrs, children) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "text") element.textContent = value;
    else element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

// an HTML element, made in one call
export const h = (tag, attrs = {}, ...children) => made(document.createElement(tag), attrs, children);
// an SVG one, alike (a chart drawn by the page: analysis.js)
export const svg = (tag, attrs = {}, ...children) =>
  made(document.createElementNS("http://www.w3.org/2000/svg", tag), attrs, children);

// an element's children replaced by these (lists flattened, nothing for null)
export function put(element, ...children) {
  element.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
}

export function setWhere(text) {
  document.getElementById("where").textContent = text;
  document.title = text ? `${text} · Tabletell` : "Tabletell";
}

export const words = (name) => String(name).replaceAll("_", " ");
// a count of a noun in a label ("1 card", "3 cards"); sentences are the API's
export const plural = (n, noun, many = `${noun}s`) => `${n} ${n === 1 ? noun : many}`;
export const title = (name) => words(name).replace(/^./, (c) => c.toUpperCase());
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// the anchor python-markdown's toc extension gives a heading
export const slug = (heading) =>
  heading.toLowerCase().replace(/[^\w\s-]/g, "").trim().replace(/[\s-]+/g, "-");

export function clock(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}
