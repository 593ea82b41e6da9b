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

const smallestKey = 64; // px: every target on a child's page
const largestKey = 220;
const keyGap = 5; // as .educat-lesson .educat-grid's gap

/**
 * The columns and key size that show `count` keys as large as a `width` × `height` box allows; when even
 * 64 px keys cannot all fit, as many 64 px columns as the width holds (the box then scrolls). Pure.
 */
export function keyLayout(count, width, height, gap = keyGap) {
  let best = { columns: 1, size: 0 };
  for (let columns = 1; columns <= Math.max(1, count); columns += 1) {
    const rows = Math.ceil(count / columns);
    const size = Math.min((width - gap * (columns - 1)) / columns, (height - gap * (rows - 1)) / rows);
    if (size > best.size) best = { columns, size };
  }
  if (best.size < smallestKey) {
    return { columns: Math.max(1, Math.floor((width + gap) / (smallestKey + gap))), size: smallestKey, fits: false };
  }
  return { columns: best.columns, size: Math.floor(Math.min(best.size, largestKey)), fits: true };
}

/** Sizes the lesson's keys to the space the page leaves them, again whenever that space changes. */
function fitKeys(grid) {
  const layout = () => {
    const style = getComputedStyle(grid);
    const width = grid.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const height = grid.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    if (width <= 0 || height <= 0) return;
    // A pixel to spare each way: keys that fill the box to the last fraction would make it scroll.
    const { columns, size } = keyLayout(grid.children.length, width - 1, height - 1);
    grid.style.setProperty("--educat-cols", String(columns));
    grid.style.setProperty("--educat-key", `${size}px`);
  };
  layout();
  if (window.ResizeObserver) new ResizeObserver(layout).observe(grid);
  else addEventListener("resize", layout);
}

export function setUpLesson(root) {
  root.querySelectorAll(".educat-key").forEach((key) => key.addEventListener("click", () => say(key.dataset.clip)));
  const grid = root.querySelector(".educat-grid");
  if (grid) fitKeys(grid);

  setUpCaseToggle(root);
  setUpAccess(root);

  const question = root.querySelector(".educat-question");
  if (!question) return;
  const words = [...root.querySelectorAll(".educat-words li")].map((li) => li.dataset);
  // The picture's <img> is made here: an <img> without a src is invalid HTML until a word is asked.
  const picture = root.querySelector(".educat-picture");
  const image = picture.appendChild(Object.assign(document.createElement("img"), { alt: "", width: 240, height: 240 }));
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
