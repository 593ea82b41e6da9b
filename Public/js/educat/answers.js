// Per-item answers: game.js says what happens (events on the root, see docs/decisions/0028-educat-levels-and-results.md "eduCAT
// levels and results"); this file times each answer and queues them in batches with the game's key.

import { newKey } from "../event-queue.js";

const batchSize = 5;

export function setUpAnswers(root, queue) {
  const url = root.dataset.answersUrl;
  if (!url) return;
  let key = null;
  let sequence = 0;
  let askedAt = null;
  let pending = [];
  const level = root.dataset.level;

  // Into the patient's one queue (event-queue.js): kept offline and across a reload, sent in order
  // before the game's result, so the server can check the result against them.
  function flush() {
    if (!pending.length || !key) return;
    queue.add({
      _url: url, _kind: "educat-answers", key, area: root.dataset.area,
      mode: root.dataset.mode === "challenge" ? "challenge" : "normal", level, answers: JSON.stringify(pending),
    });
    pending = [];
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
    // A hit may pass the level: sent at once, so a promotion is celebrated when it happens.
    if (pending.length >= batchSize || outcome === "hit") flush();
  });
  root.addEventListener("educat:end", flush);
  window.addEventListener("pagehide", flush);

  window.tagarelaEducat = Object.assign(window.tagarelaEducat || {}, {
    // Resolves with the server's answer to the last batch (the area's level).
    flushAnswers: () => { flush(); return queue.flush().then(() => window.tagarelaEducat.lastAnswers ?? null); },
    pendingAnswers: () => pending.length,
  });
}

/** The server's answer to a batch: the area's level, which automatic promotion may have raised. */
export function answersSent(root, json) {
  window.tagarelaEducat.lastAnswers = json;
  const level = root.dataset.nextLevel ?? root.dataset.level;
  // The page keeps its level's items; the next game (page) starts at the new level.
  if (json && json.level && json.level !== level) {
    root.dataset.nextLevel = json.level;
    root.dispatchEvent(new CustomEvent("educat:level", { detail: { level: Number(json.level), levelKey: json.levelKey } }));
  }
}
