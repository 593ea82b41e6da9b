// The normal games (no timer, no lives, no end) and the challenges (a countdown per question,
// lives, a record), for the moving numbers, vowels and letters and for conta-cops.
import { later, now, cancelAll } from "./clock.js";
import { say, sayInOrder, pick } from "./sound.js";
import * as rules from "./challenge.js";
import { Mover } from "./mover.js";
import { mark, markSpot, clearMarks } from "./feedback.js";
import { setUpAccess, isUntimed } from "./play.js";

const pauseAfterAnswer = 1200; // ms: the feedback clip, then the next question
const syllablesAfter = 1200; // conta-cops: the syllabified reading after the feedback…
const countAfter = 3000; // …and the count 3 s after that, as in the lesson
const syllableStep = 550; // ms: the pause between syllables of the syllabified reading (the clip's full stops)
const zeroShownFor = 500; // ms: a question that runs out shows 0 this long before the life goes
const recordPause = 3600; // ms: the fanfare (1.6 s) and "nou record!!" said aloud, before the next question
const celebrationShownFor = 3000; // ms: the stars stay on screen while the record is said

export function setUpGame(root, queue) {
  const isChallenge = root.dataset.mode === "challenge";
  const isContaCops = root.dataset.area === "conta-cops";
  const untimed = isChallenge && isUntimed(root);
  const q = (selector) => root.querySelector(selector);
  const question = q(".educat-question");
  const repeat = q(".educat-repeat");
  const hitsOut = q(".educat-hits"), errorsOut = q(".educat-errors");
  const livesOut = q(".educat-lives"), recordOut = q(".educat-record"), timeOut = q(".educat-time");
  const dialog = q(".educat-end");
  const celebrationBanner = q(".educat-celebration:not(.educat-level-up)");
  const clips = (kind) => [...root.querySelectorAll(`.educat-feedback [data-kind="${kind}"]`)].map((li) => li.dataset.clip);
  const congratulations = clips("congratulation"), scoldings = clips("scolding");
  const settings = { seconds: Number(root.dataset.seconds), lives: Number(root.dataset.lives) };

  const access = setUpAccess(root);
  let game = rules.newChallenge(settings, Number(root.dataset.record));
  let hits = 0, errors = 0; // the normal game's counters
  let target = null; // the item or word asked for; null when no question is open
  let deadline = null; // challenge: when the open question runs out
  let startedAt = null; // on the games' clock, as every rule the server checks the result against
  let posted = false;
  let lastResponse = null;
  let recordAnnounced = false; // challenge: the new record was celebrated during this game (once)

  // ---- the items: moving buttons, or a picture with answers 1–5 ----
  const area = q(".educat-area");
  const items = [...root.querySelectorAll(".educat-item")];
  const mover = items.length ? new Mover(area, items, { speed: root.dataset.speed, limit: root.dataset.items }) : null;
  const words = [...root.querySelectorAll(".educat-words li")].map((li) => ({ ...li.dataset, count: Number(li.dataset.count) }));
  const answers = [...root.querySelectorAll(".educat-answer")];
  const picture = q(".educat-picture"), syllables = q(".educat-syllables"), count = q(".educat-count");
  // The picture's <img> is made here: an <img> without a src is invalid HTML until a word is asked.
  picture?.appendChild(Object.assign(document.createElement("img"), { alt: "", width: 240, height: 240 }));

  if (untimed) {
    root.classList.add("is-untimed");
    timeOut.closest("p").hidden = true;
  }

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

  /** The seconds left, counted down while a question is open. */
  function showTime() {
    if (!isChallenge || untimed || deadline === null) return;
    const left = Math.max(0, Math.ceil((deadline - now()) / 1000));
    if (timeOut.textContent !== String(left)) timeOut.textContent = left;
  }

  const runOut = () => deadline !== null && now() >= deadline;

  /** The countdown starts once the child can see the question: the play area is scrolled into view first. */
  function startCountdown() {
    if (!isChallenge || untimed) return;
    const board = area ?? q(".educat-cops");
    const box = board.getBoundingClientRect();
    if (box.top < 0 || box.bottom > innerHeight) board.scrollIntoView({ block: "nearest" });
    deadline = now() + settings.seconds * 1000;
    timeOut.textContent = settings.seconds;
  }

  /** When the area cannot show every item, a round shows the asked one and as many others as fit. */
  function showRound() {
    if (mover.capacity >= items.length && mover.shown().length === items.length) return;
    const others = items.filter((item) => item !== target).sort(() => Math.random() - 0.5);
    mover.show([target, ...others]);
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
      showRound();
      mover.start();
      say(target.dataset.clip);
    }
    startCountdown();
    repeat.hidden = false;
    emit("educat:ask", { item: asked() });
  }

  // Per-item answers (answers.js listens; docs/decisions/0028-educat-levels-and-results.md "eduCAT levels and results").
  const emit = (name, detail = {}) => root.dispatchEvent(new CustomEvent(name, { detail }));
  const asked = () => (target ? (isContaCops ? target.word : target.dataset.item) : null);

  /**
   * Conta-cops, after an answer (seed 002, step 8): the word read again with pauses marking its
   * syllables, each syllable joining the line as it is said, then the total.
   */
  function reveal(word, after = syllablesAfter) {
    later(after, () => {
      const parts = word.syllables.split(" - ");
      syllables.textContent = parts[0];
      syllables.hidden = false;
      say(word.syllablesClip);
      parts.slice(1).forEach((_, i) => later((i + 1) * syllableStep, () => {
        syllables.textContent = parts.slice(0, i + 2).join(" - ");
      }));
      later(countAfter, () => {
        count.textContent = word.count;
        count.hidden = false;
        say(word.countClip);
      });
    });
  }

  /**
   * outcome: "hit", "miss" or "timeout"; `chosen` is the element tapped (none for a timeout or empty space),
   * `tapped` what it names for the per-item answers (the item, the word count, or "").
   */
  function answer(outcome, chosen = null, tapped = null) {
    emit("educat:answer", { item: asked(), tapped, outcome });
    settle(outcome, chosen);
    repeat.hidden = !target;
  }

  function settle(outcome, chosen) {
    if (!target) return;
    const word = target;
    mark(chosen, outcome === "hit" ? "right" : "wrong");
    const feedback = outcome === "hit" ? pick(congratulations) : pick(scoldings);
    if (!isChallenge) {
      say(feedback);
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
    // Back to the full seconds for the next question (a run-out question shows its 0 a moment first).
    if (!untimed && outcome !== "timeout") timeOut.textContent = settings.seconds;
    show();
    answers.forEach((button) => { button.disabled = true; });
    if (game.phase === "over") {
      target = null;
      end(feedback, isContaCops ? word : null);
      return;
    }
    // The hit that passes the stored record is celebrated there and then, once a game: the fanfare
    // and "nou record!!" instead of the praise, and a longer pause so the next question does not cut it.
    const celebrating = outcome === "hit" && !recordAnnounced && rules.isNewRecord(game);
    if (celebrating) celebrate(); else say(feedback);
    const extra = celebrating ? recordPause - pauseAfterAnswer : 0;
    const pause = (isContaCops ? syllablesAfter + countAfter + 1000 : pauseAfterAnswer) + extra;
    if (isContaCops) reveal(word, syllablesAfter + extra);
    target = null;
    later(pause, () => { if (game.phase === "asking") ask(); });
  }

  /** A new record, the moment it is beaten: stars on screen and the record said aloud, once a game. */
  function celebrate() {
    recordAnnounced = true;
    sayInOrder([root.dataset.celebration, root.dataset.newRecordClip]);
    if (!celebrationBanner) return;
    celebrationBanner.hidden = false;
    later(celebrationShownFor, () => { celebrationBanner.hidden = true; });
  }

  function result(livesLeft) {
    const fields = {
      area: root.dataset.area, mode: isChallenge ? "challenge" : "normal",
      hits: isChallenge ? game.hits : hits, errors: isChallenge ? game.errors : errors,
      duration: Math.round((now() - (startedAt ?? now())) / 1000),
    };
    if (isChallenge) {
      Object.assign(fields, { lives: game.livesAtStart, livesLeft, seconds: settings.seconds });
      // A challenge left half-way keeps a record only when the child was told of it (the server decides).
      if (recordAnnounced) fields.announced = "1";
    }
    Object.assign(fields, { key: root.dataset.gameKey || "", level: root.dataset.level || "" });
    return fields;
  }

  /**
   * The result joins the patient's one queue (event-queue.js) behind the game's answers: kept offline
   * and across a reload, sent once the network is back, stored once (the game key is its idempotency
   * key), and the record decided by the server when it arrives.
   */
  function post(fields) {
    posted = true;
    queue.add({ _url: root.dataset.resultUrl, _kind: "educat-result", ...fields });
  }
  root.addEventListener("educat:result", (event) => { lastResponse = event.detail; });

  /**
   * The game is over, and says so as the original does (seed 002, mostrarMsg): "NOU RECORD!!" and
   * "Felicitats!!" after a beaten record, "GAME OVER!!" and "Fi de partida!!" after any other game,
   * shown and spoken after the last miss's scolding. A record celebrated when it was beaten gets no
   * second fanfare, only its words; a page that somehow missed it celebrates here.
   */
  function end(lastFeedback, word = null) {
    mover?.stop();
    repeat.hidden = true;
    const newRecord = rules.isNewRecord(game);
    const announceNow = newRecord && !recordAnnounced;
    if (announceNow) recordAnnounced = true;
    if (celebrationBanner) celebrationBanner.hidden = true;
    emit("educat:end");
    post(result(0));
    if (!word) {
      showEnd(lastFeedback, newRecord, announceNow);
      return;
    }
    // Conta-cops ending on a miss: that word's syllables and count first, then the pop-up.
    say(lastFeedback);
    reveal(word);
    later(syllablesAfter + countAfter + 1500, () => showEnd(null, newRecord, announceNow));
  }

  function showEnd(lastFeedback, newRecord, announceNow) {
    const ending = !newRecord ? [root.dataset.gameOverClip]
      : announceNow ? [root.dataset.celebration, root.dataset.newRecordClip] : [root.dataset.newRecordClip];
    sayInOrder([lastFeedback, ...ending]);
    dialog.classList.toggle("is-record", newRecord);
    q(".educat-end-title").textContent = newRecord ? root.dataset.newRecordTitle : root.dataset.gameOverTitle;
    q(".educat-end-message").textContent = newRecord ? root.dataset.newRecordMessage : root.dataset.gameOverMessage;
    if (dialog.showModal) dialog.showModal(); else dialog.setAttribute("open", "");
    access.restart(); // a switch now scans the pop-up's choices: play again, or go back
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
    if (timeOut) timeOut.textContent = settings.seconds;
    clearMarks(root);
    question.hidden = false;
    question.focus();
    access.restart();
  }

  // "Escolta": the open question once more (the seed had none; a child forgets).
  repeat.addEventListener("click", () => {
    if (target) say(isContaCops ? target.clip : target.dataset.clip);
  });

  question.addEventListener("click", () => {
    if (isChallenge) {
      if (game.phase === "asking") return;
      cancelAll();
      clearMarks(root);
      game = rules.start(game);
      posted = false;
      recordAnnounced = false;
      if (celebrationBanner) celebrationBanner.hidden = true;
      startedAt = now();
      emit("educat:start");
      question.hidden = true;
      show();
    } else if (startedAt === null) {
      startedAt = now();
      emit("educat:start");
    }
    ask();
  });

  // Items and answers are chosen by their click: a tap (access.js turns the press into a click, and
  // honours the patient's hold, release or dwell), a key, or a switch while scanning.
  const choose = (element) => {
    if (!target || isContaCops || runOut()) return;
    answer(element === target ? "hit" : "miss", element, element?.dataset.item ?? "");
  };
  area?.addEventListener("click", (event) => {
    const item = event.target.closest(".educat-item");
    if (item) choose(item);
  });
  // A tap on empty space is a wrong answer at once, with its cross where the finger landed.
  area?.addEventListener("pointerdown", (event) => {
    if (event.button > 0 || event.target.closest(".educat-item") || !target || runOut()) return;
    const box = area.getBoundingClientRect();
    markSpot(area, event.clientX - box.left, event.clientY - box.top);
    answer("miss", null, "");
  });
  // Digits and letters typed on a keyboard answer too (GCompris accepts keys): the item on screen
  // whose symbol is the key (another of the game's symbols is a wrong answer, any other key nothing);
  // conta-cops takes the digits 1–5.
  document.addEventListener("keydown", (event) => {
    if (!target || runOut() || event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1) return;
    if (dialog.open || event.target.closest?.("input, textarea, select")) return;
    const key = event.key.toLocaleLowerCase();
    if (isContaCops) {
      answers.find((button) => button.dataset.answer === key)?.click();
      return;
    }
    const named = (element) => element.dataset.item.toLocaleLowerCase() === key;
    if (!items.some(named)) return; // not a symbol of this game: nothing happens
    event.preventDefault();
    const typed = mover.shown().find(named);
    if (typed) typed.click();
    else answer("miss", null, key);
  });

  answers.forEach((button) => button.addEventListener("click", () => {
    if (!target || runOut()) return;
    answer(Number(button.dataset.answer) === target.count ? "hit" : "miss", button, button.dataset.answer);
  }));

  setInterval(() => {
    showTime();
    if (isChallenge && target && deadline !== null && now() >= deadline + zeroShownFor) answer("timeout", null);
  }, 100);

  // A normal game has no end of its own: Pregunta after answers starts no new game, so its result is
  // queued when the child leaves (the queue keeps it if the request is cut by the navigation).
  // Leaving: a normal game with answers is a finished game; a challenge under way is abandoned,
  // and kept when at least one question was answered.
  window.addEventListener("pagehide", () => {
    if (posted) return;
    const answered = isChallenge ? game.phase === "asking" && game.hits + game.errors > 0 : hits + errors > 0;
    if (!answered) return;
    post(result(isChallenge ? game.lives : undefined));
  });

  show();
  window.tagarelaEducat = Object.assign(window.tagarelaEducat || {}, {
    state: () => ({
      phase: isChallenge ? game.phase : "normal",
      target: target ? (isContaCops ? target.word : target.dataset.item) : null,
      answer: isContaCops && target ? target.count : null,
      hits: isChallenge ? game.hits : hits, errors: isChallenge ? game.errors : errors,
      lives: isChallenge ? game.lives : null, record: rules.recordOf(game),
      time: timeOut ? Number(timeOut.textContent) : null, posted, response: lastResponse, untimed, recordAnnounced,
    }),
    frames: () => mover?.frames ?? 0,
    busy: () => mover?.busy ?? 0,
    shown: () => mover?.shown().map((item) => item.dataset.item) ?? [],
    sample: (n) => Array.from({ length: n }, () => pick(items.length ? items : words)).map((x) => x.dataset?.item ?? x.word),
  });
}
