import { api, getCatalog } from "./api.js";
import { drawEnding, drawLog, drawSheets, selectionContext } from "./board.js";
import { app, append, clear, h } from "./dom.js";
import { t } from "./i18n.js";
import { focusMain, page } from "./page.js";
import { drawBoards } from "./players.js";
import { stored } from "./tables.js";

// pinsetter's web pages: the game page.
export const PACE_KEY = "pinsetter.pace";
export function pace() {
  const stored = Number(localStorage.getItem(PACE_KEY));
  return Number.isFinite(stored) && localStorage.getItem(PACE_KEY) !== null ? stored : 600;
}

export async function gamePage(id) {
  const gen = page.generation;
  const st = { id, game: null, picked: new Set(), pile: null, error: "", hint: null, busy: false, timer: null };
  const root = h("div", { id: "game", dataset: { gameId: String(id), busy: "1", next: "" } });
  app.append(root);

  const ctx = selectionContext(st, () => draw(), (body) => send(body), {
    readonly: () => false,
    busy: () => st.busy,
  });

  function stale() {
    return gen !== page.generation;
  }

  function accept(answer) {
    if (stale()) return false;
    if (!answer.ok) {
      st.error = answer.error;
      return false;
    }
    const before = st.game ? st.game.log.length && st.game.log[st.game.log.length - 1].step : -1;
    st.game = answer.data;
    const after = st.game.log.length ? st.game.log[st.game.log.length - 1].step : 0;
    if (before !== after) {
      st.picked.clear();
      st.pile = null;
      st.planned = 0;
      st.hint = null;
    }
    st.error = "";
    return true;
  }

  async function request(method, path, body) {
    clearTimeout(st.timer);
    st.timer = null;
    st.busy = true;
    draw();
    const answer = await api(method, path, body);
    if (stale()) return;
    st.busy = false;
    const accepted = accept(answer);
    if (!accepted && answer.status === 409) {
      // The game moved on elsewhere (another tab, a reload): show where it stands now.
      const fresh = await api("GET", `/api/games/${id}`);
      if (stale()) return;
      const message = st.error;
      accept(fresh);
      st.error = message;
    }
    draw();
    schedule();
  }

  function send(body) {
    if (st.busy) return;
    request("POST", `/api/games/${id}/actions`, body);
  }

  function roll() {
    if (st.busy || !st.game || st.game.next === "over" || st.game.next === "decision") return;
    // The rolls that follow a player's own choice (a deal of cards) come in one request.
    const until = st.game.next === "roll" && st.game.has_decisions ? "rolls" : "step";
    request("POST", `/api/games/${id}/advance`, { until });
  }

  function undo() {
    if (st.busy || !st.game || st.game.undo !== null) return;
    request("POST", `/api/games/${id}/undo`);
  }

  async function hint() {
    if (st.busy || !st.game || st.game.next !== "decision") return;
    st.busy = true;
    draw();
    const answer = await api("GET", `/api/games/${id}/hint`);
    if (stale()) return;
    st.busy = false;
    if (answer.ok) {
      st.hint = answer.data;
      st.error = "";
    } else st.error = answer.error;
    draw();
    const panel = document.getElementById("hint");
    if (panel) panel.focus();
  }

  function schedule() {
    clearTimeout(st.timer);
    st.timer = null;
    const game = st.game;
    if (!game || st.busy || stale()) return;
    let delay = null;
    if (game.next === "bot") delay = pace();
    else if (game.next === "roll" && game.has_decisions) delay = 0;
    if (delay === null) {
      root.dataset.busy = "0";
      return;
    }
    root.dataset.busy = "1";
    st.timer = setTimeout(() => {
      if (!stale()) roll();
    }, delay);
  }

  function draw() {
    if (stale()) return;
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    clear(root);
    const game = st.game;
    root.dataset.busy = st.busy || st.timer ? "1" : "0";
    if (!game) {
      root.append(h("h1", { text: t("Game {id}", { id }) }), h("p", { class: "error", role: "alert", text: st.error }));
      return;
    }
    root.dataset.next = game.next;
    // The first table drawn on this page load, for the first-render benchmark.
    if (!performance.getEntriesByName("pinsetter:drawn").length) performance.mark("pinsetter:drawn");
    root.dataset.steps = String(game.log.length ? game.log[game.log.length - 1].step : 0);
    document.title = `${game.title} · ${t("game {id}", { id })} · pinsetter`;

    // A game with decisions rolls by itself after the player's choice: no Roll button to flash in.
    const rollButton =
      game.next === "roll" && game.view.roll_label && !game.has_decisions
        ? h("button", {
            type: "button",
            class: "primary",
            id: "roll",
            text: `${game.view.roll_label} (R)`,
            disabled: st.busy,
            dataset: { key: "roll" },
            onclick: roll,
          })
        : game.has_decisions
          ? null
          : // Its place is kept while it is not wanted: the buttons after it never move (board.css).
            h("button", { type: "button", class: "primary roll-placeholder", "aria-hidden": "true", tabindex: -1, disabled: true, text: `${game.view.roll_label || t("Roll")} (R)` });
    const undoReason = typeof game.undo === "string" ? game.undo : "";
    const paceInput = h("input", {
      type: "range",
      id: "pace",
      min: 0,
      max: 2000,
      step: 100,
      value: pace(),
      "aria-valuetext": t("{ms} milliseconds per bot move", { ms: pace() }),
      dataset: { key: "pace" },
    });
    paceInput.addEventListener("input", () => {
      localStorage.setItem(PACE_KEY, paceInput.value);
      paceInput.setAttribute("aria-valuetext", t("{ms} milliseconds per bot move", { ms: paceInput.value }));
      paceText.textContent = `${paceInput.value} ms`;
      if (st.timer) schedule();
    });
    const paceText = h("span", { class: "muted", text: `${pace()} ms` });

    const toolbar = h(
      "div",
      { class: "toolbar" },
      rollButton,
      h("button", {
        type: "button",
        id: "undo",
        text: t("Undo (U)"),
        disabled: st.busy || game.undo !== null,
        "aria-describedby": undoReason ? "undo-reason" : null,
        title: undoReason || t("take back the last decision"),
        dataset: { key: "undo" },
        onclick: undo,
      }),
      h("button", {
        type: "button",
        id: "hint-button",
        text: t("Hint (H)"),
        disabled: st.busy || game.next !== "decision",
        // Why it is off, as Undo says: a newcomer should not wonder whether it is broken.
        title: !game.has_decisions
          ? t("no hints: this game has no decisions, every ball is the dice's")
          : game.next !== "decision"
            ? t("hints are for decisions: there is none to take now")
            : t("every option now, valued by the solvers"),
        dataset: { key: "hint" },
        onclick: hint,
      }),
      h("label", { class: "pace", for: "pace" }, t("Bot pace"), paceInput, paceText),
    );

    const hintPanel = st.hint
      ? h(
          "section",
          { class: "panel", id: "hint", tabindex: -1, "aria-labelledby": "hint-h" },
          h("h2", { id: "hint-h", text: t("Hint") }),
          h("p", { class: "help", text: st.hint.meaning }),
          st.hint.words.length
            ? h("ol", { class: "hint-words" }, st.hint.words.map((w) => h("li", { text: w })))
            : null,
        )
      : null;

    append(root, [
      h("h1", {}, game.title, h("span", { class: "muted", text: ` · ${t("game {id}", { id })}` })),
      game.variant !== game.title ? h("p", { class: "muted", id: "variant", text: game.variant }) : null,
      h("p", { class: "status", id: "status", role: "status", "aria-live": "polite", text: game.view.status }),
      toolbar,
      // A game without decisions has nothing to take back: no reason to give either.
      // Its line is kept while there is no reason to give, so that nothing below it moves.
      game.has_decisions ? h("p", { class: "reason", id: "undo-reason", text: undoReason ? t("Undo: {reason}", { reason: undoReason }) : "" }) : null,
      h("p", { class: "error", role: "alert", id: "game-error", text: st.error }),
      drawEnding(game),
      h(
        "div",
        { class: "game-grid" },
        drawBoards(game, ctx),
        h(
          "div",
          {},
          hintPanel,
          h("section", { class: "panel", "aria-labelledby": "sheets-h" }, h("h2", { id: "sheets-h", text: t("Scoresheets") }), drawSheets(game)),
          h("section", { class: "panel", "aria-labelledby": "log-h" }, h("h2", { id: "log-h", text: t("Log") }), drawLog(game)),
          h(
            "p",
            {},
            h("a", { href: `/api/games/${id}/record`, download: `pinsetter-${id}.json`, text: t("Download the record") }),
            " · ",
            h("a", { href: `#/history/${id}`, text: t("Step through") }),
            // The seed as the server's digits (a string): never through Number, which rounds past 2^53.
            game.seed !== null ? [" · ", h("span", { id: "seed-shown", text: t("seed {seed}", { seed: game.seed }) })] : null,
          ),
        ),
      ),
    ]);
    if (game.terminal) root.append(h("p", {}, h("a", { href: "#/", class: "button primary", text: t("New game") })));
    const log = root.querySelector("#log");
    if (log) log.scrollTop = log.scrollHeight; // the newest moves in view

    // Keep keyboard focus where it was, or move it to the next likely action.
    let target = focused ? root.querySelector(`[data-key="${CSS.escape(focused)}"]`) : null;
    if (target && target.disabled) target = null;
    if (!target && focused && !st.busy) {
      target =
        root.querySelector("#roll") ||
        root.querySelector("#play-selection:not(:disabled)") ||
        root.querySelector("#choices button") ||
        root.querySelector(".pin:not(:disabled)") ||
        root.querySelector("#status");
      if (target && target.id === "status") target.setAttribute("tabindex", "-1");
    }
    if (target) target.focus({ preventScroll: true });
  }

  page.keys = (event) => {
    if (!st.game) return;
    const key = event.key;
    if (key === "r" || key === "R") roll();
    else if (key === "u" || key === "U") undo();
    else if (key === "h" || key === "H") hint();
    else if (key === "p" || key === "P") {
      const play = document.getElementById("play-selection");
      if (play && !play.disabled) ctx.playSelection();
    } else if (key === "Escape") ctx.clearSelection();
    else if (/^[0-9]$/.test(key)) {
      const number = key === "0" ? 10 : Number(key);
      const pin = st.game.view.pins.find((p) => p.number === number);
      if (pin && pin.selectable && !st.busy) {
        ctx.togglePin(number);
        const button = root.querySelector(`[data-pin="${number}"]`);
        if (button) button.focus();
      }
    } else return;
    event.preventDefault();
  };

  const [answer] = await Promise.all([api("GET", `/api/games/${id}`), getCatalog()]); // the catalog names the bots
  if (stale()) return;
  if (!answer.ok) {
    st.error = answer.error;
    draw();
    return;
  }
  accept(answer);
  draw();
  focusMain(st.game.title);
  schedule();
}
