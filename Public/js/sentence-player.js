// The sentence builder (seed 001): subject → verb → complement, each step showing only the words the
// last choice allows. A chosen word speaks at once; NO crosses the verb and says "não"/"no" before it;
// "?" makes a question. Speak plays the whole sentence's clip when the sentence was said before, else
// the word clips in order, and logs the sentence; the server then makes the whole clip for next time.
// A word says the form that agrees with the chosen subject ("você quer", "tu vols"): the page carries
// each word's forms by subject (data-forms), worked out on the server. As each word is chosen the page
// asks for the whole clips of the sentence so far (plain, "?", NO), so the first question sounds like one.

import { installAccess } from "./access.js";
import { fitLabels, keepFitted, layoutChoices } from "./board-fit.js";
import { lazyClip } from "./clip.js";
import { createEventQueue } from "./event-queue.js";

const player = document.getElementById("sentence-player");

if (player) {
  const { tapUrl, clipsUrl, csrf = "", plan = "", offlineText = "", sentText = "", questionOpen = "", negationAudio } = player.dataset;
  const known = new Map(Object.entries(JSON.parse(player.dataset.knownClips || "{}")));
  const steps = JSON.parse(player.dataset.steps || "{}");
  const cells = [...player.querySelectorAll(".cell[data-word]")];
  const byId = new Map(cells.map((cell) => [cell.dataset.word, cell]));
  const openers = cells.filter((cell) => !cell.hidden).map((cell) => cell.dataset.word);
  const stripWords = player.querySelector(".strip-words");
  const stepTitle = player.querySelector(".sentence-step");
  const noButton = player.querySelector(".sentence-no");
  const questionButton = player.querySelector(".sentence-question");
  const quietBox = player.querySelector(".strip-quiet");
  const played = []; // clip URLs that really reached "playing", in order (for tests and for us)
  const clips = new Map(); // url → its Audio
  const chosen = []; // the cells chosen, in order
  let negated = false;
  let question = false;
  let current = null;
  let speakRun = 0;
  let refit = () => {};
  const pending = new Map(); // "1,2" → the ask for that sentence's whole clips, while it runs

  // The subject the sentence is about: its first word when that is a subject, else none ("").
  const subjectOf = (cells) => (cells[0]?.dataset.role === "subject" ? cells[0].dataset.word : "");
  const formsOf = (cell) => {
    if (!cell.formsCache) cell.formsCache = JSON.parse(cell.dataset.forms || "{}");
    return cell.formsCache;
  };
  // [label, clip URL] of the form `cell` takes in a sentence about `subject`.
  function formOf(cell, subject) {
    const form = formsOf(cell)[subject];
    return form ? [form[0], form[1] || cell.dataset.audio] : [cell.dataset.label, cell.dataset.audio];
  }

  const sentenceKey = () => `${chosen.map((cell) => cell.dataset.word).join(",")}|${negated ? 1 : 0}|${question ? 1 : 0}`;

  const queue = createEventQueue({
    url: tapUrl,
    csrf,
    offlineText,
    sentText,
    status: player.querySelector(".offline-status"),
    onSent: async (event, response) => {
      if (!event.words) return;
      const { clip } = await response.json();
      if (clip) known.set(`${event.words}|${event.negated}|${event.question}`, clip);
    },
  });

  // --- Sound -------------------------------------------------------------------------------

  // A clip loaded when first played (clip.js); `options.read` fetches its bytes at once.
  function clipFor(url, options) {
    if (!url) return null;
    if (!clips.has(url)) {
      const clip = lazyClip(url, options);
      clip.addEventListener("playing", () => played.push(url));
      clips.set(url, clip);
    }
    return clips.get(url);
  }

  function play(clip) {
    if (current && !current.paused) current.pause();
    current = clip;
    clip.currentTime = 0;
    return clip.play();
  }

  function playInOrder(urls) {
    const run = ++speakRun;
    const queued = urls.map(clipFor).filter(Boolean);
    const next = () => {
      if (run !== speakRun || queued.length === 0) return;
      const clip = queued.shift();
      let done = false;
      const advance = () => {
        if (done) return;
        done = true;
        next();
      };
      clip.addEventListener("ended", advance, { once: true });
      play(clip).catch(advance); // an unplayable clip: go on with the next word
    };
    next();
  }

  // The word clips in order, with the NO word before the first verb.
  function wordClips() {
    const urls = [];
    let negationPlaced = false;
    const subject = subjectOf(chosen);
    for (const cell of chosen) {
      if (negated && !negationPlaced && cell.dataset.role === "verb") {
        urls.push(negationAudio);
        negationPlaced = true;
      }
      urls.push(formOf(cell, subject)[1]);
    }
    if (negated && !negationPlaced) urls.push(negationAudio); // "eu não": said, though no verb followed
    return urls.filter(Boolean);
  }

  // Asks for the whole clips of the sentence as it stands; they are made while the child goes on.
  function prepare() {
    const words = chosen.map((cell) => cell.dataset.word).join(",");
    if (!clipsUrl || !words || pending.has(words)) return;
    const ask = fetch(`${clipsUrl}?words=${encodeURIComponent(words)}`, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : {}))
      .then((made) => {
        for (const [key, url] of Object.entries(made)) {
          known.set(key, url);
          clipFor(url, { read: true }); // made after the boards were kept: fetched now, played soon
        }
      })
      .catch(() => {}) // offline: the word clips will do
      .finally(() => pending.delete(words));
    pending.set(words, ask);
  }

  async function speak() {
    if (chosen.length === 0) return;
    const words = chosen.map((cell) => cell.dataset.word).join(",");
    const key = sentenceKey();
    const sentence = { plan, words, negated: negated ? 1 : 0, question: question ? 1 : 0 };
    const wordUrls = wordClips();
    let whole = known.get(key);
    if (!whole && pending.has(words)) {
      // Its clip is being made (a second or two at most): wait for it rather than speak it flat.
      await Promise.race([pending.get(words), new Promise((resolve) => setTimeout(resolve, 4000))]);
      whole = known.get(key);
    }
    playInOrder(whole ? [whole] : wordUrls);
    queue.add(sentence);
  }

  // --- Steps -------------------------------------------------------------------------------

  const hasVerb = () => chosen.some((cell) => cell.dataset.role === "verb");

  function allowedNext() {
    if (chosen.length === 0) return openers;
    return (chosen.at(-1).dataset.next || "").split(" ").filter((id) => byId.has(id));
  }

  function render() {
    const allowed = new Set(allowedNext());
    let firstShown = null;
    const subject = subjectOf(chosen);
    for (const cell of cells) {
      cell.hidden = !allowed.has(cell.dataset.word);
      if (!cell.hidden) {
        firstShown ??= cell;
        // Offered in the form that agrees: after "você", "quero" reads "quer".
        const label = cell.querySelector(".cell-label");
        const [text] = formOf(cell, chosen.length ? subject : subjectOf([cell]));
        if (label && label.textContent !== text) label.textContent = text;
      }
    }
    const last = chosen.at(-1)?.dataset.role;
    const step = allowed.size === 0 ? "done" : !last ? "start" : last === "subject" ? "verb" : "complement";
    stepTitle.textContent = steps[step] ?? "";
    player.dataset.step = step;

    // NO may come right after the subject, in speaking order ("eu não…"): it waits for the verb.
    if (chosen.length === 0) negated = false;
    noButton.disabled = chosen.length === 0;
    noButton.setAttribute("aria-pressed", String(negated));
    questionButton.disabled = chosen.length === 0;
    if (chosen.length === 0) question = false;
    questionButton.setAttribute("aria-pressed", String(question));
    renderStrip();
    refit(); // a new step shows another number of words: the grid takes their shape
    const whole = known.get(sentenceKey());
    if (whole) clipFor(whole, { read: true }); // said before: its clip loads while the patient reaches for "speak"
    return firstShown;
  }

  function renderStrip() {
    const items = [];
    const subject = subjectOf(chosen);
    if (question && questionOpen) items.push(mark(questionOpen));
    for (const cell of chosen) {
      const item = document.createElement("li");
      item.className = "strip-word";
      if (negated && cell === chosen.find((c) => c.dataset.role === "verb")) {
        item.classList.add("is-negated");
        const no = document.createElement("span");
        no.className = "visually-hidden";
        no.textContent = `${noButton.dataset.spoken} `;
        item.append(no);
      }
      const img = document.createElement("img");
      img.src = cell.dataset.image;
      img.alt = "";
      const text = document.createElement("span");
      text.textContent = formOf(cell, subject)[0];
      item.append(img, text);
      items.push(item);
    }
    if (negated && !hasVerb()) items.push(mark(noButton.dataset.spoken));
    if (question) items.push(mark("?"));
    stripWords.replaceChildren(...items);
  }

  function mark(text) {
    const item = document.createElement("li");
    item.className = "strip-word strip-mark";
    item.textContent = text;
    return item;
  }

  function choose(cell) {
    if (cell.hidden || !allowedNext().includes(cell.dataset.word)) return;
    const clip = clipFor(formOf(cell, subjectOf([...chosen, cell]))[1]);
    if (clip && !quietBox?.checked) {
      speakRun++;
      play(clip).catch(() => {});
    }
    chosen.push(cell);
    queue.add({ plan, symbol: cell.dataset.symbol });
    prepare();
    const focusTarget = render();
    // Keyboard and switch users carry on from the first new choice, or from "speak" at the end.
    if (document.activeElement === cell || document.activeElement === document.body) {
      (focusTarget ?? player.querySelector(".strip-speak")).focus();
    }
  }

  // --- Wiring --------------------------------------------------------------------------------

  // Touch, dwell and scanning choose through access.js (the patient's access settings); clicks that
  // reach the page come from the keyboard or a screen reader.
  installAccess(player, {
    onSelect(item) {
      if (item.matches(".cell[data-word]")) choose(item);
      else item.click();
    },
  });
  player.querySelector(".sentence-choices").addEventListener("click", (event) => {
    const cell = event.target.closest(".cell[data-word]");
    if (cell) choose(cell);
  });
  player.addEventListener("keydown", (event) => {
    if (event.repeat && event.target.closest?.(".cell")) event.preventDefault(); // a held switch says it once
  });
  player.querySelector(".strip-speak").addEventListener("click", speak);
  noButton.addEventListener("click", () => {
    negated = !negated && chosen.length > 0;
    render();
  });
  questionButton.addEventListener("click", () => {
    question = !question && chosen.length > 0;
    render();
  });
  player.querySelector(".strip-backspace").addEventListener("click", () => {
    chosen.pop();
    prepare();
    render();
  });
  player.querySelector(".strip-clear").addEventListener("click", () => {
    speakRun++;
    current?.pause();
    chosen.length = 0;
    render();
  });
  if (quietBox) {
    try {
      quietBox.checked = localStorage.getItem("tagarela-quiet") === "true";
    } catch {
      // no storage: not quiet
    }
    quietBox.addEventListener("change", () => {
      try {
        localStorage.setItem("tagarela-quiet", String(quietBox.checked));
      } catch {
        // not kept
      }
    });
  }

  for (const cell of cells) {
    clipFor(cell.dataset.audio);
    for (const [, url] of Object.values(formsOf(cell))) clipFor(url);
  }
  clipFor(negationAudio);
  render();
  const grid = player.querySelector(".sentence-choices");
  if (grid) {
    refit = keepFitted(grid, (board) => {
      layoutChoices(board);
      fitLabels(board);
    });
  }

  window.tagarelaSentence = { played, sentenceKey, queueLength: queue.length, flush: queue.flush, knownClips: known, pending };
}
