// The level's presentation on the root (data-level-key, see docs/decisions.md): letters in
// capitals, lower case or the joined-up hand; numbers as quantities to count. A promotion during a
// game takes effect with the next page, so the items on screen never change under the child.

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
}
