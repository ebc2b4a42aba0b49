// pinsetter's pages: one ES module, no build step, no dependencies.
//
// The browser decides nothing about the rules: it draws the server's GameView
// (its renderer-neutral TableView, scoresheets, log) and sends actions in text
// form or picks of pins; the engine judges them. It never asks which game it
// is drawing. Text from users (names, records, messages) is inserted with
// textContent / createTextNode only: `h()` below has no way to insert HTML.

const app = document.getElementById("app");
const SVG = "http://www.w3.org/2000/svg";
const PACE_KEY = "pinsetter.pace";
const THEME_KEY = "pinsetter.theme";
const LANG_KEY = "pinsetter.lang";

// --- texts in the reader's language (docs/i18n.md) -------------------------------------------------
// The server's gettext catalog as JSON (GET /api/i18n/{lang}): English texts are the keys, so a
// text the catalog lacks shows in English. Placeholders are named: t("pin {n}", { n: 3 }).
let language = "en";
let languages = ["en"];
let messages = {};

function t(text, values) {
  const found = Object.prototype.hasOwnProperty.call(messages, text) ? messages[text] : text;
  return values ? found.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole)) : found;
}

// Plural texts: the catalog holds one form per language with a single plural form (Japanese).
function tn(one, many, n, values) {
  const all = { n, ...(values || {}) };
  if (Object.prototype.hasOwnProperty.call(messages, one)) return t(one, all);
  return t(n === 1 ? one : many, all);
}

function rememberedLanguage() {
  try {
    return localStorage.getItem(LANG_KEY);
  } catch (err) {
    return null;
  }
}

// The remembered choice, else the server's pick from the browser's Accept-Language.
async function setupLanguage() {
  let answer = null;
  try {
    const response = await fetch(`/api/i18n/${encodeURIComponent(rememberedLanguage() || "auto")}`);
    answer = response.ok ? await response.json() : null;
  } catch (err) {
    answer = null;
  }
  if (answer) {
    language = answer.language;
    languages = answer.languages;
    messages = answer.messages || {};
  }
  document.documentElement.lang = language;
  document.cookie = `pinsetter_lang=${language}; path=/; max-age=31536000; samesite=lax`;
  const names = { en: "English", ja: "日本語" };
  const select = document.getElementById("lang-switch");
  if (select) {
    clear(select);
    for (const code of languages) select.append(h("option", { value: code, text: names[code] || code, lang: code }));
    select.value = language;
    select.setAttribute("aria-label", t("Language"));
    select.addEventListener("change", () => {
      try {
        localStorage.setItem(LANG_KEY, select.value);
      } catch (err) {
        /* not remembered: the cookie still is */
      }
      document.cookie = `pinsetter_lang=${select.value}; path=/; max-age=31536000; samesite=lax`;
      location.reload();
    });
  }
  // The page's fixed texts (index.html is English).
  const fixed = {
    "skip-link": t("Skip to content"),
    "nav-play": t("Play"),
    "nav-history": t("History"),
    "nav-stats": t("Stats"),
    "nav-rules": t("Rules"),
    "api-docs": t("API documentation"),
  };
  for (const [id, text] of Object.entries(fixed)) {
    const el = document.getElementById(id);
    if (el) el.textContent = text;
  }
  const nav = document.querySelector(".top nav");
  if (nav) nav.setAttribute("aria-label", t("Pages"));
}

// --- tiny DOM helpers (text only, never HTML) -------------------------------------------------
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") el.textContent = String(value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "value" && "value" in el) el.value = String(value);
    else if (key === "checked") el.checked = Boolean(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
}

// --- the API -------------------------------------------------------------------------------------
async function api(method, path, body, raw = false) {
  const init = { method, headers: { "accept-language": language } };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = raw ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    return { ok: false, status: 0, error: t("the server cannot be reached") };
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    const error = data && typeof data.error === "string" ? data.error : t("request failed ({status})", { status: response.status });
    return { ok: false, status: response.status, error, data };
  }
  return { ok: true, status: response.status, data };
}

let catalogCache = null;
async function getCatalog() {
  if (!catalogCache) {
    const answer = await api("GET", "/api/catalog");
    if (!answer.ok) return [];
    catalogCache = answer.data;
  }
  return catalogCache;
}

// --- routing -------------------------------------------------------------------------------------
let generation = 0; // bumps on every page change: stale timers and answers are ignored
let pageKeys = null; // the keyboard handler of the page shown
let pageLeave = null; // what the page shown does when it is left (a table page closes its socket)

function route() {
  generation += 1;
  pageKeys = null;
  if (pageLeave) {
    const leave = pageLeave;
    pageLeave = null;
    leave();
  }
  const hash = location.hash || "#/";
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  for (const link of document.querySelectorAll(".top nav a")) {
    const target = link.getAttribute("href").replace(/^#\/?/, "").split("/")[0];
    if (target === (parts[0] || "")) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  clear(app);
  const [page, arg] = parts;
  if (!page) return lobbyPage();
  if (page === "game" && /^\d+$/.test(arg || "")) return gamePage(Number(arg));
  if (page === "history" && !arg) return historyPage();
  if (page === "history" && /^\d+$/.test(arg)) return replayPage(Number(arg));
  if (page === "table" && /^\d+$/.test(arg || "")) return tablePage(Number(arg));
  if (page === "join" && arg) return joinPage(arg);
  if (page === "stats") return statsPage();
  if (page === "rules") return rulesPage(arg);
  app.append(h("h1", { text: t("Not found") }), h("p", {}, h("a", { href: "#/", text: t("Back to the lobby") })));
  return undefined;
}

function focusMain(heading) {
  document.title = `${heading} · pinsetter`;
  const h1 = app.querySelector("h1");
  if (h1) {
    h1.setAttribute("tabindex", "-1");
    h1.focus({ preventScroll: true });
  }
}

// --- theme ---------------------------------------------------------------------------------------
function currentTheme() {
  // index.html always sets it: the remembered choice, else the system's.
  return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
}

function setupTheme() {
  const button = document.getElementById("theme-toggle");
  const label = () => {
    const other = currentTheme() === "dark" ? "light" : "dark";
    button.textContent = other === "dark" ? t("☾ Dark theme") : t("☀ Light theme");
    button.setAttribute("aria-label", other === "dark" ? t("Switch to the dark theme") : t("Switch to the light theme"));
  };
  button.addEventListener("click", () => {
    const next = currentTheme() === "dark" ? "light" : "dark";
    document.documentElement.dataset.theme = next;
    try {
      localStorage.setItem(THEME_KEY, next);
    } catch (err) {
      /* not remembered */
    }
    label();
  });
  // The system's theme may change while nothing is remembered (index.html applies it first).
  if (window.matchMedia) window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", label);
  label();
}

// --- lobby ---------------------------------------------------------------------------------------
const lobby = { game: null, players: null, values: {}, seed: "" };

async function lobbyPage() {
  const gen = generation;
  const games = await getCatalog();
  if (gen !== generation) return;
  if (!lobby.game || !games.some((g) => g.id === lobby.game)) lobby.game = (games[0] || {}).id;
  if (!lobby.players) lobby.players = [{ name: t("Player {number}", { number: 1 }), kind: "human" }];

  const error = h("p", { class: "error", role: "alert", id: "lobby-error" });
  const optionsBox = h("div", { id: "options" });
  const playersBox = h("div", { id: "players" });
  const gameInfo = h("p", { class: "help", id: "game-info" });
  const spec = () => games.find((g) => g.id === lobby.game);

  // An option is shown only where it means something: the advanced game's options while Advanced
  // is on (`shown_when`, from the server), shared dice with several players.
  function applies(game, option) {
    const values = lobby.values[game.id] || {};
    const value = (name) => {
      const spec = game.options.find((o) => o.name === name);
      return name in values ? values[name] : spec ? spec.default : undefined;
    };
    if (option.multiplayer && lobby.players.length < 2) return false;
    return Object.entries(option.shown_when || {}).every(([name, wanted]) => value(name) === wanted);
  }

  function drawOptions() {
    clear(optionsBox);
    const game = spec();
    if (!game) return;
    clear(gameInfo);
    gameInfo.append(t("{summary} {players}. ", { summary: game.summary, players: game.players_text }), h("a", { href: `#/rules/${game.id}`, text: t("Rules") }));
    const values = (lobby.values[game.id] ||= {});
    const shown = game.options.filter((option) => applies(game, option));
    for (const option of shown) {
      const id = `opt-${option.name}`;
      const helpId = `${id}-help`;
      const current = option.name in values ? values[option.name] : option.default;
      let input;
      let extra = null;
      if (option.type === "bool") {
        input = h("input", { type: "checkbox", id, checked: Boolean(current), "aria-describedby": helpId });
        input.addEventListener("change", () => {
          values[option.name] = input.checked;
          drawOptions(); // a switch may show or hide the options that need it
          const again = document.getElementById(id);
          if (again) again.focus();
        });
      } else if (option.choices.length) {
        input = h(
          "select",
          { id, "aria-describedby": helpId },
          option.choices.map((c, i) => h("option", { value: c, text: (option.choice_labels || [])[i] || c })),
        );
        input.value = String(current);
        input.addEventListener("change", () => (values[option.name] = input.value));
      } else if (option.presets && option.presets.length) {
        [input, extra] = dataChoice(game, option, values, id, helpId);
      } else {
        input = h("input", {
          type: option.type === "int" ? "number" : "text",
          id,
          value: current,
          "aria-describedby": helpId,
          inputmode: option.type === "int" ? "numeric" : null,
        });
        if (option.type === "int") input.style.width = "6rem";
        input.addEventListener("input", () => (values[option.name] = input.value));
      }
      optionsBox.append(
        h(
          "div",
          { class: "option", dataset: { option: option.name } },
          h("label", { for: id, text: option.label || option.name }),
          input,
          h("p", { class: "help", id: helpId, text: option.help }),
          extra,
        ),
      );
    }
    if (!shown.length) optionsBox.append(h("p", { class: "muted", text: t("This game has no options.") }));
  }

  // An option given as data (a dice set) is chosen by name: the standard one, or one loaded from a
  // file, which the server checks and describes. Loaded sets are remembered in this browser.
  function dataChoice(game, option, values, id, helpId) {
    const key = `pinsetter.loaded.${game.id}.${option.name}`;
    const loaded = (() => {
      try {
        const list = JSON.parse(stored(key) || "[]");
        return Array.isArray(list) ? list.filter((e) => e && typeof e.value === "string" && typeof e.label === "string") : [];
      } catch (err) {
        return [];
      }
    })();
    const all = [...option.presets, ...loaded];
    const current = option.name in values ? values[option.name] : "default";
    const select = h(
      "select",
      { id, "aria-describedby": `${helpId} ${id}-words` },
      all.map((entry, i) => h("option", { value: String(i), text: entry.label })),
    );
    const chosen = Math.max(0, all.findIndex((entry) => entry.value === current));
    select.value = String(chosen);
    const words = h("p", { class: "help faces", id: `${id}-words`, text: all[chosen].words || "" });
    select.addEventListener("change", () => {
      const entry = all[Number(select.value)];
      values[option.name] = entry.value;
      words.textContent = entry.words || "";
    });
    const fileId = `${id}-file`;
    const file = h("input", { type: "file", id: fileId, accept: ".json,.toml,application/json,text/plain" });
    const error = h("p", { class: "error", role: "alert", id: `${id}-error` });
    file.addEventListener("change", async () => {
      error.textContent = "";
      if (!file.files || !file.files[0]) return;
      const chosenFile = file.files[0];
      const text = await chosenFile.text();
      const answer = await api(
        "POST",
        `/api/catalog/${encodeURIComponent(game.id)}/options/${encodeURIComponent(option.name)}/file?file_name=${encodeURIComponent(chosenFile.name)}`,
        text,
        true,
      );
      if (!answer.ok) {
        error.textContent = answer.error;
        return;
      }
      const kept = loaded.filter((e) => e.label !== answer.data.label);
      kept.push(answer.data);
      store(key, JSON.stringify(kept.slice(-10)));
      values[option.name] = answer.data.value;
      drawOptions();
    });
    const load = h(
      "details",
      { class: "load-file" },
      h("summary", { text: t("Load one of your own (a JSON or TOML file)") }),
      h("div", { class: "stack" }, h("label", { for: fileId, class: "visually-hidden", text: option.label }), file),
      error,
    );
    return [select, [words, load]];
  }

  // A new seat's name: "Player 3", or a bot's as players are named ("Greedy bot 2"), apart from the others.
  function defaultName(kind, index) {
    if (kind === "human") return t("Player {number}", { number: index + 1 });
    const taken = lobby.players.filter((_, i) => i !== index).map((p) => p.name);
    return botSeatName(kind, taken);
  }

  function drawPlayers() {
    clear(playersBox);
    const game = spec();
    const bots = game ? game.bots : [];
    lobby.players.forEach((player, index) => {
      if (player.kind !== "human" && !bots.includes(player.kind.replace(/^bot:/, ""))) {
        player.kind = bots.length ? `bot:${bots[0]}` : "human";
        if (!player.named) player.name = defaultName(player.kind, index);
      }
      const name = h("input", {
        type: "text",
        value: player.name,
        maxlength: 40,
        "aria-label": t("Player {number} name", { number: index + 1 }),
        dataset: { key: `player-name-${index}` },
      });
      name.addEventListener("input", () => {
        player.name = name.value;
        player.named = true; // typed by the player: a change of kind keeps it
      });
      const botHelp = `player-bot-${index}`;
      const kind = h(
        "select",
        {
          "aria-label": t("Player {number} kind", { number: index + 1 }),
          "aria-describedby": player.kind === "human" ? null : botHelp,
          dataset: { key: `player-kind-${index}` },
        },
        h("option", { value: "human", text: t("Human") }),
        bots.map((b) => h("option", { value: `bot:${b}`, text: botInfo(b).title })),
      );
      kind.value = player.kind;
      kind.addEventListener("change", () => {
        player.kind = kind.value;
        if (!player.named) player.name = defaultName(player.kind, index);
        drawPlayers();
        const again = playersBox.querySelector(`[data-key="player-kind-${index}"]`);
        if (again) again.focus();
      });
      const move = (delta) => () => {
        const other = index + delta;
        if (other < 0 || other >= lobby.players.length) return;
        [lobby.players[index], lobby.players[other]] = [lobby.players[other], lobby.players[index]];
        drawPlayers();
        const again = playersBox.querySelector(`[data-key="${delta < 0 ? "up" : "down"}-${other}"]`);
        (again || playersBox.querySelector(`[data-key="player-name-${other}"]`)).focus();
      };
      playersBox.append(
        h(
          "div",
          { class: "player-row" },
          h("span", { class: "muted", text: `${index + 1}.` }),
          name,
          kind,
          h("button", {
            type: "button",
            text: "↑",
            "aria-label": t("Move player {number} up", { number: index + 1 }),
            disabled: index === 0,
            onclick: move(-1),
            dataset: { key: `up-${index}` },
          }),
          h("button", {
            type: "button",
            text: "↓",
            "aria-label": t("Move player {number} down", { number: index + 1 }),
            disabled: index === lobby.players.length - 1,
            onclick: move(1),
            dataset: { key: `down-${index}` },
          }),
          h("button", {
            type: "button",
            text: "✕",
            "aria-label": t("Remove player {number}", { number: index + 1 }),
            disabled: lobby.players.length === 1,
            onclick: () => {
              lobby.players.splice(index, 1);
              drawPlayers();
              playersBox.querySelector("input").focus();
            },
          }),
        ),
      );
      if (player.kind !== "human") playersBox.append(h("p", { class: "help bot-help", id: botHelp, text: botInfo(player.kind).description }));
    });
    drawOptions(); // shared dice means something only with several players
    const add = (kind) => () => {
      lobby.players.push({ name: defaultName(kind, lobby.players.length), kind });
      drawPlayers();
      const inputs = playersBox.querySelectorAll("input[type=text]");
      inputs[inputs.length - 1].focus();
    };
    // The game's seats are all taken: adding is off and says so (not refused only at Start).
    const full = game ? lobby.players.length >= game.players[1] : false;
    const why = full ? game.players_text : null;
    playersBox.append(
      h(
        "div",
        { class: "row" },
        h("button", { type: "button", text: t("Add a human"), onclick: add("human"), id: "add-human", disabled: full, title: why }),
        bots.length
          ? h("button", {
              type: "button",
              text: t("Add a bot"),
              onclick: add(`bot:${bots[0]}`),
              id: "add-bot",
              disabled: full,
              title: why,
            })
          : null,
        full ? h("span", { class: "help", id: "seats-full", text: why }) : null,
      ),
    );
  }

  const gameList = h(
    "div",
    { class: "games", role: "radiogroup", "aria-label": t("Game") },
    games.map((game) =>
      h(
        "label",
        { class: "game-pick" },
        h("input", {
          type: "radio",
          name: "game",
          value: game.id,
          checked: game.id === lobby.game,
          onchange: () => {
            lobby.game = game.id;
            drawOptions();
            drawPlayers();
          },
        }),
        h("span", {}, h("strong", { text: game.name }), h("br"), h("span", { class: "help", text: game.players_text })),
      ),
    ),
  );

  const seed = h("input", { type: "text", id: "seed", inputmode: "numeric", value: lobby.seed, "aria-describedby": "seed-help" });
  const turnSeconds = h("input", { type: "number", id: "turn-seconds", min: 1, max: 3600, step: 1, "aria-describedby": "turn-seconds-help" });
  seed.addEventListener("input", () => (lobby.seed = seed.value));
  const start = h("button", { type: "submit", class: "primary", text: t("Start the game"), id: "start" });
  const host = h("button", { type: "button", text: t("Host a table for friends"), id: "host-table", "aria-describedby": "host-help" });

  const form = h(
    "form",
    { class: "panel", "aria-labelledby": "new-game" },
    h("h2", { id: "new-game", text: t("New game") }),
    h("fieldset", {}, h("legend", { text: t("Game") }), gameList, gameInfo),
    h("fieldset", {}, h("legend", { text: t("Options") }), optionsBox),
    h("fieldset", {}, h("legend", { text: t("Players (in playing order)") }), playersBox),
    h(
      "div",
      { class: "option" },
      h("label", { for: "seed", text: t("Seed") }),
      seed,
      h("p", { class: "help", id: "seed-help", text: t("optional: the same seed and the same decisions replay the same game") }),
    ),
    // The turn timer is a table's option only: folded away unless a table is to be hosted.
    h(
      "details",
      { class: "table-options", id: "table-options" },
      h("summary", { text: t("Options for a table") }),
      h(
        "div",
        { class: "option" },
        h("label", { for: "turn-seconds", text: TABLE_TEXT.timerLabel }),
        turnSeconds,
        h("p", { class: "help", id: "turn-seconds-help", text: TABLE_TEXT.timerHelp }),
      ),
    ),
    error,
    h("div", { class: "row" }, start, host),
    h("p", {
      class: "help",
      id: "host-help",
      text: t("Host a table: the humans' seats stay open for friends, who take them by name from a join link; bots play on the server."),
    }),
  );

  function chosenOptions() {
    const game = spec();
    const options = {};
    for (const option of game.options) {
      const values = lobby.values[game.id] || {};
      if (!(option.name in values) || !applies(game, option)) continue; // a hidden option is not sent
      let value = values[option.name];
      if (option.type === "int" && /^-?\d+$/.test(String(value).trim())) value = Number(value);
      if (value === option.default) continue;
      options[option.name] = value;
    }
    const body = { game: game.id, options };
    const seedText = lobby.seed.trim();
    if (seedText) body.seed = /^\d+$/.test(seedText) ? Number(seedText) : seedText;
    return body;
  }

  host.addEventListener("click", async () => {
    const body = chosenOptions();
    body.seats = lobby.players.map((p) => ({ kind: p.kind }));
    const seconds = turnSeconds.value.trim();
    if (seconds) body.turn_seconds = /^\d+$/.test(seconds) ? Number(seconds) : seconds;
    host.disabled = true;
    const answer = await api("POST", "/api/tables", body);
    host.disabled = false;
    if (!answer.ok) {
      error.textContent = answer.error;
      return;
    }
    store(hostKey(answer.data.id), answer.data.host_token);
    location.hash = `#/table/${answer.data.id}`;
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = chosenOptions();
    body.players = lobby.players.map((p) => ({ name: p.name, kind: p.kind }));
    start.disabled = true;
    const answer = await api("POST", "/api/games", body);
    start.disabled = false;
    if (!answer.ok) {
      error.textContent = answer.error;
      return;
    }
    location.hash = `#/game/${answer.data.id}`;
  });

  // Resume and upload.
  const resumeList = h("ul", { class: "plain", id: "resume-list" }, h("li", { class: "muted", text: t("Loading…") }));
  const uploadError = h("p", { class: "error", role: "alert", id: "upload-error" });
  const file = h("input", { type: "file", id: "record-file", accept: ".json,application/json,text/plain" });
  const upload = h("button", { type: "button", text: t("Upload and verify"), id: "upload" });
  upload.addEventListener("click", async () => {
    uploadError.textContent = "";
    if (!file.files || !file.files[0]) {
      uploadError.textContent = t("choose a record file first");
      return;
    }
    const text = await file.files[0].text();
    const answer = await api("POST", "/api/records", text, true);
    if (!answer.ok) {
      uploadError.textContent = answer.error;
      return;
    }
    location.hash = `#/history/${answer.data.id}`;
  });

  app.append(
    h("h1", { text: t("Play") }),
    h(
      "div",
      { class: "lobby-grid" },
      form,
      h(
        "div",
        {},
        h(
          "section",
          { class: "panel", "aria-labelledby": "resume-h" },
          h("h2", { id: "resume-h", text: t("Resume an unfinished game") }),
          resumeList,
        ),
        h(
          "section",
          { class: "panel", "aria-labelledby": "upload-h" },
          h("h2", { id: "upload-h", text: t("Upload a record") }),
          h("p", { class: "help", text: t("A game record (JSON) is replayed and verified, then kept in the history.") }),
          h("div", { class: "stack" }, h("label", { for: "record-file", text: t("Record file") }), file, upload),
          uploadError,
        ),
      ),
    ),
  );
  drawOptions();
  drawPlayers();
  focusMain(t("Play"));

  const history = await api("GET", "/api/history?limit=200");
  if (gen !== generation) return;
  clear(resumeList);
  // Only games to resume here: not those of an online table (played there, or abandoned when it closed).
  const open = history.ok ? history.data.filter((g) => g.status === "unfinished") : [];
  if (!open.length) resumeList.append(h("li", { class: "muted", text: t("No unfinished games.") }));
  for (const entry of open.slice(0, 20)) {
    resumeList.append(
      h(
        "li",
        {},
        h("a", { href: `#/game/${entry.id}`, text: t("Game {id}: {game}", { id: entry.id, game: entry.title || gameName(entry.game, games) }) }),
        h("br"),
        h("span", { class: "help", text: `${playerNames(entry.players)} · ${when(entry.date)}` }),
      ),
    );
  }
}

function gameName(id, games) {
  const found = (games || catalogCache || []).find((g) => g.id === id);
  return found ? found.name : id;
}

// A bot as players read it (GET /api/catalog's bot_info): "Optimal bot", and what it does.
function botInfo(kind) {
  const name = String(kind).replace(/^bot:/, "");
  for (const game of catalogCache || []) {
    const found = (game.bot_info || []).find((b) => b.name === name);
    if (found) return found;
  }
  return { name, title: name, description: "" };
}

// The server's rule for a new bot seat's name (bots.base.bot_seat_name): "Greedy bot", then "Greedy bot 2".
function botSeatName(kind, taken) {
  const title = botInfo(kind).title;
  let name = title;
  for (let number = 2; taken.includes(name); number += 1) name = t("{bot} {number}", { bot: title, number });
  return name;
}

// A player's name, with the bot it is where the name does not say so: "Ann", "Greedy bot 2", "Max (Optimal bot)".
function playerLabel(name, kind) {
  if (kind === "human") return name;
  const title = botInfo(kind).title;
  return name.startsWith(title) ? name : t("{name} ({bot})", { name, bot: title });
}

function playerNames(players) {
  return players.map((p) => playerLabel(p.name, p.kind)).join(t(", "));
}

function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleString(language);
}

// --- drawing a table -----------------------------------------------------------------------------
// `numbered`: every pin also shows its number (#7) where a table's labels are not the pins' numbers
// (cards on pins): a card whose value is its position shows it too, as hints name positions.
function pinSvg(pin, picked, numbered) {
  const svg = s("svg", { viewBox: "0 0 52 52", "aria-hidden": "true", focusable: "false" });
  svg.append(s("circle", { class: "body", cx: 26, cy: 26, r: 22 }));
  if (pin.grey) svg.append(s("path", { class: "grey-mark", d: "M26 5 l5 5 l-5 5 l-5 -5 z" }));
  svg.append(s("text", { class: "label", x: 26, y: 32, "text-anchor": "middle", text: pin.label || "" }));
  if (numbered) {
    svg.append(s("text", { class: "number", x: 26, y: 45, "text-anchor": "middle", text: `#${pin.number}` }));
  }
  if (pin.down) {
    svg.append(s("line", { class: "cross", x1: 11, y1: 11, x2: 41, y2: 41 }));
    svg.append(s("line", { class: "cross", x1: 41, y1: 11, x2: 11, y2: 41 }));
  }
  if (picked) {
    svg.append(s("circle", { class: "tick", cx: 44, cy: 8, r: 8 }));
    svg.append(s("path", { d: "M40 8 l3 3 l5 -6", stroke: "#fff", "stroke-width": 2.5, fill: "none" }));
  }
  return svg;
}

function pinWords(pin, picked) {
  const parts = [t("pin {number}", { number: pin.number })];
  if (pin.value !== null && pin.value !== undefined) parts.push(t("value {value}", { value: pin.value }));
  else if (pin.label) parts.push(t("card {card}", { card: pin.label }));
  parts.push(pin.down ? t("down") : t("standing"));
  if (pin.grey) parts.push(t("grey"));
  if (picked) parts.push(t("picked"));
  return parts.join(t(", "));
}

function drawPins(view, ctx) {
  const byNumber = new Map(view.pins.map((p) => [p.number, p]));
  const numbered = view.pins.some((p) => p.label !== String(p.number));
  const box = h("div", { class: "triangle", role: "group", "aria-label": t("Pins, back row first") });
  for (const row of view.rows) {
    const line = h("div", { class: "pin-row" });
    for (const number of row) {
      const pin = byNumber.get(number);
      if (!pin) continue;
      const picked = ctx.picked.has(number);
      const classes = ["pin", pin.grey ? "grey" : "", pin.down ? "down" : "", picked ? "picked" : ""].join(" ");
      if (ctx.readonly) {
        line.append(h("span", { class: classes, role: "img", "aria-label": pinWords(pin, false) }, pinSvg(pin, false, numbered)));
        continue;
      }
      line.append(
        h(
          "button",
          {
            type: "button",
            class: classes,
            "aria-label": pinWords(pin, picked),
            "aria-pressed": pin.selectable ? String(picked) : null,
            disabled: !pin.selectable || ctx.busy,
            title: pinWords(pin, picked),
            dataset: { key: `pin-${number}`, pin: String(number) },
            onclick: () => ctx.togglePin(number),
          },
          pinSvg(pin, picked, numbered),
        ),
      );
    }
    box.append(line);
  }
  const legend = h("p", { class: "pin-legend" }, t("✕ down · ◆ grey pin · ✓ picked"));
  return [box, legend];
}

function standingIcon() {
  const svg = s("svg", { viewBox: "0 0 20 30", "aria-hidden": "true" });
  svg.append(
    s("path", {
      d: "M10 1 c3 0 4 3 3 6 c-1 2 -1 3 1 6 c3 5 2 13 -1 16 h-6 c-3 -3 -4 -11 -1 -16 c2 -3 2 -4 1 -6 c-1 -3 0 -6 3 -6 z",
      fill: "var(--pin)",
      stroke: "var(--pin-line)",
      "stroke-width": 1.5,
    }),
  );
  return svg;
}

const PIPS = {
  1: [[20, 20]],
  2: [[11, 11], [29, 29]],
  3: [[11, 11], [20, 20], [29, 29]],
  4: [[11, 11], [29, 11], [11, 29], [29, 29]],
  5: [[11, 11], [29, 11], [20, 20], [11, 29], [29, 29]],
  6: [[11, 10], [29, 10], [11, 20], [29, 20], [11, 30], [29, 30]],
};

function dieSvg(die) {
  const svg = s("svg", { viewBox: "0 0 40 40", "aria-hidden": "true" });
  svg.append(s("rect", { class: "face", x: 2, y: 2, width: 36, height: 36, rx: 6 }));
  if (die.kind === "pips" && PIPS[die.face]) {
    for (const [x, y] of PIPS[die.face]) svg.append(s("circle", { class: "pip", cx: x, cy: y, r: 3.6 }));
  } else if (die.face === "-") {
    svg.append(s("line", { class: "mark-line", x1: 12, y1: 20, x2: 28, y2: 20 }));
  } else if (die.face === "P") {
    svg.append(
      s("path", {
        class: "mark",
        d: "M20 7 c2.5 0 3 2.5 2.2 4.6 c-.8 1.6 -.6 2.4 .8 4.6 c2.4 4 1.6 10 -.8 12.8 h-4.4 c-2.4 -2.8 -3.2 -8.8 -.8 -12.8 c1.4 -2.2 1.6 -3 .8 -4.6 c-.8 -2.1 -.3 -4.6 2.2 -4.6 z",
      }),
    );
  } else {
    svg.append(s("text", { class: "mark-text", x: 20, y: 28, "text-anchor": "middle", text: die.face }));
  }
  return svg;
}

function drawDice(view) {
  // The roll in words ("rolled 2 and 6: off the alley"); the caption is the short form for a terminal.
  const caption = view.chance_words || view.dice_caption;
  if (!view.dice.length && !caption) return null;
  return h(
    "div",
    { class: "dice-box" },
    h(
      "div",
      { class: "dice", role: "group", "aria-label": t("Dice") },
      view.dice.map((die, i) =>
        h("span", { class: "die", role: "img", "aria-label": t("die {number}: {face}", { number: i + 1, face: die.label }), title: die.label }, dieSvg(die)),
      ),
    ),
    caption ? h("p", { class: "muted", id: "dice-caption", text: caption }) : null,
  );
}

function cardSvg(top) {
  const svg = s("svg", { viewBox: "0 0 46 64", "aria-hidden": "true" });
  svg.append(s("rect", { class: top ? "card" : "card-back", x: 2, y: 2, width: 42, height: 60, rx: 5 }));
  svg.append(s("text", { class: "card-text", x: 23, y: 40, "text-anchor": "middle", text: top || "–" }));
  return svg;
}

function drawPiles(view, ctx) {
  if (!view.piles.length) return null;
  return h(
    "div",
    { class: "piles", role: "group", "aria-label": t("Ball piles") },
    view.piles.map((pile) => {
      const picked = ctx.pile === pile.number;
      const words = [
        t("pile {number}", { number: pile.number }),
        pile.top ? t("top card {card}", { card: pile.top }) : t("no face-up card"),
        tn("{n} card", "{n} cards", pile.cards),
        picked ? t("picked") : null,
      ]
        .filter(Boolean)
        .join(t(", "));
      const inner = [cardSvg(pile.top), h("span", { text: t("Pile {number} · {count} left", { number: pile.number, count: pile.cards }) })];
      if (ctx.readonly) return h("span", { class: "pile", role: "img", "aria-label": words }, inner);
      return h(
        "button",
        {
          type: "button",
          class: "pile",
          "aria-label": words,
          "aria-pressed": pile.selectable ? String(picked) : null,
          disabled: !pile.selectable || ctx.busy,
          dataset: { key: `pile-${pile.number}`, pile: String(pile.number) },
          onclick: () => ctx.togglePile(pile.number),
        },
        inner,
      );
    }),
  );
}

function drawCards(view) {
  const parts = [];
  if (view.seen.length) parts.push(h("p", { id: "seen" }, h("strong", { text: t("Seen this frame: ") }), view.seen.join(", ")));
  const unseen = Object.entries(view.unseen || {});
  if (unseen.length) {
    const total = unseen.reduce((sum, [, n]) => sum + n, 0);
    parts.push(
      h(
        "div",
        { class: "scroll", id: "unseen" },
        h(
          "table",
          { class: "sheet" },
          h("caption", { text: tn("Not yet seen: {n} card", "Not yet seen: {n} cards", total) }),
          h("tr", {}, h("th", { scope: "row", text: t("card") }), unseen.map(([v]) => h("th", { scope: "col", text: v }))),
          h("tr", {}, h("th", { scope: "row", text: t("left") }), unseen.map(([, n]) => h("td", { text: n }))),
        ),
      ),
    );
  }
  return parts;
}

function drawTokens(view) {
  if (view.tokens === null || view.tokens === undefined) return null;
  const shown = Math.min(view.tokens, 20);
  return h(
    "div",
    { class: "tokens", id: "tokens" },
    h("strong", { text: t("Tokens: {count}", { count: view.tokens }) }),
    h("span", { "aria-hidden": "true", class: "tokens" }, Array.from({ length: shown }, () => h("span", { class: "token" }))),
  );
}

function drawTrack(view) {
  const parts = [];
  if (view.track.length) {
    parts.push(
      h("h3", { text: t("Ability track") }),
      h(
        "div",
        { class: "track", id: "track" },
        view.track.map((area, index) =>
          h(
            "div",
            { class: `area ${area.open ? "" : "closed"}` },
            h("strong", { text: `${index + 1}. ${area.title}` }),
            h("span", { class: "help", text: ` ${area.row === "upper" ? t("upper") : t("lower")}${area.open ? "" : t(", closed")}` }),
            h(
              "div",
              { class: "boxes", role: "img", "aria-label": t("{marked} of {boxes} boxes marked", { marked: area.marked, boxes: area.boxes }) },
              Array.from({ length: area.boxes }, (_, i) =>
                h("span", { class: `box ${i < area.marked ? "marked" : ""}`, text: i < area.marked ? "✓" : "" }),
              ),
            ),
            area.help ? h("details", {}, h("summary", { text: t("What it does") }), h("p", { class: "help", text: area.help })) : null,
          ),
        ),
      ),
    );
  }
  if (view.abilities.length) {
    parts.push(
      h("h3", { text: t("Abilities held") }),
      h(
        "ul",
        { class: "plain", id: "abilities" },
        view.abilities.map((a) =>
          h(
            "li",
            {},
            h("details", {}, h("summary", { text: `${a.title} × ${a.held}` }), h("p", { class: "help", text: a.help })),
          ),
        ),
      ),
    );
  }
  return parts;
}

function drawSheets(game) {
  const frameCount = Math.max(Number(game.options.frames) || 10, ...game.sheets.map((sheet) => sheet.frames.length));
  return game.sheets.map((sheet, index) => {
    const current = sheet.current_frame;
    const together = Boolean(game.simultaneous && game.next === "decision" && !game.terminal);
    const isTurn = together ? (game.deciders || []).includes(index) : game.turn === index;
    const cols = Array.from({ length: frameCount }, (_, i) => i + 1);
    const frame = (n) => sheet.frames.find((f) => f.frame === n);
    const cls = (n) => (n === current && isTurn ? "current" : null);
    const who = playerLabel(sheet.name, sheet.kind);
    return h(
      "div",
      { class: "scroll", tabindex: 0, role: "region", "aria-label": t("Scoresheet of {name}", { name: sheet.name }) },
      h(
        "table",
        { class: `sheet ${isTurn ? "turn" : ""}`, dataset: { player: String(index) } },
        h(
          "caption",
          {},
          who,
          isTurn ? h("span", { class: "muted", text: together ? TABLE_TEXT.toDecide : TABLE_TEXT.toPlay }) : null,
          t(" · total {total}", { total: sheet.total }),
        ),
        h(
          "tr",
          {},
          h("th", { scope: "row", text: t("frame") }),
          cols.map((n) =>
            h("th", { scope: "col", class: cls(n), "aria-current": cls(n) ? "true" : null, text: n }),
          ),
        ),
        h(
          "tr",
          {},
          h("th", { scope: "row", text: t("balls") }),
          cols.map((n) => h("td", { class: cls(n), text: frame(n) ? frame(n).marks.join(" ") : "" })),
        ),
        h(
          "tr",
          {},
          h("th", { scope: "row", text: t("total") }),
          cols.map((n) => {
            const f = frame(n);
            return h("td", { class: `total-cell ${cls(n) || ""}`, text: f && f.total !== null ? f.total : "" });
          }),
        ),
      ),
    );
  });
}

function drawLog(game) {
  const list = h(
    "ol",
    { class: "log", id: "log", start: game.log.length ? game.log[0].step : 1, "aria-label": t("Moves") },
    game.log.map((entry) =>
      h("li", { text: entry.note ? `⏱ ${entry.note} — ${entry.words}` : entry.words }),
    ),
  );
  return list;
}

function selectionPanel(view, ctx) {
  const sel = view.selection;
  if (!sel || ctx.readonly) return null;
  const byNumber = new Map(view.pins.map((p) => [p.number, p]));
  const picked = [...ctx.picked].sort((a, b) => a - b);
  const raw = picked.reduce((sum, n) => sum + (Number((byNumber.get(n) || {}).value) || 0), 0);
  const sum = sel.modulo ? raw % sel.modulo : raw;
  let target = sel.target;
  if (target === null && sel.needs_pile && ctx.pile !== null) {
    const pile = view.piles.find((p) => p.number === ctx.pile);
    if (pile && pile.top !== null && /^\d+$/.test(pile.top)) target = sel.modulo ? Number(pile.top) % sel.modulo : Number(pile.top);
  }
  const lines = [];
  // The target the pins must make: the dice with the tokens planned (+1 token on an 11: 12).
  const aimed = target !== null && target !== undefined && ctx.setPlanned ? target + ctx.planned : target;
  lines.push(
    h(
      "p",
      { class: "sum", id: "selection-sum" },
      picked.length ? t("Picked pins {pins}: sum {sum}", { pins: picked.join(" + "), sum: raw }) : t("No pins picked"),
      picked.length && sel.modulo ? t(", last digit {digit}", { digit: sum }) : "",
      aimed !== null && aimed !== undefined ? t(" · target {target}", { target: aimed }) : "",
    ),
  );
  if (sel.tokens !== null && sel.tokens !== undefined) {
    const diff = picked.length && target !== null ? raw - target : 0;
    lines.push(
      h("p", {
        id: "selection-tokens",
        text: tn(
          "Tokens: {held} held · this pick moves the total by {diff} ({n} token)",
          "Tokens: {held} held · this pick moves the total by {diff} ({n} tokens)",
          Math.abs(diff),
          { held: sel.tokens, diff: `${diff > 0 ? "+" : ""}${diff}` },
        ),
      }),
    );
    if (ctx.setPlanned && target !== null && target !== undefined) {
      // Tokens as on paper: move the dice total first, then pick pins adding up to it. The plan
      // only guides the pick; the engine counts the tokens from the pick and judges it.
      const planned = ctx.planned;
      const total = target + planned;
      lines.push(
        h(
          "div",
          { class: "row", id: "token-buttons" },
          h("button", {
            type: "button",
            id: "token-minus",
            text: t("−1 token"),
            "aria-label": t("spend a token: the dice total one lower"),
            disabled: Math.abs(planned - 1) > sel.tokens || total <= 1,
            onclick: () => ctx.setPlanned(planned - 1),
          }),
          h("span", {
            id: "token-plan",
            text: tn("roll {target} {sign} {n} token = {total}", "roll {target} {sign} {n} tokens = {total}", Math.abs(planned), {
              target,
              sign: planned < 0 ? "−" : "+",
              total,
            }),
          }),
          h("button", {
            type: "button",
            id: "token-plus",
            text: t("+1 token"),
            "aria-label": t("spend a token: the dice total one higher"),
            disabled: Math.abs(planned + 1) > sel.tokens,
            onclick: () => ctx.setPlanned(planned + 1),
          }),
        ),
      );
      if (picked.length && planned !== 0 && raw !== total) {
        lines.push(h("p", { class: "help", id: "token-mismatch", text: t("The pick sums to {sum}; the dice with tokens make {total}.", { sum: raw, total }) }));
      }
    }
  }
  if (sel.needs_pile) {
    lines.push(h("p", { text: ctx.pile === null ? t("Pick a pile too.") : t("Pile {number} picked.", { number: ctx.pile }) }));
  }
  if (sel.hint) lines.push(h("p", { class: "help", text: sel.hint }));
  const ready = picked.length > 0 && (!sel.needs_pile || ctx.pile !== null) && !ctx.busy;
  lines.push(
    h(
      "div",
      { class: "row" },
      h("button", {
        type: "button",
        class: "primary",
        id: "play-selection",
        text: t("Play the picked pins (P)"),
        disabled: !ready,
        dataset: { key: "play" },
        onclick: () => ctx.playSelection(),
      }),
      h("button", {
        type: "button",
        id: "clear-selection",
        text: t("Clear (Esc)"),
        disabled: !picked.length && ctx.pile === null,
        dataset: { key: "clear" },
        onclick: () => ctx.clearSelection(),
      }),
    ),
  );
  return h("section", { class: "selection", "aria-label": t("Your pick"), id: "selection" }, lines);
}

function drawTable(game, ctx) {
  const view = game.view;
  const parts = [];
  if (view.pins.length) parts.push(...drawPins(view, ctx));
  if (view.standing !== null && view.standing !== undefined) {
    parts.push(h("p", { class: "standing", id: "standing" }, standingIcon(), tn("{n} pin standing", "{n} pins standing", view.standing)));
  }
  parts.push(drawDice(view), drawPiles(view, ctx), ...drawCards(view), drawTokens(view));
  if (view.notes.length) parts.push(h("ul", { id: "notes" }, view.notes.map((n) => h("li", { text: n }))));
  parts.push(selectionPanel(view, ctx));
  if (!ctx.readonly) {
    const buttons = view.choices.filter((c) => !c.by_selection);
    if (buttons.length) {
      parts.push(
        h(
          "div",
          { class: "choices", role: "group", "aria-label": t("Choices"), id: "choices" },
          buttons.map((c) =>
            h("button", {
              type: "button",
              text: c.label,
              disabled: ctx.busy,
              dataset: { key: `choice-${c.action}`, action: c.action },
              onclick: () => ctx.send({ action: c.action }),
            }),
          ),
        ),
      );
    }
  }
  parts.push(...drawTrack(view));
  return parts;
}

function drawEnding(game) {
  if (!game.terminal) return null;
  return h(
    "section",
    { class: "panel ending", id: "ending", "aria-labelledby": "ending-h" },
    h("h2", { id: "ending-h", text: t("Game over") }),
    h("ul", { class: "plain" }, game.ending.map((line) => h("li", { text: line }))),
  );
}

// What a board needs from its page (the game page, a table): the pins and pile picked, the
// token plan, and sending the pick. Only whether the page may act, and when it is busy, differ.
function selectionContext(st, draw, send, { readonly, busy }) {
  return {
    get readonly() {
      return readonly();
    },
    get planned() {
      return st.planned || 0;
    },
    setPlanned(n) {
      st.planned = n;
      draw();
    },
    get picked() {
      return st.picked;
    },
    get pile() {
      return st.pile;
    },
    get busy() {
      return busy();
    },
    togglePin(n) {
      if (st.picked.has(n)) st.picked.delete(n);
      else st.picked.add(n);
      draw();
    },
    togglePile(n) {
      st.pile = st.pile === n ? null : n;
      draw();
    },
    clearSelection() {
      st.picked.clear();
      st.pile = null;
      draw();
    },
    playSelection() {
      if (!st.picked.size) return;
      const body = { pins: [...st.picked].sort((a, b) => a - b) };
      if (st.pile !== null) body.pile = st.pile;
      send(body);
    },
    send: (body) => send(body),
  };
}

// --- the game page ---------------------------------------------------------------------------------
function pace() {
  const stored = Number(localStorage.getItem(PACE_KEY));
  return Number.isFinite(stored) && localStorage.getItem(PACE_KEY) !== null ? stored : 600;
}

async function gamePage(id) {
  const gen = generation;
  const st = { id, game: null, picked: new Set(), pile: null, error: "", hint: null, busy: false, timer: null };
  const root = h("div", { id: "game", dataset: { gameId: String(id), busy: "1", next: "" } });
  app.append(root);

  const ctx = selectionContext(st, () => draw(), (body) => send(body), {
    readonly: () => false,
    busy: () => st.busy,
  });

  function stale() {
    return gen !== generation;
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

    const rollButton =
      game.next === "roll" && game.view.roll_label
        ? h("button", {
            type: "button",
            class: "primary",
            id: "roll",
            text: `${game.view.roll_label} (R)`,
            disabled: st.busy,
            dataset: { key: "roll" },
            onclick: roll,
          })
        : null;
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
      undoReason && game.has_decisions ? h("p", { class: "reason", id: "undo-reason", text: t("Undo: {reason}", { reason: undoReason }) }) : null,
      h("p", { class: "error", role: "alert", id: "game-error", text: st.error }),
      drawEnding(game),
      h(
        "div",
        { class: "game-grid" },
        h("section", { class: "panel", "aria-label": t("Table"), id: "table" }, drawTable(game, ctx)),
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

  pageKeys = (event) => {
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

// --- online tables (docs/tables.md) ------------------------------------------------------------------
// The table pages' newer words, in one place (for translation).
// Looked up when shown (getters), so that the catalog loaded after this module applies.
const TABLE_TEXT = {
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
  secondsLeft: (n) => t(" ({n} s left)", { n }),
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
function hostKey(id) {
  return `pinsetter.table.${id}.host`;
}

function seatKey(id) {
  return `pinsetter.table.${id}.seat`;
}

function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch (err) {
    /* storage blocked: the token lives as long as the page */
  }
}

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch (err) {
    return null;
  }
}

function joinLink(code) {
  return `${location.origin}${location.pathname}#/join/${encodeURIComponent(code)}`;
}

function seatLabel(seat) {
  if (seat.free) return t("Seat {number}: free", { number: seat.seat + 1 });
  if (seat.kind === "human") return t("Seat {number}: {name}", { number: seat.seat + 1, name: seat.name });
  return t("Seat {number}: {name}", { number: seat.seat + 1, name: playerLabel(seat.name, seat.kind) });
}

// A form to take one of the free seats by name; `sat(answer)` gets the server's answer.
function sitForm(table, sat) {
  const error = h("p", { class: "error", role: "alert", id: "sit-error" });
  const name = h("input", { type: "text", id: "sit-name", maxlength: 40, autocomplete: "nickname", required: true });
  const free = table.seats.filter((s) => s.free);
  const buttons = free.map((seat) =>
    h("button", {
      type: "button",
      class: "primary",
      text: t("Sit at seat {number}", { number: seat.seat + 1 }),
      dataset: { key: `sit-${seat.seat}`, seat: String(seat.seat) },
      onclick: async (event) => {
        const button = event.currentTarget;
        if (!name.value.trim()) {
          error.textContent = t("type your name first");
          name.focus();
          return;
        }
        button.disabled = true;
        const answer = await api("POST", `/api/tables/${table.id}/seats/${seat.seat}`, { name: name.value.trim() });
        button.disabled = false;
        if (!answer.ok) {
          error.textContent = answer.error;
          return;
        }
        store(seatKey(table.id), JSON.stringify({ seat: answer.data.seat, token: answer.data.token }));
        sat(answer.data);
      },
    }),
  );
  if (!free.length) return null;
  return h(
    "section",
    { class: "panel", id: "sit", "aria-labelledby": "sit-h" },
    h("h2", { id: "sit-h", text: t("Take a seat") }),
    h("div", { class: "option" }, h("label", { for: "sit-name", text: t("Your name") }), name),
    h("div", { class: "row" }, buttons),
    error,
  );
}

async function joinPage(code) {
  const gen = generation;
  const root = h("div", { id: "join" });
  app.append(root);
  const [games, answer] = await Promise.all([getCatalog(), api("GET", `/api/tables/code/${encodeURIComponent(code)}`)]);
  if (gen !== generation) return;
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
    h("ul", { class: "plain seats", id: "join-seats" }, table.seats.map((seat) => h("li", { text: seatLabel(seat) }))),
  );
  if (table.status === "open") {
    root.append(sitForm(table, () => (location.hash = `#/table/${table.id}`)) || h("p", { text: t("Every seat is taken.") }));
  } else {
    const said = { playing: t("The game has started."), finished: t("The game is over.") };
    root.append(h("p", { text: said[table.status] || t("This table is closed.") }));
  }
  root.append(h("p", {}, h("a", { href: `#/table/${table.id}`, id: "watch", class: "button", text: t("Just watch") })));
  focusMain(t("Join table {code}", { code: table.join_code }));
}

async function tablePage(id) {
  const gen = generation;
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
  const stale = () => gen !== generation || st.left;

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
        h("span", { class: seat.free ? "muted" : null, text: seatLabel(seat) }),
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
    const who = sheet ? sheet.name : t("seat {number}", { number: v.turn + 1 });
    const values = { who, number: v.turn + 1 };
    const text = myTurn() ? t("Your turn, {who} (seat {number})", values) : t("Turn: {who} (seat {number})", values);
    return h("p", { class: `turn-line ${myTurn() ? "mine" : ""}`, id: "turn", text });
  }

  function draw() {
    if (stale()) return;
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    const nameField = root.querySelector("#sit-name");
    const typed = nameField ? nameField.value : "";
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
    const ended = closed ? t("closed: the game stays as it ended") : finished ? t("finished: the game is over") : null;
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
    const who =
      st.seat !== null
        ? table.seats[st.seat] && table.seats[st.seat].name
          ? t("You play seat {number} as {name}.", { number: st.seat + 1, name: table.seats[st.seat].name })
          : t("You play seat {number}.", { number: st.seat + 1 })
        : st.hostToken
          ? t("You host this table (take a free seat to play).")
          : t("You are watching.");
    const head = [
      h("h1", {}, gameName(table.game), h("span", { class: "muted", text: ` · ${t("table {code}", { code: table.join_code })}` })),
      connection,
      h("p", { id: "whoami", text: who }),
      h("p", { id: "table-options", class: "muted", text: table.title || gameName(table.game) }),
    ];
    const error = h("p", { class: "error", role: "alert", id: "table-error", text: st.error });

    if (!v) {
      const status =
        table.status === "open" ? t("Waiting for players: the host starts the game when every seat is taken.") : t("The host closed this table.");
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
        h("p", { class: "status", id: "status", role: "status", "aria-live": "polite", text: v.view.status }),
        table.status === "closed" ? h("p", { class: "reason", id: "closed", text: t("The host closed this table.") }) : null,
        rollButton ? h("div", { class: "toolbar" }, rollButton) : null,
        error,
        drawEnding(v),
        h(
          "div",
          { class: "game-grid" },
          h("section", { class: "panel", "aria-label": t("Table"), id: "table" }, drawTable(v, ctx)),
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
                    h("a", { href: `#/history/${table.game_id}`, text: t("Step through") }),
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
    if (field) {
      field.value = typed; // a name being typed survives a redraw
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

  pageKeys = (event) => {
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

  pageLeave = () => {
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

// --- history ---------------------------------------------------------------------------------------
const historyFilter = { game: "", player: "" };

async function historyPage() {
  await filteredPage({
    title: t("History"),
    prefix: "history",
    filter: historyFilter,
    ariaLabel: t("Filter the history"),
    playerFirst: false,
    endpoint: "/api/history",
    render(results, answer, games) {
      if (!answer.data.length) {
        results.append(h("p", { class: "muted", text: t("No games found.") }));
        return;
      }
      results.append(
        h(
          "div",
          { class: "scroll panel" },
          h(
            "table",
            { class: "list" },
            h(
              "thead",
              {},
              h("tr", {}, [t("Game"), t("Date"), t("Players"), t("Scores"), t("Result"), ""].map((label) => h("th", { scope: "col", text: label }))),
            ),
            h(
              "tbody",
              {},
              answer.data.map((entry) =>
                h(
                  "tr",
                  { dataset: { gameId: String(entry.id) } },
                  h("td", {}, h("a", { href: `#/history/${entry.id}`, text: `${entry.id}. ${entry.title || gameName(entry.game, games)}` })),
                  h("td", { text: when(entry.date) }),
                  h("td", { text: playerNames(entry.players) }),
                  h("td", { text: entry.scores.join(" · ") }),
                  h("td", { text: resultText(entry) }),
                  h(
                    "td",
                    {},
                    entry.status === "unfinished" ? [h("a", { href: `#/game/${entry.id}`, text: t("Resume") }), " · "] : null,
                    entry.status === "table" ? [h("a", { href: `#/table/${entry.table}`, text: t("Watch") }), " · "] : null,
                    h("a", { href: `/api/games/${entry.id}/record`, download: `pinsetter-${entry.id}.json`, text: t("Record") }),
                  ),
                ),
              ),
            ),
          ),
        ),
      );
    },
  });
}

function resultText(entry) {
  if (entry.status === "finished") return entry.winner ? t("won by {name}", { name: entry.winner }) : t("finished");
  if (entry.status === "abandoned") return t("abandoned: its table was closed");
  if (entry.status === "table") return t("being played at a table");
  return t("unfinished");
}

async function replayPage(id) {
  const gen = generation;
  const root = h("div", { id: "replay", dataset: { gameId: String(id) } });
  app.append(root);
  const record = await api("GET", `/api/games/${id}/record`);
  await getCatalog();
  if (gen !== generation) return;
  if (!record.ok) {
    root.append(h("h1", { text: t("Game {id}", { id }) }), h("p", { class: "error", role: "alert", text: record.error }));
    return;
  }
  const steps = record.data.steps || [];
  const total = steps.length;
  let at = total;
  const slider = h("input", { type: "range", id: "step", min: 0, max: total, value: at, "aria-label": t("Step") });
  const caption = h("p", { id: "step-caption", "aria-live": "polite" });
  const variantLine = h("p", { id: "variant", class: "muted" });
  const body = h("div", {});
  const error = h("p", { class: "error", role: "alert" });
  const button = (text, label, to) =>
    h("button", { type: "button", text, "aria-label": label, onclick: () => go(to()) });

  async function go(n) {
    at = Math.max(0, Math.min(total, n));
    slider.value = String(at);
    const answer = await api("GET", `/api/games/${id}/steps/${at}`);
    if (gen !== generation || Number(slider.value) !== at) return;
    if (!answer.ok) {
      error.textContent = answer.error;
      return;
    }
    error.textContent = "";
    const game = answer.data;
    // The step in words, as the log tells it (the record's notation is for replaying).
    const last = game.log.length ? game.log[game.log.length - 1] : null;
    const describe = at === 0 || !last ? t("the start") : last.words;
    variantLine.textContent = game.variant;
    caption.textContent = t("Step {at} of {total} — {what}", { at, total, what: describe });
    const ctx = { readonly: true, picked: new Set(), pile: null, busy: false };
    clear(body);
    append(body, [
      h("p", { class: "status", text: game.view.status }),
      drawEnding(game),
      h(
        "div",
        { class: "game-grid" },
        h("section", { class: "panel", "aria-label": t("Table") }, drawTable(game, ctx)),
        h(
          "div",
          {},
          h("section", { class: "panel", "aria-labelledby": "sheets-h" }, h("h2", { id: "sheets-h", text: t("Scoresheets") }), drawSheets(game)),
          h("section", { class: "panel", "aria-labelledby": "log-h" }, h("h2", { id: "log-h", text: t("Log") }), drawLog(game)),
        ),
      ),
    ]);
    root.dataset.step = String(at);
  }

  slider.addEventListener("input", () => go(Number(slider.value)));
  const players = record.data.players || [];
  root.append(
    h("h1", {}, `${gameName(record.data.game)} `, h("span", { class: "muted", text: `· ${t("game {id}", { id })}` })),
    variantLine,
    h("p", { class: "muted", text: `${playerNames(players)} · ${t("seed {seed}", { seed: record.data.seed })} · ${tn("{n} step", "{n} steps", total)}` }),
    h(
      "div",
      { class: "panel stepper", role: "group", "aria-label": t("Step through the game (← and → keys)") },
      button(t("« First"), t("First step"), () => 0),
      button("◀", t("Previous step"), () => at - 1),
      slider,
      button("▶", t("Next step"), () => at + 1),
      button(t("Last »"), t("Last step"), () => total),
    ),
    caption,
    error,
    h(
      "p",
      {},
      h("a", { href: `/api/games/${id}/record`, download: `pinsetter-${id}.json`, text: t("Download the record") }),
      " · ",
      h("a", { href: `#/game/${id}`, text: record.data.result ? t("Open the game page") : t("Resume this game") }),
    ),
    body,
  );
  pageKeys = (event) => {
    if (event.target === slider) return;
    if (event.key === "ArrowLeft") go(at - 1);
    else if (event.key === "ArrowRight") go(at + 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(total);
    else return;
    event.preventDefault();
  };
  focusMain(t("Game {id}", { id }));
  go(at);
}

// --- stats -------------------------------------------------------------------------------------------
const statsFilter = { game: "", player: "", bots: false };

async function statsPage() {
  await filteredPage({
    title: t("Statistics"),
    prefix: "stats",
    filter: statsFilter,
    ariaLabel: t("Choose the statistics"),
    playerFirst: true,
    endpoint: "/api/stats",
    toggle: { key: "bots", label: t("Count the bots' scores") },
    render(results, answer) {
      const st = answer.data;
      if (!st.games) {
        results.append(h("p", { class: "muted", text: t("No finished games yet.") }));
        return;
      }
      // Scores of different games or rules (frames, advanced, dice set...) are never averaged together.
      st.series.forEach((block, index) => append(results, statsBlock(block, index)));
    },
  });
}

/** A page with a game/player filter form whose results come from `endpoint` (history, statistics). */
async function filteredPage({ title, prefix, filter, ariaLabel, playerFirst, endpoint, render, toggle }) {
  const gen = generation;
  const games = await getCatalog();
  if (gen !== generation) return;
  const results = h("div", { id: `${prefix}-results` });
  const gameSelect = h(
    "select",
    { id: `${prefix}-game` },
    h("option", { value: "", text: t("all games") }),
    games.map((g) => h("option", { value: g.id, text: g.name })),
  );
  gameSelect.value = filter.game;
  const player = h("input", { type: "text", id: `${prefix}-player`, value: filter.player });
  const gameField = [h("label", { for: `${prefix}-game`, text: t("Game") }), gameSelect];
  const playerField = [h("label", { for: `${prefix}-player`, text: t("Player") }), player];
  // An optional switch sent as `key=true` (the statistics' bots).
  const box = toggle ? h("input", { type: "checkbox", id: `${prefix}-${toggle.key}`, checked: filter[toggle.key] }) : null;
  const form = h(
    "form",
    { class: "panel row", role: "search", "aria-label": ariaLabel },
    playerFirst ? [...playerField, ...gameField] : [...gameField, ...playerField],
    toggle ? h("label", {}, box, ` ${toggle.label}`) : null,
    h("button", { type: "submit", text: t("Show") }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    filter.game = gameSelect.value;
    filter.player = player.value.trim();
    if (toggle) filter[toggle.key] = box.checked;
    load();
  });
  app.append(h("h1", { text: title }), form, results);
  focusMain(title);

  async function load() {
    const query = new URLSearchParams();
    if (filter.game) query.set("game", filter.game);
    if (filter.player) query.set("player", filter.player);
    if (toggle && filter[toggle.key]) query.set(toggle.key, "true");
    const answer = await api("GET", `${endpoint}?${query}`);
    if (gen !== generation) return;
    clear(results);
    if (!answer.ok) {
      results.append(h("p", { class: "error", role: "alert", text: answer.error }));
      return;
    }
    render(results, answer, games);
  }
  load();
}

function statsBlock(st, index) {
  const fmt = (x, digits = 1) => (typeof x === "number" ? x.toFixed(digits) : "—");
  const pct = (x) => (typeof x === "number" ? `${(100 * x).toFixed(1)}%` : "—");
  const items = [
    [t("Games"), st.games],
    [t("Scores counted"), st.results],
    [t("Average"), fmt(st.average)],
    [t("95% CI"), Array.isArray(st.ci95) ? `${fmt(st.ci95[0])} – ${fmt(st.ci95[1])}` : "—"],
    [t("Best"), st.best ?? "—"],
    [t("Worst"), st.worst ?? "—"],
    [t("Strike rate"), pct(st.strike_rate)],
    [t("Spare rate"), pct(st.spare_rate)],
    [t("Perfect games"), st.perfect_games ?? 0],
    [t("Trend per game"), fmt(st.trend_per_game, 2)],
  ];
  const chartId = `chart-h-${index}`;
  return [
    h(
      "section",
      { class: "panel" },
      h("h2", { text: st.title }),
      h("dl", { class: "stats-grid" }, items.map(([k, v]) => h("div", {}, h("dt", { text: k }), h("dd", { text: v })))),
      st.benchmark && st.benchmark.text ? h("p", { text: t("Against the odds: {text}", { text: st.benchmark.text }) }) : null,
    ),
    h(
      "section",
      { class: "panel", "aria-labelledby": chartId },
      h("h2", { id: chartId, text: t("Scores over time: {game}", { game: st.title }) }),
      chart(st.scores || [], index === 0 ? "chart" : `chart-${index}`),
      h("details", {}, h("summary", { text: t("The scores as text") }), h("p", { text: (st.scores || []).join(", ") })),
    ),
  ];
}

function chart(scores, id) {
  const W = 600;
  const H = 220;
  const pad = { l: 40, r: 12, t: 12, b: 28 };
  const top = Math.max(20, Math.ceil(Math.max(...scores, 0) / 20) * 20);
  const x = (i) => pad.l + (scores.length <= 1 ? (W - pad.l - pad.r) / 2 : (i * (W - pad.l - pad.r)) / (scores.length - 1));
  const y = (v) => H - pad.b - (v / top) * (H - pad.t - pad.b);
  const summary = scores.length
    ? t("Line chart of {count} scores, oldest first, from {first} to {last}, highest {best}", {
        count: scores.length,
        first: scores[0],
        last: scores[scores.length - 1],
        best: Math.max(...scores),
      })
    : t("No scores");
  const svg = s("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": summary, id });
  for (let k = 0; k <= 4; k += 1) {
    const v = (top * k) / 4;
    svg.append(s("line", { class: "grid", x1: pad.l, x2: W - pad.r, y1: y(v), y2: y(v) }));
    svg.append(s("text", { x: pad.l - 6, y: y(v) + 4, "text-anchor": "end", text: Math.round(v) }));
  }
  svg.append(s("line", { class: "axis", x1: pad.l, x2: W - pad.r, y1: H - pad.b, y2: H - pad.b }));
  svg.append(s("text", { x: (W + pad.l) / 2, y: H - 6, "text-anchor": "middle", text: t("games, oldest → newest") }));
  if (scores.length) {
    svg.append(s("polyline", { class: "series", points: scores.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
    scores.forEach((v, i) => svg.append(s("circle", { class: "point", cx: x(i), cy: y(v), r: 3.5 }, s("title", { text: t("game {number}: {score}", { number: i + 1, score: v }) }))));
  }
  return svg;
}

// --- rules ---------------------------------------------------------------------------------------------
async function rulesPage(gameId) {
  const gen = generation;
  const games = await getCatalog();
  if (gen !== generation) return;
  const nav = h(
    "nav",
    { "aria-label": t("Games"), class: "row" },
    games.map((g) => h("a", { href: `#/rules/${g.id}`, "aria-current": g.id === gameId ? "page" : null, text: g.name })),
  );
  if (!gameId) {
    app.append(h("h1", { text: t("Rules") }), h("div", { class: "panel" }, nav));
    focusMain(t("Rules"));
    return;
  }
  const answer = await api("GET", `/api/rules/${encodeURIComponent(gameId)}`);
  if (gen !== generation) return;
  if (!answer.ok) {
    app.append(h("h1", { text: t("Rules") }), nav, h("p", { class: "error", role: "alert", text: answer.error }));
    focusMain(t("Rules"));
    return;
  }
  app.append(
    h("h1", { text: t("Rules: {game}", { game: answer.data.name }) }),
    h("div", { class: "panel" }, nav),
    h("article", { class: "panel rules-text", id: "rules-text" }, rulesBlocks(answer.data)),
  );
  focusMain(t("Rules: {game}", { game: answer.data.name }));
}

// The server's blocks as elements, text nodes only (the rules are text, never markup); a server
// without blocks gives its plain text.
function rulesBlocks(rules) {
  if (!Array.isArray(rules.blocks)) return h("p", { class: "rules-plain", text: rules.rules });
  return rules.blocks.map((block) => {
    if (block.kind === "heading") return h("h2", { text: block.text });
    if (block.kind === "list") return h("ul", {}, block.items.map((item) => h("li", { text: item })));
    return h("p", { text: block.text });
  });
}

// --- start --------------------------------------------------------------------------------------------
document.addEventListener("keydown", (event) => {
  if (!pageKeys || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  const tag = target && target.tagName;
  if (tag === "INPUT" && target.type !== "range") return;
  if (tag === "TEXTAREA" || tag === "SELECT") return;
  if (tag === "INPUT" && event.key !== "Escape" && !/^[a-zA-Z0-9]$/.test(event.key)) return;
  pageKeys(event);
});
window.addEventListener("hashchange", route);
setupLanguage().then(() => {
  setupTheme();
  route();
});
