import { h, s } from "../dom.js";
import { t, tn } from "../i18n.js";
import { rackDown } from "./motion.js";
import { blockedSign, pinBody, tickBadge } from "./shapes.js";

// pinsetter's boards: the lane and its pins. The pins stand in the view's rows (back row first,
// so the head pin is nearest the player), each drawn as a bowling pin. Every state has a mark of
// its own besides its colour: a pin down lies on its side (dashed); a grey pin is hatched and
// carries a diamond; a picked pin is lifted, outlined thick and ticked; while pins are being
// picked, one that can be picked stands on a ringed spot and one that cannot is faded, thin and
// carries a barred circle (and its button is disabled).

// How a pin stands in a picture: "playable" and "blocked" only while the player picks pins.
export function pinState(pin, picked, picking) {
  return {
    down: Boolean(pin.down),
    grey: Boolean(pin.grey),
    picked: Boolean(picked),
    playable: picking && !pin.down && Boolean(pin.selectable),
    blocked: picking && !pin.down && !pin.selectable,
  };
}

// What is printed on a pin: its label (standing, or down where the label is its number) and,
// where its label is a card's value (`numbered`), its position (#7). A pin's button is named
// starting with these words, so that what it shows is what it is called (docs/web.md, the audit).
export function pinPrint(pin, state, numbered) {
  return {
    label: state.down && numbered ? "" : pin.label || "",
    number: numbered ? `#${pin.number}` : "",
  };
}

export function pinSvg(pin, state, numbered) {
  const svg = s("svg", { viewBox: "0 0 40 80", "aria-hidden": "true", focusable: "false" });
  const print = pinPrint(pin, state, numbered);
  if (state.down) {
    // Lying on its side where it stood: a smaller, dashed pin, its number above it.
    const lying = s("g", { transform: "translate(20 66) rotate(-78) scale(0.55) translate(-20 -37)" }, pinBody(state.grey, { stripes: false }));
    svg.append(s("g", { class: "fallen" }, lying));
    const text = print.number || print.label;
    if (text) svg.append(s("text", { class: numbered ? "number" : "label", x: 20, y: 50, "text-anchor": "middle", text }));
    return svg;
  }
  if (state.playable || state.picked) svg.append(s("ellipse", { class: "spot", cx: 20, cy: 73, rx: 15, ry: 5 }));
  const upright = s("g", { class: "upright", transform: state.picked ? "translate(0 -4)" : null }, pinBody(state.grey));
  if (print.label) {
    upright.append(s("text", { class: "label", x: 20, y: numbered ? 52 : 56, "text-anchor": "middle", text: print.label }));
  }
  if (print.number) upright.append(s("text", { class: "number", x: 20, y: 64, "text-anchor": "middle", text: print.number }));
  if (state.picked) upright.append(tickBadge(31, 9));
  svg.append(upright);
  if (state.blocked) svg.append(blockedSign(31, 70, 4.5));
  // The pointer finds a pin by its shape, not its box: rows overlap as they do on a lane.
  svg.append(s("rect", { class: "hit", x: 7, y: 0, width: 26, height: 78 }));
  return svg;
}

// A pin's name: what it shows first where that is a card's value (`8 #3, pin 3, value 8, ...`;
// a pin printed with its number alone is named `pin 3, ...`), then what it is and its state.
export function pinWords(pin, state, numbered = false) {
  const print = pinPrint(pin, state, numbered);
  const shown = [print.label, print.number].filter(Boolean).join(" ");
  const parts = numbered && shown ? [shown] : [];
  parts.push(t("pin {number}", { number: pin.number }));
  if (pin.value !== null && pin.value !== undefined) parts.push(t("value {value}", { value: pin.value }));
  else if (pin.label) parts.push(t("card {card}", { card: pin.label }));
  parts.push(state.down ? t("down") : t("standing"));
  if (state.grey) parts.push(t("grey"));
  if (state.picked) parts.push(t("picked"));
  else if (state.playable) parts.push(t("can be picked"));
  else if (state.blocked) parts.push(t("cannot be picked now"));
  return parts.join(t(", "));
}

function stateClasses(state) {
  return Object.entries(state)
    .filter(([, on]) => on)
    .map(([name]) => name)
    .join(" ");
}

// A strike or a spare, cheered over the lane (it stays, still, until the next step). Another player's
// ball (the turn passed with it) is never cheered as if it were the lane's: the banner says whose it was,
// the name cut short where it is long (whole in the tooltip).
function cheerTag(motion) {
  if (!motion.cheer) return null;
  const strike = motion.cheer === "strike";
  const by = motion.cheerBy;
  const text = by ? (strike ? t("{name}: Strike!", { name: by }) : t("{name}: Spare!", { name: by })) : strike ? t("Strike!") : t("Spare!");
  const attrs = { class: `cheer ${motion.cheer}${by ? " cheer-other" : ""}`, id: "cheer", dataset: { cheer: motion.cheer } };
  if (by) Object.assign(attrs, { title: text, dataset: { cheer: motion.cheer, by } });
  return motion.apply(h("p", attrs, h("span", { text })), "cheer");
}

function triangle(view, ctx, motion) {
  const byNumber = new Map(view.pins.map((p) => [p.number, p]));
  const numbered = view.pins.some((p) => p.label !== String(p.number));
  // Picking: the view asks for a pick (even one no pin can make: then every pin shows it cannot).
  const picking = !ctx.readonly && (Boolean(view.selection) || view.pins.some((p) => p.selectable));
  const box = h("div", { class: "triangle", role: "group", "aria-label": t("Pins, back row first") });
  for (const row of view.rows) {
    const line = h("div", { class: "pin-row" });
    for (const number of row) {
      const pin = byNumber.get(number);
      if (!pin) continue;
      const picked = !ctx.readonly && ctx.picked.has(number);
      const state = pinState(pin, picked, picking);
      const words = pinWords(pin, state, numbered);
      const attrs = { class: `pin ${stateClasses(state)}`, dataset: { pin: String(number), state: pin.down ? "down" : "standing" } };
      let el;
      if (ctx.readonly) el = h("span", { ...attrs, role: "img", "aria-label": words }, pinSvg(pin, state, numbered));
      else {
        el = h(
          "button",
          {
            ...attrs,
            type: "button",
            "aria-label": words,
            "aria-pressed": pin.selectable ? String(picked) : null,
            disabled: !pin.selectable || ctx.busy,
            title: words,
            dataset: { ...attrs.dataset, key: `pin-${number}` },
            onclick: () => ctx.togglePin(number),
          },
          pinSvg(pin, state, numbered),
        );
      }
      line.append(motion.apply(el, `pin-${number}`));
    }
    box.append(line);
  }
  return box;
}

// A game that counts the pins standing without naming them: the rack shows that many standing.
function rack(view, motion) {
  const down = rackDown(view);
  const words = tn("{n} pin standing", "{n} pins standing", view.standing);
  const box = h("div", { class: "triangle rack", role: "img", "aria-label": words });
  for (const row of view.rows) {
    box.append(
      h(
        "div",
        { class: "pin-row" },
        row.map((number) => {
          const state = { down: down.has(number), grey: false, picked: false, playable: false, blocked: false };
          const el = h("span", { class: `rack-pin ${state.down ? "down" : ""}` }, pinSvg({ number, label: "" }, state, false));
          return motion.apply(el, `rack-${number}`);
        }),
      ),
    );
  }
  return box;
}

// What the pictures mean, in words beside a small picture of each, for the marks this board shows now.
function legend(view, ctx) {
  const plain = { down: false, grey: false, picked: false, playable: false, blocked: false };
  const item = (state, text) =>
    h("span", { class: "legend-item" }, h("span", { class: `legend-pin ${stateClasses(state)}` }, pinSvg({ number: 0, label: "" }, state, false)), text);
  const items = [item(plain, t("standing")), item({ ...plain, down: true }, t("down"))];
  if (view.pins.some((p) => p.grey)) items.push(item({ ...plain, grey: true }, t("grey pin")));
  if (!ctx.readonly) {
    items.push(item({ ...plain, playable: true }, t("can be picked")), item({ ...plain, blocked: true }, t("not now")));
    items.push(item({ ...plain, playable: true, picked: true }, t("picked")));
  }
  return h("p", { class: "pin-legend", "aria-hidden": "true" }, items);
}

export function drawLane(view, ctx, motion) {
  if (!view.pins.length && (view.standing === null || view.standing === undefined)) return null;
  const lane = h("div", { class: "lane" }, view.pins.length ? triangle(view, ctx, motion) : rack(view, motion), cheerTag(motion));
  const parts = [lane];
  if (view.pins.length) parts.push(legend(view, ctx));
  else parts.push(h("p", { class: "standing", id: "standing", text: tn("{n} pin standing", "{n} pins standing", view.standing) }));
  return h("div", { class: "lane-box" }, parts);
}
