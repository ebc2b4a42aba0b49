import { ratedField } from "./account.js";
import { account, api, getCatalog } from "./api.js";
import { app, clear, h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { focusMain, page } from "./page.js";
import { gamePicture } from "./pictures.js";
import { nameCount, nameTooLong, rememberName, rememberedName } from "./names.js";
import { TABLE_TEXT, hostKey, store, stored } from "./tables.js";
import { botInfo, botSeatName, frontOrder, gameName, playerNames, when } from "./words.js";

// pinsetter's web pages: the front page. The four games as pictures, each started in one click
// (Play now: you against a bot where the game has one, else alone; Learn: the game with a lesson
// at each new situation), a table hosted in one click or joined by its code; every choice of
// players, options and seed, the games to resume and a record to upload under "More options".
export const lobby = { game: null, players: null, values: {}, seed: "", more: false };

// A person's seat nobody named: "Player 1", a name, not "you" (the log tells every player's moves in the
// third person), and the same in every language, as in the terminal: a name keys the history and the
// statistics, so it must not change with the language of the day (docs/i18n.md).
export function defaultPersonName(number) {
  return `Player ${number}`;
}

export function playerName() {
  const name = account.name || rememberedName(); // signed in: the account's name
  return name || defaultPersonName(1);
}

// The seats of a one-click game: this browser's player, and a bot where the game takes two players and has one.
export function quickPlayers(game) {
  const you = playerName();
  const players = [{ name: you, kind: "human" }];
  if (game.players[1] >= 2 && game.bots.length) {
    const bot = `bot:${game.bots.find((b) => b !== "random") || game.bots[0]}`;
    players.push({ name: botSeatName(bot, [you]), kind: bot });
  }
  return players;
}

// What Play now does, in words: "You against Greedy bot", or "Alone".
function quickWords(game) {
  const players = quickPlayers(game);
  if (players.length === 1) return t("Play now: alone");
  return t("Play now: you against {bot}", { bot: botInfo(players[1].kind).title });
}

export async function lobbyPage() {
  const gen = page.generation;
  const games = await getCatalog();
  if (gen !== page.generation) return;
  if (!lobby.game || !games.some((g) => g.id === lobby.game)) lobby.game = (frontOrder(games)[0] || {}).id; // a game with decisions first
  if (!lobby.players) lobby.players = [{ name: playerName(), kind: "human" }];

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
    if (kind === "human") return defaultPersonName(index + 1);
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
      // No maxlength: a name too long is counted under the row and refused in words, never cut.
      const name = h("input", {
        type: "text",
        value: player.name,
        "aria-label": t("Player {number} name", { number: index + 1 }),
        dataset: { key: `player-name-${index}` },
      });
      const count = nameCount(name, `player-name-${index}-count`);
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
      playersBox.append(count);
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
    frontOrder(games).map((game) =>
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
  const turnSeconds = h("input", { type: "number", id: "turn-seconds", min: 1, max: 3600, step: 1, "aria-describedby": "turn-seconds-help turn-one-help" });
  seed.addEventListener("input", () => (lobby.seed = seed.value));
  const start = h("button", { type: "submit", class: "primary", text: t("Start the game"), id: "start" });
  const host = h("button", { type: "button", text: t("Host a table for friends"), id: "host-table", "aria-describedby": "host-help" });
  const tableExtras = asyncTableOptions();
  const rated = ratedField(); // signed in: "Rated game"
  // A table's options (a timer, the open tables, Rated game) mean nothing to a game played here:
  // while one is chosen, Start is off and says why, so that none is ignored in silence.
  const startWhy = h("p", {
    class: "help",
    id: "start-why",
    hidden: true,
    text: t("The options for a table apply to a hosted table only: press “Host a table for friends”, or clear them to start the game here."),
  });
  function tableOnlyChosen() {
    return Boolean(typed(turnSeconds) || tableExtras.chosen().listed || typed(tableExtras.hoursInput) || rated.rated());
  }
  function showStart() {
    const chosen = tableOnlyChosen();
    start.disabled = chosen;
    startWhy.hidden = !chosen;
    if (chosen) start.setAttribute("aria-describedby", "start-why");
    else start.removeAttribute("aria-describedby");
  }

  const form = h(
    "form",
    { class: "panel", id: "new-game-form", "aria-labelledby": "new-game" },
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
      { class: "table-options", id: "table-options", oninput: showStart, onchange: showStart },
      h("summary", { text: t("Options for a table") }),
      h(
        "div",
        { class: "option" },
        h("label", { for: "turn-seconds", text: TABLE_TEXT.timerLabel }),
        turnSeconds,
        h("p", { class: "help", id: "turn-seconds-help", text: TABLE_TEXT.timerHelp }),
      ),
      tableExtras.box,
      rated.element,
    ),
    error,
    h("div", { class: "row" }, start, host),
    startWhy,
    h("p", {
      class: "help",
      id: "host-help",
      text: t("Host a table: its page offers you a seat under the first human's name typed here; the other humans' seats stay open for friends, who take them by name from a join link; bots play on the server."),
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
    // Sent as the digits typed: a JavaScript number would round a seed over 2^53 (docs/web.md).
    if (seedText) body.seed = seedText;
    return body;
  }

  // The turn timers checked here and said in words (the API's own messages name its fields, for programs).
  function timerProblem() {
    const seconds = typed(turnSeconds);
    const hours = typed(tableExtras.hoursInput);
    const whole = (text, low, high) => /^\d+$/.test(text) && Number(text) >= low && Number(text) <= high;
    if (seconds && hours) return [turnSeconds, t("Give one turn timer only: in seconds or in hours, not both.")];
    if (seconds && !whole(seconds, 1, 3600)) return [turnSeconds, t("The turn timer in seconds must be a whole number of seconds from 1 to 3600.")];
    if (hours && !whole(hours, 1, 72)) return [tableExtras.hoursInput, t("The turn timer in hours must be a whole number of hours from 1 to 72.")];
    return null;
  }

  // A name too long is refused in words before anything is sent, its field focused: nothing typed is cut.
  function refusedName(players) {
    for (const player of players) {
      const index = lobby.players.indexOf(player);
      const problem = nameTooLong(player.name, t("Player {number}'s name", { number: index + 1 }));
      if (!problem) continue;
      error.textContent = problem;
      const field = playersBox.querySelector(`[data-key="player-name-${index}"]`);
      if (field) field.focus();
      return true;
    }
    return false;
  }

  host.addEventListener("click", async () => {
    error.textContent = "";
    const problem = timerProblem();
    if (problem) {
      error.textContent = problem[1];
      problem[0].focus();
      return;
    }
    // The first human seat is the host's: its name waits in the table page's "Your name" (docs/web.md,
    // Hosting from the form). The other humans' seats are the friends', who name themselves as they sit.
    const first = lobby.players.find((p) => p.kind === "human");
    if (first && refusedName([first])) return;
    const body = chosenOptions();
    body.seats = lobby.players.map((p) => ({ kind: p.kind }));
    const seconds = turnSeconds.value.trim();
    if (seconds) body.turn_seconds = Number(seconds);
    Object.assign(body, tableExtras.chosen());
    if (rated.rated()) body.rated = true;
    host.disabled = true;
    const answer = await api("POST", "/api/tables", body);
    host.disabled = false;
    if (!answer.ok) {
      error.textContent = answer.error;
      return;
    }
    store(hostKey(answer.data.id), answer.data.host_token);
    if (first) rememberName(first.name);
    location.hash = `#/table/${answer.data.id}`;
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    if (tableOnlyChosen()) return showStart(); // Start is off then (Enter in a field included)
    if (refusedName(lobby.players)) return;
    const body = chosenOptions();
    body.players = lobby.players.map((p) => ({ name: p.name, kind: p.kind }));
    const first = lobby.players.find((p) => p.kind === "human");
    if (first) rememberName(first.name);
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

  // --- the front: the games as pictures, one click to play, learn, host or join ------------------
  const frontError = h("p", { class: "error", role: "alert", id: "front-error" });
  async function quickStart(button, body) {
    frontError.textContent = "";
    button.disabled = true;
    const answer = await api("POST", "/api/games", body);
    if (gen !== page.generation) return;
    button.disabled = false;
    if (!answer.ok) {
      frontError.textContent = answer.error;
      return;
    }
    location.hash = `#/game/${answer.data.id}`;
  }

  const cards = h(
    "ul",
    { class: "game-cards", id: "game-cards" },
    frontOrder(games).map((game) => {
      const headingId = `card-${game.id}`;
      const play = h("button", {
        type: "button",
        class: "primary",
        id: `play-${game.id}`,
        text: t("Play now"),
        "aria-describedby": `${headingId}-who`,
        dataset: { game: game.id },
      });
      play.addEventListener("click", () => quickStart(play, { game: game.id, players: quickPlayers(game) }));
      const learn = h("button", {
        type: "button",
        id: `learn-${game.id}`,
        text: t("Learn"),
        "aria-describedby": `${headingId}-learn`,
        dataset: { game: game.id },
      });
      learn.addEventListener("click", () =>
        quickStart(learn, { game: game.id, players: [{ name: playerName(), kind: "human" }], learn: true }),
      );
      return h(
        "li",
        { class: "game-card", dataset: { game: game.id } },
        gamePicture(game.id),
        h(
          "div",
          { class: "game-card-text" },
          h("h2", { id: headingId, text: game.name }),
          h("p", { class: "game-sentence", text: game.summary }),
          h("p", { class: "help", id: `${headingId}-who`, text: `${quickWords(game)} · ${game.players_text}` }),
          h("p", { class: "visually-hidden", id: `${headingId}-learn`, text: t("a game alone with a short lesson at each new situation") }),
          h("div", { class: "row" }, play, learn, h("a", { href: `#/rules/${game.id}`, class: "rules-link", text: t("Rules") })),
        ),
      );
    }),
  );

  // Host a table in one click: the game's humans' seats (two where it takes two) open for friends.
  const hostGame = h(
    "select",
    { id: "host-game", "aria-label": t("Game for the table") },
    frontOrder(games).map((game) => h("option", { value: game.id, text: game.name })),
  );
  const hostQuick = h("button", { type: "button", id: "host-quick", text: t("Host a table"), "aria-describedby": "host-quick-help" });
  const quickListed = listedChoice("host-quick-listed");
  hostQuick.addEventListener("click", async () => {
    frontError.textContent = "";
    const game = games.find((g) => g.id === hostGame.value);
    const seats = Array.from({ length: Math.min(2, game.players[1]) }, () => ({ kind: "human" }));
    hostQuick.disabled = true;
    const answer = await api("POST", "/api/tables", { game: game.id, seats, listed: quickListed.input.checked });
    if (gen !== page.generation) return;
    hostQuick.disabled = false;
    if (!answer.ok) {
      frontError.textContent = answer.error;
      return;
    }
    store(hostKey(answer.data.id), answer.data.host_token);
    location.hash = `#/table/${answer.data.id}`;
  });
  const joinCode = h("input", {
    type: "text",
    id: "join-code-input",
    autocomplete: "off",
    autocapitalize: "characters",
    spellcheck: "false",
    maxlength: 16,
    "aria-describedby": "join-help",
  });
  const joinError = h("p", { class: "error", role: "alert", id: "join-error" });
  const joinForm = h(
    "form",
    { class: "join-form", id: "join-form" },
    h("label", { for: "join-code-input", text: t("Table code") }),
    h("div", { class: "row" }, joinCode, h("button", { type: "submit", id: "join-button", text: t("Join") })),
    h("p", { class: "help", id: "join-help", text: t("the code your host gives you, or open the link they send") }),
    joinError,
  );
  joinForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const code = joinCode.value.trim();
    if (!code) {
      joinError.textContent = t("type the table's code first");
      joinCode.focus();
      return;
    }
    location.hash = `#/join/${encodeURIComponent(code)}`;
  });

  const friends = h(
    "section",
    { class: "panel friends", "aria-labelledby": "friends-h", id: "friends" },
    h("h2", { id: "friends-h", text: t("Play with friends") }),
    h(
      "div",
      { class: "friends-grid" },
      h(
        "div",
        {},
        h("div", { class: "row" }, hostGame, hostQuick),
        quickListed.box,
        h("p", { class: "help", id: "host-quick-help", text: t("Your friends take the open seats with the table's code or link.") }),
      ),
      joinForm,
    ),
  );

  const moreSummary = h("summary", { id: "more-summary" }, h("span", { text: t("More options") }), h("span", { class: "help", id: "resume-count" }));
  const more = h(
    "details",
    { class: "more-options", id: "more-options", open: lobby.more },
    moreSummary,
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
  more.addEventListener("toggle", () => (lobby.more = more.open));

  app.append(
    h("div", { class: "front" },
      h("h1", { text: t("Four bowling games") }),
      h("p", { class: "lead", text: t("Dice, pencil and cards: play one now, learn it step by step, or host a table for friends.") }),
    ),
    frontError,
    yourTurnsSection(gen),
    cards,
    friends,
    openTablesSection(gen),
    more,
  );
  drawOptions();
  drawPlayers();
  focusMain(t("Play"));

  // Only the games this page can resume (the server checks each: not a table's, seeded, still replays).
  const history = await api("GET", "/api/history?resumable=true&limit=20");
  if (gen !== page.generation) return;
  clear(resumeList);
  const open = history.ok ? history.data : [];
  if (!open.length) resumeList.append(h("li", { class: "muted", text: t("No unfinished games.") }));
  else document.getElementById("resume-count").textContent = ` · ${t("{count} unfinished", { count: open.length })}`;
  for (const entry of open) {
    const title = t("Game {id}: {game}", { id: entry.id, game: entry.title || gameName(entry.game, games) });
    resumeList.append(
      h(
        "li",
        {},
        h("a", { href: `#/game/${entry.id}`, text: entry.learn ? t("{game} (learning)", { game: title }) : title }),
        h("br"),
        h("span", { class: "help", text: `${playerNames(entry.players)} · ${when(entry.date)}` }),
      ),
    );
  }
}

// --- open tables and your turns (docs/tables.md): two lists on the front page ---------------------------------
// Both are asked for again every few seconds while the page is shown (a poll, not a push: a front page holds
// no socket, and a list a few seconds old is fine for choosing a table); a list is redrawn only when it changed,
// so that a Join button keeps the focus between two looks.
const TABLES_POLL_MS = 5000;

function poll(gen, look) {
  const again = async () => {
    if (gen !== page.generation) return;
    if (!document.hidden) await look(); // a tab in the background asks nothing
    if (gen === page.generation) setTimeout(again, TABLES_POLL_MS);
  };
  again();
}

// "2 hours per turn", "30 seconds per turn", or nothing (no timer).
function timerWords(entry) {
  if (entry.turn_hours) return tn("{n} hour per turn", "{n} hours per turn", entry.turn_hours);
  if (entry.turn_seconds) return tn("{n} second per turn", "{n} seconds per turn", entry.turn_seconds);
  return "";
}

// The time left to play, in the largest unit that says it: "5 hours left", "12 minutes left".
function leftWords(seconds) {
  if (seconds === null || seconds === undefined) return "";
  if (seconds >= 3600) return tn("{n} hour left", "{n} hours left", Math.floor(seconds / 3600));
  if (seconds >= 60) return tn("{n} minute left", "{n} minutes left", Math.floor(seconds / 60));
  return tn("{n} second left", "{n} seconds left", Math.ceil(seconds));
}

// What a number field holds, to check before sending: its value holds "" for what is not a number,
// which `badInput` tells apart from an empty field ("?", never a whole number, so refused in words).
function typed(input) {
  return input.value.trim() || (input.validity.badInput ? "?" : "");
}

// "List the table in the open tables": a checkbox and its label.
function listedChoice(id) {
  const input = h("input", { type: "checkbox", id, "aria-describedby": `${id}-help` });
  const box = h(
    "div",
    { class: "option" },
    h("label", {}, input, " ", t("List it in the open tables")),
    h("p", { class: "help", id: `${id}-help`, text: t("anyone may then find the table on this page and take a free seat until it starts") }),
  );
  return { input, box };
}

// The host form's options for an open or asynchronous table: listed, and a turn timer in hours.
function asyncTableOptions() {
  const listed = listedChoice("host-listed");
  const hours = h("input", { type: "number", id: "turn-hours", min: 1, max: 72, step: 1, "aria-describedby": "turn-hours-help turn-one-help" });
  const box = h(
    "div",
    {},
    h(
      "div",
      { class: "option" },
      h("label", { for: "turn-hours", text: t("Turn timer for an asynchronous table (hours)") }),
      hours,
      h("p", { class: "help", id: "turn-hours-help", text: t("optional, 1 to 72: play at your own pace; the server keeps each deadline, and a bot decides for a seat whose time ran out") }),
      h("p", { class: "help", id: "turn-one-help", text: t("Give one turn timer at most: in seconds or in hours.") }),
    ),
    listed.box,
  );
  function chosen() {
    const body = { listed: listed.input.checked };
    const text = hours.value.trim();
    if (text) body.turn_hours = /^\d+$/.test(text) ? Number(text) : text;
    return body;
  }
  return { box, chosen, hoursInput: hours };
}

function openTablesSection(gen) {
  const list = h("ul", { class: "plain", id: "open-tables-list" }, h("li", { class: "muted", text: t("Loading…") }));
  const section = h(
    "section",
    { class: "panel", id: "open-tables", "aria-labelledby": "open-tables-h" },
    h("h2", { id: "open-tables-h", text: t("Open tables") }),
    h("p", { class: "help", text: t("Tables waiting for players, listed by their hosts.") }),
    list,
  );
  let shown = null;
  poll(gen, async () => {
    const answer = await api("GET", "/api/tables?open=true");
    if (gen !== page.generation || !answer.ok) return; // a failed look keeps what was shown
    const text = JSON.stringify(answer.data);
    if (text === shown) return;
    shown = text;
    clear(list);
    if (!answer.data.length) list.append(h("li", { class: "muted", text: t("No open tables right now.") }));
    for (const entry of answer.data) list.append(openTableItem(entry));
  });
  return section;
}

function openTableItem(entry) {
  const id = `open-table-${entry.id}`;
  const who = entry.host ? t("hosted by {name}", { name: entry.host }) : "";
  const details = [
    tn("{n} free seat of {seats}", "{n} free seats of {seats}", entry.free_seats, { seats: entry.seats }),
    entry.players.length ? t("seated: {names}", { names: entry.players.join(", ") }) : "",
    entry.rated ? t("rated") : "",
    timerWords(entry),
    who,
  ].filter(Boolean);
  const join = h("button", { type: "button", text: t("Join"), "aria-describedby": id, dataset: { code: entry.join_code } });
  join.addEventListener("click", () => (location.hash = `#/join/${encodeURIComponent(entry.join_code)}`));
  return h(
    "li",
    { class: "open-table", dataset: { table: String(entry.id) } },
    h("span", { id, text: entry.title }),
    " ",
    join,
    h("br"),
    h("span", { class: "help", text: details.join(" · ") }),
  );
}

// The tables where it is the signed-in player's turn; hidden for a guest (the server answers 401).
function yourTurnsSection(gen) {
  const list = h("ul", { class: "plain", id: "your-turns-list" });
  const section = h(
    "section",
    { class: "panel", id: "your-turns", "aria-labelledby": "your-turns-h", hidden: true },
    h("h2", { id: "your-turns-h", text: t("Your turn") }),
    list,
  );
  let shown = null;
  poll(gen, async () => {
    const answer = await api("GET", "/api/tables?mine=true");
    if (gen !== page.generation) return;
    if (!answer.ok) {
      section.hidden = true; // a guest, or signed out meanwhile
      shown = null;
      return;
    }
    section.hidden = false;
    const text = JSON.stringify(answer.data.map((e) => [e.id, e.seat, Math.floor((e.time_left || 0) / 60)]));
    if (text === shown) return;
    shown = text;
    clear(list);
    if (!answer.data.length) list.append(h("li", { class: "muted", text: t("No table waits for you.") }));
    for (const entry of answer.data) {
      const details = [entry.players.join(", "), leftWords(entry.time_left)].filter(Boolean);
      list.append(
        h(
          "li",
          { dataset: { table: String(entry.id) } },
          h("a", { href: `#/table/${entry.id}`, text: t("{game}, table {code}", { game: entry.title, code: entry.join_code }) }),
          h("br"),
          h("span", { class: "help", text: details.join(" · ") }),
        ),
      );
    }
  });
  return section;
}
