import { account, api, getCatalog } from "./api.js";
import { accountSection } from "./account.js";
import { app, h, s } from "./dom.js";
import { t, tn } from "./i18n.js";
import { boardTitle, getBoards } from "./leaderboard.js";
import { focusMain, page } from "./page.js";
import { drawAtWidth, niceStep } from "./pathchart.js";
import { signed, when } from "./words.js";

// pinsetter's web pages: a player's profile (GET /api/players/{name}): their rating per game and mode,
// a chart of each rating over their rated games, their best games with links to their reviews, and for
// the signed-in player their account's own section (js/account.js).

const PAD = { l: 50, r: 16, t: 16, b: 36 };


/** A rated game's link: its review where the game has decisions to review, else its replay, each named so
 * (`words`: [the review's, the replay's]). */
function gameLink(entry, games, [review, replay]) {
  if (!entry.game_id) return null; // the stored game is gone
  const spec = games.find((g) => g.id === entry.game);
  if (spec && !spec.decisions) return h("a", { href: `#/history/${entry.game_id}`, text: replay, dataset: { game: String(entry.game_id) } });
  return h("a", { href: `#/review/${entry.game_id}`, text: review, dataset: { game: String(entry.game_id) } });
}

function placeWords(entry) {
  return t("place {rank} of {players}", { rank: entry.rank, players: entry.players });
}

/**
 * One board's rating over the player's rated games, `width` px wide (drawn at the width shown, so that
 * its words stay 12 px on a phone): the rating before the first game, then after each.
 */
export function ratingChart(entries, { width, id, label }) {
  const W = Math.max(280, Math.round(width));
  const H = W < 560 ? 200 : 240;
  const values = [entries[0].rating - entries[0].delta, ...entries.map((e) => e.rating)];
  const step = niceStep(Math.max(...values) - Math.min(...values), 4);
  let low = Math.floor(Math.min(...values) / step) * step;
  let high = Math.ceil(Math.max(...values) / step) * step;
  if (high - low < step) {
    low -= step;
    high += step;
  }
  const left = PAD.l;
  const right = W - PAD.r;
  const inset = 8;
  const x = (i) => left + inset + (i * (right - left - 2 * inset)) / Math.max(1, values.length - 1);
  const y = (v) => H - PAD.b - ((v - low) / (high - low)) * (H - PAD.t - PAD.b);
  const svg = s("svg", { class: "chart rating-chart", id, width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label });
  for (let v = low; v <= high + step / 1000; v += step) {
    svg.append(s("line", { class: "grid", x1: left, x2: right, y1: y(v), y2: y(v) }));
    svg.append(s("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", text: Math.round(v) }));
  }
  svg.append(s("line", { class: "axis", x1: left, x2: right, y1: H - PAD.b, y2: H - PAD.b }));
  svg.append(s("line", { class: "axis", x1: left, x2: left, y1: PAD.t, y2: H - PAD.b }));
  svg.append(s("text", { x: (left + right) / 2, y: H - 8, "text-anchor": "middle", text: t("rated games, oldest → newest") }));
  svg.append(s("polyline", { class: "series", points: values.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
  values.forEach((v, i) => {
    const entry = i === 0 ? null : entries[i - 1];
    const words = entry
      ? t("game {number}, {when}: {place}, {delta} to {rating}", { number: i, when: when(entry.at), place: placeWords(entry), delta: signed(entry.delta), rating: entry.rating })
      : t("before the first rated game: {rating}", { rating: v });
    const up = entry && entry.delta >= 0;
    svg.append(s("circle", { class: entry ? (up ? "point up" : "point down") : "point start", cx: x(i), cy: y(v), r: values.length > 60 ? 2.4 : 3.5 }, s("title", { text: words })));
  });
  return svg;
}

function ratingsPanel(data, boards) {
  return h(
    "section",
    { class: "panel", "aria-labelledby": "ratings-h" },
    h("h2", { id: "ratings-h", text: t("Ratings") }),
    data.ratings.length
      ? h(
          "ul",
          { class: "rating-cards", id: "ratings" },
          data.ratings.map((r) =>
            h(
              "li",
              { class: "rating-card", dataset: { game: r.game, mode: r.mode } },
              h("a", { class: "rating-board", href: `#/leaderboard/${encodeURIComponent(r.game)}/${encodeURIComponent(r.mode)}`, text: boardTitle(boards, r.game, r.mode) }),
              h("span", { class: "rating-value", text: r.rating }),
              h("span", { class: "help", text: tn("{n} rated game", "{n} rated games", r.games) }),
            ),
          ),
        )
      : h("p", { class: "muted", id: "no-ratings", text: t("No rated games yet: ratings come from games at rated tables.") }),
  );
}

function chartsPanel(data, boards, games) {
  if (!data.history.length) return [];
  const panel = h("section", { class: "panel", "aria-labelledby": "history-h", id: "rating-history" }, h("h2", { id: "history-h", text: t("Rating over time") }));
  const series = [];
  for (const r of data.ratings) {
    const entries = data.history.filter((e) => e.game === r.game && e.mode === r.mode);
    if (entries.length) series.push({ title: boardTitle(boards, r.game, r.mode), entries, key: `${r.game}-${r.mode}` });
  }
  const holders = series.map((one) => {
    const holder = h("div", { class: "chart-holder rating-holder" });
    const rows = one.entries.map((e) =>
      h(
        "tr",
        {},
        h("td", { text: when(e.at) }),
        h("td", { text: placeWords(e) }),
        h("td", { class: "num", text: signed(e.delta) }),
        h("td", { class: "num", text: e.rating }),
        h("td", {}, gameLink(e, games, [t("Review"), t("Replay")])),
      ),
    );
    panel.append(
      h("h3", { text: one.title }),
      holder,
      h(
        "details",
        {},
        h("summary", { text: t("The rated games as a table") }),
        h(
          "div",
          { class: "scroll" },
          h(
            "table",
            { class: "list" },
            h("thead", {}, h("tr", {}, [t("When"), t("Place"), t("Change"), t("Rating"), t("Game")].map((text) => h("th", { scope: "col", text })))),
            h("tbody", {}, rows),
          ),
        ),
      ),
    );
    return { holder, one };
  });
  // Drawn once the panel is in the page: at the width it is shown at, and again when that width changes.
  const charts = holders.map(({ holder, one }, index) => {
    const last = one.entries[one.entries.length - 1];
    const values = { board: one.title, rating: last.rating };
    const label = tn("Rating in {board} over {n} rated game: now {rating}", "Rating in {board} over {n} rated games, oldest first: now {rating}", one.entries.length, values);
    return { holder, draw: (width) => ratingChart(one.entries, { width, id: `rating-chart-${index}`, label }) };
  });
  return [panel, () => drawAtWidth(charts)];
}

function bestPanel(data, boards, games) {
  if (!data.best.length) return null;
  return h(
    "section",
    { class: "panel", "aria-labelledby": "best-h" },
    h("h2", { id: "best-h", text: t("Best games") }),
    h(
      "ol",
      { class: "best-games", id: "best-games" },
      data.best.map((e) =>
        h(
          "li",
          {},
          h("strong", { text: boardTitle(boards, e.game, e.mode) }),
          ` · ${placeWords(e)} · ${signed(e.delta)} → ${e.rating}`,
          h("br"),
          h("span", { class: "help", text: when(e.at) }),
          e.game_id ? [" · ", gameLink(e, games, [t("Review this game"), t("Replay this game")])] : null,
        ),
      ),
    ),
  );
}

export async function profilePage(name) {
  const gen = page.generation;
  const root = h("div", { id: "profile", dataset: { ready: "0" } });
  app.append(root);
  const [boards, games, answer] = await Promise.all([getBoards(), getCatalog(), api("GET", `/api/players/${encodeURIComponent(name)}`)]);
  if (gen !== page.generation) return;
  if (!answer.ok) {
    root.append(
      h("h1", { text: name }),
      answer.status === 404
        ? h("p", { class: "panel", id: "no-account", text: t("{name} has no account here, so there are no ratings to show.", { name }) })
        : h("p", { class: "error", role: "alert", text: answer.error }),
      h("p", {}, h("a", { href: "#/leaderboard", text: t("See the leaderboards") })),
    );
    root.dataset.ready = "1";
    focusMain(name);
    return;
  }
  const data = answer.data;
  const [charts, drawCharts] = chartsPanel(data, boards, games);
  root.append(
    h("h1", { class: "profile-name" }, data.name),
    h("p", { class: "lead muted", id: "profile-games", text: tn("{n} rated game", "{n} rated games", data.games) }),
    h("div", { class: "profile-grid" }, h("div", {}, ratingsPanel(data, boards), bestPanel(data, boards, games)), h("div", {}, charts || null)),
    account.name === data.name ? accountSection(data.name) : null,
  );
  if (drawCharts) drawCharts();
  root.dataset.ready = "1";
  focusMain(data.name);
}
