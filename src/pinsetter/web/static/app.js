// pinsetter's pages: ES modules, no build step, no dependencies. This entry routes the
// address to a page; js/ holds one module per page, the board drawing and the shared pieces.
//
// The browser decides nothing about the rules: it draws the server's GameView
// (its renderer-neutral TableView, scoresheets, log) and sends actions in text
// form or picks of pins; the engine judges them. It never asks which game it
// is drawing. Text from users (names, records, messages) is inserted with
// textContent / createTextNode only: `h()` (js/dom.js) has no way to insert HTML.

import { dailyGamePage, dailyPage } from "./js/daily.js";
import { drawAccountBox, loadAccount, onAccountChange, rememberPlace, signinPage } from "./js/account.js";
import { app, clear, h } from "./js/dom.js";
import { gamePage } from "./js/game.js";
import { historyPage, replayPage } from "./js/history.js";
import { setupLanguage, t } from "./js/i18n.js";
import { leaderboardPage } from "./js/leaderboard.js";
import { lobbyPage } from "./js/lobby.js";
import { page } from "./js/page.js";
import { profilePage } from "./js/profile.js";
import { rulesPage } from "./js/rules.js";
import { statsPage } from "./js/stats.js";
import { joinPage, tablePage } from "./js/tables.js";
import { setupTheme } from "./js/theme.js";

function route() {
  page.generation += 1;
  page.keys = null;
  if (page.leave) {
    const leave = page.leave;
    page.leave = null;
    leave();
  }
  const hash = location.hash || "#/";
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  for (const link of document.querySelectorAll(".top nav a")) {
    const target = link.getAttribute("href").replace(/^#\/?/, "").split("/")[0];
    if (target === (parts[0] || "")) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  clear(app);
  const [screen, arg, more] = parts;
  rememberPlace(hash, screen);
  if (!screen) return lobbyPage();
  if (screen === "game" && /^\d+$/.test(arg || "")) return gamePage(Number(arg));
  if (screen === "history" && !arg) return historyPage();
  if (screen === "history" && /^\d+$/.test(arg)) return replayPage(Number(arg), /^\d+$/.test(more || "") ? Number(more) : null);
  if (screen === "review" && /^\d+$/.test(arg || "")) return reviewPage(Number(arg));
  if (screen === "table" && /^\d+$/.test(arg || "")) return tablePage(Number(arg));
  if (screen === "join" && arg) return joinPage(arg);
  if (screen === "stats") return statsPage();
  if (screen === "rules") return rulesPage(arg);
  if (screen === "daily") return arg ? dailyGamePage(arg) : dailyPage();
  if (screen === "signin") return signinPage();
  if (screen === "leaderboard") return leaderboardPage(arg, more);
  if (screen === "player" && arg) return profilePage(arg);
  app.append(h("h1", { text: t("Not found") }), h("p", {}, h("a", { href: "#/", text: t("Back to the lobby") })));
  return undefined;
}

// The review page's modules load when it is first opened: no other page pays for them.
async function reviewPage(id) {
  const gen = page.generation;
  const { reviewPage: draw } = await import("./js/review.js");
  if (gen === page.generation) await draw(id);
}

// --- start --------------------------------------------------------------------------------------------
document.addEventListener("keydown", (event) => {
  if (!page.keys || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  const tag = target && target.tagName;
  if (tag === "INPUT" && target.type !== "range") return;
  if (tag === "TEXTAREA" || tag === "SELECT") return;
  if (tag === "INPUT" && event.key !== "Escape" && !/^[a-zA-Z0-9]$/.test(event.key)) return;
  page.keys(event);
});
window.addEventListener("hashchange", route);
// Who is signed in (and their session's CSRF token) is known before the first page draws.
onAccountChange(() => {
  drawAccountBox();
  route();
});
setupLanguage()
  .then(() => {
    setupTheme();
    return loadAccount();
  })
  .then(() => {
    drawAccountBox();
    route();
  });
