// Voice clips (one at a time: a new clip cuts the previous one) and the looping background tune,
// which starts on the first tap or key press (browsers allow sound only after a gesture) unless
// muted, and carries on from the same moment on the next screen.

const voice = new Audio();
voice.preload = "auto";
/** Every clip asked for, in order: what tests listen to. */
export const played = [];
/** Every clip the browser actually started playing (its "playing" event), as absolute URLs. */
export const heard = [];
voice.addEventListener("playing", () => heard.push(voice.src));

let queue = [];
let latestPlay = 0;

function playNow(url) {
  played.push(url);
  voice.pause();
  voice.src = url;
  const thisPlay = ++latestPlay;
  // A clip the browser refuses (no gesture yet, a missing file) must not hold back the next one. A clip
  // cut short by the next one fails too (AbortError), but then the next one is already playing.
  voice.play().catch(() => {
    if (thisPlay === latestPlay) setTimeout(next, 0);
  });
}

function next() {
  const url = queue.shift();
  if (url) playNow(url);
}
voice.addEventListener("ended", next);
voice.addEventListener("error", next);

export function say(url) {
  if (!url) return;
  queue = [];
  playNow(url);
}

/** Several clips one after the other (the last miss, then the end of the game): each in full. */
export function sayInOrder(urls) {
  queue = urls.filter(Boolean);
  next();
}

/** One of the clips, uniformly at random. */
export function pick(list) {
  return list[Math.floor(Math.random() * list.length)];
}

const mutedKey = "tagarela-educat-muted";
const positionKey = "tagarela-educat-tune-position";

export function setUpMusic(button, tune) {
  if (!button || !tune) return;
  let muted = false;
  try { muted = localStorage.getItem(mutedKey) === "1"; } catch { /* private mode: not muted */ }
  const show = () => button.setAttribute("aria-pressed", String(!muted));
  const start = () => {
    if (muted || !tune.paused) return;
    tune.volume = 0.3;
    const position = Number(sessionStorage.getItem(positionKey) || 0);
    if (position > 0 && tune.readyState === 0) {
      tune.addEventListener("loadedmetadata", () => { tune.currentTime = position % (tune.duration || 1); }, { once: true });
    }
    tune.play().catch(() => {});
  };
  const firstGesture = () => {
    document.removeEventListener("pointerdown", firstGesture, true);
    document.removeEventListener("keydown", firstGesture, true);
    start();
  };
  document.addEventListener("pointerdown", firstGesture, true);
  document.addEventListener("keydown", firstGesture, true);
  button.addEventListener("click", () => {
    muted = !muted;
    try { localStorage.setItem(mutedKey, muted ? "1" : "0"); } catch { /* stays for this page */ }
    show();
    if (muted) tune.pause(); else start();
  });
  window.addEventListener("pagehide", () => {
    try { sessionStorage.setItem(positionKey, String(tune.currentTime || 0)); } catch { /* starts over */ }
  });
  show();
}
