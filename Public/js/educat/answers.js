// Per-item answers: game.js says what happens (events on the root, see docs/decisions.md "eduCAT
// levels and results"); this file times each answer and posts them in batches with the game's key.
// The server answers with the area's level, which automatic promotion may have raised.

const batchSize = 5;

export function setUpAnswers(root) {
  const url = root.dataset.answersUrl;
  if (!url) return;
  let key = null;
  let sequence = 0;
  let askedAt = null;
  let pending = [];
  let level = root.dataset.level;

  const newKey = () => (crypto.randomUUID ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(""));

  function body(answers) {
    return new URLSearchParams({
      _csrf: root.dataset.csrf, key, area: root.dataset.area, mode: root.dataset.mode === "challenge" ? "challenge" : "normal",
      level, answers: JSON.stringify(answers),
    });
  }

  function flush() {
    if (!pending.length || !key) return Promise.resolve(null);
    const answers = pending;
    pending = [];
    return fetch(url, { method: "POST", body: body(answers), credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : null))
      .then((json) => {
        // The page keeps its level's items; the next game (page) starts at the new level.
        if (json && json.level && json.level !== level) {
          root.dataset.nextLevel = json.level;
          root.dispatchEvent(new CustomEvent("educat:level", { detail: { level: Number(json.level), levelKey: json.levelKey } }));
        }
        return json;
      })
      .catch(() => { pending = answers.concat(pending); return null; });
  }

  root.addEventListener("educat:start", () => {
    flush();
    key = newKey();
    sequence = 0;
    root.dataset.gameKey = key;
  });
  root.addEventListener("educat:ask", () => {
    if (!key) { key = newKey(); root.dataset.gameKey = key; }
    askedAt = performance.now();
  });
  root.addEventListener("educat:answer", (event) => {
    const { item, tapped, outcome } = event.detail;
    if (!key || item == null) return;
    sequence += 1;
    const ms = askedAt === null ? 0 : Math.max(0, Math.round(performance.now() - askedAt));
    pending.push({ seq: sequence, item: String(item), tapped: outcome === "timeout" ? null : String(tapped ?? ""), outcome, ms });
    askedAt = outcome === "miss" ? askedAt : null;
    if (pending.length >= batchSize) flush();
  });
  root.addEventListener("educat:end", () => { flush(); });
  window.addEventListener("pagehide", () => {
    if (pending.length && key) navigator.sendBeacon(url, body(pending));
    pending = [];
  });

  window.tagarelaEducat = Object.assign(window.tagarelaEducat || {}, {
    flushAnswers: flush,
    pendingAnswers: () => pending.length,
  });
}
