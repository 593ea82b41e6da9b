// Symbol cards on the clinician's symbol list: one visible button plays the symbol's clip. The
// browser's own audio control shrinks to an unreadable "● ⋮" in a card this small.

const clips = new Map(); // url → Audio
const played = (window.tagarelaSymbolPlayed = []); // clips that reached "playing", for tests
let current = null;

document.addEventListener("click", (event) => {
  const button = event.target.closest?.(".symbol-play[data-audio]");
  if (!button) return;
  const url = button.dataset.audio;
  if (!clips.has(url)) {
    const clip = new Audio(url);
    clip.addEventListener("playing", () => played.push(url));
    clips.set(url, clip);
  }
  const clip = clips.get(url);
  if (current && current !== clip) current.pause();
  current = clip;
  clip.currentTime = 0;
  for (const other of document.querySelectorAll(".symbol-play.is-playing")) other.classList.remove("is-playing");
  button.classList.add("is-playing");
  const done = () => button.classList.remove("is-playing");
  clip.addEventListener("ended", done, { once: true });
  clip.addEventListener("pause", done, { once: true });
  clip.play().catch(done);
});
