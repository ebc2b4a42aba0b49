import { s } from "./dom.js";

// pinsetter's web pages: a small picture of each game for the front page, drawn as SVG from
// code (no image files): the pins in their triangle, dice, cards, the pencil's crosses. The
// pictures are decoration (aria-hidden): the game's name and sentence beside them say it all.
// A game the page has no picture for gets the pin triangle.

const TRIANGLE = [
  [7, 8, 9, 10],
  [4, 5, 6],
  [2, 3],
  [1],
];

function pinAt(x, y, scale, className) {
  // A bowling pin's outline: head, neck, belly, base (the same curve the boards use, scaled).
  const g = s("g", { transform: `translate(${x} ${y}) scale(${scale})`, class: className });
  g.append(
    s("path", {
      class: "pic-pin",
      d: "M10 1 c3 0 4 3 3 6 c-1 2 -1 3 1 6 c3 5 2 13 -1 16 h-6 c-3 -3 -4 -11 -1 -16 c2 -3 2 -4 1 -6 c-1 -3 0 -6 3 -6 z",
    }),
    s("path", { class: "pic-stripe", d: "M7.2 8.6 h5.6" }),
  );
  return g;
}

function triangle(x, y, gap, scale, crossed = new Set(), grey = new Set()) {
  const g = s("g", {});
  TRIANGLE.forEach((row, r) => {
    row.forEach((number, i) => {
      const px = x + (i - (row.length - 1) / 2) * gap;
      const py = y + r * gap * 0.78;
      const classes = ["pic-pin-g", grey.has(number) ? "grey" : "", crossed.has(number) ? "down" : ""].join(" ");
      g.append(pinAt(px - 10 * scale, py, scale, classes));
      if (crossed.has(number)) {
        const c = 6 * scale;
        const cx = px;
        const cy = py + 15 * scale;
        g.append(s("path", { class: "pic-cross", d: `M${cx - c} ${cy - c} L${cx + c} ${cy + c} M${cx + c} ${cy - c} L${cx - c} ${cy + c}` }));
      }
    });
  });
  return g;
}

const PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

function die(x, y, size, face, tilt = 0) {
  const g = s("g", { transform: `translate(${x} ${y}) rotate(${tilt} ${size / 2} ${size / 2})` });
  g.append(s("rect", { class: "pic-die", x: 0, y: 0, width: size, height: size, rx: size * 0.18 }));
  const c = size / 2;
  const d = size * 0.26;
  if (PIPS[face]) {
    for (const [px, py] of PIPS[face]) g.append(s("circle", { class: "pic-pip", cx: c + px * d, cy: c + py * d, r: size * 0.09 }));
  } else if (face === "X") {
    g.append(s("path", { class: "pic-mark", d: `M${c - d} ${c - d} L${c + d} ${c + d} M${c + d} ${c - d} L${c - d} ${c + d}` }));
  } else if (face === "/") {
    g.append(s("path", { class: "pic-mark", d: `M${c + d} ${c - d} L${c - d} ${c + d}` }));
  } else if (face === "P") {
    g.append(pinAt(c - 5, c - 8, 0.5, "pic-pin-g"));
  }
  return g;
}

function card(x, y, w, value, tilt = 0, back = false) {
  const hgt = w * 1.4;
  const g = s("g", { transform: `translate(${x} ${y}) rotate(${tilt} ${w / 2} ${hgt / 2})` });
  g.append(s("rect", { class: back ? "pic-card-back" : "pic-card", x: 0, y: 0, width: w, height: hgt, rx: w * 0.12 }));
  if (!back) g.append(s("text", { class: "pic-card-text", x: w / 2, y: hgt * 0.64, "text-anchor": "middle", "font-size": w * 0.55 }, value));
  return g;
}

const DRAW = {
  // Roll and write: a pencilled triangle, some pins crossed out, two dice beside it.
  "rolling-pins": (svg) => {
    svg.append(triangle(58, 12, 22, 0.72, new Set([2, 5, 7]), new Set([4, 10])));
    svg.append(die(122, 28, 32, 3, -8), die(156, 50, 32, 4, 10));
  },
  // Cards: the ten pins as cards in a triangle, three ball piles.
  "bowling-solitaire": (svg) => {
    const values = { 7: 4, 8: 9, 9: 2, 10: 7, 4: 1, 5: 8, 6: 3, 2: 6, 3: 10, 1: 5 };
    TRIANGLE.forEach((row, r) => {
      row.forEach((number, i) => {
        svg.append(card(58 + (i - (row.length - 1) / 2) * 22 - 9, 6 + r * 21, 18, String(values[number])));
      });
    });
    svg.append(card(130, 30, 22, "", 0, true), card(134, 26, 22, "7"), card(160, 34, 22, "", 0, true), card(163, 31, 22, "2"));
  },
  // Ten custom dice: strike, spare, pin and blank faces.
  "bowling-dice": (svg) => {
    const faces = ["X", "P", "-", "/", "P", "-", "X", "P", "-", "P"];
    faces.forEach((face, i) => {
      const row = i < 5 ? 0 : 1;
      const col = i % 5;
      svg.append(die(14 + col * 34 + row * 10, 16 + row * 42, 28, face, (i % 3) * 6 - 6));
    });
  },
  // Two dice: double five is a strike.
  tenpins: (svg) => {
    svg.append(triangle(54, 12, 20, 0.72));
    svg.append(die(112, 34, 34, 5, -10), die(150, 46, 34, 5, 12));
  },
};

export function gamePicture(id) {
  const svg = s("svg", { class: "game-picture", viewBox: "0 0 200 110", "aria-hidden": "true", focusable: "false" });
  svg.append(s("rect", { class: "pic-lane", x: 0, y: 0, width: 200, height: 110, rx: 10 }));
  (DRAW[id] || ((root) => root.append(triangle(100, 12, 24, 0.85))))(svg);
  return svg;
}
