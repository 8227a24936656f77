// Turn alerts: when it is the seat's turn and the tab is hidden, a sound and a
// notification as the player chose (kept in this browser), besides the title;
// and, for a player who opts in, a short tick on every move shown.

import { h } from "./dom.js";

const ALERTS_KEY = "tabletell.alerts";
const alertSettings = () => {
  try {
    return JSON.parse(localStorage.getItem(ALERTS_KEY) || "{}");
  } catch {
    return {};
  }
};
const saveAlerts = (settings) => localStorage.setItem(ALERTS_KEY, JSON.stringify(settings));

// one audio context for the page's sounds, made (or woken) on the first:
// a browser lets a page sound only after a tap, which the opt-in box is
let audio = null;
function tone(frequency, seconds, volume) {
  try {
    audio ||= new AudioContext();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(volume, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + seconds);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + seconds);
  } catch {
    // no sound here: the title and the notification still say it
  }
}

const beep = () => tone(660, 0.4, 0.15);

// a move shown on the table (table.js, as its events come): a short, soft
// tick, for a player who chose it (off by default)
export function moveSound() {
  if (alertSettings().moves) tone(520, 0.08, 0.08);
}

// the panel is drawn again with the table's head: left open as the player left it
let panelOpen = false;

export function alertsPanel() {
  const settings = alertSettings();
  const sound = h("input", { id: "alert-sound", type: "checkbox", checked: settings.sound ? true : null });
  sound.addEventListener("change", () => saveAlerts({ ...alertSettings(), sound: sound.checked }));
  const supported = typeof Notification !== "undefined";
  const granted = supported && Notification.permission === "granted";
  const notify = h("input", {
    id: "alert-notify", type: "checkbox",
    checked: settings.notify && granted ? true : null, disabled: supported ? null : true,
  });
  notify.addEventListener("change", async () => {
    if (notify.checked && Notification.permission !== "granted") {
      notify.checked = (await Notification.requestPermission()) === "granted";
    }
    saveAlerts({ ...alertSettings(), notify: notify.checked });
  });
  const moves = h("input", { id: "alert-moves", type: "checkbox", checked: settings.moves ? true : null });
  moves.addEventListener("change", () => {
    saveAlerts({ ...alertSettings(), moves: moves.checked });
    if (moves.checked) moveSound(); // heard at once (and the browser lets the page sound from this tap on)
  });
  const panel = h("details", { class: "alerts", open: panelOpen || null }, h("summary", {}, "Turn alerts"),
    h("p", { class: "meta" }, "When it is your turn and this tab is hidden, its title says so, and:"),
    h("div", { class: "field check" }, sound, h("label", { for: "alert-sound" }, "play a sound")),
    h("div", { class: "field check" }, notify,
      h("label", { for: "alert-notify" }, "show a notification (your browser asks first)")),
    h("div", { class: "field check" }, moves, h("label", { for: "alert-moves" }, "a short sound on every move")));
  panel.addEventListener("toggle", () => { panelOpen = panel.open; });
  return panel;
}

export function yourTurnAlert(gameName, line) {
  const settings = alertSettings();
  if (!document.hidden) return;
  if (settings.sound) beep();
  if (settings.notify && typeof Notification !== "undefined" && Notification.permission === "granted") {
    try {
      new Notification(`Your turn in ${gameName}`, { body: line || "", tag: "tabletell-turn" });
    } catch {
      // a browser that shows notifications only from a service worker
    }
  }
}
