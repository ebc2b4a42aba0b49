import { app } from "./dom.js";

// pinsetter's web pages: routing.
export const page = {
  generation: 0, // bumps on every page change: stale timers and answers are ignored
  keys: null, // the keyboard handler of the page shown
  leave: null, // what the page shown does when it is left (a table page closes its socket)
};


export function focusMain(heading) {
  document.title = `${heading} · pinsetter`;
  const h1 = app.querySelector("h1");
  if (h1) {
    h1.setAttribute("tabindex", "-1");
    h1.focus({ preventScroll: true });
  }
}
