import { h, s } from "../dom.js";
import { t } from "../i18n.js";
import { pinBody } from "./shapes.js";

// pinsetter's boards: dice on a felt tray. A die is drawn from what its face is: pips 1-6, or a
// Bowling Dice face: a strike (a bold X), a spare (a bold slash), a pin standing (a small pin)
// or a blank (nothing on it: the pin went down). A roll already played is marked as such (the
// view says whose it was), so it is never taken for the roll to decide on.

export const PIPS = {
  1: [[20, 20]],
  2: [[11.5, 11.5], [28.5, 28.5]],
  3: [[11.5, 11.5], [20, 20], [28.5, 28.5]],
  4: [[11.5, 11.5], [28.5, 11.5], [11.5, 28.5], [28.5, 28.5]],
  5: [[11.5, 11.5], [28.5, 11.5], [20, 20], [11.5, 28.5], [28.5, 28.5]],
  6: [[11.5, 10.5], [28.5, 10.5], [11.5, 20], [28.5, 20], [11.5, 29.5], [28.5, 29.5]],
};

// What a face shows, by kind (for the page's tests and its styles): pips-N, strike, spare, pin, blank.
export function faceKind(die) {
  if (die.kind === "pips") return `pips-${die.face}`;
  return { X: "strike", "/": "spare", P: "pin", "-": "blank" }[die.face] || "other";
}

export function dieSvg(die) {
  const svg = s("svg", { viewBox: "0 0 40 42", "aria-hidden": "true", focusable: "false" });
  svg.append(s("rect", { class: "edge", x: 1.5, y: 3.5, width: 37, height: 37, rx: 7 }));
  svg.append(s("rect", { class: "face", x: 1.5, y: 1.5, width: 37, height: 37, rx: 7 }));
  const kind = faceKind(die);
  if (die.kind === "pips" && PIPS[die.face]) {
    for (const [x, y] of PIPS[die.face]) svg.append(s("circle", { class: "pip", cx: x, cy: y, r: 3.7 }));
  } else if (kind === "strike") {
    svg.append(s("path", { class: "mark-strike", d: "M11 11L29 29M29 11L11 29" }));
  } else if (kind === "spare") {
    svg.append(s("path", { class: "mark-spare", d: "M27.5 9L12.5 31" }));
  } else if (kind === "pin") {
    svg.append(s("g", { class: "mark-pin", transform: "translate(13 5) scale(0.35)" }, pinBody(false)));
  } else if (kind === "other") {
    svg.append(s("text", { class: "mark-text", x: 20, y: 28, "text-anchor": "middle", text: die.face }));
  }
  return svg;
}

export function drawDice(view, motion) {
  // The roll in words ("rolled 2 and 6: off the alley"); the caption is the short form for a terminal.
  const caption = view.chance_words || view.dice_caption;
  if (!view.dice_tray) {
    // No dice in this game: what chance did last (a card turned up), in words.
    return caption ? h("p", { class: "dice-caption", id: "dice-caption", text: caption }) : null;
  }
  // A game with dice keeps the tray, its tag line and its caption line in place between rolls.
  const previous = Boolean(view.dice_previous && view.dice.length);
  return h(
    "div",
    { class: `dice-box ${previous ? "previous" : ""}` },
    h("p", { class: "previous-tag", id: "dice-previous", text: previous ? view.dice_previous : "" }),
    h(
      "div",
      { class: "dice tray", role: "group", "aria-label": previous ? view.dice_previous : t("Dice") },
      // An empty tray between a player's rolls says nothing; "No roll yet" only before their first.
      view.dice.length || caption || view.no_roll_yet === false
        ? null
        : h("span", { class: "tray-empty", text: t("No roll yet") }),
      view.dice.map((die, i) =>
        motion.apply(
          h(
            "span",
            {
              class: "die",
              role: "img",
              "aria-label": t("die {number}: {face}", { number: i + 1, face: die.label }),
              title: die.label,
              dataset: { face: faceKind(die) },
            },
            dieSvg(die),
          ),
          `die-${i}`,
        ),
      ),
    ),
    h("p", { class: "dice-caption", id: caption ? "dice-caption" : null, text: caption || "" }),
  );
}
