import { account, api } from "./api.js";
import { profileHref } from "./account.js";
import { app, h } from "./dom.js";
import { t } from "./i18n.js";
import { focusMain, page } from "./page.js";

// pinsetter's web pages: the leaderboards (GET /api/leaderboards, GET /api/leaderboard/{game}?mode=).
// A board is a game and a mode (Rolling Pins' basic and advanced sheets are rated apart), picked by
// its title in words; its address is #/leaderboard/{game}/{mode}.

let boardsCache = null;

/** Every board, titled in words by the server ("Rolling Pins, advanced"). */
export async function getBoards() {
  if (!boardsCache) {
    const answer = await api("GET", "/api/leaderboards");
    if (!answer.ok) return [];
    boardsCache = answer.data;
  }
  return boardsCache;
}

export function boardTitle(boards, game, mode) {
  const found = boards.find((b) => b.game === game && b.mode === mode);
  return found ? found.title : game;
}

function boardHref(board) {
  return `#/leaderboard/${encodeURIComponent(board.game)}/${encodeURIComponent(board.mode)}`;
}

/** Ranks as players count them: equal ratings share a place (1, 2, 2, 4). */
function places(rows) {
  return rows.map((row, index) => {
    let first = index;
    while (first > 0 && rows[first - 1].rating === row.rating) first -= 1;
    return first + 1;
  });
}

export async function leaderboardPage(game, mode) {
  const gen = page.generation;
  const boards = await getBoards();
  if (gen !== page.generation) return;
  const title = t("Leaderboard");
  const chosen = boards.find((b) => b.game === game && (!mode || b.mode === mode)) || (game ? null : boards[0]);
  const picker = h(
    "nav",
    { class: "board-picker", "aria-label": t("Leaderboards") },
    h(
      "ul",
      {},
      boards.map((b) =>
        h("li", {}, h("a", { href: boardHref(b), class: "pill", "aria-current": b === chosen ? "page" : null, dataset: { game: b.game, mode: b.mode }, text: b.title })),
      ),
    ),
  );
  app.append(h("h1", { text: title }), picker);
  focusMain(title);
  if (!chosen) {
    app.append(h("p", { class: "error", role: "alert", id: "board-error", text: t("There is no such leaderboard: pick one above.") }));
    return;
  }
  const results = h("section", { class: "panel board", id: "board", "aria-labelledby": "board-h", dataset: { ready: "0" } });
  app.append(results);
  const answer = await api("GET", `/api/leaderboard/${encodeURIComponent(chosen.game)}?mode=${encodeURIComponent(chosen.mode)}`);
  if (gen !== page.generation) return;
  results.append(h("h2", { id: "board-h", text: chosen.title }));
  document.title = `${title}: ${chosen.title} · pinsetter`;
  if (!answer.ok) {
    results.append(h("p", { class: "error", role: "alert", text: answer.error }));
  } else if (!answer.data.length) {
    results.append(h("p", { class: "muted", id: "board-empty", text: t("Nobody is rated here yet. Ratings come from rated games: a host ticks “Rated game” when making a table, and signed-in players sit at it.") }));
  } else {
    const rank = places(answer.data);
    results.append(
      h(
        "div",
        { class: "scroll" },
        h(
          "table",
          { class: "list leaders", id: "leaders" },
          h("caption", { class: "visually-hidden", text: t("Leaderboard: {board}", { board: chosen.title }) }),
          h("thead", {}, h("tr", {}, [t("Rank"), t("Player"), t("Rating"), t("Games")].map((text, i) => h("th", { scope: "col", class: i === 1 ? null : "num", text })))),
          h(
            "tbody",
            {},
            answer.data.map((row, i) =>
              h(
                "tr",
                { class: row.name === account.name ? "me" : null, dataset: { name: row.name } },
                h("td", { class: `num place place-${Math.min(rank[i], 4)}`, text: rank[i] }),
                h("th", { scope: "row" }, h("a", { href: profileHref(row.name), text: row.name }), row.name === account.name ? h("span", { class: "muted", text: t(" (you)") }) : null),
                h("td", { class: "num rating", text: row.rating }),
                h("td", { class: "num", text: row.games }),
              ),
            ),
          ),
        ),
      ),
    );
  }
  results.append(h("p", { class: "help", text: t("A new account shows 1000. Rated games move it: up for finishing ahead of others, down for finishing behind them, more against stronger players. Bots play as players of a fixed strength.") }));
  results.dataset.ready = "1";
}
