// The communication board player: a touched pictogram speaks at once, joins the sentence strip,
// and its tap is logged exactly once, queued in localStorage while the network is away. How a touch,
// a switch or a resting pointer becomes a choice is access.js's job (the patient's access settings).

import { installAccess } from "./access.js";

const player = document.getElementById("player");

if (player) {
  const QUEUE_KEY = "tagarela-taps";
  const QUIET_KEY = "tagarela-quiet";
  const { tapUrl, csrf = "", plan = "", board = "", offlineText = "", sentText = "" } = player.dataset;
  const stripWords = player.querySelector(".strip-words");
  const quietBox = player.querySelector(".strip-quiet");
  const status = player.querySelector(".offline-status");
  const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
  const latencies = (window.tagarelaLatencies = []);
  const strip = []; // the sentence: {symbol, label, audio}
  const clips = new Map(); // audio url → preloaded Audio
  const tapStarts = new Map(); // Audio → performance.now() of the tap waiting for its "playing"
  const pressTimers = new WeakMap();
  let current = null; // the clip playing (or about to)
  let speakRun = 0; // bumped to cancel a running "speak"
  let blocked = null; // clip the autoplay policy refused on pointerdown
  let memoryQueue = [];
  let storageWorks = true;
  let flushing = null;
  let lastFlushFailed = false;
  let noticeShown = false;
  let sentTimer = 0;

  const safely = (fn) => {
    try {
      fn();
    } catch (error) {
      console.error(error);
    }
  };
  const cellOf = (event) => event.target.closest?.(".cell[data-symbol]");

  // randomUUID only exists in secure contexts (https, localhost), not on a LAN http address.
  const newKey = () => crypto.randomUUID?.() ??
    "10000000-1000-4000-8000-100000000000".replace(/[018]/g, (c) =>
      (c ^ (crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> (c / 4)))).toString(16));

  // --- Sound -------------------------------------------------------------------------------

  function preload(url) {
    if (!url || clips.has(url)) return;
    const clip = new Audio(url);
    clip.preload = "auto";
    clip.addEventListener("playing", () => {
      const t0 = tapStarts.get(clip);
      if (t0 === undefined) return;
      tapStarts.delete(clip);
      latencies.push(performance.now() - t0);
    });
    clip.load();
    clips.set(url, clip);
  }

  function play(clip) {
    // One voice at a time; pausing also makes a replayed clip fire "playing" again.
    if (current && !current.paused) current.pause();
    current = clip;
    clip.currentTime = 0;
    return clip.play();
  }

  function speak() {
    if (strip.length > 0) logSentence(strip.map((word) => word.symbol).join(","));
    const run = ++speakRun;
    const queue = strip.map((word) => clips.get(word.audio)).filter(Boolean);
    const next = () => {
      if (run !== speakRun || queue.length === 0) return;
      const clip = queue.shift();
      let done = false;
      const advance = () => {
        if (done) return;
        done = true;
        next();
      };
      tapStarts.delete(clip); // not a tap: keep it out of the latency figures
      clip.addEventListener("ended", advance, { once: true });
      play(clip).catch(advance); // unplayable clip: go on with the next word
    };
    next();
  }

  // A touch pointerdown is not a user activation for autoplay (pointerup and touchend are), so
  // on a fresh page the first touch may be refused: play it when the finger lifts instead.
  function retryBlocked() {
    const clip = blocked;
    blocked = null;
    if (clip && clip === current && clip.paused) play(clip).catch(() => {});
  }

  // --- Taps and the strip ------------------------------------------------------------------

  function tap(cell) {
    const { symbol, label = "", audio, image } = cell.dataset;
    const t0 = performance.now();
    const clip = audio && clips.get(audio);
    if (clip && !quietBox?.checked) {
      speakRun++;
      tapStarts.set(clip, t0);
      play(clip).catch((error) => {
        if (error.name === "NotAllowedError") blocked = clip;
      });
    }
    safely(() => press(cell));
    safely(() => addWord({ symbol, label, audio }, image));
    safely(() => logTap(symbol));
  }

  function press(cell) {
    if (reducedMotion.matches) return;
    clearTimeout(pressTimers.get(cell));
    cell.classList.add("is-pressed");
    pressTimers.set(cell, setTimeout(() => cell.classList.remove("is-pressed"), 150));
  }

  function addWord(word, image) {
    strip.push(word);
    const item = document.createElement("li");
    item.className = "strip-word";
    if (image) {
      const img = document.createElement("img");
      img.src = image;
      img.alt = "";
      item.append(img);
    }
    const text = document.createElement("span");
    text.textContent = word.label;
    item.append(text);
    stripWords.append(item);
  }

  // --- Tap log -------------------------------------------------------------------------------

  // localStorage is the truth (another board page may have queued taps); memory is the fallback.
  function readQueue() {
    if (storageWorks) {
      try {
        const saved = JSON.parse(localStorage.getItem(QUEUE_KEY) ?? "[]");
        if (Array.isArray(saved)) return saved.filter((event) => event?.key);
      } catch {
        // Unavailable or unreadable: use the copy in memory.
      }
    }
    return memoryQueue;
  }

  function writeQueue(queue) {
    memoryQueue = queue;
    if (!storageWorks) return;
    try {
      localStorage.setItem(QUEUE_KEY, JSON.stringify(queue));
    } catch {
      storageWorks = false; // full or forbidden: from now on the queue lives in memory
    }
  }

  function logTap(symbol) {
    writeQueue([...readQueue(), { key: newKey(), symbol, plan, board, at: new Date().toISOString() }]);
    showStatus();
    flush();
  }

  // A spoken sentence travels in the same queue: its symbols, in order, instead of one symbol.
  function logSentence(symbols) {
    writeQueue([...readQueue(), { key: newKey(), symbols, plan, board, at: new Date().toISOString() }]);
    showStatus();
    flush();
  }

  async function send(event) {
    const fields = Object.fromEntries(Object.entries(event).filter(([, value]) => value !== undefined && value !== null));
    try {
      const response = await fetch(tapUrl, {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { "X-CSRF-Token": csrf },
        credentials: "same-origin",
        redirect: "manual", // a redirect (say, to the login page) did not record the tap
        signal: AbortSignal.timeout?.(10_000), // a hung request must not stall the queue
      });
      return response.status; // 0 for a redirect
    } catch {
      return 0;
    }
  }

  async function drain() {
    for (let event = readQueue()[0]; event; event = readQueue()[0]) {
      const code = await send(event);
      // 2xx, 409 (already have it) and other 4xx (a bad event) are done; the rest is retried. 403 is
      // retried too: an expired session or patient mode left refuses the POST, and the taps must wait
      // for the next page load (with a live session and a fresh token) instead of being dropped.
      const retried = [403, 408, 429];
      const done = (code >= 200 && code < 300) || (code >= 400 && code < 500 && !retried.includes(code));
      lastFlushFailed = !done;
      if (!done) return;
      writeQueue(readQueue().filter((queued) => queued.key !== event.key));
      showStatus();
    }
  }

  function flush() {
    flushing ??= drain().catch(console.error).finally(() => {
      flushing = null;
      showStatus();
    });
    return flushing;
  }

  function showStatus() {
    if (!status) return;
    const waiting = readQueue().length;
    // Once shown, the notice stays (counting down) until the queue is empty.
    if (waiting > 0 && (!navigator.onLine || lastFlushFailed || noticeShown)) {
      clearTimeout(sentTimer);
      status.textContent = offlineText.replaceAll("{n}", waiting);
      status.hidden = false;
      noticeShown = true;
    } else if (waiting === 0 && noticeShown) {
      noticeShown = false;
      status.textContent = sentText;
      status.hidden = !sentText;
      if (sentText) sentTimer = setTimeout(() => (status.hidden = true), 4000);
    }
  }

  // --- Wiring --------------------------------------------------------------------------------

  // A choice by touch, dwell or scanning; on the default settings a touch chooses on pointerdown,
  // so the clip starts before the finger lifts.
  installAccess(player, {
    onSelect(item) {
      if (item.matches(".cell[data-symbol]")) tap(item);
      else item.click();
    },
  });
  player.addEventListener("pointerup", retryBlocked);
  player.addEventListener("click", (event) => {
    // Pointer clicks on cells were judged by access.js and never get here: this is the keyboard, a
    // switch interface or a screen reader.
    const cell = cellOf(event);
    if (cell) tap(cell);
  });
  player.addEventListener("keydown", (event) => {
    // A held key on a switch interface must not say the same word again and again.
    if (event.repeat && cellOf(event)) event.preventDefault();
  });

  player.querySelector(".strip-speak")?.addEventListener("click", speak);
  player.querySelector(".strip-backspace")?.addEventListener("click", () => {
    if (strip.length === 0) return;
    strip.pop();
    stripWords.lastElementChild?.remove();
  });
  player.querySelector(".strip-clear")?.addEventListener("click", () => {
    speakRun++;
    current?.pause();
    strip.length = 0;
    stripWords.replaceChildren();
  });

  if (quietBox) {
    safely(() => (quietBox.checked = localStorage.getItem(QUIET_KEY) === "true"));
    quietBox.addEventListener("change", () =>
      safely(() => localStorage.setItem(QUIET_KEY, String(quietBox.checked))));
  }

  for (const cell of player.querySelectorAll(".cell[data-audio]")) safely(() => preload(cell.dataset.audio));

  window.tagarelaPlayer = { queueLength: () => readQueue().length, flush };
  addEventListener("online", flush);
  addEventListener("offline", showStatus);
  addEventListener("pageshow", (event) => event.persisted && flush()); // back from the bfcache
  setInterval(() => readQueue().length > 0 && flush(), 15_000);
  showStatus();
  flush();
}
