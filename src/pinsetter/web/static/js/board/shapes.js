import { s } from "../dom.js";

// pinsetter's boards: the shapes every picture shares (a bowling pin's outline, the check badge,
// the "not now" sign), drawn in SVG user units. No shape knows which game it is drawn for.

// A bowling pin standing on its spot, head up, in a 40 x 80 box: base at y 72, head at y 2.
export const PIN_PATH =
  "M20 2C24.6 2 27 5.6 27 10.5C27 15 24.8 18 24.3 22C23.9 25.5 25.5 29 28.2 34C32.6 42 33 56 29.6 65" +
  "C28.8 68 27.6 70.5 26.6 72L13.4 72C12.4 70.5 11.2 68 10.4 65C7 56 7.4 42 11.8 34C14.5 29 16.1 25.5 15.7 22" +
  "C15.2 18 13 15 13 10.5C13 5.6 15.4 2 20 2Z";

// Ids inside one page must be unique: each picture that needs a pattern numbers its own.
let uid = 0;
export function nextId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}

// The pin's body with its two neck stripes; `hatched`: a grey pin's diagonal hatching on top.
export function pinBody(hatched, { stripes = true } = {}) {
  const g = s("g", { class: "pin-shape" });
  g.append(s("path", { class: "body", d: PIN_PATH }));
  if (stripes) {
    g.append(s("path", { class: "stripe", d: "M15.4 18.6H24.6M15.7 22.2H24.3" }));
  }
  if (hatched) {
    const id = nextId("hatch");
    const pattern = s(
      "pattern",
      { id, width: 5, height: 5, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("line", { class: "hatch-line", x1: 0, y1: 0, x2: 0, y2: 5 }),
    );
    g.append(s("defs", {}, pattern), s("path", { class: "hatch", d: PIN_PATH, fill: `url(#${id})` }));
    g.append(s("path", { class: "grey-mark", d: "M20 5.2l4 4-4 4-4-4z" }));
  }
  return g;
}

// A round badge with a tick: "picked".
export function tickBadge(cx, cy, r = 7) {
  return s(
    "g",
    { class: "tick-badge" },
    s("circle", { class: "tick", cx, cy, r }),
    s("path", { class: "tick-mark", d: `M${cx - r * 0.5} ${cy}l${r * 0.36} ${r * 0.4}l${r * 0.62} -${r * 0.78}` }),
  );
}

// A circle with a bar through it: "cannot be picked now".
export function blockedSign(cx, cy, r = 5) {
  return s(
    "g",
    { class: "blocked-sign" },
    s("circle", { cx, cy, r }),
    s("line", { x1: cx - r * 0.7, y1: cy + r * 0.7, x2: cx + r * 0.7, y2: cy - r * 0.7 }),
  );
}
