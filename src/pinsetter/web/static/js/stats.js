import { api, getCatalog } from "./api.js";
import { app, append, clear, h, s } from "./dom.js";
import { t } from "./i18n.js";
import { focusMain, page } from "./page.js";

// pinsetter's web pages: stats.
export const statsFilter = { game: "", player: "", bots: false };

export async function statsPage() {
  await filteredPage({
    title: t("Statistics"),
    prefix: "stats",
    filter: statsFilter,
    ariaLabel: t("Choose the statistics"),
    playerFirst: true,
    endpoint: "/api/stats",
    toggle: { key: "bots", label: t("Count the bots' scores") },
    render(results, answer) {
      const st = answer.data;
      if (!st.games) {
        results.append(h("p", { class: "muted", text: t("No finished games yet.") }));
        return;
      }
      // Scores of different games or rules (frames, advanced, dice set...) are never averaged together.
      st.series.forEach((block, index) => append(results, statsBlock(block, index, st.fewest_for_interval)));
      results.append(statsNotes());
    },
  });
}

/** A page with a game/player filter form whose results come from `endpoint` (history, statistics). */
export async function filteredPage({ title, prefix, filter, ariaLabel, playerFirst, endpoint, render, toggle }) {
  const gen = page.generation;
  const games = await getCatalog();
  if (gen !== page.generation) return;
  const results = h("div", { id: `${prefix}-results` });
  const gameSelect = h(
    "select",
    { id: `${prefix}-game` },
    h("option", { value: "", text: t("all games") }),
    games.map((g) => h("option", { value: g.id, text: g.name })),
  );
  gameSelect.value = filter.game;
  const player = h("input", { type: "text", id: `${prefix}-player`, value: filter.player });
  const gameField = [h("label", { for: `${prefix}-game`, text: t("Game") }), gameSelect];
  const playerField = [h("label", { for: `${prefix}-player`, text: t("Player") }), player];
  // An optional switch sent as `key=true` (the statistics' bots).
  const box = toggle ? h("input", { type: "checkbox", id: `${prefix}-${toggle.key}`, checked: filter[toggle.key] }) : null;
  const form = h(
    "form",
    { class: "panel row", role: "search", "aria-label": ariaLabel },
    playerFirst ? [...playerField, ...gameField] : [...gameField, ...playerField],
    toggle ? h("label", {}, box, ` ${toggle.label}`) : null,
    h("button", { type: "submit", text: t("Show") }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    filter.game = gameSelect.value;
    filter.player = player.value.trim();
    if (toggle) filter[toggle.key] = box.checked;
    load();
  });
  app.append(h("h1", { text: title }), form, results);
  focusMain(title);

  async function load() {
    const query = new URLSearchParams();
    if (filter.game) query.set("game", filter.game);
    if (filter.player) query.set("player", filter.player);
    if (toggle && filter[toggle.key]) query.set(toggle.key, "true");
    const answer = await api("GET", `${endpoint}?${query}`);
    if (gen !== page.generation) return;
    clear(results);
    if (!answer.ok) {
      results.append(h("p", { class: "error", role: "alert", text: answer.error }));
      return;
    }
    render(results, answer, games);
  }
  load();
}

// The statistics in a player's words (docs/history.md, Statistics): the 95% confidence interval is the
// "likely range of the average", its exact meaning in a note under the series; the rates say which frames
// they count. Below `fewest` scores (the API's fewest_for_interval) there is no range: the figure says why,
// as the terminal does.
export function statsBlock(st, index, fewest) {
  const fmt = (x, digits = 1) => (typeof x === "number" ? x.toFixed(digits) : "—");
  const pct = (x) => (typeof x === "number" ? `${(100 * x).toFixed(1)}%` : "—");
  const range = Array.isArray(st.ci95)
    ? `${fmt(st.ci95[0])} – ${fmt(st.ci95[1])}`
    : t("too few games for a range: {count} needed", { count: fewest });
  const items = [
    [t("Games"), st.games],
    [t("Scores counted"), st.results],
    [t("Average"), fmt(st.average)],
    [t("Likely range of the average"), range, RANGE_NOTE],
    [t("Best"), st.best ?? "—"],
    [t("Worst"), st.worst ?? "—"],
    [t("Strike rate (every frame but the last)"), pct(st.strike_rate)],
    [t("Spare rate (every frame but the last)"), pct(st.spare_rate)],
    [t("Perfect games"), st.perfect_games ?? 0],
    [t("Trend per game"), fmt(st.trend_per_game, 2)],
  ];
  const chartId = `chart-h-${index}`;
  return [
    h(
      "section",
      { class: "panel" },
      h("h2", { text: st.title }),
      h(
        "dl",
        { class: "stats-grid" },
        items.map(([k, v, note]) => h("div", { dataset: note ? { stat: "range" } : {} }, h("dt", { text: k }), h("dd", { text: v, "aria-describedby": note || null }))),
      ),
      st.benchmark && st.benchmark.text ? h("p", { text: t("Against the odds: {text}", { text: st.benchmark.text }) }) : null,
    ),
    h(
      "section",
      { class: "panel", "aria-labelledby": chartId },
      h("h2", { id: chartId, text: t("Scores over time: {game}", { game: st.title }) }),
      chart(st.scores || [], index === 0 ? "chart" : `chart-${index}`),
      h("details", {}, h("summary", { text: t("The scores as text") }), h("p", { text: (st.scores || []).join(", ") })),
    ),
  ];
}

// What the figures mean, once under every series: the range exactly, and the frames the rates count.
const RANGE_NOTE = "range-note";
function statsNotes() {
  return h(
    "div",
    { class: "stats-notes", id: "stats-notes" },
    h("p", { class: "help", id: RANGE_NOTE, text: t("Likely range of the average: a confidence interval of 95%. Worked out this way from sets of games like these, 19 ranges in 20 hold the true long-run average; the more games, the narrower the range.") }),
    h("p", { class: "help", text: t("Strike and spare rates count every frame but the last, which can hold more than one strike.") }),
  );
}

export function chart(scores, id) {
  const W = 600;
  const H = 220;
  const pad = { l: 40, r: 12, t: 12, b: 28 };
  const top = Math.max(20, Math.ceil(Math.max(...scores, 0) / 20) * 20);
  const x = (i) => pad.l + (scores.length <= 1 ? (W - pad.l - pad.r) / 2 : (i * (W - pad.l - pad.r)) / (scores.length - 1));
  const y = (v) => H - pad.b - (v / top) * (H - pad.t - pad.b);
  const summary = scores.length
    ? t("Line chart of {count} scores, oldest first, from {first} to {last}, highest {best}", {
        count: scores.length,
        first: scores[0],
        last: scores[scores.length - 1],
        best: Math.max(...scores),
      })
    : t("No scores");
  const svg = s("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": summary, id });
  for (let k = 0; k <= 4; k += 1) {
    const v = (top * k) / 4;
    svg.append(s("line", { class: "grid", x1: pad.l, x2: W - pad.r, y1: y(v), y2: y(v) }));
    svg.append(s("text", { x: pad.l - 6, y: y(v) + 4, "text-anchor": "end", text: Math.round(v) }));
  }
  svg.append(s("line", { class: "axis", x1: pad.l, x2: W - pad.r, y1: H - pad.b, y2: H - pad.b }));
  svg.append(s("text", { x: (W + pad.l) / 2, y: H - 6, "text-anchor": "middle", text: t("games, oldest → newest") }));
  if (scores.length) {
    svg.append(s("polyline", { class: "series", points: scores.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
    scores.forEach((v, i) => svg.append(s("circle", { class: "point", cx: x(i), cy: y(v), r: 3.5 }, s("title", { text: t("game {number}: {score}", { number: i + 1, score: v }) }))));
  }
  return svg;
}
