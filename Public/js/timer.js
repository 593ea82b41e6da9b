// The visual timer: counts down HH:MM:SS while an animal crosses the screen at an even speed,
// pauses and resumes, and sounds the alarm at zero. The end time lives in localStorage, so a
// reload (or a tablet that went to sleep) carries on where it was.

import { installAccess } from "./access.js";

// Offline, the service worker answers a new timer's address (/timer?start=1&symbol=…&hours=…&minutes=…)
// with the kept form page. The run is then drawn here, from the form's activities and the page's
// blank run; its key is the one the server gives the same address, so once the network is back a
// reload carries on with it.
function drawRunOffline() {
  const setup = document.getElementById("timer-setup");
  const blank = document.getElementById("timer-run");
  const params = new URLSearchParams(location.search);
  if (!setup || !blank || !params.has("start")) return null;
  const activity = [...document.querySelectorAll("[data-activity]")]
    .find((choice) => choice.value !== "" && choice.value === params.get("symbol"));
  // Within the form's own bounds (its inputs' max), as the server checks them.
  const field = (name) => {
    const text = (params.get(name) ?? "").trim();
    const value = text === "" ? 0 : Number(text);
    return Number.isInteger(value) && value >= 0 && value <= Number(document.getElementById(name).max) ? value : NaN;
  };
  const seconds = field("hours") * 3600 + field("minutes") * 60;
  if (!activity || !(seconds > 0)) return null; // the form stays, as the server would show it
  let at = Number(params.get("at"));
  if (!Number.isInteger(at) || at <= 0) {
    at = Math.floor(Date.now() / 1000);
    params.set("at", String(at));
    history.replaceState(null, "", `${location.pathname}?${params}`);
  }
  const run = blank.content.firstElementChild.cloneNode(true);
  run.dataset.seconds = String(seconds);
  run.dataset.key = `${run.dataset.key}-${activity.value}-${seconds}-${at}`;
  run.querySelector(".timer-activity img").src = activity.dataset.image;
  const name = run.querySelector(".timer-activity-name");
  name.textContent = activity.dataset.label;
  if (activity.dataset.lang) name.lang = activity.dataset.lang;
  setup.replaceWith(run);
  return run;
}

// The child's durations: the presets, and ±1 minute from the one chosen (1 to 59), shown as one more choice.
function installSteps() {
  const durations = document.querySelector(".timer-durations");
  // Beside the durations, not in their fieldset: a radio group holds its radios only.
  const steps = document.querySelector(".timer-steps");
  if (!durations || !steps) return;
  const custom = durations.querySelector(".timer-custom");
  const customInput = custom.querySelector("input");
  steps.hidden = false;
  steps.addEventListener("click", (event) => {
    const step = Number(event.target.closest("[data-step]")?.dataset.step);
    if (!step) return;
    const chosen = durations.querySelector("input[name=minutes]:checked");
    const minutes = Math.min(59, Math.max(1, (Number(chosen?.value) || 5) + step));
    const preset = [...durations.querySelectorAll(".timer-preset:not(.timer-custom) input")]
      .find((input) => Number(input.value) === minutes);
    if (preset) {
      preset.checked = true;
      custom.hidden = true;
    } else {
      customInput.value = String(minutes);
      custom.querySelector(".timer-choice-label").textContent =
        durations.dataset.minutesLabel.replace("{count}", String(minutes));
      custom.hidden = false;
      customInput.checked = true;
    }
  });
}

installSteps();
/**
 * A long word ("enfermeira", "fisioterapeuta") shrinks to fit its tile instead of breaking in two, down to
 * 10 px; the stylesheet's size stands for every word that fits.
 */
function fitChoiceLabels() {
  for (const label of document.querySelectorAll(".timer-activities .timer-choice-label")) {
    label.style.removeProperty("font-size");
    let size = parseFloat(getComputedStyle(label).fontSize);
    while (label.scrollWidth > label.clientWidth + 1 && size > 10) {
      size -= 0.5;
      label.style.fontSize = `${size}px`;
    }
  }
}
fitChoiceLabels();
document.fonts?.ready.then(fitChoiceLabels);
addEventListener("resize", fitChoiceLabels);

const timer = document.getElementById("timer") ?? drawRunOffline();

if (timer) {
  const total = Number(timer.dataset.seconds) * 1000;
  const key = `tagarela-${timer.dataset.key}`;
  const clock = timer.querySelector(".timer-clock");
  const animal = timer.querySelector(".timer-animal");
  const track = timer.querySelector(".timer-track");
  const status = timer.querySelector(".timer-status");
  const toggle = timer.querySelector(".timer-toggle");
  const alarm = timer.querySelector(".timer-alarm");

  // { end: ms since epoch while running, left: ms while paused, done: true once the alarm rang }
  const load = () => {
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch { return null; }
  };
  const save = (state) => {
    try { localStorage.setItem(key, JSON.stringify(state)); } catch { /* the timer still runs */ }
  };

  // Tests may set window.tagarelaClock to run the clock fast; everyone else gets the real time.
  const now = () => (window.tagarelaClock ? window.tagarelaClock() : Date.now());

  let state = load() || { end: now() + total };
  save(state);

  const pad = (n) => String(n).padStart(2, "0");
  const label = (ms) => {
    const s = Math.ceil(ms / 1000);
    return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  };

  function render() {
    const left = Math.max(0, state.left ?? state.end - now());
    clock.textContent = label(left);
    const travel = Math.max(0, track.clientWidth - animal.clientWidth);
    // CSSOM, not a style attribute: the page's CSP forbids inline styles, not this.
    animal.style.transform = `translateX(${Math.round(travel * (1 - left / total))}px)`;
    if (left === 0 && !state.done) {
      state = { ...state, done: true, left: 0 };
      save(state);
      status.textContent = timer.dataset.doneText;
      timer.classList.add("is-done");
      toggle.hidden = true;
      alarm?.play().catch(() => {});
    }
  }

  toggle.addEventListener("click", () => {
    if (state.done) return;
    if (state.left !== undefined) {
      state = { end: now() + state.left };
      toggle.textContent = timer.dataset.pauseText;
    } else {
      state = { left: Math.max(0, state.end - now()) };
      toggle.textContent = timer.dataset.resumeText;
    }
    save(state);
    render();
  });

  if (state.left !== undefined && !state.done) toggle.textContent = timer.dataset.resumeText;
  if (state.done) { status.textContent = timer.dataset.doneText; toggle.hidden = true; timer.classList.add("is-done"); }
  render();
  setInterval(render, 250);
  installAccess(timer); // pause and "new timer" by the patient's own access method
  window.tagarelaTimer = { state: () => ({ ...state }) };
}
