// pinsetter's boards: motion. Dice roll, cards turn, pins fall and a strike or spare is cheered,
// each once, when the step that made it is first drawn. The pages redraw a board often (a pick,
// a busy flag, the next bot move): a motion already under way is carried on where it is (a
// negative animation-delay), never started again. Every motion is skippable: a click or a key
// anywhere ends it at once, and nothing waits for it (input is never blocked). The keyframes
// live in board.css inside `prefers-reduced-motion: no-preference`, so a player who asks for
// reduced motion gets the same pictures without any movement.

import { playerLabel } from "../words.js";

// Each motion's length and the gap between its pieces (the tenth die starts 9 gaps late): with
// the gaps, every motion is over within 600 ms.
export const MOTIONS = {
  roll: { ms: 340, stagger: 24 },
  turn: { ms: 300, stagger: 20 },
  fall: { ms: 380, stagger: 18 },
  cheer: { ms: 560, stagger: 0 },
};

// The last drawing of each board: by page, game and board name (a page may draw several boards).
const memories = new Map();

function lastStep(game) {
  return game.log && game.log.length ? game.log[game.log.length - 1].step : 0;
}

// The pins a count-only rack shows down: the front ones first (the ball meets pin 1 first).
export function rackDown(view) {
  const numbers = view.rows.flat().sort((a, b) => a - b);
  const down = Math.max(0, numbers.length - (view.standing ?? numbers.length));
  return new Set(numbers.slice(0, down));
}

// Strikes and spares on every sheet, and on each player's (`seats`: whose the new one is).
function marks(game) {
  const count = { strike: 0, spare: 0, seats: [] };
  for (const sheet of game.sheets || []) {
    const seat = { strike: 0, spare: 0 };
    for (const frame of sheet.frames || []) {
      for (const mark of frame.marks || []) {
        if (mark === "X") seat.strike += 1;
        else if (mark === "/") seat.spare += 1;
      }
    }
    count.strike += seat.strike;
    count.spare += seat.spare;
    count.seats.push(seat);
  }
  return count;
}

// The player whose `kind` ("strike" or "spare") is new since `before`, or null.
function whose(before, after, kind) {
  const index = after.seats.findIndex((seat, i) => seat[kind] > (before.seats[i] ? before.seats[i][kind] : 0));
  return index < 0 ? null : index;
}

function snapshot(game) {
  const view = game.view;
  return {
    player: view.player,
    pins: new Map(view.pins.map((p) => [p.number, { down: p.down, label: p.label }])),
    rack: view.standing === null || view.standing === undefined ? null : rackDown(view),
    dice: view.dice.map((d) => `${d.kind}:${d.face}`).join(" "),
    piles: view.piles.map((p) => p.top),
    marks: marks(game),
  };
}

// What started moving between two drawings of one board: animation key -> start time.
function changes(before, after, game, since, now) {
  const started = new Map();
  const view = game.view;
  const put = (keys, kind) => keys.forEach((key, i) => started.set(key, { kind, t0: now + i * MOTIONS[kind].stagger }));
  if (before.player === after.player) {
    put(
      view.pins.filter((p) => p.down && before.pins.has(p.number) && !before.pins.get(p.number).down).map((p) => `pin-${p.number}`),
      "fall",
    );
    if (before.rack && after.rack) put([...after.rack].filter((n) => !before.rack.has(n)).map((n) => `rack-${n}`), "fall");
  }
  const turned = view.pins
    .filter((p) => !p.down && p.label && (!before.pins.has(p.number) || before.pins.get(p.number).label !== p.label))
    .map((p) => `pin-${p.number}`);
  view.piles.forEach((p, i) => {
    if (p.top !== null && p.top !== before.piles[i]) turned.push(`pile-${p.number}`);
  });
  put(turned, "turn");
  const rolled = (game.log || []).some((entry) => entry.step > since && entry.actor === "chance");
  if (view.dice.length && (after.dice !== before.dice || rolled)) put(view.dice.map((_, i) => `die-${i}`), "roll");
  return started;
}

// The motion of this drawing of `game`'s board: `apply(element, key)` starts (or carries on) the
// element's motion, `cheer` is the strike or spare to celebrate ("strike", "spare" or null),
// `cheerBy` the player whose ball it was when that is not the player of this board (a bot's strike
// before the turn passed to a human: the banner says whose it was, null otherwise) and
// `kinds` the motions this drawing started (for the page's tests). `name` tells apart several
// boards of one game on a page.
export function motionFor(game, name = "") {
  const now = performance.now();
  const key = `${(location.hash.split("/")[1] || "").replace(/^#/, "")}:${game.id}:${name}`;
  const memory = memories.get(key);
  const step = lastStep(game);
  const snap = snapshot(game);
  let started = new Map();
  let cheer = null;
  let cheerBy = null;
  let fresh = [];
  if (memory && step === memory.step) {
    started = memory.started;
    cheer = memory.cheer;
    cheerBy = memory.cheerBy;
  } else if (memory && step > memory.step) {
    // Motions still under way go on (a play's pins fall while the next card is turned up).
    started = new Map([...memory.started].filter(([, m]) => now - m.t0 < MOTIONS[m.kind].ms));
    for (const [animKey, motion] of changes(memory.snap, snap, game, memory.step, now)) started.set(animKey, motion);
    if (snap.marks.strike > memory.snap.marks.strike) cheer = "strike";
    else if (snap.marks.spare > memory.snap.marks.spare) cheer = "spare";
    if (cheer) {
      started.set("cheer", { kind: "cheer", t0: now });
      const seat = whose(memory.snap.marks, snap.marks, cheer);
      const sheet = seat === null ? null : game.sheets[seat];
      if (sheet && seat !== game.view.player) cheerBy = playerLabel(sheet.name, sheet.kind);
    }
    fresh = [...new Set([...started.values()].filter((m) => m.t0 >= now).map((m) => m.kind))];
  }
  memories.delete(key);
  memories.set(key, { step, snap, started, cheer, cheerBy });
  if (memories.size > 24) memories.delete(memories.keys().next().value);
  return {
    cheer,
    cheerBy,
    kinds: fresh,
    apply(el, animKey) {
      const motion = started.get(animKey);
      if (!motion) return el;
      const elapsed = now - motion.t0;
      if (elapsed >= MOTIONS[motion.kind].ms) return el;
      // board.css runs the motion with these (on the element or a part of its picture).
      el.classList.add(`anim-${motion.kind}`);
      el.style.setProperty("--motion-ms", `${MOTIONS[motion.kind].ms}ms`);
      el.style.setProperty("--motion-delay", `${-elapsed}ms`);
      return el;
    },
  };
}

// A click or a key anywhere ends every board motion at once (and a redraw does not restart it).
export function skipMotion() {
  for (const memory of memories.values()) memory.started = new Map();
  for (const animation of document.getAnimations()) {
    const target = animation.effect && animation.effect.target;
    if (target && target.closest && target.closest(".board")) animation.finish();
  }
}

let listening = false;
export function listenForSkips() {
  if (listening) return;
  listening = true;
  document.addEventListener("pointerdown", skipMotion, true);
  document.addEventListener("keydown", skipMotion, true);
}
