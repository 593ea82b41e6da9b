// What a child who cannot read sees after an answer: a mark on the tile or button tapped, a green
// tick in a circle for right and a red cross in a square for wrong, so colour is never the only
// difference; the wrong one also shakes (unless the device asks for less motion). A tap on empty
// space gets its cross where the finger landed. Marks go by themselves.
import { later } from "./clock.js";

const lasting = 1200; // ms: as long as the pause before the next question

const symbols = { right: "\u2714", wrong: "\u2716" };

/** Marks `element` as a right or wrong answer ("right" | "wrong") for a moment. */
export function mark(element, kind) {
  if (!element) return;
  element.querySelector(":scope > .educat-mark")?.remove();
  element.classList.remove("is-right", "is-wrong");
  const badge = document.createElement("span");
  badge.className = `educat-mark educat-mark-${kind}`;
  badge.setAttribute("aria-hidden", "true");
  badge.textContent = symbols[kind];
  element.append(badge);
  element.classList.add(kind === "right" ? "is-right" : "is-wrong");
  later(lasting, () => {
    badge.remove();
    if (!element.querySelector(":scope > .educat-mark")) element.classList.remove("is-right", "is-wrong");
  });
}

/** A cross where a tap on empty space landed (`x`, `y` relative to the area). */
export function markSpot(area, x, y) {
  const spot = document.createElement("span");
  spot.className = "educat-mark educat-mark-wrong educat-spot";
  spot.setAttribute("aria-hidden", "true");
  spot.textContent = symbols.wrong;
  spot.style.setProperty("--x", `${Math.round(x)}px`);
  spot.style.setProperty("--y", `${Math.round(y)}px`);
  area.append(spot);
  later(lasting, () => spot.remove());
}


/** Every mark gone at once: a new game starts clean. */
export function clearMarks(root) {
  root.querySelectorAll(".educat-mark").forEach((badge) => badge.remove());
  root.querySelectorAll(".is-right, .is-wrong").forEach((element) => element.classList.remove("is-right", "is-wrong"));
}
