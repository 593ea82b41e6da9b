// eduCAT pages: the bar (help clip, music), then whatever the page is (menu, lesson, game).
import { runDue } from "./clock.js";
import { say, played, heard, setUpMusic } from "./sound.js";
import { setUpLesson, setUpCaseToggle } from "./lesson.js";
import { setUpGame } from "./game.js";
import { setUpAnswers, answersSent } from "./answers.js";
import { createEventQueue } from "../event-queue.js";
import { setUpLevels } from "./levels.js";
import { setUpAccess } from "./play.js";

const root = document.getElementById("educat");

if (root) {
  window.tagarelaEducat = Object.assign(window.tagarelaEducat || {}, { played, heard, tick: runDue });
  root.querySelectorAll(".educat-help, .educat-read").forEach((button) =>
    button.addEventListener("click", () => say(button.dataset.clip)));
  setUpMusic(root.querySelector(".educat-music"), root.querySelector(".educat-tune"));
  // The patient's one queue of events (board taps, answers, results): every eduCAT page sends what
  // is waiting, so a result queued offline or as a page closed arrives with the next page opened.
  const csrf = root.dataset.csrf || document.querySelector('input[name="_csrf"]')?.value || "";
  const queue = createEventQueue({
    csrf,
    onSent: async (event, response) => {
      if (event._kind !== "educat-answers" && event._kind !== "educat-result") return;
      const json = await response.json().catch(() => null);
      if (event._kind === "educat-answers") answersSent(root, json);
      else root.dispatchEvent(new CustomEvent("educat:result", { detail: { status: response.status, ...json } }));
    },
  });
  window.tagarelaEducat.queue = queue;
  switch (root.dataset.page) {
    case "lesson": setUpLesson(root); setUpLevels(root); break;
    case "game": setUpCaseToggle(root); setUpAnswers(root, queue); setUpLevels(root); setUpGame(root, queue); break;
    case "information": say(root.querySelector(".educat-read")?.dataset.clip); setUpAccess(root); break;
    // The menus (game choice, lesson or game, records) scan like the games: a child on switches
    // starts, chooses and replays a game without a mouse.
    default: setUpAccess(root); break;
  }
}
