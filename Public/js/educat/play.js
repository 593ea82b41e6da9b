// How this child plays: the access method the boards use (access.js: scanning with one switch, Space,
// or two, Space to move and Enter to choose; hold; dwell), and whether a challenge is timed.
import { installAccess, readAccessSettings } from "../access.js";

/**
 * No time limit (GCompris's mode for children with motor difficulties): lives still count wrong
 * answers, but a question never runs out. Set by the page (data-time-limit="off"), by the address
 * (?time=off), and always while scanning: a switch user cannot reach one of 26 letters in 9 s.
 */
export function isUntimed(root) {
  const query = new URLSearchParams(location.search).get("time");
  return root.dataset.timeLimit === "off" || query === "off" || readAccessSettings(root).scan !== "off";
}

/**
 * The patient's access method on everything selectable in `root`. A choice is the element's own
 * click, so taps, keys and switches reach the same handlers; while the end-of-game pop-up is open,
 * any choice is its OK (the page behind it is inert).
 */
export function setUpAccess(root) {
  return installAccess(root, {
    onSelect(item) {
      const dialog = root.querySelector("dialog[open]");
      if (dialog && !dialog.contains(item)) {
        dialog.querySelector(".educat-end-ok")?.click();
        return;
      }
      item.click();
    },
  });
}
