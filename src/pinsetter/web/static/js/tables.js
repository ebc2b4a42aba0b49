import { ratedNote, ratingChanges, seatIdentity } from "./account.js";
import { api, catalogCache, getCatalog } from "./api.js";
import { drawEnding, drawLog, drawSheets, selectionContext } from "./board.js";
import { app, append, clear, h, s } from "./dom.js";
import { fill, t } from "./i18n.js";
import { nameCount, nameTooLong, rememberName, rememberedName } from "./names.js";
import { focusMain, page } from "./page.js";
import { drawBoards, nameSpan } from "./players.js";
import { botInfo, gameName, playerLabel } from "./words.js";

// pinsetter's web pages: online tables (docs/tables.md).
// The table pages' newer words, in one place (for translation).
// Looked up when shown (getters), so that the catalog loaded after this module applies.
// A rated game's end holds the rating changes under its own heading, in the Game over panel.
function withRatingChanges(ending, changes) {
  if (ending && changes) ending.append(h("h3", { id: "rating-changes-h", text: t("Rating changes") }), changes);
  return ending;
}

export const TABLE_TEXT = {
  get timerLabel() {
    return t("Turn timer for a table (seconds)");
  },
  get timerHelp() {
    return t("optional: when a seat's time runs out, a bot decides for it (the log says so)");
  },
  get toDecide() {
    return t(" — to decide");
  },
  get toPlay() {
    return t(" — to play");
  },
  decidingMark: "✎ ",
  // An asynchronous table's hours read as hours and minutes (docs/tables.md, Asynchronous tables).
  secondsLeft: (n) =>
    n >= 3600 ? t(" ({hours} h {minutes} min left)", { hours: Math.floor(n / 3600), minutes: Math.floor((n % 3600) / 60) }) : t(" ({n} s left)", { n }),
  stillDeciding: (names) => t("Still to decide this roll: {names}.", { names }),
  yourDecision: (who, others) =>
    others ? t("Your decision, {who} (also deciding: {others})", { who, others }) : t("Your decision, {who} (the last to decide)", { who }),
  youAnswered: (names) => t("You have decided; waiting for {names}.", { names }),
  get givenToBot() {
    return t("Give to a bot");
  },
  giveIdle: (seat) => t("Bot to play seat {seat} from now on", { seat }),
  confirmGive: (name) => t("Give {name}'s seat to a bot for the rest of the game?", { name }),
};
// A table's tokens stay in this browser: the host's (to start, hand seats to bots, close) and the
// seat's (to act), each keyed by the table's id. The server sends every state over a WebSocket.
export function hostKey(id) {
  return `pinsetter.table.${id}.host`;
}

export function seatKey(id) {
  return `pinsetter.table.${id}.seat`;
}

export function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch (err) {
    /* storage blocked: the token lives as long as the page */
  }
}

export function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch (err) {
    return null;
  }
}

export function joinLink(code) {
  return `${location.origin}${location.pathname}#/join/${encodeURIComponent(code)}`;
}

// `open`: the table still takes players; a free seat of a closed table is empty, not free to take.
export function seatLabel(seat, open = true) {
  if (seat.free) return open ? t("Seat {number}: free", { number: seat.seat + 1 }) : t("Seat {number}: empty", { number: seat.seat + 1 });
  if (seat.kind === "human") return t("Seat {number}: {name}", { number: seat.seat + 1, name: seat.name });
  return t("Seat {number}: {name}", { number: seat.seat + 1, name: playerLabel(seat.name, seat.kind) });
}

// A form to take one of the free seats by name; `sat(answer)` gets the server's answer. The name is the one
// this browser's player last played under (a host's: the one typed for the first human seat in the lobby).
export function sitForm(table, sat) {
  const error = h("p", { class: "error", role: "alert", id: "sit-error" });
  const name = h("input", { type: "text", id: "sit-name", value: rememberedName(), autocomplete: "nickname", required: true });
  const count = nameCount(name, "sit-name-count");
  const identity = seatIdentity(table); // signed in: the account's name; a guest at a rated table: why not
  const free = table.seats.filter((s) => s.free);
  const buttons = free.map((seat, index) =>
    h("button", {
      type: "button",
      class: index === 0 ? "primary" : null, // the first free seat: the host's, in the seats' order
      text: t("Sit at seat {number}", { number: seat.seat + 1 }),
      dataset: { key: `sit-${seat.seat}`, seat: String(seat.seat) },
      onclick: async (event) => {
        const button = event.currentTarget;
        const problem = identity ? "" : name.value.trim() ? nameTooLong(name.value.trim(), t("Your name")) : t("type your name first");
        if (problem) {
          error.textContent = problem;
          name.focus();
          return;
        }
        button.disabled = true;
        const body = identity ? identity.body() : { name: name.value.trim() };
        const answer = await api("POST", `/api/tables/${table.id}/seats/${seat.seat}`, body);
        button.disabled = false;
        if (!answer.ok) {
          error.textContent = answer.error;
          return;
        }
        store(seatKey(table.id), JSON.stringify({ seat: answer.data.seat, token: answer.data.token }));
        if (!identity) rememberName(body.name);
        sat(answer.data);
      },
    }),
  );
  if (!free.length) return null;
  return h(
    "section",
    { class: "panel", id: "sit", "aria-labelledby": "sit-h" },
    h("h2", { id: "sit-h", text: t("Take a seat") }),
    identity ? identity.field || identity.blocked : h("div", { class: "option" }, h("label", { for: "sit-name", text: t("Your name") }), name, count),
    identity && identity.blocked ? null : h("div", { class: "row" }, buttons),
    error,
  );
}

// Closed by its host before the game started: nothing was played, and no seat can be taken.
function unplayed(table) {
  return table.status === "closed" && table.game_id === null;
}

function closedWords(table) {
  return unplayed(table) ? t("The host closed this table before the game started.") : t("This table is closed.");
}

export async function joinPage(code) {
  const gen = page.generation;
  const root = h("div", { id: "join" });
  app.append(root);
  const [games, answer] = await Promise.all([getCatalog(), api("GET", `/api/tables/code/${encodeURIComponent(code)}`)]);
  if (gen !== page.generation) return;
  if (!answer.ok) {
    root.append(h("h1", { text: t("Join table {code}", { code }) }), h("p", { class: "error", role: "alert", text: answer.error }));
    focusMain(t("Join a table"));
    return;
  }
  const table = answer.data;
  if (stored(seatKey(table.id))) {
    location.hash = `#/table/${table.id}`; // this browser already holds a seat there
    return;
  }
  root.append(
    h("h1", { text: t("Join table {code}", { code: table.join_code }) }),
    h("p", { id: "join-game", text: table.title || gameName(table.game, games) }),
    h("ul", { class: "plain seats", id: "join-seats" }, table.seats.map((seat) => h("li", { text: seatLabel(seat, table.status === "open") }))),
  );
  if (table.status === "open") {
    root.append(sitForm(table, () => (location.hash = `#/table/${table.id}`)) || h("p", { text: t("Every seat is taken.") }));
  } else {
    const said = { playing: t("The game has started."), finished: t("The game is over.") };
    root.append(h("p", { id: "join-closed", text: said[table.status] || closedWords(table) }));
  }
  // A table closed before its game started has nothing to watch.
  if (!unplayed(table)) root.append(h("p", {}, h("a", { href: `#/table/${table.id}`, id: "watch", class: "button", text: t("Just watch") })));
  focusMain(t("Join table {code}", { code: table.join_code }));
}

export async function tablePage(id) {
  const gen = page.generation;
  const held = (() => {
    try {
      const mine = JSON.parse(stored(seatKey(id)) || "null");
      return mine && typeof mine.token === "string" ? mine : null;
    } catch (err) {
      return null;
    }
  })();
  const st = {
    table: null,
    view: null,
    seat: null,
    token: held ? held.token : null,
    hostToken: stored(hostKey(id)),
    error: "",
    notice: "",
    live: false,
    busy: false,
    picked: new Set(),
    pile: null,
    socket: null,
    retries: 0,
    retryTimer: null,
    steps: -1,
    receivedAt: 0,
    left: false,
  };
  const root = h("div", { id: "table-page", dataset: { tableId: String(id), live: "0", status: "", seat: "", turn: "", next: "", steps: "" } });
  app.append(root);
  let drawnOnce = false;
  const stale = () => gen !== page.generation || st.left;

  const ctx = selectionContext(st, () => draw(), (body) => send(body), {
    readonly: () => !myDecision(),
    busy: () => st.busy || !st.live,
  });

  // The seats still to decide: several at once when one shared roll serves everybody.
  function deciders() {
    const v = st.view;
    if (!v || v.terminal) return [];
    return v.next === "decision" ? v.deciders || [v.turn] : [v.turn];
  }

  function simultaneous() {
    return Boolean(st.view && !st.view.terminal && st.view.next === "decision" && st.view.simultaneous);
  }

  function myTurn() {
    const v = st.view;
    return Boolean(v && !v.terminal && st.seat !== null && deciders().includes(st.seat));
  }

  function myDecision() {
    return myTurn() && st.view.next === "decision";
  }

  function nameOf(seat) {
    const sheet = st.view && st.view.sheets[seat];
    return sheet ? sheet.name : `seat ${seat + 1}`;
  }

  // Seconds left to each waiting seat, counted down here between the server's states.
  function secondsLeft(seat) {
    const left = st.view && st.view.time_left ? st.view.time_left[String(seat)] : undefined;
    if (left === undefined) return null;
    return Math.max(0, Math.ceil(left - (performance.now() - st.receivedAt) / 1000));
  }

  function canRoll() {
    return myTurn() && st.view.next === "roll" && Boolean(st.view.view.roll_label);
  }

  function send(body) {
    if (st.busy || !st.live || !st.socket) return;
    st.busy = true;
    st.error = "";
    st.socket.send(JSON.stringify(body));
    draw();
  }

  function connect() {
    if (stale()) return;
    clearTimeout(st.retryTimer);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = st.token ? `?token=${encodeURIComponent(st.token)}` : "";
    let socket;
    try {
      socket = new WebSocket(`${scheme}//${location.host}/ws/tables/${id}${query}`);
    } catch (err) {
      reconnectLater();
      return;
    }
    st.socket = socket;
    socket.addEventListener("message", (event) => {
      if (stale() || st.socket !== socket) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      if (message.type === "state") {
        st.live = true;
        st.retries = 0;
        st.notice = "";
        st.busy = false;
        st.table = message.table;
        st.seat = message.seat;
        st.view = message.view;
        st.receivedAt = performance.now();
        const steps = st.view && st.view.log.length ? st.view.log[st.view.log.length - 1].step : 0;
        if (steps !== st.steps) {
          st.picked.clear();
          st.pile = null;
          st.planned = 0;
          if (st.keepError) st.keepError = false; // said as the socket closed: shown until the next step
          else st.error = "";
        }
        st.steps = steps;
        draw();
      } else if (message.type === "error") {
        st.busy = false;
        st.error = String(message.error);
        draw();
      }
    });
    socket.addEventListener("close", (event) => {
      if (st.socket !== socket) return;
      st.socket = null;
      st.live = false;
      st.busy = false;
      if (stale()) return;
      if (event.code === 1008 && event.reason === "unknown token" && st.token) {
        // The seat this browser held is no longer its own: watch instead.
        store(seatKey(id), null);
        st.token = null;
        st.error = t("this browser's seat token is not valid at this table: you are watching");
        st.keepError = true;
        reconnectLater(0);
        return;
      }
      if (event.code === 1008) {
        st.error = event.reason || t("the server refused the connection");
        draw();
        return;
      }
      reconnectLater();
    });
  }

  function reconnectLater(delay) {
    if (stale()) return;
    const wait = delay !== undefined ? delay : Math.min(10000, 500 * 2 ** st.retries) * (0.75 + Math.random() / 2);
    st.retries += 1;
    st.notice = delay === 0 ? "" : t("Connection lost: reconnecting in {seconds} s…", { seconds: Math.max(1, Math.round(wait / 1000)) });
    draw();
    st.retryTimer = setTimeout(connect, wait);
  }

  async function hostRequest(path, body, button) {
    if (button) button.disabled = true;
    const answer = await api("POST", `/api/tables/${id}/${path}`, { host_token: st.hostToken, ...body });
    if (stale()) return;
    if (button) button.disabled = false;
    st.error = answer.ok ? "" : answer.error;
    draw(); // the new state arrives over the socket
  }

  function seatsPanel() {
    const table = st.table;
    const bots = ((catalogCache || []).find((g) => g.id === table.game) || {}).bots || [];
    const waiting = deciders();
    const together = simultaneous();
    const items = table.seats.map((seat) => {
      const mine = seat.seat === st.seat;
      const turn = waiting.includes(seat.seat);
      const left = turn ? secondsLeft(seat.seat) : null;
      const parts = [
        turn ? h("span", { class: "turn-mark", "aria-hidden": "true", text: together ? TABLE_TEXT.decidingMark : "▶ " }) : null,
        h("span", { class: seat.free ? "muted" : null, text: seatLabel(seat, table.status === "open") }),
        mine ? h("strong", { text: t(" (you)") }) : null,
        turn ? h("span", { class: "muted", text: together ? TABLE_TEXT.toDecide : TABLE_TEXT.toPlay }) : null,
        left !== null ? h("span", { class: "time-left", dataset: { timer: String(seat.seat) }, text: TABLE_TEXT.secondsLeft(left) }) : null,
      ];
      const idle = table.status === "playing" && seat.kind === "human" && st.view && !st.view.terminal;
      const free = table.status === "open" && seat.free;
      if (st.hostToken && bots.length && (idle || free)) {
        // The host gives a seat to a bot: a free one before the game, an idle player's (asked first) during it.
        const choice = h(
          "select",
          {
            "aria-label": idle ? TABLE_TEXT.giveIdle(seat.seat + 1) : t("Bot for seat {number}", { number: seat.seat + 1 }),
            dataset: { key: `bot-kind-${seat.seat}` },
          },
          bots.map((b) => h("option", { value: b, text: botInfo(b).title, title: botInfo(b).description })),
        );
        const confirmed = () => !idle || window.confirm(TABLE_TEXT.confirmGive(seat.name || t("seat {n}", { n: seat.seat + 1 })));
        parts.push(
          " ",
          choice,
          h("button", {
            type: "button",
            text: idle ? TABLE_TEXT.givenToBot : t("Give to a bot"),
            dataset: { key: `bot-${seat.seat}`, seat: String(seat.seat) },
            onclick: (event) => {
              if (confirmed()) hostRequest(`seats/${seat.seat}/bot`, { bot: choice.value }, event.currentTarget);
            },
          }),
        );
      }
      return h("li", { class: turn ? "turn" : null, dataset: { seat: String(seat.seat), free: seat.free ? "1" : "0" } }, parts);
    });
    return h(
      "section",
      { class: "panel", "aria-labelledby": "seats-h" },
      h("h2", { id: "seats-h", text: t("Seats") }),
      h("ul", { class: "plain seats", id: "seats" }, items),
    );
  }

  function hostPanel() {
    const table = st.table;
    if (!st.hostToken || table.status === "closed" || table.status === "finished") return null;
    const free = table.seats.some((s) => s.free);
    return h(
      "section",
      { class: "panel", id: "host", "aria-labelledby": "host-h" },
      h("h2", { id: "host-h", text: t("You host this table") }),
      table.status === "open"
        ? h("button", {
            type: "button",
            class: "primary",
            id: "start-table",
            text: t("Start the game"),
            disabled: free,
            "aria-describedby": "start-help",
            onclick: (event) => hostRequest("start", {}, event.currentTarget),
          })
        : null,
      table.status === "open"
        ? h("p", { class: "help", id: "start-help", text: free ? t("Every seat must be taken (or given to a bot) first.") : t("Every seat is taken.") })
        : null,
      h("button", {
        type: "button",
        id: "close-table",
        text: t("Close the table"),
        onclick: (event) => {
          if (window.confirm(t("Close this table for everybody?"))) hostRequest("close", {}, event.currentTarget);
        },
      }),
    );
  }

  function invitePanel() {
    const table = st.table;
    const link = joinLink(table.join_code);
    const field = h("input", { type: "text", id: "join-link", readonly: true, value: link, "aria-label": t("Join link") });
    const copied = h("span", { class: "muted", role: "status", id: "copied" });
    const copy = h("button", {
      type: "button",
      id: "copy-link",
      text: t("Copy the link"),
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
          copied.textContent = t("Copied.");
        } catch (err) {
          field.select();
          copied.textContent = t("Selected: copy it with Ctrl+C.");
        }
      },
    });
    return h(
      "section",
      { class: "panel", id: "invite", "aria-labelledby": "invite-h" },
      h("h2", { id: "invite-h", text: t("Invite friends") }),
      h("p", {}, t("Join code: "), h("strong", { class: "code", id: "join-code", text: table.join_code })),
      h("div", { class: "row" }, field, copy, copied),
    );
  }

  function turnLine() {
    const v = st.view;
    if (!v || v.terminal) return null;
    if (simultaneous()) {
      const others = deciders().filter((seat) => seat !== st.seat).map(nameOf).join(", ");
      const mineText = myTurn()
        ? TABLE_TEXT.yourDecision(nameOf(st.seat), others)
        : st.seat !== null
          ? TABLE_TEXT.youAnswered(others)
          : TABLE_TEXT.stillDeciding(others);
      return h("p", { class: `turn-line ${myTurn() ? "mine" : ""}`, id: "turn", dataset: { deciders: deciders().join(",") } }, [
        myTurn() ? null : h("span", { "aria-hidden": "true", text: TABLE_TEXT.decidingMark }),
        mineText,
      ]);
    }
    const sheet = v.sheets[v.turn];
    const who = sheet ? nameSpan(sheet.name) : t("seat {number}", { number: v.turn + 1 });
    const words = myTurn() ? t("Your turn, {who} (seat {number})") : t("Turn: {who} (seat {number})");
    return h("p", { class: `turn-line ${myTurn() ? "mine" : ""}`, id: "turn" }, fill(words, { who, number: v.turn + 1 }));
  }

  function draw() {
    if (stale()) return;
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    const nameField = root.querySelector("#sit-name");
    const typed = nameField ? nameField.value : null; // null: not drawn yet, the form's own name stands
    const typing = nameField !== null && document.activeElement === nameField;
    clear(root);
    const table = st.table;
    const v = st.view;
    Object.assign(root.dataset, {
      live: st.live ? "1" : "0",
      busy: st.busy ? "1" : "0",
      status: table ? table.status : "",
      seat: st.seat === null ? "" : String(st.seat),
      turn: v && !v.terminal ? String(v.turn) : "",
      deciders: deciders().join(","),
      next: v ? (v.terminal ? "over" : myTurn() ? v.next : "wait") : "",
      steps: String(st.steps),
    });
    const closed = Boolean(table && table.status === "closed"); // nothing more will come: not "live"
    const finished = Boolean(table && table.status === "finished");
    const ended = closed
      ? table.game_id === null
        ? t("closed before the game started")
        : t("closed: the game stays as it ended")
      : finished
        ? t("finished: the game is over")
        : null;
    const connection = h("p", {
      class: st.live && !ended ? "live" : "reason",
      id: "connection",
      role: "status",
      text: ended || (st.live ? t("● live") : st.notice || t("connecting…")),
    });
    if (!table) {
      root.append(h("h1", { text: t("Table {id}", { id }) }), connection, h("p", { class: "error", role: "alert", id: "table-error", text: st.error }));
      return;
    }
    const title = `${gameName(table.game)} · ${t("table {code}", { code: table.join_code })}`;
    document.title = `${title} · pinsetter`;
    // Only an open table invites its host to a seat; once it plays, is over or closed, a host only hosts.
    const seated = st.seat !== null && table.seats[st.seat] && table.seats[st.seat].name;
    const who =
      st.seat !== null
        ? seated
          ? fill(t("You play seat {number} as {name}."), { number: st.seat + 1, name: nameSpan(table.seats[st.seat].name) })
          : t("You play seat {number}.", { number: st.seat + 1 })
        : st.hostToken
          ? table.status === "open"
            ? t("You host this table (take a free seat to play).")
            : closed || finished
              ? t("You hosted this table.")
              : t("You host this table.")
          : closed || finished
            ? null
            : t("You are watching.");
    const head = [
      h("h1", {}, gameName(table.game), h("span", { class: "muted", text: ` · ${t("table {code}", { code: table.join_code })}` })),
      connection,
      who ? h("p", { id: "whoami" }, who) : null,
      h("p", { id: "table-options", class: "muted", text: table.title || gameName(table.game) }),
      ratedNote(table),
    ];
    const error = h("p", { class: "error", role: "alert", id: "table-error", text: st.error });

    if (!v) {
      // Every seat taken: only the host's Start is awaited, and the line says so (the host is told it is theirs).
      const full = table.seats.every((seat) => !seat.free);
      const status =
        table.status !== "open"
          ? closedWords(table)
          : !full
            ? t("Waiting for players: the host starts the game when every seat is taken.")
            : st.hostToken
              ? t("All seats taken: start the game when you are ready.")
              : t("All seats taken: waiting for the host to start.");
      append(root, [
        head,
        h("p", { class: "status", id: "status", role: "status", "aria-live": "polite", text: status }),
        error,
        h(
          "div",
          { class: "lobby-grid" },
          h(
            "div",
            {},
            table.status === "open" ? invitePanel() : null,
            table.status === "open" && st.seat === null
              ? sitForm(table, (answer) => {
                  st.token = answer.token;
                  if (st.socket) st.socket.close(4000, "sat down");
                  st.socket = null;
                  connect();
                })
              : null,
          ),
          h("div", {}, seatsPanel(), hostPanel()),
        ),
      ]);
    } else {
      const rollButton = canRoll()
        ? h("button", {
            type: "button",
            class: "primary",
            id: "roll",
            text: `${v.view.roll_label} (R)`,
            disabled: st.busy || !st.live,
            dataset: { key: "roll" },
            onclick: () => send({ action: "roll" }),
          })
        : null;
      append(root, [
        head,
        turnLine(),
        // At the end the panel below is headed "Game over": the status line says it to screen readers only.
        h("p", { class: v.terminal ? "status visually-hidden" : "status", id: "status", role: "status", "aria-live": "polite", text: v.view.status }),
        table.status === "closed" ? h("p", { class: "reason", id: "closed", text: t("The host closed this table.") }) : null,
        rollButton ? h("div", { class: "toolbar" }, rollButton) : null,
        error,
        withRatingChanges(drawEnding(v), ratingChanges(table, v)),
        h(
          "div",
          { class: "game-grid" },
          drawBoards(v, ctx, { viewer: st.seat }),
          h(
            "div",
            {},
            h("section", { class: "panel", "aria-labelledby": "sheets-h" }, h("h2", { id: "sheets-h", text: t("Scoresheets") }), drawSheets(v)),
            h("section", { class: "panel", "aria-labelledby": "log-h" }, h("h2", { id: "log-h", text: t("Log") }), drawLog(v)),
            seatsPanel(),
            hostPanel(),
            h(
              "p",
              {},
              v.terminal
                ? [
                    h("a", { href: `/api/games/${table.game_id}/record`, download: `pinsetter-${table.game_id}.json`, text: t("Download the record") }),
                    " · ",
                    h("a", { href: `#/history/${table.game_id}`, text: t("Replay this game") }),
                    v.reviewable ? [" · ", h("a", { href: `#/review/${table.game_id}`, text: t("Review this game") })] : null,
                  ]
                : null,
            ),
          ),
        ),
      ]);
      const log = root.querySelector("#log");
      if (log) log.scrollTop = log.scrollHeight;
    }
    const field = root.querySelector("#sit-name");
    if (field && typed !== null) {
      field.value = typed; // a name being typed survives a redraw
      field.dispatchEvent(new Event("input")); // and so does its count
      if (typing) field.focus();
    }
    let target = focused ? root.querySelector(`[data-key="${CSS.escape(focused)}"]`) : null;
    if (target && target.disabled) target = null;
    if (!target && focused && myTurn() && !st.busy) {
      target = root.querySelector("#roll") || root.querySelector("#play-selection:not(:disabled)") || root.querySelector("#choices button");
    }
    if (target) target.focus({ preventScroll: true });
    if (!drawnOnce) {
      drawnOnce = true;
      focusMain(title);
    }
  }

  page.keys = (event) => {
    if (!st.view || !myTurn()) return;
    const key = event.key;
    if ((key === "r" || key === "R") && canRoll()) send({ action: "roll" });
    else if (key === "p" || key === "P") {
      const play = document.getElementById("play-selection");
      if (play && !play.disabled) ctx.playSelection();
    } else if (key === "Escape") ctx.clearSelection();
    else if (/^[0-9]$/.test(key) && myDecision()) {
      const number = key === "0" ? 10 : Number(key);
      const pin = st.view.view.pins.find((p) => p.number === number);
      if (pin && pin.selectable && !st.busy) {
        ctx.togglePin(number);
        const button = root.querySelector(`[data-pin="${number}"]`);
        if (button) button.focus();
      }
    } else return;
    event.preventDefault();
  };

  // The turn timer's countdown ticks here; the server decides when time is up.
  const ticking = setInterval(() => {
    if (stale()) return;
    for (const span of root.querySelectorAll("[data-timer]")) {
      const left = secondsLeft(Number(span.dataset.timer));
      if (left !== null) span.textContent = TABLE_TEXT.secondsLeft(left);
    }
  }, 1000);

  page.leave = () => {
    st.left = true;
    clearInterval(ticking);
    clearTimeout(st.retryTimer);
    if (st.socket) st.socket.close(1000, "page left");
    st.socket = null;
  };

  await getCatalog();
  if (stale()) return;
  draw();
  connect();
}
