// The level's presentation on the root (data-level-key, see docs/decisions/README.md): letters in
// capitals, lower case or the joined-up hand; numbers as quantities to count. A promotion during a
// game takes effect with the next page, so the items on screen never change under the child.

import { later } from "./clock.js";
import { sayInOrder } from "./sound.js";

const levelUpShownFor = 3000; // ms: the banner stays while the fanfare and the words play

const letterCases = { capitals: "", lower: "educat-level-lower", joined: "is-cursive" };

export function applyLevel(root) {
  const key = root.dataset.levelKey || "";
  root.classList.remove("educat-level-lower", "educat-level-quantities");
  if (key in letterCases) {
    root.classList.remove("is-cursive");
    if (letterCases[key]) root.classList.add(letterCases[key]);
    const toggle = root.querySelector(".educat-case");
    toggle?.setAttribute("aria-pressed", String(key === "joined"));
  }
  if (key === "quantities") root.classList.add("educat-level-quantities");
}

export function setUpLevels(root) {
  applyLevel(root);
  // The server moved the child up a level (answers.js): celebrated at once, seen and heard; the
  // items change with the next game.
  root.addEventListener("educat:level", () => {
    sayInOrder([root.dataset.celebration, root.dataset.levelUpClip]);
    const banner = root.querySelector(".educat-level-up");
    if (!banner) return;
    banner.hidden = false;
    later(levelUpShownFor, () => { banner.hidden = true; });
  });
}
