// The seats this browser holds: each game's seat token, kept in localStorage,
// so a reload keeps the seat.

const SEATS_KEY = "tabletell.seats";

export const Seats = {
  all() {
    try {
      return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
    } catch {
      return {};
    }
  },
  get(gameId) {
    return this.all()[gameId] || null;
  },
  put(gameId, record) {
    const all = this.all();
    all[gameId] = { ...record, saved: Date.now() };
    localStorage.setItem(SEATS_KEY, JSON.stringify(all));
  },
};
