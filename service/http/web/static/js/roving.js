// A group of buttons as one Tab stop (the "roving tabindex" of WAI-ARIA's
// authoring practices), so that a hand of twenty cards is one key press to
// pass, not twenty: Tab enters the group at one button and leaves it at the
// next control; the arrow keys, Home and End move between its buttons;
// Space or Enter presses the focused one, as any button. The page redraws
// the group at each change, so it is applied again after each drawing, and
// the stop is found again: the button focused, else the one last focused in
// a group of the same name (by its key), else the first pressed, else the
// first. The hand's cards use it (table.js); any group of buttons may.

const lastFocused = new Map(); // a group's name: the key of its button last focused

export function roving(group, { name = "", items = "button:not([disabled])", key = (item) => item.id } = {}) {
  if (!group) return null;
  const buttons = [...group.querySelectorAll(items)];
  if (!buttons.length) return null;
  const stop = buttons.find((b) => b === document.activeElement)
    || buttons.find((b) => lastFocused.has(name) && key(b) === lastFocused.get(name))
    || buttons.find((b) => b.getAttribute("aria-pressed") === "true")
    || buttons[0];
  for (const button of buttons) button.tabIndex = button === stop ? 0 : -1;
  group.addEventListener("focusin", (event) => {
    if (!buttons.includes(event.target)) return;
    for (const button of buttons) button.tabIndex = button === event.target ? 0 : -1;
    lastFocused.set(name, key(event.target));
  });
  group.addEventListener("keydown", (event) => {
    const at = buttons.indexOf(document.activeElement);
    if (at < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
    const next = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0,
      End: buttons.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault(); // the arrows move between the buttons, not the page
    buttons[(next + buttons.length) % buttons.length].focus();
  });
  return stop;
}
