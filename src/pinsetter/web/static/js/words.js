import { catalogCache } from "./api.js";
import { language, t } from "./i18n.js";

export function gameName(id, games) {
  const found = (games || catalogCache || []).find((g) => g.id === id);
  return found ? found.name : id;
}

// A bot as players read it (GET /api/catalog's bot_info): "Optimal bot", and what it does.
export function botInfo(kind) {
  const name = String(kind).replace(/^bot:/, "");
  for (const game of catalogCache || []) {
    const found = (game.bot_info || []).find((b) => b.name === name);
    if (found) return found;
  }
  return { name, title: name, description: "" };
}

// The server's rule for a new bot seat's name (bots.base.bot_seat_name): "Greedy bot", then "Greedy bot 2".
export function botSeatName(kind, taken) {
  const title = botInfo(kind).title;
  let name = title;
  for (let number = 2; taken.includes(name); number += 1) name = t("{bot} {number}", { bot: title, number });
  return name;
}

// A player's name, with the bot it is where the name does not say so: "Ann", "Greedy bot 2", "Max (Optimal bot)".
export function playerLabel(name, kind) {
  if (kind === "human") return name;
  const title = botInfo(kind).title;
  return name.startsWith(title) ? name : t("{name} ({bot})", { name, bot: title });
}

export function playerNames(players) {
  return players.map((p) => playerLabel(p.name, p.kind)).join(t(", "));
}

// A stored time as the reader's language writes it, to the minute ("Dec 3, 2026, 8:13 AM"; "2026/12/03 8:13").
export function when(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return date.toLocaleString(language, { dateStyle: "medium", timeStyle: "short" });
}

// The games as the front page shows them: those with decisions first (a newcomer learns most from them),
// then those for more players. The leaderboard's boards follow the same order.
export function frontOrder(games) {
  return [...games].sort((a, b) => Number(b.decisions) - Number(a.decisions) || b.players[1] - a.players[1]);
}

// A rating change as players read it: "+12", "−85" (a minus sign, not a hyphen), "±0".
export function signed(delta) {
  const rounded = Math.round(delta);
  return rounded > 0 ? `+${rounded}` : rounded < 0 ? `−${-rounded}` : "±0";
}
