import { h, s } from "../dom.js";
import { t } from "../i18n.js";

// pinsetter's boards: the ability track as the printed sheet lays it out, and the tokens as chips.
// The sheet has an upper row and a lower row of areas; each area is a few boxes and, right of
// them, its ability's circle. A box marked is crossed as a pen would; an ability earned and held
// is circled (a thick ring and a star), one used is crossed out. The lower row is closed (dashed,
// a lock) until every upper box is marked. An area whose box may be marked now is a button.

function abilitySvg(area) {
  const svg = s("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false", class: "ability-icon" });
  svg.append(s("circle", { class: "ring", cx: 12, cy: 12, r: 9 }));
  if (area.held || area.used) svg.append(s("path", { class: "star", d: "M12 5.5l1.9 4.1 4.4.4-3.3 3 1 4.4-4-2.4-4 2.4 1-4.4-3.3-3 4.4-.4z" }));
  if (area.used) svg.append(s("path", { class: "used-cross", d: "M4 4L20 20M20 4L4 20" }));
  return svg;
}

function lockSvg() {
  return s(
    "svg",
    { viewBox: "0 0 16 16", "aria-hidden": "true", focusable: "false", class: "lock" },
    s("rect", { x: 3, y: 7, width: 10, height: 8, rx: 1.5 }),
    s("path", { d: "M5 7V5a3 3 0 0 1 6 0v2", fill: "none" }),
  );
}

function areaName(area) {
  return area.row === "upper" ? t("{ability}, upper row", { ability: area.title }) : t("{ability}, lower row", { ability: area.title });
}

function areaWords(area) {
  const parts = [
    areaName(area),
    t("{marked} of {boxes} boxes marked", { marked: area.marked, boxes: area.boxes }),
  ];
  if (!area.open) parts.push(t("closed"));
  if (area.held) parts.push(t("ability held"));
  if (area.used) parts.push(t("ability used"));
  return parts.join(t(", "));
}

function drawArea(area, index, ctx) {
  const state = [area.open ? "open" : "closed", area.held ? "held" : "", area.used ? "used" : "", area.action ? "markable" : ""].join(" ");
  const inner = [
    h("span", { class: "area-title", text: area.title }),
    h(
      "span",
      { class: "area-boxes" },
      Array.from({ length: area.boxes }, (_, i) => h("span", { class: i < area.marked ? "box marked" : "box" })),
      abilitySvg(area),
    ),
  ];
  const attrs = { class: `area ${state}`, dataset: { area: String(index + 1) }, title: area.help || null };
  if (area.action && !ctx.readonly) {
    return h(
      "button",
      {
        ...attrs,
        type: "button",
        "aria-label": t("Mark a box: {area}", { area: areaName(area) }),
        disabled: ctx.busy,
        dataset: { ...attrs.dataset, key: `area-${index + 1}` },
        onclick: () => ctx.send({ action: area.action }),
      },
      inner,
    );
  }
  return h("div", { ...attrs, role: "img", "aria-label": areaWords(area) }, inner);
}

export function drawTrack(view, ctx) {
  const parts = [];
  if (view.track.length) {
    const rows = ["upper", "lower"].map((row) => view.track.map((area, i) => [area, i]).filter(([area]) => area.row === row));
    const closed = rows[1].length && rows[1].every(([area]) => !area.open);
    parts.push(
      // The page's sections are h2 (the board's own section is named, not headed): so are the board's.
      h("h2", { class: "board-heading", text: t("Ability track") }),
      h(
        "div",
        { class: "track sheet-track", id: "track" },
        rows.map((areas, r) =>
          areas.length
            ? h(
                "div",
                { class: `track-row ${r === 1 && closed ? "closed" : ""}`, dataset: { row: r === 0 ? "upper" : "lower" } },
                h(
                  "p",
                  { class: "row-title" },
                  r === 1 && closed ? lockSvg() : null,
                  r === 0 ? t("Upper row") : closed ? t("Lower row: opens when the upper row is full") : t("Lower row"),
                ),
                h("div", { class: "areas" }, areas.map(([area, i]) => drawArea(area, i, ctx))),
              )
            : null,
        ),
      ),
    );
    const helps = new Map(view.track.filter((a) => a.help).map((a) => [a.title, a.help]));
    if (helps.size) {
      parts.push(
        h(
          "details",
          { class: "track-help" },
          h("summary", { text: t("What the abilities do") }),
          h("dl", {}, [...helps].map(([title, help]) => [h("dt", { text: title }), h("dd", { class: "help", text: help })])),
        ),
      );
    }
  }
  if (view.abilities.length) {
    parts.push(
      h("h2", { class: "board-heading", text: t("Abilities held") }),
      h(
        "ul",
        { class: "plain held-abilities", id: "abilities" },
        // In words, a count only where more than one use is held ("Flip (2)", "Reroll", "Ten Pin": Ten Pin is
        // held for good once earned), as the terminal lists them.
        view.abilities.map((a) =>
          h(
            "li",
            {},
            h("details", {}, h("summary", { text: a.held > 1 ? t("{ability} ({count})", { ability: a.title, count: a.held }) : a.title }), h("p", { class: "help", text: a.help })),
          ),
        ),
      ),
    );
  }
  return parts;
}

const CHIPS = 12; // chips drawn; more are counted

function chipSvg() {
  return s(
    "svg",
    { viewBox: "0 0 20 20", "aria-hidden": "true", focusable: "false", class: "chip" },
    s("circle", { class: "ball", cx: 10, cy: 10, r: 8.5 }),
    s("circle", { class: "hole", cx: 8, cy: 6.5, r: 1.4 }),
    s("circle", { class: "hole", cx: 12.2, cy: 6.8, r: 1.4 }),
    s("circle", { class: "hole", cx: 10.4, cy: 10.6, r: 1.6 }),
  );
}

export function drawTokens(view) {
  if (view.tokens === null || view.tokens === undefined) return null;
  const shown = Math.min(view.tokens, CHIPS);
  return h(
    "div",
    { class: "tokens", id: "tokens" },
    h("strong", { text: t("Tokens: {count}", { count: view.tokens }) }),
    h(
      "span",
      { class: "chips", "aria-hidden": "true" },
      Array.from({ length: shown }, () => chipSvg()),
      view.tokens > CHIPS ? h("span", { class: "more", text: t("and {n} more", { n: view.tokens - CHIPS }) }) : null,
      view.tokens === 0 ? h("span", { class: "chip-place" }) : null,
    ),
  );
}
