// The games' clock. Tests may set window.tagarelaClock (as for the visual timer) to run time fast
// or hold it still; everything timed here (countdowns, delays, movement) follows it.
export const now = () => (window.tagarelaClock ? window.tagarelaClock() : Date.now());

const tasks = [];

/** Runs `fn` once the clock has moved on `ms` milliseconds. */
export function later(ms, fn) {
  const task = { at: now() + ms, fn };
  tasks.push(task);
  return task;
}

export function cancelAll() {
  tasks.length = 0;
}

/** Runs every task that is due; called often, and by tests right after they move the clock. */
export function runDue() {
  const time = now();
  const due = tasks.filter((task) => task.at <= time).sort((a, b) => a.at - b.at);
  for (const task of due) {
    const index = tasks.indexOf(task);
    if (index < 0) continue; // cancelled by an earlier task
    tasks.splice(index, 1);
    task.fn();
  }
}

setInterval(runDue, 50);
