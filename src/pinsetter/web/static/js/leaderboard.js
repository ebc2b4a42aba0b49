import { account, api, getCatalog } from "./api.js";
import { profileHref } from "./account.js";
import { app, h } from "./dom.js";
import { t } from "./i18n.js";
import { focusMain, page } from "./page.js";
import { frontOrder } from "./words.js";

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

/** The boards in the front page's order of the games (a game's modes as the server lists them). */
function inFrontOrder(boards, games) {
  const order = frontOrder(games).map((g) => g.id);
  const place = (board) => (order.includes(board.game) ? order.indexOf(board.game) : order.length);
  return [...boards].sort((a, b) => place(a) - place(b)); // stable: a game's modes keep their order
}

/** The board a bare #/leaderboard opens on: the signed-in player's most recent rated game's, else the first. */
async function openingBoard(boards) {
  if (account.name) {
    const answer = await api("GET", `/api/players/${encodeURIComponent(account.name)}`);
    const history = answer.ok ? answer.data.history : [];
    const last = history[history.length - 1]; // oldest first
    const theirs = last && boards.find((b) => b.game === last.game && b.mode === last.mode);
    if (theirs) return theirs;
  }
  return boards[0];
}

export async function leaderboardPage(game, mode) {
  const gen = page.generation;
  const [all, games] = await Promise.all([getBoards(), getCatalog()]);
  const boards = inFrontOrder(all, games);
  const opening = game ? null : await openingBoard(boards);
  if (gen !== page.generation) return;
  const title = t("Leaderboard");
  const chosen = game ? boards.find((b) => b.game === game && (!mode || b.mode === mode)) || null : opening;
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
