import { h, s } from "../dom.js";
import { t, tn } from "../i18n.js";
import { blockedSign, nextId, tickBadge } from "./shapes.js";

// pinsetter's boards: cards. A ball pile is a stack whose edges show how many cards it holds, its
// face-up top with the value large; a pile still face down shows a card's back, an empty one a
// dashed place. The discards lie fanned, face up; the cards seen this frame are a strip of the
// values with a slot per copy, filled once that copy was seen.

const DEPTH = 4; // edges drawn under a pile's top: more cards than that show as the count only

// A card face (or back) at x, y, 42 x 60.
function card(x, y, value, { back = false } = {}) {
  const g = s("g", { class: back ? "card back" : "card" });
  g.append(s("rect", { class: "card-face", x, y, width: 42, height: 60, rx: 5 }));
  if (back) {
    const id = nextId("back");
    g.append(
      s(
        "defs",
        {},
        s(
          "pattern",
          { id, width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
          s("rect", { class: "back-line", x: 0, y: 0, width: 3, height: 6 }),
        ),
      ),
      s("rect", { class: "card-back", x: x + 4, y: y + 4, width: 34, height: 52, rx: 3, fill: `url(#${id})` }),
    );
  } else {
    // The value is written once: the corner index is a copy of it (`<use>`, scaled to 9/25 and
    // moved to the corner), so the card's text, and a button's name, hold it once, not "6 6".
    const id = nextId("value");
    g.append(s("g", { class: "card-big" }, s("text", { id, class: "card-value", x: x + 21, y: y + 39, text: value })));
    const scale = 9 / 25;
    const move = `translate(${round(x + 4 - scale * (x + 21))} ${round(y + 11 - scale * (y + 39))}) scale(${round(scale)})`;
    g.append(s("use", { class: "card-corner", href: `#${id}`, transform: move }));
  }
  return g;
}

const round = (n) => Math.round(n * 1000) / 1000;

export function pileSvg(pile, state) {
  const depth = Math.min(Math.max(pile.cards - 1, 0), DEPTH);
  const svg = s("svg", { viewBox: "0 0 56 76", "aria-hidden": "true", focusable: "false" });
  if (!pile.cards) {
    svg.append(s("rect", { class: "empty-place", x: 2, y: 2, width: 42, height: 60, rx: 5 }));
    return svg;
  }
  for (let i = depth; i > 0; i -= 1) svg.append(s("rect", { class: "card-edge", x: 2 + i * 2.5, y: 2 + i * 2.5, width: 42, height: 60, rx: 5 }));
  const lift = state.picked ? -3 : 0;
  const top = s("g", { class: "pile-top", transform: lift ? `translate(0 ${lift})` : null }, card(2, 2, pile.top, { back: pile.top === null }));
  if (state.picked) top.append(tickBadge(40, 8, 7));
  svg.append(top);
  if (state.blocked) svg.append(blockedSign(44, 66, 5));
  return svg;
}

// A pile's name starts with what it shows, in order: its top card's value, its name and its
// count (`6, Pile 1, 5 cards left`), then the top card in words and its state.
function pileWords(pile, state) {
  return [
    pile.top,
    t("Pile {number}", { number: pile.number }),
    tn("{n} card left", "{n} cards left", pile.cards),
    pile.top ? t("top card {card}", { card: pile.top }) : t("no face-up card"),
    state.picked ? t("picked") : state.playable ? t("can be picked") : state.blocked ? t("cannot be picked now") : null,
  ]
    .filter(Boolean)
    .join(t(", "));
}

export function drawPiles(view, ctx, motion) {
  if (!view.piles.length) return null;
  const picking = !ctx.readonly && (Boolean(view.selection && view.selection.needs_pile) || view.piles.some((p) => p.selectable));
  return h(
    "div",
    { class: "piles", role: "group", "aria-label": t("Ball piles") },
    view.piles.map((pile) => {
      const picked = !ctx.readonly && ctx.pile === pile.number;
      const state = { picked, playable: picking && pile.selectable, blocked: picking && !pile.selectable && pile.cards > 0 };
      const classes = ["pile", ...Object.entries(state).filter(([, on]) => on).map(([k]) => k)].join(" ");
      const words = pileWords(pile, state);
      // Spaces between the parts (a flex box does not draw them): its text reads "6 Pile 1 5 cards left".
      const inner = [
        pileSvg(pile, state),
        " ",
        h("span", { class: "pile-name", text: t("Pile {number}", { number: pile.number }) }),
        " ",
        h("span", { class: "pile-count", text: tn("{n} card left", "{n} cards left", pile.cards) }),
      ];
      const el = ctx.readonly
        ? h("span", { class: classes, role: "img", "aria-label": words }, inner)
        : h(
            "button",
            {
              type: "button",
              class: classes,
              "aria-label": words,
              "aria-pressed": pile.selectable ? String(picked) : null,
              disabled: !pile.selectable || ctx.busy,
              // `usable`: a pile that cannot be picked now (or at the end) shows no key (game.js).
              dataset: { key: `pile-${pile.number}`, pile: String(pile.number), usable: pile.selectable ? "1" : "0" },
              onclick: () => ctx.togglePile(pile.number),
            },
            inner,
          );
      return motion.apply(el, `pile-${pile.number}`);
    }),
  );
}

// The discards, fanned face up (in value order: the view keeps no order of play).
export function drawDiscards(view) {
  if (view.discards === null || view.discards === undefined) return null;
  const cards = view.discards;
  const words = cards.length
    ? tn("Discards: {n} card ({cards})", "Discards: {n} cards ({cards})", cards.length, { cards: cards.join(t(", ")) })
    : t("Discards: none yet");
  const step = 13;
  const width = 26 + Math.max(cards.length - 1, 0) * step;
  const svg = s("svg", { viewBox: `0 0 ${width} 36`, width, height: 36, "aria-hidden": "true", focusable: "false" });
  if (!cards.length) svg.append(s("rect", { class: "empty-place", x: 1, y: 1, width: 24, height: 34, rx: 3 }));
  cards.forEach((value, i) => {
    const x = 1 + i * step;
    svg.append(
      s("g", { class: "mini-card" }, s("rect", { class: "card-face", x, y: 1, width: 24, height: 34, rx: 3 }), s("text", { class: "mini-value", x: x + 2, y: 13, text: value })),
    );
  });
  return h(
    "div",
    { class: "discards", id: "discards", role: "img", "aria-label": words },
    h("span", { class: "card-heading", "aria-hidden": "true", text: t("Discards · {n}", { n: cards.length }) }),
    h("span", { class: "fan" }, svg),
  );
}

// The cards seen this frame: each value with a slot per copy, filled once that copy was seen.
export function drawSeen(view) {
  const values = Object.entries(view.unseen || {});
  if (!values.length && !view.seen.length) return null;
  const seen = new Map();
  for (const value of view.seen) seen.set(value, (seen.get(value) || 0) + 1);
  const unseenTotal = values.reduce((sum, [, n]) => sum + n, 0);
  // The same words for the eye (a heading, the strip, the count under it) and for a screen reader.
  const unseenWords = tn("{n} card not seen yet", "{n} cards not seen yet", unseenTotal);
  const words = [
    view.seen.length ? t("Cards seen this frame: {cards}", { cards: view.seen.join(t(", ")) }) : t("No card seen yet this frame"),
    unseenWords,
  ].join(t("; "));
  return h(
    "div",
    { class: "seen-strip", id: "seen", role: "img", "aria-label": words },
    h("span", { class: "card-heading", "aria-hidden": "true", text: t("Cards seen this frame") }),
    h(
      "span",
      { class: "seen-values", "aria-hidden": "true" },
      values.map(([value, left]) => {
        const copies = (seen.get(value) || 0) + left;
        const slots = Array.from({ length: copies }, (_, i) => h("span", { class: i < (seen.get(value) || 0) ? "slot seen" : "slot" }));
        return h("span", { class: "seen-value" }, h("span", { class: "seen-label", text: value }), h("span", { class: "slots" }, slots));
      }),
    ),
    h("span", { class: "seen-count", id: "seen-count", "aria-hidden": "true", text: unseenWords }),
  );
}
