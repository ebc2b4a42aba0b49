import { api, getCatalog } from "./api.js";
import { drawLog, drawSheets, selectionContext } from "./board.js";
import { app, append, clear, h } from "./dom.js";
import { t } from "./i18n.js";
import { focusMain, page } from "./page.js";
import { drawBoards } from "./players.js";

// pinsetter's web pages: the game page. It draws the server's view (the table, the sheets, the
// log), in learn mode a lesson at each new situation with the hint shown at every decision, and
// at the end what the score means and where to go next. After every action the keyboard focus
// moves to the next likely control; every action has a key, shown on its button.
export const PACE_KEY = "pinsetter.pace";
export function pace() {
  const stored = Number(localStorage.getItem(PACE_KEY));
  return Number.isFinite(stored) && localStorage.getItem(PACE_KEY) !== null ? stored : 600;
}

// A hint lists the best options first and folds the rest (up to 35 in Rolling Pins), so that the
// scoresheets stay near; one button shows them all. The option the pick makes is always shown.
const HINT_SHORT = 5;

// Keys for the buttons a view offers (piles first, then the choices), in order; the letters the
// page uses itself (R roll, U undo, H hint, P play) are left out.
const CHOICE_KEYS = "ASDFGJKLQWETYIOZXCVBNM".split("");

// What to do for each kind of act a lesson asks for (pinsetter.lessons: Lesson.control), with this page's controls.
function lessonDo(control) {
  if (control === "roll") return t("Press Roll (R).");
  if (control === "pick") {
    return t("Click the pins to cross out (or press their numbers, 0 for pin 10), then Play the picked pins (P); the pick panel adds them up.");
  }
  if (control === "pile") return t("Click a pile, then its pins, then Play the picked pins (P); a button stops the ball.");
  if (control === "choose") return t("Choose with the buttons under the pins; each shows its key.");
  if (control === "mark") return t("Click the area to mark among the choices; the track shows each ability and what it does.");
  return "";
}

// The seats of a new game like this one: the same names and kinds.
function samePlayers(game) {
  return game.players.map((p) => ({ name: p.name, kind: p.kind === "human" ? "human" : `bot:${p.kind}` }));
}

export async function gamePage(id) {
  const gen = page.generation;
  const st = {
    id,
    game: null,
    picked: new Set(),
    pile: null,
    error: "",
    hint: null,
    chances: false, // the player asked for the chance to finish ahead with the hints
    hintAll: false, // the player asked for every option of the hint, not the best few
    hintStep: -1,
    busy: false,
    timer: null,
    focus: null, // the control the player was using (a selector): kept while a redraw has taken focus away
    engaged: false, // the player is using the game's controls: the page moves focus for them
    parked: false, // focus held on the status line while the page waits for the server
  };
  const root = h("div", { id: "game", dataset: { gameId: String(id), busy: "1", next: "" } });
  app.append(root);

  const ctx = selectionContext(st, () => draw(), (body) => send(body), {
    readonly: () => false,
    busy: () => st.busy,
  });

  function stale() {
    return gen !== page.generation;
  }

  // The hint panel open (at which step) and the chances asked for, kept for this tab: a switch of the
  // page's language reloads the page, which then asks for the same hint again, in the new language.
  const HINT_KEY = `pinsetter.hint.${id}`;
  function keepHint() {
    try {
      sessionStorage.setItem(HINT_KEY, JSON.stringify({ step: st.hint ? stepOf(st.game) : -1, chances: st.chances, all: st.hintAll }));
    } catch (err) {
      /* not kept: a reload closes the panel */
    }
  }
  function keptHint() {
    try {
      const kept = JSON.parse(sessionStorage.getItem(HINT_KEY) || "null");
      return kept && typeof kept === "object" ? kept : null;
    } catch (err) {
      return null;
    }
  }

  function stepOf(game) {
    return game && game.log.length ? game.log[game.log.length - 1].step : 0;
  }

  function accept(answer) {
    if (stale()) return false;
    if (!answer.ok) {
      st.error = answer.error;
      return false;
    }
    const before = st.game ? stepOf(st.game) : -1;
    st.game = answer.data;
    if (before !== stepOf(st.game)) {
      st.picked.clear();
      st.pile = null;
      st.planned = 0;
      if (st.hint) {
        st.hint = null;
        keepHint();
      }
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

  async function hint(quiet = false) {
    if (st.busy || !st.game || st.game.next !== "decision") return;
    const step = stepOf(st.game);
    st.hintStep = step;
    if (!quiet) {
      st.busy = true;
      draw();
    } else {
      st.hinting = true; // the page will draw again when the hint comes: not settled yet (data-busy)
      root.dataset.busy = "1";
    }
    // Once asked for, each option's chance to finish ahead comes with every later hint of the game.
    const answer = await api("GET", `/api/games/${id}/hint${st.chances ? "?chances=true" : ""}`);
    if (stale()) return;
    if (!quiet) st.busy = false;
    else st.hinting = false;
    if (stepOf(st.game) !== step) {
      if (quiet) draw(); // the game moved on meanwhile: this hint is for another position
      return;
    }
    if (answer.ok) {
      st.hint = answer.data;
      keepHint();
      if (!quiet) st.error = "";
    } else if (!quiet) st.error = answer.error;
    draw();
    if (quiet) return;
    const panel = document.getElementById("hint");
    if (panel) {
      st.focus = "#hint"; // the player asked to read the hint: focus stays on it
      panel.focus();
    }
  }

  async function playAgain(button) {
    const game = st.game;
    button.disabled = true;
    const body = { game: game.game, options: game.options, players: samePlayers(game) };
    if (game.learn) body.learn = true;
    const answer = await api("POST", "/api/games", body);
    if (stale()) return;
    button.disabled = false;
    if (!answer.ok) {
      st.error = answer.error;
      draw();
      return;
    }
    location.hash = `#/game/${answer.data.id}`;
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
      root.dataset.busy = st.hinting ? "1" : "0";
      // Learn mode shows the hint at every decision, without being asked.
      if (game.learn && game.next === "decision" && st.hintStep !== stepOf(game)) hint(true);
      return;
    }
    root.dataset.busy = "1";
    st.timer = setTimeout(() => {
      if (!stale()) roll();
    }, delay);
  }

  // Where focus is before a redraw: a control of this page (remembered), lost to the body by the
  // last redraw (the remembered control stands), or elsewhere on the page (left alone).
  function rememberFocus() {
    const active = document.activeElement;
    if (!active || active === document.body) return;
    if (!root.contains(active) || active.tagName === "H1") {
      st.engaged = false; // elsewhere on the page, or on the heading the page opened with
      return;
    }
    st.engaged = true;
    if (st.parked && active.id === "status") return;
    st.parked = false;
    if (active.dataset && active.dataset.key) st.focus = `[data-key="${CSS.escape(active.dataset.key)}"]`;
    else st.focus = active.id ? `#${CSS.escape(active.id)}` : null;
  }

  function usable(element) {
    const focusable = element && element.matches("button, input, select, a[href], [tabindex]");
    return focusable && !element.disabled && element.getClientRects().length > 0 ? element : null;
  }

  // The next likely control after an action: the one used if it still applies, else what the
  // position asks for (play again, roll, play the pick, a pile, a pin, a choice).
  function nextControl() {
    const game = st.game;
    const kept = st.focus ? usable(root.querySelector(st.focus)) : null;
    if (kept) return kept;
    if (game.terminal) return usable(root.querySelector("#play-again"));
    const candidates = [root.querySelector("#roll"), root.querySelector("#play-selection")];
    if (game.view.selection) {
      if (game.view.selection.needs_pile && st.pile === null) candidates.push(...root.querySelectorAll("button[data-pile]"));
      candidates.push(...root.querySelectorAll("button[data-pin]")); // the small boards' pins are pictures
    }
    candidates.push(...root.querySelectorAll("#choices button"));
    for (const element of candidates) if (usable(element)) return element;
    return null;
  }

  function placeFocus() {
    if (!st.engaged) return; // the player is not using the game's controls: focus stays where it is
    let target = st.busy ? null : nextControl();
    if (!target) {
      // Waiting for the server (or nothing to press): hold focus on the status line, not the page body.
      target = root.querySelector("#status");
      target.setAttribute("tabindex", "-1");
      st.parked = true;
    } else st.parked = false;
    target.focus({ preventScroll: true });
  }

  // Keys for the piles and choices the board drew, shown on each button.
  function assignKeys() {
    const keys = new Map();
    const buttons = [...root.querySelectorAll("#table [data-pile]"), ...root.querySelectorAll("#choices button")];
    buttons.forEach((button, index) => {
      const key = CHOICE_KEYS[index];
      // A pile keeps its key's place (A is always pile 1) but shows it only while it can be picked.
      if (!key || button.dataset.usable === "0") return;
      keys.set(key, button);
      button.setAttribute("aria-keyshortcuts", key);
      button.dataset.keyhint = key; // drawn by pages.css after the label, outside its words
    });
    for (const [id, key] of [
      ["token-plus", "+"],
      ["token-minus", "-"],
    ]) {
      const button = root.querySelector(`#${id}`);
      if (!button) continue;
      keys.set(key, button);
      button.setAttribute("aria-keyshortcuts", key);
      button.dataset.keyhint = key;
    }
    st.keys = keys;
  }

  // The option the player's pick makes (its pins, and pile where the game needs one): its place among the
  // hint's options, or -1. The pick is sent as it is; this only finds it in the list.
  function pickedOption(hint) {
    if (!st.picked.size) return -1;
    const pins = [...st.picked].sort((a, b) => a - b).join(" ");
    const choice = st.game.view.choices.find(
      (c) => c.by_selection && [...c.pins].sort((a, b) => a - b).join(" ") === pins && (c.pile === null || c.pile === undefined || c.pile === st.pile),
    );
    return choice ? hint.options.findIndex((o) => o.action === choice.action) : -1;
  }

  // The hint's options, best first: the best few, and the pick's option wherever it ranks (numbered by its
  // rank), until the player asks for all of them.
  function hintList(hint) {
    const words = hint.words;
    if (!words.length) return null;
    const mine = pickedOption(hint);
    const foldable = words.length > HINT_SHORT + 1; // never a button that shows a single option more
    const folded = foldable && !st.hintAll;
    const ranks = words.map((_, i) => i).filter((i) => !folded || i < HINT_SHORT || i === mine);
    const list = h(
      "ol",
      { class: "hint-words", id: "hint-words" },
      ranks.map((i) =>
        h(
          "li",
          { value: i + 1, class: i === mine ? "hint-mine" : null },
          words[i],
          i === mine ? [" ", h("strong", { class: "hint-tag", text: t("(your pick)") })] : null,
        ),
      ),
    );
    if (!foldable) return list;
    const toggle = h("button", {
      type: "button",
      id: "hint-all",
      class: "ghost",
      "aria-expanded": String(!folded),
      "aria-controls": "hint-words",
      // Folded only past HINT_SHORT + 1 options: "all {n} options" always counts several.
      text: folded ? t("Show all {n} options", { n: words.length }) : t("Show only the best {n}", { n: HINT_SHORT }),
      dataset: { key: "hint-all" },
      onclick: () => {
        st.hintAll = folded;
        keepHint();
        st.focus = "#hint-all";
        draw();
      },
    });
    return [list, h("p", { class: "hint-more" }, toggle)];
  }

  function drawLesson(game) {
    const told = new Set();
    const items = [];
    for (const lesson of game.lesson) {
      items.push(h("h3", { text: lesson.title }), h("p", { text: lesson.text }));
      if (lesson.control && !told.has(lesson.control) && !game.terminal) {
        told.add(lesson.control);
        items.push(h("p", { class: "lesson-do", text: lessonDo(lesson.control) }));
      }
    }
    if (!items.length) {
      // The hint is named only where the game has one: a game of dice alone has no decision to value.
      const quiet = game.terminal
        ? t("That was the whole game: the end screen says what your score means.")
        : game.has_decisions
          ? t("Nothing new this turn: play on. The hint values every option.")
          : t("Nothing new this turn: play on.");
      items.push(h("p", { class: "lesson-quiet", text: quiet }));
    }
    return h(
      "section",
      { class: "panel lesson", id: "lesson", "aria-labelledby": "lesson-h", "aria-live": "polite", dataset: { topics: game.lesson.map((l) => l.topic).join(" ") } },
      h("h2", { id: "lesson-h", text: t("Lesson") }),
      items,
    );
  }

  function drawEnd(game) {
    if (!game.terminal) return null;
    const again = h("button", {
      type: "button",
      class: "primary",
      id: "play-again",
      text: t("Play again"),
      dataset: { key: "play-again", keyhint: "N" },
      "aria-keyshortcuts": "N",
    });
    again.addEventListener("click", () => playAgain(again));
    return h(
      "section",
      { class: "panel ending game-end", id: "ending", "aria-labelledby": "ending-h" },
      h("h2", { id: "ending-h", text: t("Game over") }),
      h("ul", { class: "plain ending-lines" }, game.ending.map((line) => h("li", { text: line }))),
      game.ending_notes && game.ending_notes.length
        ? [h("h3", { text: t("What the score means") }), h("div", { class: "ending-notes", id: "ending-notes" }, game.ending_notes.map((line) => h("p", { text: line })))]
        : null,
      // A daily challenge while its day lasts: no review yet (its dice are everybody's), its day's board instead.
      game.sealed
        ? h(
            "p",
            { id: "daily-ending" },
            `${t("Your score in today's challenge: {score}.", { score: game.sheets[0].total })} `,
            h("a", { href: `#/daily/${encodeURIComponent(game.game)}`, id: "daily-board-link", text: t("See the day's board") }),
          )
        : null,
      h(
        "div",
        { class: "row" },
        again,
        // The review where the game's decisions have values (basic Rolling Pins, Solitaire), else the replay:
        // each named for what it opens, as everywhere on the site (docs/web.md, Replay and review).
        game.sealed
          ? null
          : h("a", {
              href: game.reviewable ? `#/review/${id}` : `#/history/${id}`,
              class: "button",
              id: "review",
              text: game.reviewable ? t("Review this game") : t("Replay this game"),
              dataset: { key: "review", keyhint: "V" },
              "aria-keyshortcuts": "V",
            }),
        h("a", { href: "#/", class: "button", id: "front-page", text: t("Front page"), dataset: { key: "front-page", keyhint: "B" }, "aria-keyshortcuts": "B" }),
      ),
      h("p", { class: "help", text: t("Play again: the same players and options, new dice and cards.") }),
    );
  }

  function draw() {
    if (stale()) return;
    rememberFocus();
    clear(root);
    const game = st.game;
    root.dataset.busy = st.busy || st.timer || st.hinting ? "1" : "0";
    if (!game) {
      root.append(h("h1", { text: t("Game {id}", { id }) }), h("p", { class: "error", role: "alert", text: st.error }));
      return;
    }
    root.dataset.next = game.next;
    // The first table drawn on this page load, for the first-render benchmark.
    if (!performance.getEntriesByName("pinsetter:drawn").length) performance.mark("pinsetter:drawn");
    root.dataset.steps = String(stepOf(game));
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
        : game.has_decisions || game.terminal
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
        disabled: st.busy || game.next !== "decision" || game.sealed,
        // Why it is off, as Undo says: a newcomer should not wonder whether it is broken.
        title: !game.has_decisions
          ? t("no hints: this game has no decisions, every ball is the dice's")
          : game.sealed
            ? t("no hints in a daily challenge: everybody plays it on their own")
            : game.next !== "decision"
            ? t("hints are for decisions: there is none to take now")
            : t("every option now, valued by the solvers"),
        dataset: { key: "hint" },
        onclick: () => hint(),
      }),
      // The bots' pace only where a bot plays: a game of people alone has none to set.
      game.players.some((p) => p.kind !== "human") ? h("label", { class: "pace", for: "pace" }, t("Bot pace"), paceInput, paceText) : null,
    );

    const hintPanel = st.hint
      ? h(
          "section",
          { class: "panel", id: "hint", tabindex: -1, "aria-labelledby": "hint-h" },
          h("h2", { id: "hint-h", text: t("Hint") }),
          h("p", { class: "help", text: st.hint.meaning }),
          st.hint.chance_meaning ? h("p", { class: "help", id: "chance-meaning", text: t("Chances: {meaning}", { meaning: st.hint.chance_meaning }) }) : null,
          hintList(st.hint),
          st.hint.chances_offered
            ? h("button", {
                type: "button",
                // The first time a server works them out takes a while: the button says so meanwhile.
                text: st.busy && st.chances !== Boolean(st.hint.chance_meaning)
                  ? t("Working out the chances (up to half a minute, the first time only)…")
                  : st.hint.chance_meaning
                    ? t("Hide the chances")
                    : t("Show each option's chance to finish ahead"),
                disabled: st.busy,
                dataset: { key: "chances" },
                onclick: () => {
                  st.chances = !st.hint.chance_meaning;
                  hint();
                },
              })
            : null,
        )
      : null;

    append(root, [
      // The game named once: with its options where they are not the defaults ("Rolling Pins, advanced").
      h("h1", { id: "game-title" }, game.variant || game.title, h("span", { class: "muted", text: ` · ${t("game {id}", { id })}` })),
      // At the end the panel below is headed "Game over": the status line says it to screen readers only.
      h("p", { class: game.terminal ? "status visually-hidden" : "status", id: "status", role: "status", "aria-live": "polite", text: game.view.status }),
      toolbar,
      // A game without decisions has nothing to take back: no reason to give either.
      // Its line is kept while there is no reason to give, so that nothing below it moves.
      game.has_decisions ? h("p", { class: "reason", id: "undo-reason", text: undoReason ? t("Undo: {reason}", { reason: undoReason }) : "" }) : null,
      h("p", { class: "error", role: "alert", id: "game-error", text: st.error }),
      drawEnd(game),
      h(
        "div",
        { class: `game-grid${game.learn ? " learning" : ""}` },
        drawBoards(game, ctx),
        game.learn ? drawLesson(game) : null,
        h(
          "div",
          { class: "game-side" },
          hintPanel,
          h("section", { class: "panel", "aria-labelledby": "sheets-h" }, h("h2", { id: "sheets-h", text: t("Scoresheets") }), drawSheets(game)),
          h("section", { class: "panel", "aria-labelledby": "log-h" }, h("h2", { id: "log-h", text: t("Log") }), drawLog(game)),
          h(
            "p",
            { id: "game-links" },
            // A daily game's record and steps come when its day ends (docs/daily.md).
            game.sealed
              ? h("a", { href: `#/daily/${encodeURIComponent(game.game)}`, text: t("See the day's board") })
              : [
                  h("a", { href: `/api/games/${id}/record`, download: `pinsetter-${id}.json`, text: t("Download the record") }),
                  " · ",
                  h("a", { href: `#/history/${id}`, text: t("Replay this game") }),
                ],
            // The seed as the server's digits (a string): never through Number, which rounds past 2^53.
            game.seed !== null ? [" · ", h("span", { id: "seed-shown", text: t("seed {seed}", { seed: game.seed }) })] : null,
          ),
        ),
      ),
    ]);
    assignKeys();
    const log = root.querySelector("#log");
    if (log) log.scrollTop = log.scrollHeight; // the newest moves in view
    placeFocus();
  }

  page.keys = (event) => {
    if (!st.game) return;
    const key = event.key;
    const upper = key.length === 1 ? key.toUpperCase() : key;
    if (st.game.terminal) {
      const target = { N: "#play-again", V: "#review", B: "#front-page" }[upper];
      const element = target ? root.querySelector(target) : null;
      if (!element) return;
      element.click();
      event.preventDefault();
      return;
    }
    const ours = "RUHP".includes(upper) || key === "Escape" || /^[0-9]$/.test(key) || (st.keys && st.keys.has(upper === "=" ? "+" : upper));
    if (!ours) return;
    st.engaged = true; // a key of the game: focus follows the game from now on
    if (upper === "R") roll();
    else if (upper === "U") undo();
    else if (upper === "H") hint();
    else if (upper === "P") {
      const play = document.getElementById("play-selection");
      if (play && !play.disabled) ctx.playSelection();
    } else if (key === "Escape") ctx.clearSelection();
    else if (/^[0-9]$/.test(key)) {
      const number = key === "0" ? 10 : Number(key);
      const pin = st.game.view.pins.find((p) => p.number === number);
      if (pin && pin.selectable && !st.busy) {
        st.engaged = true;
        st.focus = `[data-pin="${number}"]`;
        ctx.togglePin(number);
        const button = root.querySelector(`[data-pin="${number}"]`);
        if (button) button.focus({ preventScroll: true });
      }
    } else if (st.keys && st.keys.has(upper === "=" ? "+" : upper)) {
      const button = st.keys.get(upper === "=" ? "+" : upper);
      if (button.disabled || st.busy) return;
      st.engaged = true;
      button.focus({ preventScroll: true });
      button.click();
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
  const kept = keptHint();
  if (kept) {
    st.chances = Boolean(kept.chances); // asked for once, they come with every later hint of the game
    st.hintAll = Boolean(kept.all); // every option, as the player last chose to see them
  }
  draw();
  focusMain(st.game.title);
  // The panel was open at this very step (the page reloaded for a new language): the hint again, in it.
  if (kept && kept.step === stepOf(st.game) && st.game.next === "decision" && !st.game.sealed) hint(true);
  schedule();
}
