// A clip to play on a tap: an <audio> element that loads when first played (docs/decisions/0106).
// Preloading every clip of a page cost a 60-cell board 570 ms of CPU at each opening. The bytes are near
// anyway: the service worker keeps every clip of the patient's boards, and a page it does not control (a
// first opening, or plain http, where there is none) reads each clip once into the HTTP cache.
// Not Web Audio: an iPad's mute switch silences it, and a child's voice must not go quiet.

const readAhead = !navigator.serviceWorker?.controller;

// `read`: fetch the bytes now even under a service worker (a clip made after the boards were kept).
export function lazyClip(url, { read = readAhead } = {}) {
  const clip = new Audio();
  clip.preload = "none";
  clip.src = url;
  if (read) fetch(url, { credentials: "same-origin" }).then((response) => response.blob()).catch(() => {});
  return clip;
}
