// Items that wander over the play area without ever covering one another. The area is cut into a
// grid of cells at least one item (plus a gap) wide and high; every item owns the cell it stands in,
// and moves only to a free neighbouring cell, which it claims before it sets off and keeps until it
// has arrived. An item on its way covers only its two cells, both its own, so no item is ever over
// another and every item's centre can always be tapped. Items are as large as the area allows (64 px
// at the least, the patients' floor); when the area cannot hold all of them with room to move, a
// round shows fewer (the game keeps the asked item among them). Positions are CSS transforms.
import { now } from "./clock.js";

const MIN_SIZE = 64; // px: the smallest target on a patient's page
const MAX_SIZE = 136;
const GAP = 10; // px between items standing in neighbouring cells

/** Cells left free so that items can move: a fifth of them, at least two. */
export const freeCells = (cells) => Math.max(2, Math.ceil(cells * 0.2));

/**
 * The grid for `count` items in a `width` × `height` area: the largest item size (MIN_SIZE…MAX_SIZE)
 * whose grid holds them all with free cells to spare, else the smallest size and as many items as fit.
 * Pure, so a test can call it: { size, columns, rows, capacity }.
 */
export function plan(count, width, height) {
  let best = null;
  for (let size = MAX_SIZE; size >= MIN_SIZE; size -= 4) {
    const columns = Math.max(1, Math.floor(width / (size + GAP)));
    const rows = Math.max(1, Math.floor(height / (size + GAP)));
    const cells = columns * rows;
    best = { size, columns, rows, capacity: Math.max(1, Math.min(count, cells - freeCells(cells))) };
    if (best.capacity >= count) break;
  }
  return best;
}

const directions = [[1, 0], [-1, 0], [0, 1], [0, -1]];

export class Mover {
  /**
   * options.speed: a multiplier of the standard pace (levels may make it slower or faster);
   * options.limit: at most this many items at once (the clinician's "items on screen").
   */
  constructor(area, elements, options = {}) {
    this.area = area;
    this.elements = elements;
    this.limit = Number(options.limit) > 0 ? Number(options.limit) : Infinity;
    this.speed = Number(options.speed) > 0 ? Number(options.speed) : 1;
    this.items = []; // the items shown: { element, cell, to, progress, pace, direction }
    this.owner = new Map(); // cell index → the item that stands in it or is on its way there
    this.moving = false;
    this.frames = 0;
    this.busy = 0; // ms of script spent moving, for the frame-rate report
    this.last = now();
    this.measure();
    this.show(elements.slice(0, this.grid.capacity));
    const observer = new ResizeObserver(() => this.resized());
    observer.observe(area);
    const frame = () => {
      this.step();
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }

  /** How many items the area shows at once now. */
  get capacity() { return this.grid.capacity; }

  measure() {
    this.width = this.area.clientWidth;
    this.height = this.area.clientHeight;
    this.grid = plan(Math.min(this.elements.length, this.limit), this.width, this.height);
    this.area.style.setProperty("--educat-item", `${this.grid.size}px`);
  }

  resized() {
    const { columns, rows, capacity } = this.grid;
    this.measure();
    if (this.grid.columns === columns && this.grid.rows === rows && this.grid.capacity === capacity) {
      this.items.forEach((item) => this.place(item));
      return;
    }
    // A new grid (a phone turned on its side): the same items, the first ones kept when fewer fit.
    this.show(this.items.map((item) => item.element));
  }

  /**
   * Shows `elements` (as many as fit, the first ones first: the game puts the asked item first), each
   * in its own cell picked at random, and hides the others. Those already shown stay where they are.
   */
  show(elements) {
    const wanted = elements.slice(0, this.grid.capacity);
    const cells = this.grid.columns * this.grid.rows;
    const kept = this.items.filter((item) => wanted.includes(item.element) && item.cell < cells && item.to === null);
    this.owner.clear();
    this.items = [];
    for (const item of kept) this.claim(item, item.cell);
    const free = [...Array(cells).keys()].filter((cell) => !this.owner.has(cell));
    for (let i = free.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [free[i], free[j]] = [free[j], free[i]];
    }
    for (const element of wanted) {
      let item = kept.find((old) => old.element === element);
      if (!item) {
        item = { element, cell: free.pop(), to: null, progress: 0, pace: 0, direction: null };
        this.claim(item, item.cell);
      }
      item.to = null;
      item.progress = 0;
      this.items.push(item);
    }
    for (const element of this.elements) element.hidden = !wanted.includes(element);
    this.items.forEach((item) => this.place(item));
  }

  /** The elements shown now. */
  shown() { return this.items.map((item) => item.element); }

  claim(item, cell) { this.owner.set(cell, item); }

  start() {
    if (this.moving) return;
    this.moving = true;
    this.last = now();
  }

  stop() {
    this.moving = false;
  }

  centre(cell) {
    const { columns, rows } = this.grid;
    const column = cell % columns, row = Math.floor(cell / columns);
    return [((column + 0.5) * this.width) / columns, ((row + 0.5) * this.height) / rows];
  }

  /** A free neighbouring cell, going on the same way more often than not; null when boxed in. */
  aim(item) {
    const { columns, rows } = this.grid;
    const column = item.cell % columns, row = Math.floor(item.cell / columns);
    const open = directions.filter(([dx, dy]) => {
      const x = column + dx, y = row + dy;
      return x >= 0 && y >= 0 && x < columns && y < rows && !this.owner.has(y * columns + x);
    });
    if (open.length === 0) return null;
    const ahead = item.direction && open.find(([dx, dy]) => dx === item.direction[0] && dy === item.direction[1]);
    const direction = ahead && Math.random() < 0.6 ? ahead : open[Math.floor(Math.random() * open.length)];
    item.direction = direction;
    return (row + direction[1]) * columns + column + direction[0];
  }

  place(item) {
    let [x, y] = this.centre(item.cell);
    if (item.to !== null) {
      const [tx, ty] = this.centre(item.to);
      x += (tx - x) * item.progress;
      y += (ty - y) * item.progress;
    }
    const half = this.grid.size / 2;
    item.element.style.transform = `translate3d(${(x - half).toFixed(1)}px, ${(y - half).toFixed(1)}px, 0)`;
  }

  step() {
    const time = now();
    const seconds = Math.min(0.1, Math.max(0, (time - this.last) / 1000));
    this.last = time;
    if (!this.moving) return;
    const began = performance.now();
    this.frames += 1;
    for (const item of this.items) {
      if (item.to === null) {
        item.to = this.aim(item);
        if (item.to === null) continue; // boxed in: waits for a neighbour to move on
        this.claim(item, item.to);
        item.progress = 0;
        // Slow enough for a small child to follow: one cell in 1.1 to 2 seconds.
        item.pace = (0.5 + Math.random() * 0.4) * this.speed;
      }
      item.progress += item.pace * seconds;
      if (item.progress >= 1) {
        if (this.owner.get(item.cell) === item) this.owner.delete(item.cell);
        item.cell = item.to;
        item.to = null;
        item.progress = 0;
      }
      this.place(item);
    }
    this.busy += performance.now() - began;
  }
}
