import { api, getCatalog } from "./api.js";
import { app, append, h, s } from "./dom.js";
import { t } from "./i18n.js";
import { focusMain, page } from "./page.js";
import { drawAtWidth, pathChart } from "./pathchart.js";
import { playerLabel } from "./words.js";

// pinsetter's web pages: a game's review (GET /api/games/{id}/review, docs/review.md). For each
// reviewed player: the figures (accuracy, points lost, luck), the costliest decisions with the move
// played and the best one in words (the server's words: never the notation), a chart of the
// expected final score over the game with the same numbers as a table, and every decision,
// folded. A game that cannot be reviewed shows the server's one-line reason.

const fixed = (x) => x.toFixed(2);
// A signed figure: "+1.90", "−0.62" (a minus sign, not a hyphen), "0.00".
export function signed(x) {
  const text = Math.abs(x).toFixed(2);
  if (text === "0.00") return text;
  return x > 0 ? `+${text}` : `−${text}`;
}

function figures(player) {
  const accuracy =
    player.accuracy === null
      ? t("no real choices")
      : t("{percent}% ({best} of {counted})", { percent: player.accuracy.toFixed(1), best: player.best_choices, counted: player.counted });
  const items = [
    ["score", player.finished ? t("Final score") : t("Score so far"), String(Math.round(player.score))],
    ["accuracy", t("Accuracy"), accuracy],
    ["total_loss", t("Points lost"), fixed(player.total_loss)],
    ["luck", t("Luck"), signed(player.luck)],
    ["start", t("Expected at the start"), fixed(player.start)],
    ["end", player.finished ? t("At the end") : t("Expected now"), fixed(player.end)],
  ];
  return h(
    "dl",
    { class: "stats-grid review-figures" },
    items.map(([key, name, value]) => h("div", {}, h("dt", { text: name }), h("dd", { text: value, dataset: { figure: key } }))),
  );
}

function byBot(d) {
  return d.own ? null : h("span", { class: "muted", text: ` ${t("(played by the bot)")}` });
}

function costliest(player) {
  if (!player.costliest.length) {
    return h("p", { class: "review-none", text: t("No decision lost points: every choice was the best.") });
  }
  return h(
    "ol",
    { class: "costliest" },
    player.costliest.map((d) =>
      h(
        "li",
        { dataset: { step: String(d.step) } },
        h("p", { class: "costly-head" }, h("strong", { class: "loss", text: t("Lost {loss} points", { loss: fixed(d.loss) }) }), " · ", h("span", { class: "situation", text: d.situation })),
        h("p", {}, `${t("Played:")} `, h("span", { class: "played", text: d.words })),
        h("p", {}, `${t("Best:")} `, h("span", { class: "best-move", text: d.best_words })),
      ),
    ),
  );
}

function kindWords(kind) {
  if (kind === "start") return t("the start");
  if (kind === "decision") return t("a decision");
  return t("chance");
}

// The chart's numbers for screen readers (and anyone): a row per point of the path.
function pathTable(player, lost) {
  return h(
    "div",
    { class: "scroll" },
    h(
      "table",
      { class: "list path-table" },
      h("caption", { class: "visually-hidden", text: t("Expected final score of {name}, step by step", { name: player.name }) }),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          [t("Step"), t("Frame"), t("After")].map((label) => h("th", { scope: "col", text: label })),
          [t("Expected final score"), t("Change")].map((label) => h("th", { scope: "col", class: "num", text: label })),
        ),
      ),
      h(
        "tbody",
        {},
        player.path.map((point, index) => {
          const loss = point.kind === "decision" ? lost.get(point.step) : undefined;
          const change = index ? point.value - player.path[index - 1].value : 0;
          const after = loss === undefined ? kindWords(point.kind) : `${kindWords(point.kind)} (${t("lost {loss} points", { loss: fixed(loss) })})`;
          return h(
            "tr",
            { class: loss === undefined ? null : "lost", dataset: { step: String(point.step) } },
            h("td", { text: point.step }),
            h("td", { text: point.frame }),
            h("td", { text: after }),
            h("td", { class: "num", text: fixed(point.value) }),
            h("td", { class: "num", text: index ? signed(change) : "" }),
          );
        }),
      ),
    ),
  );
}

function decisionTable(player) {
  return h(
    "div",
    { class: "scroll" },
    h(
      "table",
      { class: "list decisions" },
      h("caption", { class: "visually-hidden", text: t("Every decision of {name}", { name: player.name }) }),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          [t("Step"), t("Position"), t("Played"), t("Best")].map((label) => h("th", { scope: "col", text: label })),
          h("th", { scope: "col", class: "num", text: t("Points lost") }),
        ),
      ),
      h(
        "tbody",
        {},
        player.decisions.map((d) =>
          h(
            "tr",
            { class: d.best ? null : "lost", dataset: { step: String(d.step), loss: String(d.loss) } },
            h("td", { text: d.step }),
            h("td", { text: d.situation }),
            h("td", {}, d.words, byBot(d)),
            h("td", { text: d.best ? t("the same") : d.best_words }),
            h("td", { class: "num" }, d.best ? fixed(d.loss) : [h("span", { "aria-hidden": "true", text: "▼ " }), fixed(d.loss)]),
          ),
        ),
      ),
    ),
  );
}

function legend() {
  const dot = s("svg", { width: 12, height: 12, viewBox: "0 0 12 12", "aria-hidden": "true" }, s("circle", { class: "point", cx: 6, cy: 6, r: 3.2 }));
  const tri = s("svg", { width: 14, height: 12, viewBox: "0 0 14 12", "aria-hidden": "true" }, s("path", { class: "point lost", d: "M1.5,1.5 L12.5,1.5 L7,11 Z" }));
  return h(
    "p",
    { class: "review-legend help" },
    h("span", {}, dot, ` ${t("after a step")}`),
    h("span", {}, tri, ` ${t("after a decision that lost points")}`),
    h("span", {}, h("span", { class: "band-key", "aria-hidden": "true" }), ` ${t("frames in turn, numbered below")}`),
  );
}

function playerSection(player, charts) {
  const who = playerLabel(player.name, player.kind);
  const headingId = `review-h-${player.seat}`;
  const chartId = `review-chart-${player.seat}`;
  const lost = new Map(player.decisions.filter((d) => !d.best).map((d) => [d.step, d.loss]));
  const label = t(
    "Line chart of the expected final score of {name} over {count} points of the game, from {start} at the start to {end}; {lost} decisions that lost points are marked with a triangle.",
    { name: player.name, count: player.path.length, start: fixed(player.start), end: fixed(player.end), lost: lost.size },
  );
  const holder = h("div", { class: "chart-holder", id: `${chartId}-holder` });
  charts.push({ holder, draw: (width) => pathChart(player.path, lost, { width, id: chartId, label }) });
  return h(
    "section",
    { class: "panel review-player", "aria-labelledby": headingId, dataset: { seat: String(player.seat) } },
    h("h2", { id: headingId, text: who }),
    figures(player),
    h("h3", { text: t("The costliest decisions") }),
    costliest(player),
    h("h3", { text: t("Expected final score over the game") }),
    holder,
    legend(),
    h("details", { class: "path-details" }, h("summary", { text: t("The chart as a table") }), pathTable(player, lost)),
    h(
      "details",
      { class: "decision-details" },
      h("summary", { text: t("Every decision ({n})", { n: player.decisions.length }) }),
      player.decisions.length
        ? [h("p", { class: "help", text: t("A tinted row marked ▼: the move played lost points against the best.") }), decisionTable(player)]
        : h("p", { class: "muted", text: t("No decisions yet.") }),
    ),
  );
}

export async function reviewPage(id) {
  const gen = page.generation;
  const title = t("Review of game {id}", { id });
  const root = h("div", { id: "review", dataset: { gameId: String(id), ready: "0" } });
  const waiting = h("p", { class: "muted", role: "status", text: t("Reviewing every decision…") });
  root.append(h("h1", { text: title }), waiting);
  app.append(root);
  focusMain(title);
  const [answer] = await Promise.all([api("GET", `/api/games/${id}/review`), getCatalog()]);
  if (gen !== page.generation) return;
  waiting.remove();
  const links = h(
    "p",
    { class: "review-links" },
    h("a", { href: `#/history/${id}`, text: t("Replay this game") }),
    " · ",
    h("a", { href: `/api/games/${id}/record`, download: `pinsetter-${id}.json`, text: t("Download the record") }),
    " · ",
    h("a", { href: `#/game/${id}`, text: t("Open the game page") }),
  );
  if (!answer.ok) {
    root.append(h("p", { class: "error", role: "alert", id: "review-error", text: answer.error }), links);
    root.dataset.ready = "1";
    return;
  }
  const review = answer.data;
  const charts = [];
  append(root, [
    h("p", { class: "muted", id: "review-title", text: review.title }),
    h(
      "div",
      { class: "panel review-about" },
      h("p", { text: t("A value here is the {meaning}.", { meaning: review.meaning }) }),
      h("p", {
        class: "help",
        text: t(
          "Accuracy: the share of real choices (where the moves were not all worth the same) at which the best move was played, or one within {near} points of it. Points lost: what the choices gave away against the best ones. Luck: what chance gave (+) or took (−) against the expectation.",
          { near: fixed(review.near_best) },
        ),
      }),
      review.complete ? null : h("p", { id: "review-unfinished", text: t("The game is not over: this review covers the steps played so far.") }),
    ),
    links,
    review.players.map((player) => playerSection(player, charts)),
  ]);
  drawAtWidth(charts);
  // The review drawn on this page load, for the first-render benchmark (benchmarks/web_weight.py).
  if (!performance.getEntriesByName("pinsetter:drawn").length) performance.mark("pinsetter:drawn");
  root.dataset.ready = "1";
}

