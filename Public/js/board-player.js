// The communication board player: a touched pictogram speaks at once, joins the sentence strip,
// and its tap is logged exactly once, queued while the network is away (event-queue.js). How a touch,
// a switch or a resting pointer becomes a choice is access.js's job (the patient's access settings).
// The strip is kept in sessionStorage, so a sentence survives folders, Back and Home (each a page load).

import { installAccess } from "./access.js";
import { fitLabels, keepFitted } from "./board-fit.js";
import { createEventQueue } from "./event-queue.js";

const player = document.getElementById("player");

if (player) {
  const QUIET_KEY = "tagarela-quiet";
  const { tapUrl, csrf = "", plan = "", board = "", offlineText = "", sentText = "", stripKey = "tagarela-strip" } = player.dataset;
  const stripWords = player.querySelector(".strip-words");
  const quietBox = player.querySelector(".strip-quiet");
  const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
  const latencies = (window.tagarelaLatencies = []);
  const strip = []; // the sentence: {symbol, label, audio}
  const clips = new Map(); // audio url → preloaded Audio
  const tapStarts = new Map(); // Audio → performance.now() of the tap waiting for its "playing"
  const pressTimers = new WeakMap();
  let current = null; // the clip playing (or about to)
  let speakRun = 0; // bumped to cancel a running "speak"
  let blocked = null; // clip the autoplay policy refused on pointerdown

  const safely = (fn) => {
    try {
      fn();
    } catch (error) {
      console.error(error);
    }
  };
  const cellOf = (event) => event.target.closest?.(".cell[data-symbol]");
  // Taps and spoken sentences, kept in localStorage until the server has them (event-queue.js).
  const queue = createEventQueue({
    url: tapUrl, csrf, offlineText, sentText, status: player.querySelector(".offline-status"),
  });

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
    if (strip.length > 0) queue.add({ symbols: strip.map((word) => word.symbol).join(","), plan, board });
    const run = ++speakRun;
    const words = strip.map((word) => clips.get(word.audio)).filter(Boolean);
    const next = () => {
      if (run !== speakRun || words.length === 0) return;
      const clip = words.shift();
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
    safely(() => addWord({ symbol, label, audio, image, lang: cell.dataset.lang }));
    safely(() => queue.add({ symbol, plan, board }));
  }

  function press(cell) {
    if (reducedMotion.matches) return;
    clearTimeout(pressTimers.get(cell));
    cell.classList.add("is-pressed");
    pressTimers.set(cell, setTimeout(() => cell.classList.remove("is-pressed"), 150));
  }

  function addWord(word) {
    if (!stripWords) return; // a big-symbol plan: one word, no sentence
    strip.push(word);
    showWord(word);
    keepStrip();
  }

  function showWord(word) {
    const item = document.createElement("li");
    item.className = "strip-word";
    if (word.image) {
      const img = document.createElement("img");
      img.src = word.image;
      img.alt = "";
      item.append(img);
    }
    const text = document.createElement("span");
    text.textContent = word.label;
    if (word.lang) text.lang = word.lang;
    item.append(text);
    stripWords.append(item);
    item.scrollIntoView?.({ block: "nearest", inline: "end" });
  }

  function keepStrip() {
    safely(() => sessionStorage.setItem(stripKey, JSON.stringify(strip)));
  }

  // The sentence begun on another board of this tab (a folder, Back, Home).
  function restoreStrip() {
    if (!stripWords) return;
    let kept = [];
    safely(() => (kept = JSON.parse(sessionStorage.getItem(stripKey) || "[]")));
    if (!Array.isArray(kept)) return;
    for (const word of kept.slice(-100)) {
      if (!word || typeof word.label !== "string" || !/^[0-9]+$/.test(String(word.symbol))) continue;
      strip.push(word);
      showWord(word);
      preload(word.audio);
    }
  }

  // Back and Home come with the page; a board kept offline was kept without them, so they are made here
  // from the link's trail (?from=3,8: root first) when missing.
  function restoreTrailLinks() {
    const nav = player.querySelector(".player-nav");
    const trail = (new URLSearchParams(location.search).get("from") || "").split(",").filter((id) => /^[0-9]+$/.test(id));
    if (!nav || trail.length === 0 || nav.querySelector(".player-back")) return;
    const link = (className, href, text) => {
      const a = document.createElement("a");
      a.className = `button button-large ${className}`;
      a.href = href;
      a.textContent = text;
      return a;
    };
    const back = trail.at(-1), rest = trail.slice(0, -1);
    nav.prepend(
      link("player-home", `/play/${trail[0]}`, player.dataset.homeText || ""),
      link("player-back", `/play/${back}${rest.length ? `?from=${rest.join(",")}` : ""}`, player.dataset.backText || ""));
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
    keepStrip();
  });
  player.querySelector(".strip-clear")?.addEventListener("click", () => {
    speakRun++;
    current?.pause();
    strip.length = 0;
    stripWords.replaceChildren();
    keepStrip();
  });

  if (quietBox) {
    safely(() => (quietBox.checked = localStorage.getItem(QUIET_KEY) === "true"));
    quietBox.addEventListener("change", () =>
      safely(() => localStorage.setItem(QUIET_KEY, String(quietBox.checked))));
  }

  for (const cell of player.querySelectorAll(".cell[data-audio]")) safely(() => preload(cell.dataset.audio));
  safely(restoreStrip);
  safely(restoreTrailLinks);
  const grid = player.querySelector(".board");
  if (grid) safely(() => keepFitted(grid, fitLabels));

  window.tagarelaPlayer = { queueLength: queue.length, flush: queue.flush };
}
