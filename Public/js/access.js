// Access methods for patient pages: how a patient who cannot tap precisely still chooses. Select on
// press or on release, a minimum hold that ignores tremor presses, dwell (rest the pointer on a target)
// with a progress bar, and automatic scanning (row/column or linear) driven by one or two switches,
// which reach the browser as the Space and Enter keys.
//
// HOW A PAGE ADOPTS IT
//  1. Server: the page's view model gets one property, `access: AccessView` (for a patient page:
//     `access: try AccessView.forPatient(patientId, db)`, and `case "access": access` in `child(named:)`).
//     The template puts both parts on the element that holds everything the patient may select:
//         <section id="sentence" class="… {{access.classes}}" {{{access.attributes}}}>
//     `classes` sets the targets' minimum size and where labels sit (app.css, "Access methods");
//     `attributes` are the data-access-* settings listed below.
//  2. Markup: the selectable things are the <button>s and <a href>s inside that element. Optionally:
//     - data-access-row on a container: its selectable descendants form one scanning row. Without it,
//       rows follow the layout (items whose boxes line up), so a CSS grid scans by its visual rows;
//     - data-access-skip on an element: it and its contents are left out of scanning and dwell;
//     - data-access-overlay on a sticky or fixed element (the sentence strip): a highlighted item is
//       always scrolled clear of it, never hidden under it.
//  3. Script:
//         import { installAccess } from "./access.js";
//         installAccess(root, { onSelect(item, how) { … }, });
//     `onSelect(item, how)` runs when the patient chooses `item`; `how` is "pointer", "dwell" or "scan".
//     It defaults to `item.click()`. The page must also act on clicks that reach it (keyboard Tab +
//     Enter/Space, screen readers): those are left to the browser. Pointer clicks on items are swallowed
//     here, because press/release/hold decide when a touch counts; so do not act on pointerdown/click of
//     items yourself.
//
// SETTINGS (data attributes on root, written by AccessView in Sources/Tagarela/Access/AccessSettings.swift)
//   data-access-select="press|release"  data-access-hold="ms (0 = off)"
//   data-access-scan="off|row-column|linear"  data-access-scan-ms="ms per step"
//   data-access-switches="one|two"  data-access-dwell="ms (0 = off)"
//
// SCREEN READERS: nothing here moves focus or changes roles or names; with scanning off the keyboard is
// untouched; clicks that did not start with a pointer press on the page (keyboard, assistive
// technology) always pass through.
//
// TESTS: time comes from window.tagarelaClock() when a test sets it (the same hook as timer.js), so a
// test can freeze the clock (`window.tagarelaClock = () => window.fakeNow`) and move it by hand.
// window.tagarelaAccess = { settings, highlighted(), restart() } tells what the scan highlights; a page
// calls restart() when what can be chosen changes (an open <dialog> inside root is scanned alone).

const ITEMS = "button:not([disabled]), a[href]";
const TICK_MS = 40;

const now = () => (window.tagarelaClock ? window.tagarelaClock() : Date.now());

/** The settings in `root`'s data-access-* attributes, with safe values for anything missing. */
export function readAccessSettings(root) {
  const data = root.dataset;
  const int = (text, fallback, min, max) => {
    const value = Number.parseInt(text ?? "", 10);
    return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
  };
  return {
    select: data.accessSelect === "release" ? "release" : "press",
    holdMs: int(data.accessHold, 0, 0, 10_000),
    scan: ["row-column", "linear"].includes(data.accessScan) ? data.accessScan : "off",
    scanMs: int(data.accessScanMs, 1500, 250, 60_000),
    switches: data.accessSwitches === "two" ? "two" : "one",
    dwellMs: int(data.accessDwell, 0, 0, 60_000),
  };
}

/**
 * Applies the access settings to everything selectable inside `root`.
 * options: { onSelect(item, how) }.
 * Returns { settings, highlighted() }.
 */
export function installAccess(root, options = {}) {
  const settings = readAccessSettings(root);
  const onSelect = options.onSelect ?? ((item) => item.click());
  const itemOf = (node) => {
    const item = node?.closest?.(ITEMS);
    return item && root.contains(item) && !item.closest("[data-access-skip]") ? item : null;
  };
  const select = (item, how) => {
    try {
      onSelect(item, how);
    } catch (error) {
      console.error(error);
    }
  };

  // --- Progress (hold and dwell) ------------------------------------------------------------

  const showProgress = (item, fraction) => {
    item.classList.add("access-progress");
    item.style.setProperty("--access-progress", String(Math.min(1, Math.max(0, fraction))));
  };
  const hideProgress = (item) => {
    if (!item) return;
    item.classList.remove("access-progress");
    item.style.removeProperty("--access-progress");
  };

  // --- Pointer: press, release, hold ----------------------------------------------------------

  let press = null; // { item, pointerId, at, done }
  let pressedOn = null; // where the last pointer press began, to judge the click that follows

  root.addEventListener("pointerdown", (event) => {
    pressedOn = event.target;
    if (event.button !== 0) return; // touch and pen contact report button 0 too
    const item = itemOf(event.target);
    if (!item) return;
    hideProgress(press?.item);
    press = { item, pointerId: event.pointerId, at: now(), done: false };
    if (settings.select === "press" && settings.holdMs === 0) {
      press.done = true;
      select(item, "pointer");
    }
  });

  const endPress = (event, cancelled) => {
    const pressed = press;
    if (!pressed || pressed.pointerId !== event.pointerId) return;
    press = null;
    hideProgress(pressed.item);
    if (cancelled || pressed.done || settings.select !== "release") return; // a press too short to count ends here
    const over = itemOf(document.elementFromPoint(event.clientX, event.clientY));
    if (over === pressed.item && now() - pressed.at >= settings.holdMs) select(pressed.item, "pointer");
  };
  // On window: a mouse may be let go outside the page's root.
  addEventListener("pointerup", (event) => endPress(event, false));
  addEventListener("pointercancel", (event) => endPress(event, true));
  // A press that slides off its target before it counts is no choice.
  addEventListener("pointermove", (event) => {
    if (!press || press.done || press.pointerId !== event.pointerId) return;
    if (itemOf(document.elementFromPoint(event.clientX, event.clientY)) === press.item) return;
    hideProgress(press.item);
    press = null;
  });

  // A pointer press is judged above, so the click the browser makes of it must not act a second time
  // (nor act after a hold too short to count). A word added on press can also shift the layout so the
  // click lands on another control: a click away from where the press began is dropped too. Clicks
  // with no pointer press before them (keyboard, screen readers) pass.
  root.addEventListener("click", (event) => {
    if (event.detail === 0) return; // keyboard, assistive technology, or onSelect's own item.click()
    const began = pressedOn;
    pressedOn = null;
    if (!began) return;
    const moved = !began.contains(event.target) && !event.target.contains(began);
    if (itemOf(event.target) || moved) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  // --- Dwell ----------------------------------------------------------------------------------

  let dwell = null; // { item, since, done }
  if (settings.dwellMs > 0) {
    root.addEventListener("pointermove", (event) => {
      if (event.pointerType === "touch") return; // a finger does not hover
      const item = itemOf(event.target);
      if (item === dwell?.item) return;
      hideProgress(dwell?.item);
      dwell = item ? { item, since: now(), done: false } : null;
    });
    root.addEventListener("pointerleave", () => {
      hideProgress(dwell?.item);
      dwell = null;
    });
  }

  // --- Scanning -------------------------------------------------------------------------------

  const scanning = settings.scan !== "off";
  const autoAdvance = settings.switches === "one";
  let rows = [];
  let level = "rows"; // "rows", then "items" inside the chosen row (row-column only)
  let rowIndex = 0;
  let itemIndex = 0;
  let rounds = 0; // times the items of a row went by without a choice
  let stepAt = now();
  const keysDown = new Map(); // key → { at, done } for switches that must be held

  const visible = (element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== "hidden";

  // Items in reading order, grouped into rows: a data-access-row container, or consecutive items whose
  // boxes line up vertically.
  // While a modal dialog inside root is open (eduCAT's end of game), only its choices are scanned.
  function buildRows() {
    const scope = root.querySelector("dialog[open]") ?? root;
    const items = [...scope.querySelectorAll(ITEMS)].filter((item) => itemOf(item) === item && visible(item));
    if (settings.scan === "linear") return items.length ? [items] : [];
    const groups = [];
    let last = null;
    for (const item of items) {
      const box = item.getBoundingClientRect();
      const container = item.closest("[data-access-row]");
      const middle = box.top + box.height / 2;
      if (last && last.container === container && (container || (middle > last.top && middle < last.bottom))) {
        last.items.push(item);
      } else {
        last = { container, top: box.top, bottom: box.bottom, items: [item] };
        groups.push(last);
      }
    }
    return groups.map((group) => group.items);
  }

  function highlighted() {
    if (!scanning) return [];
    const row = rows[rowIndex] ?? [];
    return level === "rows" && settings.scan === "row-column" ? row : row[itemIndex] ? [row[itemIndex]] : [];
  }

  function paint() {
    for (const old of root.querySelectorAll(".access-scan-row, .access-scan-item")) {
      old.classList.remove("access-scan-row", "access-scan-item");
    }
    const marked = highlighted();
    const isRow = level === "rows" && settings.scan === "row-column";
    for (const item of marked) item.classList.add(isRow ? "access-scan-row" : "access-scan-item");
    reveal(marked);
  }

  // Scrolls the highlight into view, clear of sticky strips that would cover it.
  function reveal(elements) {
    if (elements.length === 0) return;
    // What a sticky strip covers once it sticks, even if it has not stuck yet: scrolling may make it stick.
    let covered = 0;
    for (const overlay of document.querySelectorAll("[data-access-overlay]")) {
      const style = getComputedStyle(overlay);
      if (style.position !== "sticky" && style.position !== "fixed") continue;
      covered = Math.max(covered, (Number.parseFloat(style.top) || 0) + overlay.getBoundingClientRect().height);
    }
    const margin = 24; // the highlight's ring and halo reach 21 px beyond the item
    const boxes = elements.map((element) => element.getBoundingClientRect());
    const top = Math.min(...boxes.map((box) => box.top)) - margin;
    const bottom = Math.max(...boxes.map((box) => box.bottom)) + margin;
    if (top < covered) scrollBy(0, top - covered);
    else if (bottom > innerHeight) scrollBy(0, Math.min(bottom - innerHeight, top - covered));
    // A board wider than the screen scrolls sideways inside itself.
    elements[0].scrollIntoView?.({ block: "nearest", inline: "nearest" });
    if (elements[0].getBoundingClientRect().top < covered) scrollBy(0, elements[0].getBoundingClientRect().top - margin - covered);
  }

  function restart() {
    rows = buildRows();
    level = "rows";
    rowIndex = 0;
    itemIndex = 0;
    rounds = 0;
    stepAt = now();
    paint();
  }

  function advance() {
    stepAt = now();
    if (rows.length === 0) return restart();
    if (level === "rows" && settings.scan === "row-column") {
      rowIndex = (rowIndex + 1) % rows.length;
      if (rowIndex === 0) rows = buildRows(); // a new round sees the page as it is now
    } else {
      const row = rows[rowIndex] ?? [];
      itemIndex += 1;
      if (itemIndex >= row.length) {
        itemIndex = 0;
        if (settings.scan === "row-column") {
          rounds += 1;
          if (rounds >= 2) level = "rows"; // nothing chosen twice round: back to the rows
        } else {
          rows = buildRows();
        }
      }
    }
    paint();
  }

  function choose() {
    const row = rows[rowIndex] ?? [];
    if (row.length === 0) return restart();
    if (level === "rows" && settings.scan === "row-column" && row.length > 1) {
      level = "items";
      itemIndex = 0;
      rounds = 0;
      stepAt = now();
      return paint();
    }
    const item = level === "rows" && settings.scan === "row-column" ? row[0] : row[itemIndex];
    if (item?.isConnected) select(item, "scan");
    restart();
  }

  // A switch is the only thing Space and Enter do while scanning: no page scroll, no click of whatever
  // has focus. With a hold time, a switch press counts once it has been held that long.
  function switchAction(key) {
    return settings.switches === "two" && key === " " ? advance : choose;
  }
  function isSwitch(event) {
    if (event.key !== " " && event.key !== "Enter") return false;
    if (event.altKey || event.ctrlKey || event.metaKey) return false;
    // Focus on a control outside root (the adult's "leave patient mode" in the header) keeps its keys.
    if (event.target !== document.body && event.target !== document.documentElement && !root.contains(event.target)) return false;
    const field = event.target?.closest?.("input, textarea, select, [contenteditable]");
    return !field || field.type === "checkbox" || field.type === "radio";
  }

  if (scanning) {
    addEventListener("keydown", (event) => {
      if (!isSwitch(event)) return;
      event.preventDefault();
      event.stopPropagation();
      if (event.repeat || keysDown.has(event.key)) return; // a held switch is one press
      keysDown.set(event.key, { at: now(), done: settings.holdMs === 0 });
      if (settings.holdMs === 0) switchAction(event.key)();
    }, true);
    addEventListener("keyup", (event) => {
      if (!isSwitch(event)) return;
      event.preventDefault();
      event.stopPropagation();
      keysDown.delete(event.key);
    }, true);
    addEventListener("blur", () => keysDown.clear());
    restart();
  }

  // --- One clock for every timed thing ---------------------------------------------------------

  function tick() {
    const t = now();
    if (press && !press.done && settings.holdMs > 0) {
      const held = (t - press.at) / settings.holdMs;
      showProgress(press.item, held);
      if (held >= 1 && settings.select === "press") {
        press.done = true;
        hideProgress(press.item);
        select(press.item, "pointer");
      }
    }
    if (dwell && !dwell.done) {
      const rested = (t - dwell.since) / settings.dwellMs;
      if (!dwell.item.isConnected) dwell = null;
      else if (rested >= 1) {
        dwell.done = true; // the pointer must leave and come back to choose it again
        hideProgress(dwell.item);
        select(dwell.item, "dwell");
      } else showProgress(dwell.item, rested);
    }
    if (scanning) {
      for (const [key, state] of keysDown) {
        if (!state.done && t - state.at >= settings.holdMs) {
          state.done = true;
          switchAction(key)();
        }
      }
      if (autoAdvance && t - stepAt >= settings.scanMs) advance();
    }
  }

  if (scanning || settings.dwellMs > 0 || settings.holdMs > 0) setInterval(tick, TICK_MS);

  // restart(): the page changed what can be chosen (a dialog opened or closed): scan it from the top.
  const api = { settings, highlighted, restart: () => { if (scanning) restart(); } };
  window.tagarelaAccess = api;
  return api;
}
