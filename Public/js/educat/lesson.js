// Lessons: a tap on a number or letter says it; the vowels and the alphabet switch between capitals
// ("de pal") and joined-up lower case ("lligada"); conta-cops shows a picture and says the word,
// 1.5 s later the syllables ("CA - SA") and the reading by syllables, 3 s after that the count.
import { later } from "./clock.js";
import { say, pick } from "./sound.js";
import { setUpAccess } from "./play.js";

/** "Lletra lligada": capitals or joined-up lower case, in lessons and games alike. */
export function setUpCaseToggle(root) {
  const toggle = root.querySelector(".educat-case");
  toggle?.addEventListener("click", () => {
    const cursive = toggle.getAttribute("aria-pressed") !== "true";
    toggle.setAttribute("aria-pressed", String(cursive));
    root.classList.toggle("is-cursive", cursive);
  });
}

export function setUpLesson(root) {
  root.querySelectorAll(".educat-key").forEach((key) => key.addEventListener("click", () => say(key.dataset.clip)));

  setUpCaseToggle(root);
  setUpAccess(root);

  const question = root.querySelector(".educat-question");
  if (!question) return;
  const words = [...root.querySelectorAll(".educat-words li")].map((li) => li.dataset);
  const picture = root.querySelector(".educat-picture"), image = picture.querySelector("img");
  const syllables = root.querySelector(".educat-syllables"), count = root.querySelector(".educat-count");
  let current = null;
  question.addEventListener("click", () => {
    const word = pick(words);
    current = word.word;
    question.hidden = true;
    syllables.hidden = true;
    count.hidden = true;
    image.src = word.picture;
    image.alt = word.word;
    picture.hidden = false;
    say(word.clip);
    later(1500, () => {
      syllables.textContent = word.syllables;
      syllables.hidden = false;
      say(word.syllablesClip);
      later(3000, () => {
        count.textContent = word.count;
        count.hidden = false;
        say(word.countClip);
        question.hidden = false;
      });
    });
  });
  window.tagarelaEducat = Object.assign(window.tagarelaEducat || {}, { word: () => current });
}
