// The normal games (no timer, no lives, no end) and the challenges (a countdown per question,
// lives, a record), for the moving numbers, vowels and letters and for conta-cops.
import { later, now, cancelAll } from "./clock.js";
import { say, pick } from "./sound.js";
import * as rules from "./challenge.js";
import { Mover } from "./mover.js";

const pauseAfterAnswer = 1200; // ms: the feedback clip, then the next question
const syllablesAfter = 1200; // conta-cops: the syllabified reading after the feedback…
const countAfter = 3000; // …and the count 3 s after that, as in the lesson

export function setUpGame(root) {
  const isChallenge = root.dataset.mode === "challenge";
  const isContaCops = root.dataset.area === "conta-cops";
  const q = (selector) => root.querySelector(selector);
  const question = q(".educat-question");
  const repeat = q(".educat-repeat");
  const hitsOut = q(".educat-hits"), errorsOut = q(".educat-errors");
  const livesOut = q(".educat-lives"), recordOut = q(".educat-record"), timeOut = q(".educat-time");
  const dialog = q(".educat-end");
  const clips = (kind) => [...root.querySelectorAll(`.educat-feedback [data-kind="${kind}"]`)].map((li) => li.dataset.clip);
  const congratulations = clips("congratulation"), scoldings = clips("scolding");
  const settings = { seconds: Number(root.dataset.seconds), lives: Number(root.dataset.lives) };

  let game = rules.newChallenge(settings, Number(root.dataset.record));
  let hits = 0, errors = 0; // the normal game's counters
  let target = null; // the item or word asked for; null when no question is open
  let deadline = null; // challenge: when the open question runs out
  let startedAt = null; // real time, for the duration
  let posted = false;
  let lastResponse = null;

  // ---- the items: moving buttons, or a picture with answers 1–5 ----
  const items = [...root.querySelectorAll(".educat-item")];
  const mover = items.length ? new Mover(q(".educat-area"), items) : null;
  const words = [...root.querySelectorAll(".educat-words li")].map((li) => ({ ...li.dataset, count: Number(li.dataset.count) }));
  const answers = [...root.querySelectorAll(".educat-answer")];
  const picture = q(".educat-picture"), syllables = q(".educat-syllables"), count = q(".educat-count");

  function show() {
    if (isChallenge) {
      hitsOut.textContent = game.hits;
      livesOut.textContent = rules.livesText(game.lives);
      recordOut.textContent = rules.recordOf(game);
    } else {
      hitsOut.textContent = hits;
      errorsOut.textContent = errors;
    }
  }

  function showTime() {
    if (!isChallenge) return;
    const left = deadline === null ? settings.seconds : Math.max(0, Math.ceil((deadline - now()) / 1000));
    if (timeOut.textContent !== String(left)) timeOut.textContent = left;
  }

  function ask() {
    if (isContaCops) {
      target = pick(words);
      picture.querySelector("img").src = target.picture;
      picture.querySelector("img").alt = target.word;
      picture.hidden = false;
      syllables.hidden = true;
      count.hidden = true;
      answers.forEach((button) => { button.disabled = false; });
      say(target.clip);
    } else {
      target = pick(items);
      mover.start();
      say(target.dataset.clip);
    }
    if (isChallenge) deadline = now() + settings.seconds * 1000;
    repeat.hidden = false;
    emit("educat:ask", { item: asked() });
  }

  // Per-item answers (answers.js listens; docs/decisions.md "eduCAT levels and results").
  const emit = (name, detail = {}) => root.dispatchEvent(new CustomEvent(name, { detail }));
  const asked = () => (target ? (isContaCops ? target.word : target.dataset.item) : null);

  function reveal(word) {
    later(syllablesAfter, () => {
      syllables.textContent = word.syllables;
      syllables.hidden = false;
      say(word.syllablesClip);
      later(countAfter, () => {
        count.textContent = word.count;
        count.hidden = false;
        say(word.countClip);
      });
    });
  }

  /** outcome: "hit", "miss" or "timeout"; tapped: the item, word count or "" tapped. */
  function answer(outcome, tapped = null) {
    emit("educat:answer", { item: asked(), tapped, outcome });
    settle(outcome);
    repeat.hidden = !target;
  }

  function settle(outcome) {
    if (!target) return;
    const word = target;
    say(outcome === "hit" ? pick(congratulations) : pick(scoldings));
    if (!isChallenge) {
      if (outcome === "hit") hits += 1; else errors += 1;
      show();
      if (isContaCops) {
        answers.forEach((button) => { button.disabled = true; });
        reveal(word);
        target = null;
        question.disabled = true;
        later(syllablesAfter + countAfter, () => { question.disabled = false; });
      } else if (outcome === "hit") {
        target = null; // wrong taps keep the question open; the next one comes with Pregunta
      }
      return;
    }
    game = rules.answer(game, outcome);
    deadline = null;
    show();
    showTime();
    answers.forEach((button) => { button.disabled = true; });
    if (game.phase === "over") {
      target = null;
      end();
      return;
    }
    const pause = isContaCops ? syllablesAfter + countAfter + 1000 : pauseAfterAnswer;
    if (isContaCops) reveal(word);
    target = null;
    later(pause, () => { if (game.phase === "asking") ask(); });
  }

  function result(livesLeft) {
    const fields = {
      area: root.dataset.area, mode: isChallenge ? "challenge" : "normal",
      hits: isChallenge ? game.hits : hits, errors: isChallenge ? game.errors : errors,
      duration: Math.round((Date.now() - (startedAt ?? Date.now())) / 1000),
    };
    if (isChallenge) Object.assign(fields, { lives: game.livesAtStart, livesLeft, seconds: settings.seconds });
    Object.assign(fields, { key: root.dataset.gameKey || "", level: root.dataset.level || "" });
    return new URLSearchParams({ _csrf: root.dataset.csrf, ...fields });
  }

  function post(body) {
    posted = true;
    return fetch(root.dataset.resultUrl, { method: "POST", body, credentials: "same-origin" })
      .then((response) => response.json().then((json) => ({ status: response.status, ...json })))
      .then((json) => { lastResponse = json; return json; })
      .catch(() => null);
  }

  function end() {
    mover?.stop();
    repeat.hidden = true;
    const newRecord = rules.isNewRecord(game);
    emit("educat:end");
    post(result(0));
    q(".educat-end-title").textContent = newRecord ? root.dataset.newRecordTitle : root.dataset.gameOverTitle;
    q(".educat-end-message").textContent = newRecord ? root.dataset.newRecordMessage : root.dataset.gameOverMessage;
    if (dialog.showModal) dialog.showModal(); else dialog.setAttribute("open", "");
  }

  dialog.querySelector(".educat-end-ok").addEventListener("click", () => {
    if (dialog.close) dialog.close(); else dialog.removeAttribute("open");
    afterEnd();
  });
  // OK or Escape: either way the pop-up is gone and the screen is ready for a new game.
  dialog.addEventListener("close", afterEnd);

  function afterEnd() {
    if (game.phase !== "over") return;
    // Ready for a new game: counters from zero, the record kept, Pregunta back.
    game = { ...rules.newChallenge(settings, rules.recordOf(game)) };
    show();
    showTime();
    question.hidden = false;
    question.focus();
  }

  // "Escolta": the open question once more (the seed had none; a child forgets).
  repeat.addEventListener("click", () => {
    if (target) say(isContaCops ? target.clip : target.dataset.clip);
  });

  question.addEventListener("click", () => {
    if (isChallenge) {
      if (game.phase === "asking") return;
      cancelAll();
      game = rules.start(game);
      posted = false;
      startedAt = Date.now();
      emit("educat:start");
      question.hidden = true;
      show();
    } else if (startedAt === null) {
      startedAt = Date.now();
      emit("educat:start");
    }
    ask();
    showTime();
  });

  // A tap lands at once (pointerdown, as the seed's touchesBegan); a key press arrives as a click.
  const choose = (element) => {
    if (!target || isContaCops) return;
    answer(element && element === target ? "hit" : "miss", element?.dataset.item ?? "");
  };
  const area = q(".educat-area");
  area?.addEventListener("pointerdown", (event) => {
    if (event.button > 0) return;
    choose(event.target.closest(".educat-item"));
  });
  area?.addEventListener("click", (event) => {
    if (event.detail === 0) choose(event.target.closest(".educat-item"));
  });
  answers.forEach((button) => button.addEventListener("click", () => {
    if (!target) return;
    answer(Number(button.dataset.answer) === target.count ? "hit" : "miss", button.dataset.answer);
  }));

  setInterval(() => {
    showTime();
    if (isChallenge && deadline !== null && target && now() >= deadline) answer("timeout");
  }, 100);

  // Leaving: a normal game with answers is a finished game; a challenge under way is abandoned,
  // and kept when at least one question was answered.
  window.addEventListener("pagehide", () => {
    if (posted) return;
    const answered = isChallenge ? game.phase === "asking" && game.hits + game.errors > 0 : hits + errors > 0;
    if (!answered) return;
    posted = true;
    navigator.sendBeacon(root.dataset.resultUrl, result(isChallenge ? game.lives : undefined));
  });

  show();
  window.tagarelaEducat = Object.assign(window.tagarelaEducat || {}, {
    state: () => ({
      phase: isChallenge ? game.phase : "normal",
      target: target ? (isContaCops ? target.word : target.dataset.item) : null,
      answer: isContaCops && target ? target.count : null,
      hits: isChallenge ? game.hits : hits, errors: isChallenge ? game.errors : errors,
      lives: isChallenge ? game.lives : null, record: rules.recordOf(game),
      time: timeOut ? Number(timeOut.textContent) : null, posted, response: lastResponse,
    }),
    frames: () => mover?.frames ?? 0,
    busy: () => mover?.busy ?? 0,
    sample: (n) => Array.from({ length: n }, () => pick(items.length ? items : words)).map((x) => x.dataset?.item ?? x.word),
  });
}
