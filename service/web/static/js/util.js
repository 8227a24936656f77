// Small helpers of words and time, shared by the pages.

export const words = (name) => String(name).replaceAll("_", " ");
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
