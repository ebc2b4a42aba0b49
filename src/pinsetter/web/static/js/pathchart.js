import { clear, s } from "./dom.js";
import { t } from "./i18n.js";
import { page } from "./page.js";

// pinsetter's web pages: the review's chart of a player's expected final score over the game
// (GET /api/games/{id}/review: a player's `path`). Inline SVG drawn at the width it is shown at,
// so that its words stay 12 px on a phone and on a laptop; the theme's colours come from CSS
// variables (pages.css). One mark per point of the path, in order; the points after a decision
// that lost points are drawn as a triangle pointing down (a shape, not only a colour). Frames are
// bands in turn, numbered under the axis. The page gives the same numbers as a table.

const PAD = { l: 46, r: 14, t: 26, b: 40 };

/** A round step for about `parts` gridlines over `span` points: 1, 2 or 5 times a power of ten. */
export function niceStep(span, parts = 4) {
  const raw = Math.max(span, 1e-9) / parts;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = [1, 2, 5, 10].find((m) => m * power >= raw) || 10;
  return unit * power;
}

/** The points after decisions that lost points (`lost`: the decisions' steps → loss), keyed by path index. */
function lossAt(path, lost) {
  const found = new Map();
  path.forEach((point, index) => {
    if (point.kind === "decision" && lost.has(point.step)) found.set(index, lost.get(point.step));
  });
  return found;
}

/**
 * The chart, `width` px wide: `path` as the review gives it, `lost` a Map of decision step → points lost
 * (the decisions to mark), `label` what a screen reader is told it shows.
 */
export function pathChart(path, lost, { width, id, label }) {
  const W = Math.max(280, Math.round(width));
  const H = W < 560 ? 230 : 290;
  const left = PAD.l;
  const right = W - PAD.r;
  const top = PAD.t;
  const bottom = H - PAD.b;
  const values = path.map((p) => p.value);
  const step = niceStep(Math.max(...values) - Math.min(...values));
  let low = Math.floor(Math.min(...values) / step) * step;
  let high = Math.ceil(Math.max(...values) / step) * step;
  if (high - low < step) {
    low -= step;
    high += step;
  }
  const inset = 8; // the first and last points keep clear of the axes
  const x = (i) => (path.length <= 1 ? (left + right) / 2 : left + inset + (i * (right - left - 2 * inset)) / (path.length - 1));
  const y = (v) => bottom - ((v - low) / (high - low)) * (bottom - top);
  const svg = s("svg", {
    class: "chart review-chart",
    id,
    width: W,
    height: H,
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "aria-label": label,
    dataset: { points: String(path.length) },
  });

  // Frames: a band per frame the player played in (the points whose next frame it is), numbered below.
  const frames = [];
  path.forEach((point, index) => {
    const last = frames[frames.length - 1];
    if (last && last.frame === point.frame) last.to = index;
    else frames.push({ frame: point.frame, from: index, to: index });
  });
  const edge = (index) => (index <= 0 ? left : index >= path.length ? right : (x(index - 1) + x(index)) / 2);
  let lastLabel = -Infinity;
  frames.forEach((band, k) => {
    const x1 = edge(band.from);
    const x2 = edge(band.to + 1);
    if (k % 2 === 1) svg.append(s("rect", { class: "band", x: x1, y: top, width: Math.max(0, x2 - x1), height: bottom - top }));
    if (k > 0) svg.append(s("line", { class: "frame-tick", x1, x2: x1, y1: bottom, y2: bottom + 5 }));
    const middle = (x1 + x2) / 2;
    if (middle - lastLabel >= 18) {
      svg.append(s("text", { class: "frame-label", x: middle, y: bottom + 16, "text-anchor": "middle", text: band.frame }));
      lastLabel = middle;
    }
  });

  // The value axis: round gridlines, their values at the left.
  for (let v = low; v <= high + step / 1000; v += step) {
    svg.append(s("line", { class: "grid", x1: left, x2: right, y1: y(v), y2: y(v) }));
    const shown = Math.abs(step) < 1 ? v.toFixed(1) : String(Math.round(v));
    svg.append(s("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", text: shown }));
  }
  svg.append(s("line", { class: "axis", x1: left, x2: right, y1: bottom, y2: bottom }));
  svg.append(s("line", { class: "axis", x1: left, x2: left, y1: top, y2: bottom }));
  svg.append(s("text", { class: "axis-title", x: left - 6, y: top - 10, "text-anchor": "start", text: t("expected final score") }));
  svg.append(s("text", { class: "axis-title", x: (left + right) / 2, y: H - 6, "text-anchor": "middle", text: t("frame") }));

  // The path, then a mark per point: the lost decisions' on top.
  svg.append(s("polyline", { class: "series", points: path.map((p, i) => `${x(i)},${y(p.value)}`).join(" ") }));
  const losses = lossAt(path, lost);
  const radius = path.length > 60 ? 2.4 : 3.2;
  const marks = path.map((point, index) => {
    const cx = x(index);
    const cy = y(point.value);
    const loss = losses.get(index);
    const what = t("frame {frame}, step {step}: {value}", { frame: point.frame, step: point.step, value: point.value.toFixed(2) });
    const title = s("title", { text: loss === undefined ? what : `${what} (${t("lost {loss} points", { loss: loss.toFixed(2) })})` });
    const data = { index: String(index), step: String(point.step), kind: point.kind };
    if (loss === undefined) return s("circle", { class: "point", cx, cy, r: radius, dataset: data }, title);
    const size = 5.5;
    const d = `M${cx - size},${cy - size * 0.75} L${cx + size},${cy - size * 0.75} L${cx},${cy + size * 0.95} Z`;
    return s("path", { class: "point lost", d, dataset: { ...data, loss: String(loss) } }, title);
  });
  marks.filter((m) => !m.classList.contains("lost")).forEach((m) => svg.append(m));
  marks.filter((m) => m.classList.contains("lost")).forEach((m) => svg.append(m));
  return svg;
}

// Each chart at its holder's width, again whenever that width changes (a turned phone, a resized window):
// `charts` as [{ holder, draw: (width) => svg }]. The review's charts and the profile's rating charts.
export function drawAtWidth(charts) {
  const drawn = new Map();
  const draw = ({ holder, draw: make }) => {
    const width = Math.floor(holder.clientWidth);
    if (!width || drawn.get(holder) === width) return;
    drawn.set(holder, width);
    clear(holder);
    holder.append(make(width));
  };
  charts.forEach(draw);
  if (typeof ResizeObserver !== "function") return;
  const observer = new ResizeObserver(() => charts.forEach(draw));
  charts.forEach(({ holder }) => observer.observe(holder));
  page.leave = () => observer.disconnect();
}
