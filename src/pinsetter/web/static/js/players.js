import { drawTable } from "./board.js";
import { h } from "./dom.js";
import { fill, t } from "./i18n.js";
import { playerLabel } from "./words.js";

// pinsetter's web pages: every player's board (docs/web.md, Every player's board).
// The page's own table is drawn large (the player up's, or at a table this seat's own); below it
// every player has a card in seat order (name, total, state, frame) and, but for the one drawn
// large, their board drawn small and read only from GameView.boards. Whose turn it is shows in
// words and a marker, never in colour alone; shared dice show who still decides this roll.

// A player's name where a line holds more than the name: one line, cut short with "…" where it is long,
// the whole name in its tooltip (players.css, .name); screen readers read it whole.
export function nameSpan(name) {
  return h("span", { class: "name", title: name, text: name });
}

// What a player is doing now: to play, still to decide, done for this roll, waiting, or finished.
// `words`: the sentence with the name ("Ann to play"), `parts` the same with the name in a span, and
// `short` without it, for the player's card, which is headed with the name.
export function playerState(game, index) {
  const sheet = game.sheets[index];
  const name = sheet ? sheet.name : t("player {number}", { number: index + 1 });
  const state = (key, mark, words, short) => ({
    key,
    mark,
    text: words.replace("{name}", () => name), // a function: a name holding "$&" is kept as typed
    parts: () => fill(words, { name: nameSpan(name) }),
    short,
  });
  if (game.terminal) return state("finished", "", t("{name}: finished"), t("finished"));
  if (game.simultaneous && game.next === "decision") {
    return (game.deciders || []).includes(index)
      ? state("deciding", "✎", t("{name} still to decide"), t("still to decide"))
      : state("done", "✓", t("{name}: done for this roll"), t("done for this roll"));
  }
  if (game.turn === index) return state("turn", "▶", t("{name} to play"), t("to play"));
  return state("waiting", "", t("{name}: waiting"), t("waiting"));
}

const ACTIVE = new Set(["turn", "deciding"]);

// "total 37 · frame 4": the frame is left out once the player has played them all.
function totalLine(sheet) {
  const total = t("total {total}", { total: sheet.total });
  const frame = sheet.current_frame;
  return frame === null || frame === undefined ? total : `${total} · ${t("frame {frame}", { frame })}`;
}

// The marks of the last frame played, as the scoresheet writes them: "last frame 7 /".
function lastFrame(sheet) {
  const played = sheet.frames.filter((f) => f.marks.length && f.frame !== sheet.current_frame);
  const last = played[played.length - 1];
  return last ? t("last frame {marks}", { marks: last.marks.join(" ") }) : "";
}

// A board drawn small: the same drawing as the large one, read only, its ids left out (they are the large one's).
const READONLY = { readonly: true, busy: true, picked: new Set(), pile: null, planned: 0 };

function miniBoard(board, name) {
  const parts = drawTable({ view: board }, READONLY).filter(Boolean);
  if (!parts.length) return null;
  const box = h("div", { class: "mini-board", role: "group", "aria-label": t("Board of {name}", { name }) }, parts);
  for (const el of box.querySelectorAll("[id]")) el.removeAttribute("id");
  return box;
}

function playerCard(game, index, large, viewer) {
  const sheet = game.sheets[index];
  const state = playerState(game, index);
  const board = (game.boards || [])[index];
  const mine = viewer === index;
  return h(
    "li",
    { class: `player-card ${state.key} ${index === large ? "large" : ""}`, dataset: { player: String(index), state: state.key } },
    h(
      "h3",
      { class: "player-name" },
      state.mark ? h("span", { class: "marker", "aria-hidden": "true", text: `${state.mark} ` }) : null,
      nameSpan(playerLabel(sheet.name, sheet.kind)),
      mine ? h("span", { class: "muted you", text: t(" (you)") }) : null,
    ),
    h("p", { class: "player-total", text: totalLine(sheet) }),
    h("p", { class: "player-state", text: state.short }),
    lastFrame(sheet) ? h("p", { class: "player-frame muted", text: lastFrame(sheet) }) : null,
    // The card of the board drawn large has none of its own: it says where it is (above, or on the left).
    index === large ? h("p", { class: "help", text: mine ? t("your board is the large one") : t("their board is the large one") }) : board ? miniBoard(board, sheet.name) : null,
  );
}

// The large board (the page's own table, `#table`) and every player's card below it.
// `viewer`: the seat this browser plays at a table (null on the game page and for a spectator).
export function drawBoards(game, ctx, { viewer = null } = {}) {
  const many = game.sheets.length > 1;
  const large = game.view.player; // at the end: whose lane or sheet the end's table draws
  const owner = many && large !== null ? playerState(game, large) : null;
  const heading = owner
    ? h(
        "p",
        { class: "board-owner", id: "board-owner", dataset: { player: String(large), state: owner.key } },
        owner.mark ? h("span", { class: "marker", "aria-hidden": "true", text: `${owner.mark} ` }) : null,
        owner.parts(),
        viewer === large ? h("span", { class: "muted", text: t(" · your board") }) : null,
      )
    : null;
  const table = h(
    "section",
    { class: `panel board-large ${owner && ACTIVE.has(owner.key) ? "active" : ""}`, "aria-label": t("Table"), id: "table" },
    heading,
    drawTable(game, ctx),
  );
  if (!many) return table;
  return h(
    "div",
    { class: "boards" },
    table,
    h(
      "section",
      { class: "panel", id: "all-boards", "aria-labelledby": "all-boards-h" },
      h("h2", { id: "all-boards-h", text: t("Players") }),
      h(
        "ul",
        { class: "player-cards" },
        game.sheets.map((_, index) => playerCard(game, index, large, viewer)),
      ),
    ),
  );
}
