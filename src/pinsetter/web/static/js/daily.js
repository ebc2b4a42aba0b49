import { account, api } from "./api.js";
import { app, clear, h } from "./dom.js";
import { language, t } from "./i18n.js";
import { focusMain, page } from "./page.js";

// pinsetter's web pages: the daily challenge (docs/daily.md). One challenge a day per game, the same
// dice and cards for everybody, one attempt per signed-in player, and the day's board with the odds.

function percent(odds) {
  return new Intl.NumberFormat(language, { style: "percent", maximumSignificantDigits: 3 }).format(odds);
}

function yesterdayOf(day) {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

/** #/daily: today's challenge of every game, in words. */
export async function dailyPage() {
  const gen = page.generation;
  const title = t("Daily challenge");
  const answer = await api("GET", "/api/daily");
  if (gen !== page.generation) return;
  app.append(h("h1", { text: title }));
  if (!answer.ok) {
    app.append(h("p", { class: "error", role: "alert", text: answer.error }));
    focusMain(title);
    return;
  }
  const first = answer.data[0];
  app.append(
    h("p", {
      text: t("Each day every game has one challenge: the same dice and cards for everybody, and one attempt each. The day is {date} (UTC).", {
        date: first ? first.date : "",
      }),
    }),
  );
  const list = h("ul", { class: "daily-list", id: "daily-games" });
  for (const challenge of answer.data) {
    list.append(
      h(
        "li",
        { dataset: { game: challenge.game } },
        h("a", { href: `#/daily/${encodeURIComponent(challenge.game)}`, text: challenge.title }),
        " · ",
        h("span", { class: "muted", text: challenge.summary }),
        challenge.yours ? [" · ", h("span", { text: yoursText(challenge.yours) })] : null,
      ),
    );
  }
  app.append(list);
  focusMain(title);
}

function yoursText(yours) {
  if (yours.finished) return t("you scored {score}", { score: yours.score });
  return t("your attempt is under way");
}

/** #/daily/{game}: the challenge in words, Start (or the line telling a guest to sign in), the day's board
 * and yesterday's, whose games can be reviewed now that their day is over. */
export async function dailyGamePage(game) {
  const gen = page.generation;
  const answer = await api("GET", `/api/daily/${encodeURIComponent(game)}`);
  const who = account; // filled from GET /api/session before the first page (js/account.js)
  if (gen !== page.generation) return;
  if (!answer.ok) {
    app.append(h("h1", { text: t("Daily challenge") }), h("p", { class: "error", role: "alert", text: answer.error }));
    focusMain(t("Daily challenge"));
    return;
  }
  const challenge = answer.data;
  const title = t("Daily challenge: {game}", { game: challenge.name });
  const error = h("p", { class: "error", role: "alert", id: "daily-error" });
  app.append(
    h("h1", { text: title }),
    h("p", { id: "daily-what" }, t("{date} (UTC): {title}.", { date: challenge.date, title: challenge.title }), " ", challenge.summary),
    playPanel(challenge, who, error),
    error,
  );
  const today = h("section", { class: "panel", id: "daily-board", "aria-labelledby": "daily-board-h" });
  const yesterday = h("section", { class: "panel", id: "daily-yesterday", "aria-labelledby": "daily-yesterday-h" });
  app.append(today, yesterday);
  focusMain(title);
  await Promise.all([
    drawBoard(today, "daily-board-h", t("Today's board"), challenge, challenge.date, false),
    drawBoard(yesterday, "daily-yesterday-h", t("Yesterday's board"), challenge, yesterdayOf(challenge.date), true),
  ]);
}

function playPanel(challenge, who, error) {
  const panel = h("div", { class: "panel", id: "daily-play" });
  const yours = challenge.yours;
  if (!who.name) {
    panel.append(
      h(
        "p",
        { id: "daily-sign-in" },
        `${t("Sign in to play the daily challenge; anyone can read its board.")} `,
        h("a", { href: "#/signin", text: t("Sign in") }), // as the rated join page offers it
      ),
    );
    return panel;
  }
  if (yours && yours.finished) {
    panel.append(h("p", { id: "daily-done", text: t("You played today's challenge and scored {score}. Come back tomorrow for the next one.", { score: yours.score }) }));
    return panel;
  }
  const label = yours ? t("Go on with your attempt") : t("Start today's challenge");
  const button = h("button", { type: "button", class: "primary", id: "daily-start", text: label });
  button.addEventListener("click", async () => {
    button.disabled = true;
    const started = await api("POST", `/api/daily/${encodeURIComponent(challenge.game)}/start`);
    button.disabled = false;
    if (!started.ok) {
      error.textContent = started.error;
      return;
    }
    location.hash = `#/game/${started.data.id}`;
  });
  panel.append(h("p", { text: t("One attempt each, on the same dice and cards as everybody: no hints and no review until the day is over.") }), button);
  return panel;
}

async function drawBoard(section, headingId, heading, challenge, day, over) {
  const gen = page.generation;
  const answer = await api("GET", `/api/daily/${encodeURIComponent(challenge.game)}/leaderboard?date=${day}`);
  if (gen !== page.generation) return;
  clear(section);
  section.append(h("h2", { id: headingId, text: heading }));
  if (!answer.ok) {
    section.append(h("p", { class: "error", role: "alert", text: answer.error }));
    return;
  }
  if (!answer.data.length) {
    // Yesterday's is over: nobody will finish it any more.
    section.append(h("p", { class: "muted", text: over ? t("Nobody finished this challenge.") : t("Nobody has finished this challenge yet.") }));
    return;
  }
  const oddsLine = !challenge.has_odds
    ? t("No solver gives this game's score distribution yet: no odds beside the scores.")
    : challenge.odds_kind === "optimal"
      ? t("Better than: the share of games, before any die is rolled, in which a player who plays for the best expected score scores less.")
      : t("Better than: the exact share of games, before any die is rolled, that score less (as a game's end says it).");
  section.append(h("p", { class: "muted", text: oddsLine }));
  // Worked out on the server the first time they are asked for (a minute or so): the board comes without them.
  if (answer.data.some((row) => row.odds_pending)) {
    section.append(h("p", { class: "muted", id: `${headingId}-pending`, text: t("The odds are being worked out: reload the page in a minute or two to see them.") }));
  }
  const rows = answer.data.map((row) =>
    h(
      "tr",
      { dataset: { name: row.name }, class: row.yours ? "yours" : null },
      h("td", { text: String(row.rank) }),
      h("td", { text: row.name }),
      h("td", { text: String(row.score) }),
      // The server gives the chance of scoring at least this much; a game's end says the share of games beaten.
      challenge.has_odds ? h("td", { text: row.odds === null ? "" : percent(1 - row.odds) }) : null,
      h("td", {}, over && row.game_id ? h("a", { href: `#/review/${row.game_id}`, text: t("Review") }) : null),
    ),
  );
  const headings = [t("Rank"), t("Player"), t("Score")];
  if (challenge.has_odds) headings.push(t("Better than"));
  section.append(
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: "list" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            headings.map((label) => h("th", { scope: "col", text: label })),
            h("th", { scope: "col" }, h("span", { class: "visually-hidden", text: t("Actions") })),
          ),
        ),
        h("tbody", {}, rows),
      ),
    ),
  );
}
