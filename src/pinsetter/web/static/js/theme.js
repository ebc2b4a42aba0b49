import { clear, h } from "./dom.js";
import { t } from "./i18n.js";

// pinsetter's web pages: theme.
export const THEME_KEY = "pinsetter.theme";
export function currentTheme() {
  // index.html always sets it: the remembered choice, else the system's.
  return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
}

export function setupTheme() {
  const button = document.getElementById("theme-toggle");
  const label = () => {
    const other = currentTheme() === "dark" ? "light" : "dark";
    // The symbol, then the words, which a phone's narrow header leaves out (style.css): the button keeps its name.
    clear(button);
    button.append(
      h("span", { "aria-hidden": "true", text: other === "dark" ? "☾" : "☀" }),
      h("span", { class: "theme-words", text: other === "dark" ? t("Dark theme") : t("Light theme") }),
    );
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
