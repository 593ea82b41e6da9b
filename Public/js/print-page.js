// A print button: shown only where scripts run (without them the browser's own print works).
for (const button of document.querySelectorAll("[data-print]")) {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
}
