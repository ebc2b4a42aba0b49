import { account, api, setAccount } from "./api.js";
import { app, clear, h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { MAX_NAME, nameCount } from "./names.js";
import { focusMain, page } from "./page.js";
import { signed } from "./words.js";

// pinsetter's web pages: the player's account (docs/accounts.md). The header says who is signed in;
// #/signin signs in or up; the signed-in player's profile holds the account's own section (deleting it).
// Guests play everything as before: an account keeps a name one's own and rates games at rated tables.

// Where the player was before the sign-in page: a sign-in goes back there.
let before = "#/";
// What the page does when the account changes (app.js redraws the header and the page shown).
let changed = () => {};

export function rememberPlace(hash, screen) {
  if (screen !== "signin") before = hash;
}

export function onAccountChange(callback) {
  changed = callback;
}

/** The signed-in player as the server knows them (the session cookie), with the session's CSRF token. */
export async function loadAccount() {
  const answer = await api("GET", "/api/session");
  setAccount(answer.ok ? answer.data : null);
}

export function profileHref(name) {
  return `#/player/${encodeURIComponent(name)}`;
}

async function signOut(button) {
  button.disabled = true;
  const answer = await api("DELETE", "/api/session");
  button.disabled = false;
  if (!answer.ok && answer.status !== 401) {
    window.alert(answer.error);
    return;
  }
  setAccount(null);
  changed();
}

/** The header's corner: "Sign in" for a guest; the player's name (their profile) and "Sign out" when signed in. */
export function drawAccountBox() {
  const box = document.getElementById("account-box");
  if (!box) return;
  clear(box);
  if (!account.name) {
    box.append(h("a", { href: "#/signin", id: "nav-signin", class: "button", text: t("Sign in") }));
    return;
  }
  const out = h("button", { type: "button", id: "sign-out", class: "ghost", text: t("Sign out") });
  out.addEventListener("click", () => signOut(out));
  box.append(
    h("a", { href: profileHref(account.name), id: "nav-me", class: "me", "aria-label": t("Your profile: {name}", { name: account.name }) }, h("span", { "aria-hidden": "true", text: "● " }), account.name),
    out,
  );
}

/**
 * The name and password checked in the page and said in words, as the API takes them (schemas.Credentials:
 * a name of 1 to MAX_NAME characters once trimmed, a password of 8 to 256); the API's own lines name its fields,
 * for programs. Characters are counted as the server counts them (code points, not UTF-16 units).
 */
function credentialsProblem(name, password) {
  const length = (text) => [...text].length;
  const trimmed = length(name.trim());
  if (trimmed < 1 || trimmed > MAX_NAME) return ["name", t("Type a name of 1 to {most} characters.", { most: MAX_NAME })];
  if (length(password) < 8 || length(password) > 256) return ["password", t("The password must have 8 to 256 characters.")];
  return null;
}

/** One of the page's two forms (sign in, make an account): its fields, button and one-line error. */
function credentialsForm({ id, title, lead, button, password, help, endpoint }) {
  const error = h("p", { class: "error", role: "alert", id: `${id}-error` });
  const name = h("input", { type: "text", id: `${id}-name`, name: "name", autocomplete: "username", required: true });
  const count = nameCount(name, `${id}-name-count`); // no maxlength: a name too long is counted and refused, never cut
  const secret = h("input", {
    type: "password",
    id: `${id}-password`,
    name: "password",
    autocomplete: password,
    maxlength: 256,
    required: true,
    "aria-describedby": help ? `${id}-password-help` : null,
  });
  const submit = h("button", { type: "submit", class: "primary", id: `${id}-submit`, text: button });
  const form = h(
    "form",
    { class: "panel account-form", id, "aria-labelledby": `${id}-h`, novalidate: true },
    h("h2", { id: `${id}-h`, text: title }),
    h("p", { class: "help", text: lead }),
    h("div", { class: "field" }, h("label", { for: `${id}-name`, text: t("Name") }), name, count),
    h(
      "div",
      { class: "field" },
      h("label", { for: `${id}-password`, text: t("Password") }),
      secret,
      help ? h("p", { class: "help", id: `${id}-password-help`, text: help }) : null,
    ),
    error,
    h("div", { class: "row" }, submit),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const problem = credentialsProblem(name.value, secret.value);
    if (problem) {
      error.textContent = problem[1];
      (problem[0] === "name" ? name : secret).focus();
      return;
    }
    submit.disabled = true;
    // Sent as typed: the server trims the name and says in one line what it refuses. Nothing typed is cleared.
    const answer = await api("POST", endpoint, { name: name.value, password: secret.value });
    submit.disabled = false;
    if (!answer.ok) {
      error.textContent = answer.error;
      (answer.status === 401 ? secret : name).focus();
      return;
    }
    setAccount(answer.data);
    drawAccountBox();
    location.hash = before; // never the sign-in page itself (rememberPlace)
  });
  return form;
}

export function signinPage() {
  const title = t("Sign in");
  if (account.name) {
    app.append(
      h("h1", { text: title }),
      h(
        "p",
        { class: "panel", id: "signed-in" },
        `${t("You are signed in as {name}.", { name: account.name })} `,
        h("a", { href: profileHref(account.name), text: t("Your profile") }),
      ),
    );
    focusMain(title);
    return;
  }
  app.append(
    h("h1", { text: title }),
    h("p", { class: "lead muted", text: t("Guests play everything. With an account your name is yours alone at the tables, and rated games give you a rating.") }),
    h(
      "div",
      { class: "account-grid" },
      credentialsForm({
        id: "signin",
        title: t("Sign in"),
        lead: t("With the name and password of your account."),
        button: t("Sign in"),
        password: "current-password",
        endpoint: "/api/session",
      }),
      credentialsForm({
        id: "signup",
        title: t("Make an account"),
        lead: t("Pick a name nobody has an account under (up to 40 characters)."),
        button: t("Make my account"),
        password: "new-password",
        help: t("8 to 256 characters. Only a hash of it is kept."),
        endpoint: "/api/accounts",
      }),
    ),
  );
  focusMain(title);
}

/** The account's own section on its profile page: deleting it, after a confirmation that says what happens. */
export function accountSection(name) {
  const gen = page.generation;
  const error = h("p", { class: "error", role: "alert", id: "delete-error" });
  const confirmBox = h("div", { id: "delete-confirm", hidden: true });
  const ask = h("button", { type: "button", id: "delete-account", class: "danger", text: t("Delete my account…") });
  const yes = h("button", { type: "button", id: "delete-yes", class: "danger", text: t("Delete the account") });
  const no = h("button", { type: "button", id: "delete-no", text: t("Keep it") });
  confirmBox.append(
    h("p", { id: "delete-words", text: t("Delete the account {name}? Its ratings go with it. In the stored games your name becomes “deleted player”: the games stay and still replay. This cannot be undone.", { name }) }),
    h("div", { class: "row" }, yes, no),
  );
  ask.addEventListener("click", () => {
    confirmBox.hidden = false;
    ask.hidden = true;
    no.focus();
  });
  no.addEventListener("click", () => {
    confirmBox.hidden = true;
    ask.hidden = false;
    error.textContent = "";
    ask.focus();
  });
  yes.addEventListener("click", async () => {
    yes.disabled = true;
    const answer = await api("DELETE", "/api/accounts/me");
    if (gen !== page.generation) return;
    yes.disabled = false;
    if (!answer.ok) {
      error.textContent = answer.error;
      return;
    }
    setAccount(null);
    drawAccountBox();
    clear(app);
    const heading = t("Account deleted");
    const renamed = answer.data.games_renamed;
    const words = tn("{n} stored game now says “deleted player”.", "{n} stored games now say “deleted player”.", renamed);
    app.append(
      h("h1", { text: heading }),
      h("p", { id: "deleted", text: `${t("The account {name} is deleted.", { name })} ${words}` }),
      h("p", {}, h("a", { href: "#/", text: t("Back to the lobby") })),
    );
    focusMain(heading);
  });
  return h(
    "section",
    { class: "panel account-own", id: "account", "aria-labelledby": "account-h" },
    h("h2", { id: "account-h", text: t("Your account") }),
    h("p", { text: t("You are signed in as {name}.", { name }) }),
    h("div", { class: "row" }, ask),
    confirmBox,
    error,
  );
}

// --- the table pages with an account (kept here, so js/lobby.js and js/tables.js change by a line or two) ---

/** The host's "Rated game" switch, offered only when signed in (a rated table seats signed-in players only). */
export function ratedField() {
  if (!account.name) return { element: null, rated: () => false };
  const box = h("input", { type: "checkbox", id: "rated", "aria-describedby": "rated-help" });
  const element = h(
    "div",
    { class: "option" },
    h("label", { for: "rated", class: "check" }, box, ` ${t("Rated game")}`),
    h("p", { class: "help", id: "rated-help", text: t("When the game ends, each player's rating changes by the result. Only signed-in players sit at a rated table; bots may fill seats.") }),
  );
  return { element, rated: () => box.checked };
}

/** A table's line saying it is rated, in words (or nothing). */
export function ratedNote(table) {
  if (!table.rated) return null;
  const text = table.status === "finished" ? t("Rated game: the seated players' ratings changed as it ended.") : t("Rated game: the seated players' ratings change when it ends.");
  return h("p", { class: "rated-note", id: "rated-note", text });
}

// The rating changes of a rated table's game, by game id, once read (a table page redraws at every push).
const changesRead = new Map();

/** "Ann: 1000 → 1012 (+12)": a seat's account's rating before and after `gameId`, from its history (or null). */
async function changeLine(name, gameId) {
  const answer = await api("GET", `/api/players/${encodeURIComponent(name)}`);
  const entry = answer.ok ? answer.data.history.find((e) => e.game_id === gameId) : null;
  if (!entry) return null;
  return t("{name}: {before} → {after} ({change})", { name, before: entry.rating - entry.delta, after: entry.rating, change: signed(entry.delta) });
}

/** At the end of a rated table's game, each seated account's rating change, filled in once read. */
export function ratingChanges(table, view) {
  if (!table.rated || !view || !view.terminal || !table.game_id) return null;
  const list = h("ul", { class: "plain rating-changes", id: "rating-changes", "aria-labelledby": "rating-changes-h" });
  const fill = (into, lines) => {
    clear(into);
    lines.forEach((line) => into.append(h("li", { text: line })));
  };
  const gameId = table.game_id;
  if (changesRead.has(gameId)) {
    fill(list, changesRead.get(gameId));
    return list;
  }
  changesRead.set(gameId, []); // asked once: the redraws meanwhile show an empty list
  const names = table.seats.filter((seat) => seat.kind === "human" && seat.name).map((seat) => seat.name);
  Promise.all(names.map((name) => changeLine(name, gameId))).then((lines) => {
    const found = lines.filter(Boolean);
    changesRead.set(gameId, found);
    const shown = document.getElementById("rating-changes");
    if (shown) fill(shown, found); // the list drawn last, whichever draw made it
  });
  return list;
}

/**
 * What a table's seat form asks for in place of a typed name: signed in, nothing (the seat takes the
 * account's name; `field` says so); a guest at a rated table cannot sit (`blocked` says why, with a link).
 */
export function seatIdentity(table) {
  if (account.name) {
    return { body: () => ({}), field: h("p", { id: "sit-as", text: t("You sit as {name}, your account's name.", { name: account.name }) }) };
  }
  if (table.rated) {
    return {
      blocked: h("p", { id: "sit-rated" }, `${t("This table is rated: only signed-in players sit at it.")} `, h("a", { href: "#/signin", text: t("Sign in") })),
    };
  }
  return null;
}
