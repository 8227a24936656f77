// Turn alerts: when it is the seat's turn and the tab is hidden, a sound and a
// notification as the player chose (kept in this browser), besides the title.

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

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch {
    // no sound here: the title and the notification still say it
  }
}

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
  return h("details", { class: "alerts" }, h("summary", {}, "Turn alerts"),
    h("p", { class: "meta" }, "When it is your turn and this tab is hidden, its title says so, and:"),
    h("div", { class: "field check" }, sound, h("label", { for: "alert-sound" }, "play a sound")),
    h("div", { class: "field check" }, notify,
      h("label", { for: "alert-notify" }, "show a notification (your browser asks first)")));
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
