import { api, getCatalog } from "./api.js";
import { drawEnding, drawLog, drawSheets, drawTable } from "./board.js";
import { app, append, clear, h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { focusMain, page } from "./page.js";
import { filteredPage } from "./stats.js";
import { gameName, playerNames, when } from "./words.js";

// pinsetter's web pages: history.
export const historyFilter = { game: "", player: "" };

export async function historyPage() {
  await filteredPage({
    title: t("History"),
    prefix: "history",
    filter: historyFilter,
    ariaLabel: t("Filter the history"),
    playerFirst: false,
    endpoint: "/api/history",
    render(results, answer, games) {
      if (!answer.data.length) {
        results.append(h("p", { class: "muted", text: t("No games found.") }));
        return;
      }
      results.append(
        h(
          "div",
          { class: "scroll panel" },
          h(
            "table",
            { class: "list history-list" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                [t("Game"), t("Date"), t("Players"), t("Scores"), t("Result")].map((label) => h("th", { scope: "col", text: label })),
                // The links' column is named for screen readers (axe: empty-table-header), not shown.
                h("th", { scope: "col" }, h("span", { class: "visually-hidden", text: t("Actions") })),
              ),
            ),
            h(
              "tbody",
              {},
              answer.data.map((entry) =>
                h(
                  "tr",
                  { dataset: { gameId: String(entry.id) } },
                  // On a phone the row's cells stack, each under its column's name (data-label, pages.css).
                  h("td", {}, h("a", { href: `#/history/${entry.id}`, text: `${entry.id}. ${entry.title || gameName(entry.game, games)}` })),
                  h("td", { dataset: { label: t("Date") }, text: when(entry.date) }),
                  h("td", { class: "names", dataset: { label: t("Players") }, text: playerNames(entry.players) }),
                  h("td", { dataset: { label: t("Scores") }, text: entry.scores.join(" · ") }),
                  h("td", { dataset: { label: t("Result") }, text: resultText(entry) }),
                  h(
                    "td",
                    { class: "history-actions" },
                    entry.status === "unfinished" ? [h("a", { href: `#/game/${entry.id}`, text: t("Resume") }), " · "] : null,
                    entry.status === "table" ? [h("a", { href: `#/table/${entry.table}`, text: t("Watch") }), " · "] : null,
                    // Replay steps through a game, Review weighs its decisions: the same two names everywhere.
                    h("a", { href: `#/history/${entry.id}`, class: "replay-link", text: t("Replay") }),
                    " · ",
                    entry.reviewable && entry.status !== "table" ? [h("a", { href: `#/review/${entry.id}`, class: "review-link", text: t("Review") }), " · "] : null,
                    h("a", { href: `/api/games/${entry.id}/record`, download: `pinsetter-${entry.id}.json`, text: t("Record") }),
                  ),
                ),
              ),
            ),
          ),
        ),
      );
    },
  });
}

export function resultText(entry) {
  if (entry.status === "finished") return entry.winner ? t("won by {name}", { name: entry.winner }) : t("finished");
  if (entry.status === "abandoned") return t("abandoned: its table was closed");
  if (entry.status === "table") return t("being played at a table");
  return t("unfinished");
}

// The replay opens at the start (step 0), or at the step the address names (`#/history/12/40`).
export async function replayPage(id, from = null) {
  const gen = page.generation;
  const root = h("div", { id: "replay", dataset: { gameId: String(id) } });
  app.append(root);
  const record = await api("GET", `/api/games/${id}/record`);
  await getCatalog();
  if (gen !== page.generation) return;
  if (!record.ok) {
    root.append(h("h1", { text: t("Game {id}", { id }) }), h("p", { class: "error", role: "alert", text: record.error }));
    return;
  }
  const steps = record.data.steps || [];
  const players = record.data.players || [];
  const total = steps.length;
  let at = from === null ? 0 : Math.min(from, total);
  const slider = h("input", { type: "range", id: "step", min: 0, max: total, value: at, "aria-label": t("Step") });
  const caption = h("p", { id: "step-caption", "aria-live": "polite" });
  // The game's name once, in the heading, with its options where they differ ("Rolling Pins, advanced").
  const variantLine = h("span", { id: "variant", class: "muted", text: `· ${gameName(record.data.game)}` });
  const aboutLine = h("p", { id: "replay-about", class: "muted" });
  const body = h("div", {});
  const reviewLink = h("span", { id: "review-link" }); // filled once a step's view says the game can be reviewed
  const error = h("p", { class: "error", role: "alert" });
  const button = (text, label, to) =>
    h("button", { type: "button", text, "aria-label": label, onclick: () => go(to()) });

  async function go(n) {
    at = Math.max(0, Math.min(total, n));
    slider.value = String(at);
    const answer = await api("GET", `/api/games/${id}/steps/${at}`);
    if (gen !== page.generation || Number(slider.value) !== at) return;
    if (!answer.ok) {
      error.textContent = answer.error;
      return;
    }
    error.textContent = "";
    const game = answer.data;
    // The step in words, as the log tells it (the record's notation is for replaying).
    const last = game.log.length ? game.log[game.log.length - 1] : null;
    const describe = at === 0 || !last ? t("the start") : last.words;
    variantLine.textContent = `· ${game.variant}`;
    if (game.reviewable && !reviewLink.firstChild) {
      append(reviewLink, [" · ", h("a", { href: `#/review/${id}`, text: t("Review this game") })]);
    }
    // The seed from the view, where it is a string: the record's JSON number would round past 2^53.
    const seed = game.seed !== null ? ` · ${t("seed {seed}", { seed: game.seed })}` : "";
    aboutLine.textContent = `${playerNames(players)}${seed} · ${tn("{n} step", "{n} steps", total)}`;
    caption.textContent = t("Step {at} of {total} — {what}", { at, total, what: describe });
    const ctx = { readonly: true, picked: new Set(), pile: null, busy: false };
    clear(body);
    append(body, [
      // The last step's panel is headed "Game over": its status line ("game over") would say it twice.
      game.terminal ? null : h("p", { class: "status", text: game.view.status }),
      drawEnding(game),
      h(
        "div",
        { class: "game-grid" },
        h("section", { class: "panel", "aria-label": t("Table") }, drawTable(game, ctx)),
        h(
          "div",
          {},
          h("section", { class: "panel", "aria-labelledby": "sheets-h" }, h("h2", { id: "sheets-h", text: t("Scoresheets") }), drawSheets(game)),
          h("section", { class: "panel", "aria-labelledby": "log-h" }, h("h2", { id: "log-h", text: t("Log") }), drawLog(game)),
        ),
      ),
    ]);
    root.dataset.step = String(at);
  }

  slider.addEventListener("input", () => go(Number(slider.value)));
  root.append(
    // "Replay", as the links that open it say (the terminal's replay screen too); "Review" is the other page.
    h("h1", {}, `${t("Replay of game {id}", { id })} `, variantLine),
    aboutLine,
    h(
      "div",
      { class: "panel stepper", role: "group", "aria-label": t("Step through the game (← and → keys)") },
      button(t("« First"), t("First step"), () => 0),
      button("◀", t("Previous step"), () => at - 1),
      slider,
      button("▶", t("Next step"), () => at + 1),
      button(t("Last »"), t("Last step"), () => total),
    ),
    caption,
    error,
    h(
      "p",
      {},
      h("a", { href: `/api/games/${id}/record`, download: `pinsetter-${id}.json`, text: t("Download the record") }),
      " · ",
      h("a", { href: `#/game/${id}`, text: record.data.result ? t("Open the game page") : t("Resume this game") }),
      reviewLink,
    ),
    body,
  );
  page.keys = (event) => {
    if (event.target === slider) return;
    if (event.key === "ArrowLeft") go(at - 1);
    else if (event.key === "ArrowRight") go(at + 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(total);
    else return;
    event.preventDefault();
  };
  focusMain(t("Replay of game {id}", { id }));
  go(at);
}
