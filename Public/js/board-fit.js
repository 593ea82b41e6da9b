// What the stylesheet cannot do for a board that fits the screen (board.css): measure words in the
// real font, and lay out a number of words that changes (the sentence builder's steps).

const hiddenLabel = (label) => label.clientWidth <= 1 || getComputedStyle(label).position === "absolute";

/** The width of the label's widest word as drawn now. */
function widestWord(label) {
  const text = label.firstChild;
  if (!text || text.nodeType !== Node.TEXT_NODE) return label.scrollWidth;
  const range = document.createRange();
  let widest = 0;
  for (const word of text.data.matchAll(/\S+/g)) {
    range.setStart(text, word.index);
    range.setEnd(text, word.index + word[0].length);
    widest = Math.max(widest, range.getBoundingClientRect().width);
  }
  return widest;
}

/**
 * One label size for the whole board: the largest at which the board's widest word fits its cell, and no
 * label takes more than half its cell's height. Kept as a share of the cell's width (--label-scale), so
 * it holds when the cells grow or shrink, on paper too. The stylesheet caps it by the cell's height and
 * the access preset.
 */
export function fitLabels(board) {
  board.style.removeProperty("--label-scale");
  const labels = [...board.querySelectorAll(".cell:not([hidden]) .cell-label")].filter((label) => !hiddenLabel(label));
  for (const label of labels) label.style.removeProperty("--label-scale");
  let size = Infinity;
  for (const label of labels) {
    const widest = widestWord(label);
    if (widest > 0) size = Math.min(size, (parseFloat(getComputedStyle(label).fontSize) * label.clientWidth) / widest);
  }
  const scale = (size, label) => String(Math.floor((size / label.clientWidth) * 10000) / 10000);
  if (Number.isFinite(size)) board.style.setProperty("--label-scale", scale(size * 0.96, labels[0]));
  for (let round = 0; round < 4 && labels.length > 0; round++) {
    let worst = 1;
    for (const label of labels) {
      const cell = label.closest(".cell");
      worst = Math.min(worst, label.clientWidth / label.scrollWidth, (cell.clientHeight * 0.5) / label.scrollHeight);
    }
    if (worst >= 1) break;
    board.style.setProperty("--label-scale", scale(parseFloat(getComputedStyle(labels[0]).fontSize) * worst * 0.97, labels[0]));
  }
  if (getComputedStyle(board).getPropertyValue("--label-fit").trim() === "each") fitEachLabel(labels);
  board.dataset.fitted = "true";
}

/**
 * At the patient's larger text sizes each word grows as far as its own cell allows (never below the
 * board's one size, which the widest word sets): "leite" gets large even when "televisão" cannot.
 */
function fitEachLabel(labels) {
  for (const label of labels) {
    const cell = label.closest(".cell");
    const size = parseFloat(getComputedStyle(label).fontSize);
    const widest = widestWord(label);
    if (widest <= 0) continue;
    const grow = Math.min((label.clientWidth * 0.96) / widest, (cell.clientHeight * 0.5) / label.scrollHeight);
    if (grow > 1) label.style.setProperty("--label-scale", String(Math.floor(((size * grow) / label.clientWidth) * 10000) / 10000));
  }
}

/** Rows × columns for the words shown: the largest cells the area allows. */
export function layoutChoices(board) {
  const shown = [...board.children].filter((cell) => !cell.hidden).length || 1;
  const area = board.parentElement.getBoundingClientRect();
  let best = { cols: 1, rows: shown, side: 0 };
  for (let cols = 1; cols <= shown; cols++) {
    const rows = Math.ceil(shown / cols);
    const side = Math.min(area.width / cols, area.height / rows);
    if (side > best.side) best = { cols, rows, side };
  }
  board.style.setProperty("--cols", String(best.cols));
  board.style.setProperty("--rows", String(best.rows));
}

/** Runs `fit` now, when the web fonts are ready, and whenever the board's area changes size. */
export function keepFitted(board, fit) {
  let frame = 0;
  const again = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => fit(board));
  };
  fit(board);
  document.fonts?.ready.then(again);
  if (board.parentElement && "ResizeObserver" in window) new ResizeObserver(again).observe(board.parentElement);
  return again;
}

// A printed sheet (a board, the book's pages) fits its labels the same way before it is printed, and so
// does the editor's grid.
for (const sheet of document.querySelectorAll(".print-sheet .print-grid, .editor-board")) keepFitted(sheet, fitLabels);
