import { language, t } from "./i18n.js";

// pinsetter's web pages: the API.
export async function api(method, path, body, raw = false) {
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

export let catalogCache = null;
export async function getCatalog() {
  if (!catalogCache) {
    const answer = await api("GET", "/api/catalog");
    if (!answer.ok) return [];
    catalogCache = answer.data;
  }
  return catalogCache;
}
