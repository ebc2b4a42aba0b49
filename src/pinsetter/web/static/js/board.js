import { h, s } from "./dom.js";
import { t, tn } from "./i18n.js";
import { TABLE_TEXT } from "./tables.js";
import { playerLabel } from "./words.js";

// pinsetter's web pages: drawing a table.
// `numbered`: every pin also shows its number (#7) where a table's labels are not the pins' numbers
// (cards on pins): a card whose value is its position shows it too, as hints name positions.
export function pinSvg(pin, picked, numbered) {
  const svg = s("svg", { viewBox: "0 0 52 52", "aria-hidden": "true", focusable: "false" });
  svg.append(s("circle", { class: "body", cx: 26, cy: 26, r: 22 }));
  if (pin.grey) svg.append(s("path", { class: "grey-mark", d: "M26 5 l5 5 l-5 5 l-5 -5 z" }));
  svg.append(s("text", { class: "label", x: 26, y: 32, "text-anchor": "middle", text: pin.label || "" }));
  if (numbered) {
    svg.append(s("text", { class: "number", x: 26, y: 45, "text-anchor": "middle", text: `#${pin.number}` }));
  }
  if (pin.down) {
    svg.append(s("line", { class: "cross", x1: 11, y1: 11, x2: 41, y2: 41 }));
    svg.append(s("line", { class: "cross", x1: 41, y1: 11, x2: 11, y2: 41 }));
  }
  if (picked) {
    svg.append(s("circle", { class: "tick", cx: 44, cy: 8, r: 8 }));
    svg.append(s("path", { d: "M40 8 l3 3 l5 -6", stroke: "#fff", "stroke-width": 2.5, fill: "none" }));
  }
  return svg;
}

export function pinWords(pin, picked) {
  const parts = [t("pin {number}", { number: pin.number })];
  if (pin.value !== null && pin.value !== undefined) parts.push(t("value {value}", { value: pin.value }));
  else if (pin.label) parts.push(t("card {card}", { card: pin.label }));
  parts.push(pin.down ? t("down") : t("standing"));
  if (pin.grey) parts.push(t("grey"));
  if (picked) parts.push(t("picked"));
  return parts.join(t(", "));
}

export function drawPins(view, ctx) {
  const byNumber = new Map(view.pins.map((p) => [p.number, p]));
  const numbered = view.pins.some((p) => p.label !== String(p.number));
  const box = h("div", { class: "triangle", role: "group", "aria-label": t("Pins, back row first") });
  for (const row of view.rows) {
    const line = h("div", { class: "pin-row" });
    for (const number of row) {
      const pin = byNumber.get(number);
      if (!pin) continue;
      const picked = ctx.picked.has(number);
      const classes = ["pin", pin.grey ? "grey" : "", pin.down ? "down" : "", picked ? "picked" : ""].join(" ");
      if (ctx.readonly) {
        line.append(h("span", { class: classes, role: "img", "aria-label": pinWords(pin, false) }, pinSvg(pin, false, numbered)));
        continue;
      }
      // A button's name holds the text it shows (axe: label-content-name-mismatch): a card on a pin says "9 #1" first.
      const name = numbered ? `${pin.label || ""} #${pin.number}${t(", ")}${pinWords(pin, picked)}` : pinWords(pin, picked);
      line.append(
        h(
          "button",
          {
            type: "button",
            class: classes,
            "aria-label": name,
            "aria-pressed": pin.selectable ? String(picked) : null,
            disabled: !pin.selectable || ctx.busy,
            title: pinWords(pin, picked),
            dataset: { key: `pin-${number}`, pin: String(number) },
            onclick: () => ctx.togglePin(number),
          },
          pinSvg(pin, picked, numbered),
        ),
      );
    }
    box.append(line);
  }
  const legend = h("p", { class: "pin-legend" }, t("✕ down · ◆ grey pin · ✓ picked"));
  return [box, legend];
}

export function standingIcon() {
  const svg = s("svg", { viewBox: "0 0 20 30", "aria-hidden": "true" });
  svg.append(
    s("path", {
      d: "M10 1 c3 0 4 3 3 6 c-1 2 -1 3 1 6 c3 5 2 13 -1 16 h-6 c-3 -3 -4 -11 -1 -16 c2 -3 2 -4 1 -6 c-1 -3 0 -6 3 -6 z",
      fill: "var(--pin)",
      stroke: "var(--pin-line)",
      "stroke-width": 1.5,
    }),
  );
  return svg;
}

export const PIPS = {
  1: [[20, 20]],
  2: [[11, 11], [29, 29]],
  3: [[11, 11], [20, 20], [29, 29]],
  4: [[11, 11], [29, 11], [11, 29], [29, 29]],
  5: [[11, 11], [29, 11], [20, 20], [11, 29], [29, 29]],
  6: [[11, 10], [29, 10], [11, 20], [29, 20], [11, 30], [29, 30]],
};

export function dieSvg(die) {
  const svg = s("svg", { viewBox: "0 0 40 40", "aria-hidden": "true" });
  svg.append(s("rect", { class: "face", x: 2, y: 2, width: 36, height: 36, rx: 6 }));
  if (die.kind === "pips" && PIPS[die.face]) {
    for (const [x, y] of PIPS[die.face]) svg.append(s("circle", { class: "pip", cx: x, cy: y, r: 3.6 }));
  } else if (die.face === "-") {
    svg.append(s("line", { class: "mark-line", x1: 12, y1: 20, x2: 28, y2: 20 }));
  } else if (die.face === "P") {
    svg.append(
      s("path", {
        class: "mark",
        d: "M20 7 c2.5 0 3 2.5 2.2 4.6 c-.8 1.6 -.6 2.4 .8 4.6 c2.4 4 1.6 10 -.8 12.8 h-4.4 c-2.4 -2.8 -3.2 -8.8 -.8 -12.8 c1.4 -2.2 1.6 -3 .8 -4.6 c-.8 -2.1 -.3 -4.6 2.2 -4.6 z",
      }),
    );
  } else {
    svg.append(s("text", { class: "mark-text", x: 20, y: 28, "text-anchor": "middle", text: die.face }));
  }
  return svg;
}

export function drawDice(view) {
  // The roll in words ("rolled 2 and 6: off the alley"); the caption is the short form for a terminal.
  const caption = view.chance_words || view.dice_caption;
  if (!view.dice.length && !caption) return null;
  return h(
    "div",
    { class: "dice-box" },
    h(
      "div",
      { class: "dice", role: "group", "aria-label": t("Dice") },
      view.dice.map((die, i) =>
        h("span", { class: "die", role: "img", "aria-label": t("die {number}: {face}", { number: i + 1, face: die.label }), title: die.label }, dieSvg(die)),
      ),
    ),
    caption ? h("p", { class: "muted", id: "dice-caption", text: caption }) : null,
  );
}

export function cardSvg(top) {
  const svg = s("svg", { viewBox: "0 0 46 64", "aria-hidden": "true" });
  svg.append(s("rect", { class: top ? "card" : "card-back", x: 2, y: 2, width: 42, height: 60, rx: 5 }));
  svg.append(s("text", { class: "card-text", x: 23, y: 40, "text-anchor": "middle", text: top || "–" }));
  return svg;
}

export function drawPiles(view, ctx) {
  if (!view.piles.length) return null;
  return h(
    "div",
    { class: "piles", role: "group", "aria-label": t("Ball piles") },
    view.piles.map((pile) => {
      const picked = ctx.pile === pile.number;
      const shown = t("Pile {number} · {count} left", { number: pile.number, count: pile.cards });
      // The name begins with what the pile shows (its card, its caption), as a button's name must hold its text.
      const words = [
        pile.top || "–",
        shown,
        pile.top ? t("top card {card}", { card: pile.top }) : t("no face-up card"),
        picked ? t("picked") : null,
      ]
        .filter(Boolean)
        .join(t(", "));
      const inner = [cardSvg(pile.top), " ", h("span", { text: shown })]; // read as "6 Pile 1 · 5 left", not "6Pile"
      if (ctx.readonly) return h("span", { class: "pile", role: "img", "aria-label": words }, inner);
      return h(
        "button",
        {
          type: "button",
          class: "pile",
          "aria-label": words,
          "aria-pressed": pile.selectable ? String(picked) : null,
          disabled: !pile.selectable || ctx.busy,
          dataset: { key: `pile-${pile.number}`, pile: String(pile.number) },
          onclick: () => ctx.togglePile(pile.number),
        },
        inner,
      );
    }),
  );
}

export function drawCards(view) {
  const parts = [];
  if (view.seen.length) parts.push(h("p", { id: "seen" }, h("strong", { text: t("Seen this frame: ") }), view.seen.join(", ")));
  const unseen = Object.entries(view.unseen || {});
  if (unseen.length) {
    const total = unseen.reduce((sum, [, n]) => sum + n, 0);
    parts.push(
      h(
        "div",
        { class: "scroll", id: "unseen" },
        h(
          "table",
          { class: "sheet" },
          h("caption", { text: tn("Not yet seen: {n} card", "Not yet seen: {n} cards", total) }),
          h("tr", {}, h("th", { scope: "row", text: t("card") }), unseen.map(([v]) => h("th", { scope: "col", text: v }))),
          h("tr", {}, h("th", { scope: "row", text: t("left") }), unseen.map(([, n]) => h("td", { text: n }))),
        ),
      ),
    );
  }
  return parts;
}

export function drawTokens(view) {
  if (view.tokens === null || view.tokens === undefined) return null;
  const shown = Math.min(view.tokens, 20);
  return h(
    "div",
    { class: "tokens", id: "tokens" },
    h("strong", { text: t("Tokens: {count}", { count: view.tokens }) }),
    h("span", { "aria-hidden": "true", class: "tokens" }, Array.from({ length: shown }, () => h("span", { class: "token" }))),
  );
}

export function drawTrack(view) {
  const parts = [];
  if (view.track.length) {
    parts.push(
      h("h3", { text: t("Ability track") }),
      h(
        "div",
        { class: "track", id: "track" },
        view.track.map((area, index) =>
          h(
            "div",
            { class: `area ${area.open ? "" : "closed"}` },
            h("strong", { text: `${index + 1}. ${area.title}` }),
            h("span", { class: "help", text: ` ${area.row === "upper" ? t("upper") : t("lower")}${area.open ? "" : t(", closed")}` }),
            h(
              "div",
              { class: "boxes", role: "img", "aria-label": t("{marked} of {boxes} boxes marked", { marked: area.marked, boxes: area.boxes }) },
              Array.from({ length: area.boxes }, (_, i) =>
                h("span", { class: `box ${i < area.marked ? "marked" : ""}`, text: i < area.marked ? "✓" : "" }),
              ),
            ),
            area.help ? h("details", {}, h("summary", { text: t("What it does") }), h("p", { class: "help", text: area.help })) : null,
          ),
        ),
      ),
    );
  }
  if (view.abilities.length) {
    parts.push(
      h("h3", { text: t("Abilities held") }),
      h(
        "ul",
        { class: "plain", id: "abilities" },
        view.abilities.map((a) =>
          h(
            "li",
            {},
            h("details", {}, h("summary", { text: `${a.title} × ${a.held}` }), h("p", { class: "help", text: a.help })),
          ),
        ),
      ),
    );
  }
  return parts;
}

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
      picked.length ? t("Picked pins {pins}: sum {sum}", { pins: picked.join(" + "), sum: raw }) : t("No pins picked"),
      picked.length && sel.modulo ? t(", last digit {digit}", { digit: sum }) : "",
      aimed !== null && aimed !== undefined ? t(" · target {target}", { target: aimed }) : "",
    ),
  );
  if (sel.tokens !== null && sel.tokens !== undefined) {
    const diff = picked.length && target !== null ? raw - target : 0;
    lines.push(
      h("p", {
        id: "selection-tokens",
        text: tn(
          "Tokens: {held} held · this pick moves the total by {diff} ({n} token)",
          "Tokens: {held} held · this pick moves the total by {diff} ({n} tokens)",
          Math.abs(diff),
          { held: sel.tokens, diff: `${diff > 0 ? "+" : ""}${diff}` },
        ),
      }),
    );
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
  const ready = picked.length > 0 && (!sel.needs_pile || ctx.pile !== null) && !ctx.busy;
  lines.push(
    h(
      "div",
      { class: "row" },
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
        disabled: !picked.length && ctx.pile === null,
        dataset: { key: "clear" },
        onclick: () => ctx.clearSelection(),
      }),
    ),
  );
  return h("section", { class: "selection", "aria-label": t("Your pick"), id: "selection" }, lines);
}

export function drawTable(game, ctx) {
  const view = game.view;
  const parts = [];
  if (view.pins.length) parts.push(...drawPins(view, ctx));
  if (view.standing !== null && view.standing !== undefined) {
    parts.push(h("p", { class: "standing", id: "standing" }, standingIcon(), tn("{n} pin standing", "{n} pins standing", view.standing)));
  }
  parts.push(drawDice(view), drawPiles(view, ctx), ...drawCards(view), drawTokens(view));
  if (view.notes.length) parts.push(h("ul", { id: "notes" }, view.notes.map((n) => h("li", { text: n }))));
  parts.push(selectionPanel(view, ctx));
  if (!ctx.readonly) {
    const buttons = view.choices.filter((c) => !c.by_selection);
    if (buttons.length) {
      parts.push(
        h(
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
        ),
      );
    }
  }
  parts.push(...drawTrack(view));
  return parts;
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
