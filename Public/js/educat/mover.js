// Items that wander over the play area, each toward its own random destination, and get a new one
// when they arrive (the seed moved them every 0.2 s; here every frame, for smoothness). Positions
// are CSS transforms, so moving 26 letters costs no layout.
import { now } from "./clock.js";

export class Mover {
  constructor(area, elements) {
    this.area = area;
    this.items = elements.map((element) => ({ element, x: 0, y: 0, tx: 0, ty: 0, speed: 0 }));
    this.moving = false;
    this.frames = 0;
    this.busy = 0; // ms of script spent moving, for the frame-rate report
    this.last = now();
    this.measure();
    this.layOut();
    window.addEventListener("resize", () => { this.measure(); if (!this.moving) this.layOut(); });
    const frame = () => {
      this.step();
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }

  measure() {
    const first = this.items[0]?.element;
    this.size = first ? first.offsetWidth : 72;
    this.width = Math.max(this.size, this.area.clientWidth - this.size);
    this.height = Math.max(this.size, this.area.clientHeight - this.size);
  }

  /** Still, in an even grid: how the items wait for the first question. */
  layOut() {
    const count = this.items.length;
    const columns = Math.max(1, Math.ceil(Math.sqrt((count * (this.width + this.size)) / (this.height + this.size))));
    const rows = Math.ceil(count / columns);
    this.items.forEach((item, index) => {
      const column = index % columns, row = Math.floor(index / columns);
      item.x = columns === 1 ? this.width / 2 : (this.width * column) / (columns - 1);
      item.y = rows === 1 ? this.height / 2 : (this.height * row) / (rows - 1);
      this.place(item);
    });
  }

  start() {
    if (this.moving) return;
    this.moving = true;
    this.last = now();
    for (const item of this.items) this.aim(item);
  }

  stop() {
    this.moving = false;
  }

  aim(item) {
    item.tx = Math.random() * this.width;
    item.ty = Math.random() * this.height;
    // Slow enough for a small child to follow: a tenth to a fifth of the area's width per second.
    item.speed = (0.1 + Math.random() * 0.1) * Math.max(this.width, 300);
  }

  place(item) {
    item.element.style.transform = `translate3d(${item.x.toFixed(1)}px, ${item.y.toFixed(1)}px, 0)`;
  }

  step() {
    const time = now();
    const seconds = Math.min(0.1, Math.max(0, (time - this.last) / 1000));
    this.last = time;
    if (!this.moving) return;
    const began = performance.now();
    this.frames += 1;
    for (const item of this.items) {
      const dx = item.tx - item.x, dy = item.ty - item.y;
      const distance = Math.hypot(dx, dy);
      const travel = item.speed * seconds;
      if (distance <= Math.max(4, travel)) {
        item.x = item.tx;
        item.y = item.ty;
        this.aim(item);
      } else {
        item.x += (dx / distance) * travel;
        item.y += (dy / distance) * travel;
      }
      this.place(item);
    }
    this.busy += performance.now() - began;
  }
}
