// Per-item answers: game.js says what happens (events on the root, see docs/decisions.md "eduCAT
// levels and results"); this file times each answer and queues them in batches with the game's key
// (the patients' event queue, before the game's result: the server checks a result against them).
// The server answers with the area's level, which automatic promotion may have raised.

const batchSize = 5;

export function setUpAnswers(root, queue) {
  const url = root.dataset.answersUrl;
  if (!url) return;
  let key = null;
  let sequence = 0;
  let askedAt = null;
  let pending = [];
  let ofGame = []; // every answer of the game under way: its result carries them (see game.js)
  let level = root.dataset.level;
  let lastAnswered = Promise.resolve(null); // the last batch's answer from the server, once it comes

  const newKey = () => (crypto.randomUUID ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(""));

  /** The answers so far, queued as one batch (sent at once when the network allows). */
  function flush() {
    if (!pending.length || !key) return;
    queue.add({
      _url: url, key, area: root.dataset.area, mode: root.dataset.mode === "challenge" ? "challenge" : "normal",
      level, answers: JSON.stringify(pending),
    });
    pending = [];
  }

  root.addEventListener("educat:sent", ({ detail: { event, response } }) => {
    if (event._url !== url) return;
    lastAnswered = response.json().then((json) => {
      // The page keeps its level's items; the next game (page) starts at the new level.
      if (json && json.level && json.level !== level) {
        root.dataset.nextLevel = json.level;
        root.dispatchEvent(new CustomEvent("educat:level", { detail: { level: Number(json.level), levelKey: json.levelKey } }));
      }
      return json;
    }).catch(() => null);
  });

  root.addEventListener("educat:start", () => {
    flush();
    key = newKey();
    sequence = 0;
    ofGame = [];
    root.dataset.gameKey = key;
  });
  root.addEventListener("educat:ask", () => {
    if (!key) { key = newKey(); root.dataset.gameKey = key; ofGame = []; }
    askedAt = performance.now();
  });
  root.addEventListener("educat:answer", (event) => {
    const { item, tapped, outcome } = event.detail;
    if (!key || item == null) return;
    sequence += 1;
    const ms = askedAt === null ? 0 : Math.max(0, Math.round(performance.now() - askedAt));
    const answer = { seq: sequence, item: String(item), tapped: outcome === "timeout" ? null : String(tapped ?? ""), outcome, ms };
    pending.push(answer);
    ofGame.push(answer);
    askedAt = outcome === "miss" ? askedAt : null;
    if (pending.length >= batchSize) flush();
  });
  // The game ends or the page goes: the last answers are queued before the result is.
  root.addEventListener("educat:end", flush);
  root.addEventListener("educat:leave", flush);

  window.tagarelaEducat = Object.assign(window.tagarelaEducat || {}, {
    flushAnswers: async () => { flush(); await queue.flush(); return lastAnswered; },
    pendingAnswers: () => pending.length,
  });

  /** The game's answers (the last 200: earlier ones went in batches before), for its result. */
  return { ofGame: () => JSON.stringify(ofGame.slice(-200)) };
}
