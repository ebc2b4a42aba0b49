import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { TABLE_TEXT } from "./tables.js";
import { playerLabel } from "./words.js";
import { drawDiscards, drawPiles, drawSeen } from "./board/cards.js";
import { drawDice } from "./board/dice.js";
import { listenForSkips, motionFor } from "./board/motion.js";
import { drawLane } from "./board/pins.js";
import { drawTokens, drawTrack } from "./board/track.js";

// pinsetter's web pages: drawing a table as a board: a lane with its pins, the dice on a tray,
// the cards, the chips and the ability track (js/board/*.js), with the motion of what changed.
// It draws what the view holds and never asks which game it is.

export function drawSheets(game) {
  const frameCount = Math.max(Number(game.options.frames) || 10, ...game.sheets.map((sheet) => sheet.frames.length));
  return game.sheets.map((sheet, index) => {
    const current = sheet.current_frame;
    const together = Boolean(game.simultaneous && game.next === "decision" && !game.terminal);
    const isTurn = together ? (game.deciders || []).includes(index) : game.turn === index;
    const cols = Array.from({ length: frameCount }, (_, i) => i + 1);
    const frame = (n) => sheet.frames.find((f) => f.frame === n);
    const cls = (n) => (n === current && isTurn ? "current" : null);
    const who = playerLabel(sheet.name, sheet.kind);
    return h(
      "div",
      { class: "scroll", tabindex: 0, role: "region", "aria-label": t("Scoresheet of {name}", { name: sheet.name }) },
      h(
        "table",
        { class: `sheet ${isTurn ? "turn" : ""}`, dataset: { player: String(index) } },
        h(
          "caption",
          {},
          who,
          isTurn ? h("span", { class: "muted", text: together ? TABLE_TEXT.toDecide : TABLE_TEXT.toPlay }) : null,
          t(" · total {total}", { total: sheet.total }),
        ),
        h(
          "tr",
          {},
          h("th", { scope: "row", text: t("frame") }),
          cols.map((n) =>
            h("th", { scope: "col", class: cls(n), "aria-current": cls(n) ? "true" : null, text: n }),
          ),
        ),
        h(
          "tr",
          {},
          h("th", { scope: "row", text: t("balls") }),
          cols.map((n) => h("td", { class: cls(n), text: frame(n) ? frame(n).marks.join(" ") : "" })),
        ),
        h(
          "tr",
          {},
          h("th", { scope: "row", text: t("total") }),
          cols.map((n) => {
            const f = frame(n);
            return h("td", { class: `total-cell ${cls(n) || ""}`, text: f && f.total !== null ? f.total : "" });
          }),
        ),
      ),
    );
  });
}

export function drawLog(game) {
  const list = h(
    "ol",
    // It scrolls: focusable, so a keyboard can scroll it too (axe: scrollable-region-focusable).
    { class: "log", id: "log", tabindex: 0, start: game.log.length ? game.log[0].step : 1, "aria-label": t("Moves") },
    game.log.map((entry) =>
      h("li", { text: entry.note ? `⏱ ${entry.note} — ${entry.words}` : entry.words }),
    ),
  );
  return list;
}

// The pick in words. Pins worth their number (Rolling Pins) are named by it: "Picked pins 1 + 3: sum 4".
// Pins that carry a card (Solitaire) say the card and where it lies, since the sum adds the cards:
// "Picked 7 (pin 2) + 5 (pin 3): sum 12, last digit 2".
function pickedWords(picked, byNumber, raw, digit) {
  if (!picked.length) return t("No pins picked");
  const cards = [...byNumber.values()].some((p) => p.value !== null && p.value !== undefined && Number(p.value) !== p.number);
  const words = cards
    ? t("Picked {cards}: sum {sum}", {
        cards: picked.map((n) => t("{card} (pin {number})", { card: (byNumber.get(n) || {}).label, number: n })).join(" + "),
        sum: raw,
      })
    : t("Picked pins {pins}: sum {sum}", { pins: picked.join(" + "), sum: raw });
  return digit === null ? words : words + t(", last digit {digit}", { digit });
}

export function selectionPanel(view, ctx) {
  const sel = view.selection;
  if (!sel || ctx.readonly) return null;
  const byNumber = new Map(view.pins.map((p) => [p.number, p]));
  const picked = [...ctx.picked].sort((a, b) => a - b);
  const raw = picked.reduce((sum, n) => sum + (Number((byNumber.get(n) || {}).value) || 0), 0);
  const sum = sel.modulo ? raw % sel.modulo : raw;
  let target = sel.target;
  if (target === null && sel.needs_pile && ctx.pile !== null) {
    const pile = view.piles.find((p) => p.number === ctx.pile);
    if (pile && pile.top !== null && /^\d+$/.test(pile.top)) target = sel.modulo ? Number(pile.top) % sel.modulo : Number(pile.top);
  }
  const lines = [];
  // The target the pins must make: the dice with the tokens planned (+1 token on an 11: 12).
  const aimed = target !== null && target !== undefined && ctx.setPlanned ? target + ctx.planned : target;
  lines.push(
    h(
      "p",
      { class: "sum", id: "selection-sum" },
      pickedWords(picked, byNumber, raw, sel.modulo ? sum : null),
      aimed !== null && aimed !== undefined ? t(" · target {target}", { target: aimed }) : "",
    ),
  );
  if (sel.tokens !== null && sel.tokens !== undefined) {
    const diff = picked.length && target !== null ? raw - target : 0;
    // A pick that needs no token says so, rather than "moves the total by 0 (0 tokens)".
    const text = !picked.length
      ? t("Tokens: {held} held", { held: sel.tokens })
      : diff === 0
        ? t("Tokens: {held} held · this pick needs no token", { held: sel.tokens })
        : tn(
            "Tokens: {held} held · this pick moves the total by {diff} ({n} token)",
            "Tokens: {held} held · this pick moves the total by {diff} ({n} tokens)",
            Math.abs(diff),
            { held: sel.tokens, diff: `${diff > 0 ? "+" : ""}${diff}` },
          );
    lines.push(h("p", { id: "selection-tokens", text }));
    if (ctx.setPlanned && target !== null && target !== undefined) {
      // Tokens as on paper: move the dice total first, then pick pins adding up to it. The plan
      // only guides the pick; the engine counts the tokens from the pick and judges it.
      const planned = ctx.planned;
      const total = target + planned;
      lines.push(
        h(
          "div",
          { class: "row", id: "token-buttons" },
          h("button", {
            type: "button",
            id: "token-minus",
            text: t("−1 token"),
            title: t("spend a token: the dice total one lower"), // a description: the name is the text shown
            disabled: Math.abs(planned - 1) > sel.tokens || total <= 1,
            onclick: () => ctx.setPlanned(planned - 1),
          }),
          h("span", {
            id: "token-plan",
            text: tn("roll {target} {sign} {n} token = {total}", "roll {target} {sign} {n} tokens = {total}", Math.abs(planned), {
              target,
              sign: planned < 0 ? "−" : "+",
              total,
            }),
          }),
          h("button", {
            type: "button",
            id: "token-plus",
            text: t("+1 token"),
            title: t("spend a token: the dice total one higher"), // a description: the name is the text shown
            disabled: Math.abs(planned + 1) > sel.tokens,
            onclick: () => ctx.setPlanned(planned + 1),
          }),
        ),
      );
      if (picked.length && planned !== 0 && raw !== total) {
        lines.push(h("p", { class: "help", id: "token-mismatch", text: t("The pick sums to {sum}; the dice with tokens make {total}.", { sum: raw, total }) }));
      }
    }
  }
  if (sel.needs_pile) {
    lines.push(h("p", { text: ctx.pile === null ? t("Pick a pile too.") : t("Pile {number} picked.", { number: ctx.pile }) }));
  }
  if (sel.hint) lines.push(h("p", { class: "help", text: sel.hint }));
  return h("section", { class: "selection", "aria-label": t("Your pick"), id: "selection" }, lines);
}

// Play and Clear, first in the row of actions: where they always are while pins are picked.
export function selectionButtons(view, ctx) {
  const sel = view.selection;
  if (!sel || ctx.readonly) return [];
  const ready = ctx.picked.size > 0 && (!sel.needs_pile || ctx.pile !== null) && !ctx.busy;
  return [
    h("button", {
      type: "button",
      class: "primary",
      id: "play-selection",
      text: t("Play the picked pins (P)"),
      disabled: !ready,
      dataset: { key: "play" },
      onclick: () => ctx.playSelection(),
    }),
    h("button", {
      type: "button",
      id: "clear-selection",
      text: t("Clear (Esc)"),
      disabled: !ctx.picked.size && ctx.pile === null,
      dataset: { key: "clear" },
      onclick: () => ctx.clearSelection(),
    }),
  ];
}

function drawActions(view, ctx) {
  if (ctx.readonly) return null;
  const buttons = view.choices.filter((c) => !c.by_selection);
  const picks = selectionButtons(view, ctx);
  if (!buttons.length && !picks.length) return null;
  return h(
    "div",
    { class: "actions", id: "actions" },
    picks,
    buttons.length
      ? h(
          "div",
          { class: "choices", role: "group", "aria-label": t("Choices"), id: "choices" },
          buttons.map((c) =>
            h("button", {
              type: "button",
              text: c.label,
              disabled: ctx.busy,
              dataset: { key: `choice-${c.action}`, action: c.action },
              onclick: () => ctx.send({ action: c.action }),
            }),
          ),
        )
      : null,
  );
}

// The board: the lane beside what lies on the table (dice, piles, discards, seen cards, chips),
// then the actions, the pick's sum, notes and the ability track. `ctx.board` names the board
// when a page draws several of one game.
export function drawTable(game, ctx) {
  listenForSkips();
  const view = game.view;
  const motion = motionFor(game, ctx.board || "");
  const side = [drawDice(view, motion), drawPiles(view, ctx, motion), drawDiscards(view), drawSeen(view), drawTokens(view)].filter(Boolean);
  const board = h(
    "div",
    { class: "board", dataset: { moved: motion.kinds.join(" ") } },
    h("div", { class: "board-top" }, drawLane(view, ctx, motion), side.length ? h("div", { class: "board-side" }, side) : null),
    drawActions(view, ctx),
    selectionPanel(view, ctx),
    view.notes.length ? h("ul", { id: "notes", class: "notes" }, view.notes.map((n) => h("li", { text: n }))) : null,
    drawTrack(view, ctx),
  );
  return [board];
}

export function drawEnding(game) {
  if (!game.terminal) return null;
  return h(
    "section",
    { class: "panel ending", id: "ending", "aria-labelledby": "ending-h" },
    h("h2", { id: "ending-h", text: t("Game over") }),
    h("ul", { class: "plain" }, game.ending.map((line) => h("li", { text: line }))),
  );
}

// What a board needs from its page (the game page, a table): the pins and pile picked, the
// token plan, and sending the pick. Only whether the page may act, and when it is busy, differ.
export function selectionContext(st, draw, send, { readonly, busy }) {
  return {
    get readonly() {
      return readonly();
    },
    get planned() {
      return st.planned || 0;
    },
    setPlanned(n) {
      st.planned = n;
      draw();
    },
    get picked() {
      return st.picked;
    },
    get pile() {
      return st.pile;
    },
    get busy() {
      return busy();
    },
    togglePin(n) {
      if (st.picked.has(n)) st.picked.delete(n);
      else st.picked.add(n);
      draw();
    },
    togglePile(n) {
      st.pile = st.pile === n ? null : n;
      draw();
    },
    clearSelection() {
      st.picked.clear();
      st.pile = null;
      draw();
    },
    playSelection() {
      if (!st.picked.size) return;
      const body = { pins: [...st.picked].sort((a, b) => a - b) };
      if (st.pile !== null) body.pile = st.pile;
      send(body);
    },
    send: (body) => send(body),
  };
}
