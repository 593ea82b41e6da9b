// The communication board player: a touched pictogram speaks at once, joins the sentence strip,
// and its tap is logged exactly once, queued while the network is away (event-queue.js). How a touch,
// a switch or a resting pointer becomes a choice is access.js's job (the patient's access settings).
// The strip is kept in sessionStorage, so a sentence survives folders, Back and Home (each a page load).

import { installAccess } from "./access.js";
import { fitLabels, keepFitted } from "./board-fit.js";
import { lazyClip } from "./clip.js";
import { createEventQueue } from "./event-queue.js";

const player = document.getElementById("player");

if (player) {
  const QUIET_KEY = "tagarela-quiet";
  const { tapUrl, csrf = "", plan = "", board = "", offlineText = "", sentText = "", stripKey = "tagarela-strip" } = player.dataset;
  const stripWords = player.querySelector(".strip-words");
  const quietBox = player.querySelector(".strip-quiet");
  const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
  const latencies = (window.tagarelaLatencies = []);
  const strip = []; // the sentence: {symbol, label, audio, own, w} (own: the symbol's own clip; w: its grammar)
  const grammars = new WeakMap(); // cell → its data-word, parsed
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

  // One <audio> per clip, loaded when first played (clip.js).
  function preload(url) {
    if (!url || clips.has(url)) return;
    const clip = lazyClip(url);
    clip.addEventListener("playing", () => {
      const t0 = tapStarts.get(clip);
      if (t0 === undefined) return;
      tapStarts.delete(clip);
      latencies.push(performance.now() - t0);
    });
    clips.set(url, clip);
  }

  function play(clip) {
    // One voice at a time; pausing also makes a replayed clip fire "playing" again.
    if (current && !current.paused) current.pause();
    current = clip;
    clip.currentTime = 0;
    return clip.play();
  }

  // Plays a word: its agreeing form's clip, or the symbol's own when the form's was not made (or is
  // gone). `starting` hears of each clip as it is asked to play.
  function playWord(word, starting) {
    const clip = clipOf(word);
    if (!clip) return Promise.reject(new Error("no clip"));
    const own = word.own && clips.get(word.own);
    starting(clip);
    return play(clip).catch((error) => {
      if (!clip.error || !own || own === clip) throw error;
      starting(own);
      return play(own);
    });
  }

  function speak() {
    if (strip.length > 0) queue.add({ symbols: strip.map((word) => word.symbol).join(","), plan, board });
    const run = ++speakRun;
    const words = strip.filter((word) => clipOf(word));
    const next = () => {
      if (run !== speakRun || words.length === 0) return;
      let done = false;
      const advance = () => {
        if (done) return;
        done = true;
        next();
      };
      playWord(words.shift(), (clip) => {
        tapStarts.delete(clip); // not a tap: keep it out of the latency figures
        clip.addEventListener("ended", advance, { once: true });
      }).catch(advance); // unplayable clip: go on with the next word
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

  // A word's clip: its agreeing form's, else (none, or found unplayable) the symbol's own.
  function clipOf(word) {
    const clip = word.audio && clips.get(word.audio);
    if (clip && !clip.error) return clip;
    return (word.own && clips.get(word.own)) || clip;
  }

  // --- Agreement ---------------------------------------------------------------------------
  // The rules of `Agreement.sentence` (AAC/WordForms.swift), which also logs the strip's text: the
  // subject is the first pronoun or noun before the first verb (none: the child, 1st singular); a verb
  // agrees with it, or is an infinitive right after a verb; an adjective agrees with the nearest noun
  // before it, else the subject, else it is masculine singular.

  function grammarOf(cell) {
    if (!grammars.has(cell)) {
      let word = null;
      safely(() => (word = cell.dataset.word ? JSON.parse(cell.dataset.word) : null));
      grammars.set(cell, word);
    }
    return grammars.get(cell);
  }

  function formKey(before, word) {
    if (!word || (word.c !== "verb" && word.c !== "adjective")) return null;
    let subject = null, noun = null, seenVerb = false;
    for (const { w } of before) {
      if (!w) continue;
      if (!seenVerb && !subject && (w.c === "pronoun" || w.c === "noun")) subject = w;
      if (w.c === "verb") seenVerb = true;
      if (w.c === "noun") noun = w;
    }
    if (word.c === "verb") {
      if (before.at(-1)?.w?.c === "verb") return "inf";
      return subject ? `${subject.p || 3}${subject.n || "s"}` : "1s";
    }
    const agreeing = noun || subject;
    return `${agreeing?.g || "m"}${agreeing?.n || "s"}`;
  }

  // The cell's word as it is said after the strip's words: [label, clip URL] of its form, or its own.
  function agreeing(cell) {
    const { label = "", audio } = cell.dataset;
    const word = grammarOf(cell);
    const form = word?.f?.[formKey(strip, word)];
    return form ? { label: form[0], audio: form[1] } : { label, audio };
  }

  // What the next tap of each cell will say, loaded before the finger gets there.
  function preloadNextForms() {
    for (const cell of player.querySelectorAll(".cell[data-word]")) safely(() => preload(agreeing(cell).audio));
  }

  // --- Taps and the strip ------------------------------------------------------------------

  function tap(cell) {
    const { symbol, audio: own, image } = cell.dataset;
    const t0 = performance.now();
    const { label, audio } = agreeing(cell);
    if (audio) preload(audio);
    if (!quietBox?.checked && clipOf({ audio, own })) {
      speakRun++;
      let clip = null; // the clip said for this tap: the form's, or the symbol's own if the form's fails
      playWord({ audio, own }, (starting) => {
        if (clip) tapStarts.delete(clip);
        clip = starting;
        tapStarts.set(clip, t0);
      }).catch((error) => {
        if (error.name === "NotAllowedError") blocked = clip;
      });
    }
    const word = grammarOf(cell);
    safely(() => press(cell));
    safely(() => addWord({ symbol, label, audio, own, image, lang: cell.dataset.lang,
                           w: word ? { c: word.c, p: word.p, n: word.n, g: word.g } : undefined }));
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
    preloadNextForms();
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
      preload(word.own);
    }
    preloadNextForms();
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
    preloadNextForms();
  });
  player.querySelector(".strip-clear")?.addEventListener("click", () => {
    speakRun++;
    current?.pause();
    strip.length = 0;
    stripWords.replaceChildren();
    keepStrip();
    preloadNextForms();
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
