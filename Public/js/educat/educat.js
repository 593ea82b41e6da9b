// eduCAT pages: the bar (help clip, music), then whatever the page is (menu, lesson, game).
import { runDue } from "./clock.js";
import { say, played, heard, setUpMusic } from "./sound.js";
import { setUpLesson, setUpCaseToggle } from "./lesson.js";
import { setUpGame } from "./game.js";
import { setUpAnswers } from "./answers.js";
import { setUpLevels } from "./levels.js";
import { setUpAccess } from "./play.js";
import { createEventQueue } from "../event-queue.js";

const root = document.getElementById("educat");

if (root) {
  window.tagarelaEducat = Object.assign(window.tagarelaEducat || {}, { played, heard, tick: runDue });
  root.querySelectorAll(".educat-help, .educat-read").forEach((button) =>
    button.addEventListener("click", () => say(button.dataset.clip)));
  setUpMusic(root.querySelector(".educat-music"), root.querySelector(".educat-tune"));
  switch (root.dataset.page) {
    case "lesson": setUpLesson(root); setUpLevels(root); break;
    case "game": {
      // Answers and the result go through the patients' one event queue (the boards' taps too), in
      // order: a game finished offline, or left for another page, is sent later, exactly once.
      const queue = createEventQueue({
        url: root.dataset.resultUrl, csrf: root.dataset.csrf,
        onSent: (event, response) => root.dispatchEvent(new CustomEvent("educat:sent", { detail: { event, response } })),
      });
      setUpCaseToggle(root);
      const answers = setUpAnswers(root, queue);
      setUpLevels(root);
      setUpGame(root, queue, answers);
      break;
    }
    case "information": say(root.querySelector(".educat-read")?.dataset.clip); setUpAccess(root); break;
    // The menus (game choice, lesson or game, records) scan like the games: a child on switches
    // starts, chooses and replays a game without a mouse.
    default: setUpAccess(root); break;
  }
}
