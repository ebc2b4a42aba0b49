import { language, t } from "./i18n.js";

// pinsetter's web pages: the API.
// The signed-in player: their name and their session's CSRF token (null for a guest). Every change made
// with the session cookie must carry the token (docs/accounts.md, "CSRF"), so api() sends it with every
// request but a GET. Set from GET /api/session when the page starts, from the sign-up and sign-in answers,
// and cleared at sign-out (js/account.js).
export const account = { name: null, csrf: null };

export function setAccount(data) {
  account.name = (data && data.name) || null;
  account.csrf = (data && data.csrf_token) || null;
}

export async function api(method, path, body, raw = false) {
  const init = { method, headers: { "accept-language": language } };
  if (method !== "GET" && account.csrf) init.headers["x-csrf-token"] = account.csrf;
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

export let catalogCache = null;
export async function getCatalog() {
  if (!catalogCache) {
    const answer = await api("GET", "/api/catalog");
    if (!answer.ok) return [];
    catalogCache = answer.data;
  }
  return catalogCache;
}
