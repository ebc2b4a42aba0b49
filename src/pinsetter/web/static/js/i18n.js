import { api } from "./api.js";
import { clear, h } from "./dom.js";

// pinsetter's web pages: texts in the reader's language (docs/i18n.md).
export const LANG_KEY = "pinsetter.lang";
// The server's gettext catalog as JSON (GET /api/i18n/{lang}): English texts are the keys, so a
// text the catalog lacks shows in English. Placeholders are named: t("pin {n}", { n: 3 }).
export let language = "en";
export let languages = ["en"];
export let messages = {};

export function t(text, values) {
  const found = Object.prototype.hasOwnProperty.call(messages, text) ? messages[text] : text;
  return values ? found.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole)) : found;
}

// A text whose placeholders hold nodes as well as strings (a name in a span of its own, cut short with its
// whole in a tooltip), in the language's order, for h(): fill(t("Turn: {who}"), { who: span }).
export function fill(template, values) {
  return template
    .split(/(\{\w+\})/)
    .filter((piece) => piece !== "")
    .map((piece) => {
      const key = /^\{(\w+)\}$/.exec(piece);
      return key && key[1] in values ? values[key[1]] : piece;
    });
}

// Plural texts: the catalog holds one form per language with a single plural form (Japanese).
export function tn(one, many, n, values) {
  const all = { n, ...(values || {}) };
  if (Object.prototype.hasOwnProperty.call(messages, one)) return t(one, all);
  return t(n === 1 ? one : many, all);
}

export function rememberedLanguage() {
  try {
    return localStorage.getItem(LANG_KEY);
  } catch (err) {
    return null;
  }
}

// The remembered choice, else the server's pick from the browser's Accept-Language.
export async function setupLanguage() {
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
    "nav-leaderboard": t("Leaderboard"),
    "nav-rules": t("Rules"),
    "nav-daily": t("Daily"),
    "api-docs": t("API documentation"),
  };
  for (const [id, text] of Object.entries(fixed)) {
    const el = document.getElementById(id);
    if (el) el.textContent = text;
  }
  const nav = document.querySelector(".top nav");
  if (nav) nav.setAttribute("aria-label", t("Pages"));
}
