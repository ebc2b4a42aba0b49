import { h } from "./dom.js";
import { t } from "./i18n.js";

// pinsetter's web pages: a player's name where it is typed (the lobby's seats, a table's seat, an account).
// The longest name the server takes: pinsetter.usertext.MAX_NAME (tests/test_web_names.py keeps the two equal).
export const MAX_NAME = 40;
// From this many characters on, the field counts them under itself: the limit shows before it is reached.
const COUNT_FROM = MAX_NAME - 10;

export const NAME_KEY = "pinsetter.name"; // the name this browser's player last played under

export function rememberedName() {
  try {
    return (localStorage.getItem(NAME_KEY) || "").trim();
  } catch (err) {
    return "";
  }
}

export function rememberName(name) {
  const kept = name.trim();
  if (!kept) return;
  try {
    localStorage.setItem(NAME_KEY, kept);
  } catch (err) {
    /* storage blocked: the name is typed again next time */
  }
}

// Characters as the server counts them (code points: an emoji is one, not two UTF-16 units).
export function nameLength(text) {
  return [...text].length;
}

// Why a typed name is refused before it is sent, in one line (`whose`: "Your name", "Player 2's name"), or "".
// Only the length: the server says the rest (control characters, a name given twice) in its own words.
export function nameTooLong(text, whose) {
  const count = nameLength(text);
  return count > MAX_NAME ? t("{whose} has {count} characters: a name holds at most {most}.", { whose, count, most: MAX_NAME }) : "";
}

// A name field's count, under it: nothing while the name is short, "34 of 40 characters" near the limit,
// and past it "46 characters: 6 too many" as an error (the field is marked invalid). Nothing typed is ever cut:
// the field has no maxlength, and a name too long is refused in words when it is sent.
export function nameCount(input, id) {
  const note = h("p", { class: "help name-count", id, "aria-live": "polite" });
  const described = input.getAttribute("aria-describedby");
  input.setAttribute("aria-describedby", described ? `${described} ${id}` : id);
  const update = () => {
    const count = nameLength(input.value);
    const over = count > MAX_NAME;
    note.classList.toggle("over", over);
    if (over) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
    note.textContent = over
      ? t("{count} characters: {extra} too many (a name holds at most {most})", { count, extra: count - MAX_NAME, most: MAX_NAME })
      : count >= COUNT_FROM
        ? t("{count} of {most} characters", { count, most: MAX_NAME })
        : "";
  };
  input.addEventListener("input", update);
  update();
  return note;
}
