import { api, getCatalog } from "./api.js";
import { app, h } from "./dom.js";
import { t } from "./i18n.js";
import { focusMain, page } from "./page.js";

// pinsetter's web pages: rules.
export async function rulesPage(gameId) {
  const gen = page.generation;
  const games = await getCatalog();
  if (gen !== page.generation) return;
  const nav = h(
    "nav",
    { "aria-label": t("Games"), class: "row" },
    games.map((g) => h("a", { href: `#/rules/${g.id}`, "aria-current": g.id === gameId ? "page" : null, text: g.name })),
  );
  if (!gameId) {
    app.append(h("h1", { text: t("Rules") }), h("div", { class: "panel" }, nav));
    focusMain(t("Rules"));
    return;
  }
  const answer = await api("GET", `/api/rules/${encodeURIComponent(gameId)}`);
  if (gen !== page.generation) return;
  if (!answer.ok) {
    app.append(h("h1", { text: t("Rules") }), nav, h("p", { class: "error", role: "alert", text: answer.error }));
    focusMain(t("Rules"));
    return;
  }
  app.append(
    h("h1", { text: t("Rules: {game}", { game: answer.data.name }) }),
    h("div", { class: "panel" }, nav),
    h("article", { class: "panel rules-text", id: "rules-text" }, rulesBlocks(answer.data)),
  );
  focusMain(t("Rules: {game}", { game: answer.data.name }));
}

// The server's blocks as elements, text nodes only (the rules are text, never markup); a server
// without blocks gives its plain text.
export function rulesBlocks(rules) {
  if (!Array.isArray(rules.blocks)) return h("p", { class: "rules-plain", text: rules.rules });
  return rules.blocks.map((block) => {
    if (block.kind === "heading") return h("h2", { text: block.text });
    if (block.kind === "list") return h("ul", {}, block.items.map((item) => h("li", { text: item })));
    return h("p", { text: block.text });
  });
}
